// In the spirit of Figure 1 of the abstraction-driven concolic testing paper: thirty inputs
// read in a loop, a flag set as soon as one differs from a constant, and a call reached only
// when the flag was never set (one path out of 2^30 through the loop).
extern int __VERIFIER_nondet_int(void);

int reached;

void target(void) { reached = 1; }

int main(void) {
  int flag = 0;
  for (int i = 0; i < 30; i++) {
    int x = __VERIFIER_nondet_int();
    if (x != 10)
      flag = 1;
  }
  if (!flag)
    target();
  return 0;
}
