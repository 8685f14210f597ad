/* Math functions with `long` results, whose width is the data model's (the interpreter calls
 * the host's library and narrows in ILP32), and float-only ones, in both data models. */
#include <math.h>
#include <stdio.h>

extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);

static void show(const char *name, double x, float f) {
    printf("%s: %ld %ld %ld %ld %.17g %.17g %.9g\n", name, lrint(x), lround(x), lrintf(f),
           lroundf(f), fdim(x, 1.0), remainder(x, 3.0), fdimf(f, 2.0f));
}

int main(void) {
    const double xs[] = {0.0, -0.0, 2.5, -2.5, 3.5, 1e10, -3e9, 2147483647.4, 2147483647.6,
                         1.0 / 0.0, 0.0 / 0.0};
    for (int i = 0; i < 11; i++)
        show("special", xs[i], (float)xs[i]);
    show("input", __VERIFIER_nondet_double(), __VERIFIER_nondet_float());
    return lround(2.5) == 3;
}
