/* A float input's class tested as <math.h> does (isnan, isinf, isfinite: `llvm.is.fpclass`, a
   test of the bits the symbolic shadow follows exactly), and the parts of a number, which the
   runtime computes (modff): the branches only impossible values would take are proven so. */
/* infeasible: 7 */
#include <math.h>
extern double __VERIFIER_nondet_double(void);
void reach_error(void) {}

int main(void) {
  double x = __VERIFIER_nondet_double();
  if (isnan(x))
    return 1;
  if (x != x)
    reach_error(); /* infeasible: not a NaN here (+ error goal) */
  if (isinf(x))
    return 2;
  if (!isfinite(x))
    reach_error(); /* infeasible: neither NaN nor infinite (+ error goal) */
  float whole;
  float part = modff(2.75f, &whole);
  if (whole != 2.0f || part != 0.75f)
    reach_error(); /* infeasible: both tests are false (their true outcomes + error goal) */
  return x > 1e300;
}
