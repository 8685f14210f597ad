/* Three flags set in a loop over inputs (the model checker's hard case from issue 8). */
/* infeasible: 4 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int seen_neg = 0, hit = 0, bad = 0;
  for (int i = 0; i < 10; i++) {
    int x = __VERIFIER_nondet_int();
    if (x < 0) seen_neg = 1;
    if (x == -77) hit = 1;
    if (x < -1000 || x > 1000) bad = 1;
  }
  if (hit && !seen_neg) reach_error();       /* infeasible: -77 is negative (+ its error goal) */
  if (!bad && seen_neg > 1) reach_error();   /* infeasible: a flag is 0 or 1 (+ its error goal) */
  return 0;
}
