/* The four rounding modes (fesetround): arithmetic, square root, fused multiply-add,
 * conversions to float, rint and its kin, and printf's digits, printed as bits in each mode.
 * The interpreter computes them with the host's instructions and C library under the program's
 * mode, as the native program does. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);
extern double __VERIFIER_nondet_double(void);
extern long long __VERIFIER_nondet_longlong(void);

static unsigned long long bits(double d) {
    unsigned long long u;
    memcpy(&u, &d, 8);
    return u;
}
static unsigned bitsf(float f) {
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}

static const int modes[4] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};

/* A value of every size: a random double's bits, a ratio of small integers, a tie. */
static double pick(int how) {
    double x = __VERIFIER_nondet_double();
    long long n = __VERIFIER_nondet_longlong();
    switch (how & 3) {
    case 0: return x;
    case 1: return (double)(n % 1000) / 7.0;
    case 2: return (double)(n % 64) + 0.5;
    default: return (double)(n % 100000) * 1e-3;
    }
}

int main(void) {
    int k = __VERIFIER_nondet_int() & 3;
    int how = __VERIFIER_nondet_int();
    double x = pick(how), y = pick(how >> 2);
    long long n = __VERIFIER_nondet_longlong();
    float xf = (float)x; /* to nearest, before the mode changes */
    if (fesetround(modes[k]) != 0)
        return 1;
    printf("mode %d: %d\n", k, fegetround() == modes[k]);
    printf("+ %016llx - %016llx * %016llx / %016llx\n", bits(x + y), bits(x - y), bits(x * y),
           bits(x / y));
    printf("x-x %016llx sqrt %016llx fma %016llx\n", bits(x - x), bits(sqrt(fabs(x))),
           bits(fma(x, y, 1.0)));
    printf("float %08x %08x %08x\n", bitsf((float)x), bitsf(xf * xf), bitsf(xf / 3.0f));
    printf("from int %016llx %08x %016llx\n", bits((double)n), bitsf((float)n),
           bits((double)(unsigned long long)n));
    printf("rint %016llx nearbyint %016llx\n", bits(rint(x)), bits(nearbyint(x)));
    if (fabs(x) < 1e15)
        printf("lrint %ld llrint %lld\n", lrint(x), llrint(x));
    printf("exp %016llx sin %016llx\n", bits(exp(x / 1e300)), bits(sin(x)));
    printf("%.3f %.17g %a\n", x / 7.0, x / 3.0, x / 3.0);
    if (fesetround(0x1234) == 0)
        printf("took an invalid mode\n");
    fesetround(FE_TONEAREST);
    printf("back %016llx\n", bits(x / 3.0));
    return 0;
}
