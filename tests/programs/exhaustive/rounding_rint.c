/* rint and nearbyint round in the mode fesetround set: downward they are floor, upward ceil,
   toward zero trunc, which the symbolic shadow encodes exactly; so the branches no input takes
   are proven. */
/* infeasible: 6 */
#include <fenv.h>
#include <math.h>
extern double __VERIFIER_nondet_double(void);
void reach_error(void) {}

int main(void) {
  double x = __VERIFIER_nondet_double();
  if (isnan(x))
    return 0;
  fesetround(FE_DOWNWARD);
  if (rint(x) != floor(x))
    reach_error(); /* infeasible (+ error goal) */
  fesetround(FE_UPWARD);
  if (nearbyint(x) != ceil(x))
    reach_error(); /* infeasible (+ error goal) */
  fesetround(FE_TOWARDZERO);
  if (rint(x) != trunc(x))
    reach_error(); /* infeasible (+ error goal) */
  int r = 0;
  if (rint(x) == 2.0) /* x in [2, 3) */
    r = 1;
  fesetround(FE_TONEAREST);
  if (rint(x) == 2.0 && r == 0) /* x in [1.5, 2) */
    r = 2;
  return r;
}
