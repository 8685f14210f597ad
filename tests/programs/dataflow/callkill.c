/* A global written by a call on every path through the callee: what the caller stored before
   the call never reaches a use after it. A callee that writes on some paths only, or returns
   early, leaves the caller's definition in place. */
int __VERIFIER_nondet_int(void);

int current = -1, last, flag, mode;

void pick(int x) {
  if (x > 0)
    current = x;
  else
    current = 0;
}

void pick_twice(int x) { pick(x); pick(x + 1); }

void arm(int x) {
  if (x < 0)
    return;
  flag = 1;
}

void mark(int x) {
  if (x > 10)
    mode = x;
}

int main(void) {
  int rounds = 0, acc = 0;
  while (rounds < 5) {
    int x = __VERIFIER_nondet_int();
    last = current;
    flag = 0;
    mode = 1;
    pick(x);
    if (current > 3)
      acc++;
    arm(x);
    if (flag == 0)
      acc += 2;
    mark(x);
    if (mode == 1)
      acc += 3;
    current = 9;
    pick_twice(x);
    if (current == 9)
      acc += 4;
    rounds++;
  }
  return acc + last;
}
