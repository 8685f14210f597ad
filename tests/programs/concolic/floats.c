/* Floating-point conditions on inputs: solved in the theory of IEEE floats. */
/* infeasible: 0 */
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  float f = __VERIFIER_nondet_float();
  int r = 0;
  if (x * 3.0 + 1.5 == 10.5) r |= 1;            /* x == 3 */
  if (x > 1e10 && x < 1e10 + 1) r |= 2;
  if ((int)f == 42 && f > 42.5f) r |= 4;
  if (x != x) r |= 8;                           /* NaN */
  if ((double)f / 4.0 < -1000.0) r |= 16;
  return r;
}
