/* Two counters that move together in a loop bounded by an input: their relation is linear. */
/* infeasible: 4 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  int i = 0, twice = 0, left = n;
  while (i < n) {
    i++;
    twice += 2;
    left--;
  }
  if (twice != 2 * i) reach_error(); /* infeasible: twice == 2 * i (+ its error goal) */
  if (i + left != n) reach_error();  /* infeasible: i + left == n (+ its error goal) */
  return i;
}
