/* A flag set inside a loop and tested after it: the error branch is infeasible. */
/* infeasible: 2 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int n = __VERIFIER_nondet_int();
  int flag = 0;
  for (int i = 0; i < 10; i++) {
    if (i == 5) flag = 1;
  }
  if (!flag) reach_error();            /* infeasible: flag is 1 after the loop (+ its error goal) */
  if (n > 100) return 1;
  return 0;
}
