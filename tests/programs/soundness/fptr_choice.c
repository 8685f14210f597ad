/* The function called through a pointer depends on an input: which one runs is a path
 * decision, so a tree that explored one callee is not exhausted. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
static int plain(int x) { return x; }
static int negate(int x) {
  if (x > 2) reach_error(); /* reachable: k = 1 */
  return -x;
}
static int (*const table[2])(int) = {plain, negate};
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 1) return 0;
  return table[k](k + 2);
}
