/* Values flowing through arrays: the model checker treats memory as havoc, so it must not
 * claim anything it cannot see; every branch here is feasible. */
/* infeasible: 0 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[4];
  for (int i = 0; i < 4; i++) a[i] = __VERIFIER_nondet_int();
  int best = a[0];
  for (int i = 1; i < 4; i++)
    if (a[i] > best) best = a[i];
  if (best == a[2] && best > 100) return 1;
  return 0;
}
