/* Configuration globals given their values by start-up code, as BLAST's instrumented
   drivers do (`main` zeroes them, `_BLAST_init()` sets `NP = 1; DC = 2; ...`): past the
   start, `state = READY` stores a constant and `state == BUSY` compares with one.
   `limit` is set at the start but written again later, and `reset` runs at the start and
   again in the loop: neither `limit` nor `epoch` is settled. */
extern int __VERIFIER_nondet_int(void);

int READY;
int BUSY;
int DONE;
int state;
int limit;
int phase;
int epoch;

void init(void) {
  READY = 1;
  BUSY = 2;
  DONE = 3;
  limit = 4;
  state = READY;
}

void reset(void) {
  phase = 7;
  epoch = epoch + 1;
}

void take(void) {
  if (state == READY) {
    state = BUSY;
  }
}

void finish(void) {
  if (state == BUSY) {
    state = DONE;
  } else {
    limit = 9;
  }
}

int main(void) {
  int steps = 0;
  READY = 0;
  BUSY = 0;
  DONE = 0;
  init();
  reset();
  while (__VERIFIER_nondet_int() && steps < limit) {
    int op = __VERIFIER_nondet_int();
    if (op == 1) {
      take();
    } else if (op == 2) {
      finish();
    } else if (op == 3) {
      phase = phase + 1;
    } else if (op == 4) {
      reset();
    }
    steps = steps + 1;
  }
  if (state == DONE) {
    steps = steps + 10;
  }
  if (phase > 8) {
    steps = steps + 100;
  }
  if (epoch > 1) {
    steps = steps + 1000;
  }
  return steps;
}
