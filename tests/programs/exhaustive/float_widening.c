/* Widening is exact: a float equal to a small integer stays equal to it as a double, and so
   does a float converted from an int of at most 24 bits. Each check's false outcome needs one
   Z3 query of a second or so, longer than the search's first turns: the flip is left undecided
   there and retried, in a turn of its own, with more time. */
/* infeasible: 6 */
extern float __VERIFIER_nondet_float(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  float f = __VERIFIER_nondet_float();
  unsigned char x = __VERIFIER_nondet_uchar();
  double d = f;
  if (f == x) {
    if (d != x)
      reach_error(); /* infeasible: the true outcome + error goal */
  }
  int n = __VERIFIER_nondet_int();
  if (n > -(1 << 24) && n < (1 << 24)) {
    float g = (float)n;
    if ((double)g != (double)n)
      reach_error(); /* infeasible: the true outcome + error goal */
    if ((int)g != n)
      reach_error(); /* infeasible: the true outcome + error goal */
  }
  return 0;
}
