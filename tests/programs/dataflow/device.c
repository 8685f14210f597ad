/* A device driver's state kept in globals, as the ntdrivers tasks keep theirs: the
   dispatch routines set `state` to constants, `main` checks it after one request.
   `pending` is set to constants too, and through a pointer in an initializer, which ends
   the definition before it: where a definition holds, `pending` holds its constant. */
extern int __VERIFIER_nondet_int(void);

int state;
int pending;
int *pending_slot = &pending;
int requests;

void start(void) {
  state = 1;
  requests = requests + 1;
}

void stop(void) {
  if (state == 1) {
    state = 2;
  }
}

void fail(void) {
  state = 3;
  pending = 0;
  *pending_slot = 5;
}

int dispatch(int op) {
  switch (op) {
  case 1:
    start();
    return 0;
  case 2:
    start();
    stop();
    return 0;
  case 3:
    fail();
    return -1;
  default:
    return 1;
  }
}

int main(void) {
  int op = __VERIFIER_nondet_int();
  int status;
  state = 0;
  pending = 1;
  status = dispatch(op);
  if (state == 1) {
    status = status + 10;
  }
  if (state == 2 && status == 0) {
    status = 20;
  }
  switch (state) {
  case 0:
    status = status - 1;
    break;
  case 3:
    status = status - 3;
    break;
  default:
    break;
  }
  if (pending == 0) {
    status = status + 100;
  }
  if (requests > 1) {
    status = 0;
  }
  return status;
}
