/* y stays at 50 until x reaches 50, then follows x: a relation that changes shape halfway
   through the loop. */
/* infeasible: 2 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int(), y = 50;
  if (x < 0 || x > 10) return 0;
  while (x < 100) {
    if (x < 50) {
      x++;
    } else {
      x++;
      y++;
    }
  }
  if (y != 100) reach_error(); /* infeasible (+ its error goal) */
  return y;
}
