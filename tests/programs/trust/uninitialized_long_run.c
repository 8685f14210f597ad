/* A decision on a local never written, then a loop long enough (tens of milliseconds natively)
 * that the fuzzer records its new runs from a native run instead of interpreting them: the
 * decision's outcome is whatever the stack held, so neither is claimed, while the branch on the
 * input before it is. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int x;
  volatile long k = 0;
  int r = 0;
  if (n > 5)
    r = 1;
  if (x == 0)
    r += 2;
  else
    r += 4;
  for (long i = 0; i < 4000000; i++)
    k += i;
  return r;
}
