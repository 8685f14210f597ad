/* rint and nearbyint round in the mode fesetround set: downward they are floor, upward ceil,
   toward zero trunc, which the symbolic shadow encodes exactly, as it does arithmetic in the
   mode (an exact zero difference is -0 downward); so the branches no input takes are proven. */
/* infeasible: 8 */
#include <fenv.h>
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
void reach_error(void) {}

int main(void) {
  double x = __VERIFIER_nondet_double();
  float y = __VERIFIER_nondet_float();
  if (isnan(x) || isnan(y))
    return 0;
  fesetround(FE_DOWNWARD);
  if (!isinf(y) && !signbit(y - y))
    reach_error(); /* infeasible (+ error goal) */
  if (rint(x) != floor(x))
    reach_error(); /* infeasible (+ error goal) */
  fesetround(FE_UPWARD);
  if (nearbyint(x) != ceil(x))
    reach_error(); /* infeasible (+ error goal) */
  fesetround(FE_TOWARDZERO);
  if (rint(x) != trunc(x))
    reach_error(); /* infeasible (+ error goal) */
  fesetround(FE_TONEAREST);
  return 0;
}
