/* An input whose name holds `]` and quotes (a file's name read from stdin can hold any byte):
 * the replay harness once took the first `]` after "inputs" for the array's end, so natively
 * every value read as 0 and the claims below it failed. */
extern void klee_make_symbolic(void *, unsigned long, const char *);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  char tag[4];
  klee_make_symbolic(tag, sizeof tag, "tag]\"value\": \"7\"}]");
  int n = __VERIFIER_nondet_int();
  if (tag[0] == 'x') {
    if (n == 5)
      return 1;
    return 2;
  }
  return 0;
}
