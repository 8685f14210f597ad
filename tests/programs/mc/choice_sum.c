/* Each round adds 1 and 2 to two counters in an order an input chooses: their sum grows by
   exactly 3 a round, whatever the choices. */
/* infeasible: 2 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  int i = 0, a = 0, b = 0;
  while (i < n) {
    if (__VERIFIER_nondet_int()) {
      a += 1;
      b += 2;
    } else {
      a += 2;
      b += 1;
    }
    i++;
  }
  if (a + b != 3 * n) reach_error(); /* infeasible (+ its error goal) */
  return a;
}
