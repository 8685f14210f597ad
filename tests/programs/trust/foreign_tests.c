/* Another tool's tests, in the common replay format, replayed against Cairn's proofs
 * (`replay --tests-from`): `c > 100 && c < 50` cannot hold; the rest the tests reach. */
extern void klee_make_symbolic(void *p, unsigned long n, const char *name);
extern char __VERIFIER_nondet_char(void);
int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  char k = __VERIFIER_nondet_char();
  if (c > 100 && c < 50)
    return 3;
  if (c == 42)
    return 1;
  if (k == 'x')
    return 2;
  return 0;
}
