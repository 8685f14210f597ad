/* Math-library functions Cairn has no model of, called natively by the interpreter: every
 * argument class (float, double, int, long), integer and float results, and errno after a
 * domain error. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

/* The host's library: a 32-bit program's natively is another build. */
_Static_assert(sizeof(long) == 8, "LP64 only");

extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);

static void show(const char *name, double x, float f, int n, long l) {
    printf("%s: %.17g %.9g %.17g %.17g %d %.17g %.17g %ld %.9g %.17g\n", name, erf(x), erff(f),
           scalbn(x, n % 2000), fma(x, x, -1.0), ilogb(x), nextafter(x, 0.0), fdim(x, 1.0),
           lrint(x), nextafterf(f, 1.0f), scalbln(1.0, l % 1000));
    errno = 0;
    double a = acosh(x);
    printf("acosh %.17g errno %d\n", a, errno);
}

int main(void) {
    const double xs[] = {0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, 1.0 / 0.0, 0.0 / 0.0};
    for (int i = 0; i < 8; i++)
        show("special", xs[i], (float)xs[i], i * 300 - 1000, i * 100L);
    show("input", __VERIFIER_nondet_double(), __VERIFIER_nondet_float(), __VERIFIER_nondet_int(),
         __VERIFIER_nondet_long());
    return ilogb(3.0);
}
