/* An input picks the rounding mode (fesetround): branches only one mode's rounding takes (the
   sign of an exact zero, a quotient rounded up or down, rint's direction). Cairn computes
   under the mode as the hardware does; it reasons about the rounded values concretely. */
/* infeasible: 0 */
#include <fenv.h>
#include <math.h>
extern int __VERIFIER_nondet_int(void);
extern double __VERIFIER_nondet_double(void);

int main(void) {
  int m = __VERIFIER_nondet_int();
  double x = __VERIFIER_nondet_double();
  if (m == 1)
    fesetround(FE_DOWNWARD);
  else if (m == 2)
    fesetround(FE_UPWARD);
  else if (m == 3)
    fesetround(FE_TOWARDZERO);
  int r = 0;
  if (signbit(x - x)) /* -0 downward, for a finite x */
    r |= 1;
  double n = m == 2 ? 12.0 : 11.0; /* (not an input's function: a quotient of inputs is a
                                      query Z3 can take seconds over) */
  double q = n / 7.0;
  if (q * 7.0 > n) /* upward */
    r |= 2;
  if (q * 7.0 < n) /* downward or toward zero */
    r |= 4;
  if (x > 2.0 && x < 2.5) {
    if (rint(x) == 3.0) /* upward */
      r |= 8;
  }
  if (fegetround() == FE_TOWARDZERO)
    r |= 16;
  return r;
}
