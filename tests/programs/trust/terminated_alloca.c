/* Two strings on the stack whose lengths are inputs, filled and terminated the way the
 * sv-benchmarks string tasks do it: `s[n - 1] = 0` writes through an address the input
 * decides. Every byte a run reads is written, so no run decides on uninitialized memory,
 * though a run with another length would leave the byte it terminates here unwritten. */
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 1 || n > 64)
    n = 1;
  if (m < 1 || m > 64)
    m = 1;
  char *s = __builtin_alloca(n);
  char *t = __builtin_alloca(m);
  for (int i = 0; i < n - 1; i++)
    s[i] = __VERIFIER_nondet_char();
  for (int i = 0; i < m - 1; i++)
    t[i] = __VERIFIER_nondet_char();
  s[n - 1] = 0;
  t[m - 1] = 0;
  for (int i = 0; t[i] != 0; i++)
    if (t[i] == s[0])
      return i + 1;
  return 0;
}
