/* Correlated conditions in different functions: sign(x) agrees with x. */
/* infeasible: 5 (three branch outcomes and two error calls) */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
static int sign(int x) {
  if (x > 0) return 1;
  if (x < 0) return -1;
  return 0;
}
static int is_positive(int x) { return x > 0; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int s = sign(x);
  if (x > 0 && s != 1) reach_error();      /* infeasible (true outcome) */
  if (s == 0 && x != 0) reach_error();     /* infeasible (true outcome) */
  if (is_positive(x) && s < 0) return 3;   /* infeasible (true outcome) */
  if (s == 1) return 1;
  return 0;
}
