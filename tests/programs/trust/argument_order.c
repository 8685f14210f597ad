/* A call whose arguments both read an input: C leaves their order to the compiler. clang
 * (Cairn's compiler) reads them left to right, gcc on x86-64 right to left, so a test's
 * first value is `first` in one build and `second` in the other. */
extern int __VERIFIER_nondet_int(void);

static int compare(int first, int second) {
  if (first > second)
    return 1;
  return 2;
}

int main(void) {
  return compare(__VERIFIER_nondet_int(), __VERIFIER_nondet_int());
}
