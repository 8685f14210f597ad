/* The concolic walk's motivating example: with a in (0.1, 1.5) and b in (1, 4), five branches
   over math-library results, all reachable, none solvable by Z3 or by concretizing the calls.
   The exit status has one bit per target. */
#include <math.h>

extern double __VERIFIER_nondet_double(void);

int main(void) {
    double a = __VERIFIER_nondet_double();
    double b = __VERIFIER_nondet_double();
    if (!(a > 0.1 && a < 1.5)) return 0;
    if (!(b > 1 && b < 4)) return 0;
    int r = 0;
    if (tan(a) > 5) r |= 1;
    if (fabs(a * a * a - 3 * a + 1) < 1e-6) r |= 2;
    if (pow(b, a) > 6) r |= 4;
    if (fabs(hypot(a, b) - 2.5) < 1e-9) r |= 8;
    if (exp(a) * log(b) > 5) r |= 16;
    return r;
}
