/* Start-up code inside a loop runs again after the start: `rounds` is written only by the
   loop's first block, which the walk of the start goes through, so it is not settled
   (`rounds > 1` holds on the second round). `size` is set once before the loop: settled. */
extern int __VERIFIER_nondet_int(void);

int rounds;
int size;

int main(void) {
  int total = 0;
  size = 3;
  for (;;) {
    rounds = rounds + 1;
    if (__VERIFIER_nondet_int() == 0) {
      break;
    }
    total = total + size;
  }
  if (rounds > 1) {
    total = total + 1;
  }
  if (size == 3) {
    total = total + 2;
  }
  return total;
}
