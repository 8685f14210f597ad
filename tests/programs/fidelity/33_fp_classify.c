/* glibc's classification functions as older <math.h> macros call them (preprocessed programs
 * keep the calls), and the rounding-mode queries: Cairn's runtime against glibc. */
#include <stdio.h>
#include <float.h>

extern int __VERIFIER_nondet_int(void);
extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);

extern int __isinf(double), __isnan(double), __finite(double), __fpclassify(double);
extern int __isinff(float), __isnanf(float), __finitef(float), __fpclassifyf(float);
extern int isinf(double), isnan(double), finite(double);
extern int fegetround(void), fesetround(int);
extern int __signbit(double), __signbitf(float);

static void classify(const char *name, double d, float f) {
    printf("%s: %d %d %d %d | %d %d %d %d | %d %d %d | %d %d\n", name, __isinf(d), __isnan(d),
           __finite(d), __fpclassify(d), __isinff(f), __isnanf(f), __finitef(f),
           __fpclassifyf(f), isinf(d), isnan(d), finite(d), __signbit(d), __signbitf(f));
}

int main(void) {
    const double specials[] = {0.0, -0.0, 1.5, -2.0, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0,
                               DBL_MIN / 4, DBL_MIN, DBL_MAX, -DBL_MIN / 1024, -0.0 / 0.0};
    const float specials_f[] = {0.0f, -0.0f, 1.5f, -2.0f, 1.0f / 0.0f, -1.0f / 0.0f,
                                0.0f / 0.0f, FLT_MIN / 4, FLT_MIN, FLT_MAX, -FLT_MIN / 1024, -0.0f / 0.0f};
    int n = sizeof specials / sizeof specials[0];
    for (int i = 0; i < n; i++)
        classify("special", specials[i], specials_f[i]);
    int k = __VERIFIER_nondet_int();
    int i = (k % n + n) % n;
    classify("chosen", specials[i], specials_f[(i + 3) % n]);
    classify("input", __VERIFIER_nondet_double(), __VERIFIER_nondet_float());
    printf("rounding %d, to nearest %d, not a mode %d\n", fegetround(), fesetround(0),
           fesetround(0x1234) != 0);
    return __isinf(specials[4]) + __isnan(specials[0]);
}
