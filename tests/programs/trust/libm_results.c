/* Math-library functions Cairn has no model of (erf, fdim, scalbn, ilogb, nextafter): their
 * results were inputs, so Cairn "covered" values glibc never returns, and a replay that stubbed
 * the functions "confirmed" them. */
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
    double x = __VERIFIER_nondet_double();
    int n = __VERIFIER_nondet_int();
    double e = erf(x);
    if (e > 1.0)
        reach_error();
    if (fdim(x, 2.0) < 0.0)
        reach_error();
    if (e > 0.5)
        n = n + 1;
    if (scalbn(1.0, n) == 8.0)
        return 1;
    if (ilogb(x) == 10)
        return 2;
    if (nextafter(x, 0.0) == 0.0 && x > 0.0)
        return 3;
    return 0;
}
