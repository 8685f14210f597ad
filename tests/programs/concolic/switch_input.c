/* Switch over an input: every case, including default, is a goal. */
/* infeasible: 1 (b is always 3 in op) */
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
static int op(char c, int a, int b) {
  switch (c) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return b ? a / b : 0;
    default: return 0;
  }
}
int main(void) {
  int k = __VERIFIER_nondet_int();
  int r;
  switch (k) {
    case 1: r = 10; break;
    case 7: r = 20; break;
    case 1000: r = 30; break;
    case -5: r = 40; /* fall through */
    case 42: r = 50; break;
    default: r = 0;
  }
  char c = __VERIFIER_nondet_char();
  return op(c, r, 3) & 0xff;
}
