/* A counter bounded by a loop condition; a check after the loop that cannot fail. */
/* infeasible: 2 */
extern unsigned __VERIFIER_nondet_uint(void);
void reach_error(void) {}
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  if (n > 1000) n = 1000;
  unsigned i = 0, sum = 0;
  while (i < n) { i++; sum += 2; }
  if (i > 1000) reach_error();    /* infeasible (+ its error goal) */
  return sum == 20;
}
