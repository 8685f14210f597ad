/* A global state machine: some transitions can never happen. */
/* infeasible: 2 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
static int state = 0;
static void step(int in) {
  if (state == 0 && in == 1) state = 1;
  else if (state == 1 && in == 2) state = 2;
  else if (state == 2) state = 3;
}
int main(void) {
  for (int k = 0; k < 4; k++) step(__VERIFIER_nondet_int());
  if (state > 3) reach_error();   /* infeasible: state never exceeds 3 (+ its error goal) */
  if (state == 3) return 1;
  return 0;
}
