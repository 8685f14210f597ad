/* Concolic-walk benchmark: float/bit conversions. */
#include <math.h>
#include <string.h>

static unsigned long long bits_of(double d) {
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The exponent field of sqrt(x): sqrt(x) in [64, 128). */
int sqrt_exponent(double x) {
    if (!(x > 1 && x < 1e6)) return 0;
    if ((bits_of(sqrt(x)) >> 52) == 0x405) return 1;
    return 0;
}

/* Truncation to an integer together with a trigonometric condition (x near 10 pi). */
int trunc_and_sin(double x) {
    if (!(x > 0 && x < 100)) return 0;
    if ((int)(x * 1000.0) == 31416 && fabs(sin(x)) < 0.001) return 1;
    return 0;
}

/* Raw bits of a double compared after a mix: linear in the bit-vector theory. */
int raw_bits_mix(double x) {
    long long v = (long long)bits_of(x);
    long long w = v ^ 0x5DEECE66DLL;
    if (w == (0x400921FB54442D18LL ^ 0x5DEECE66DLL)) return 1;
    return 0;
}

/* Low mantissa bits of a math result: a hash of the input. */
int sin_low_bits(double x) {
    if (!(x > 0 && x < 1)) return 0;
    if ((bits_of(sin(x)) & 0x3ff) == 0x155) return 1;
    return 0;
}

/* Rounding to float loses the difference. */
int float_rounding(double x) {
    if ((float)x == 0.1f && x != 0.1 && x > 0.1) return 1;
    return 0;
}
