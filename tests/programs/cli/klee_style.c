/* KLEE-style input: a symbolic buffer and klee_assume. */
extern void klee_make_symbolic(void *p, unsigned long n, const char *name);
extern void klee_assume(unsigned long c);
int main(void) {
  unsigned char buf[4];
  int n;
  klee_make_symbolic(buf, sizeof buf, "buf");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 0);
  if (buf[0] == 'c' && n < 8) return 3;
  if (buf[1] > 200) return 2;
  return 0;
}
