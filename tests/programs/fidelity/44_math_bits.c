/* The math functions Cairn's solver expresses exactly (rounding to integers, square root, fmod,
 * fmin, fmax, fabs, copysign), printed as bits on special values: signed zeros, infinities,
 * quiet and signalling NaNs with payloads. The interpreter against clang-19 on x86-64 (fmin and
 * fmax are `llvm.minnum`/`maxnum` there, compiled inline). A 32-bit build calls i386 glibc, which
 * differs where the x87 does: it quiets a signalling NaN passed to a function, and of two NaNs
 * its fmin, fmax and fmod pick by payload; those cases are 64-bit only. */
#include <math.h>
#include <stdio.h>
#include <string.h>

extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);

static unsigned long long bits(double d) {
    unsigned long long u;
    memcpy(&u, &d, 8);
    return u;
}
static double of_bits(unsigned long long u) {
    double d;
    memcpy(&d, &u, 8);
    return d;
}
static unsigned bitsf(float f) {
    unsigned u;
    memcpy(&u, &f, 4);
    return u;
}
static float of_bitsf(unsigned u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void one(double x) {
    printf("%016llx: floor %016llx ceil %016llx trunc %016llx round %016llx rint %016llx "
           "sqrt %016llx fabs %016llx\n",
           bits(x), bits(floor(x)), bits(ceil(x)), bits(trunc(x)), bits(round(x)),
           bits(rint(x)), bits(sqrt(x)), bits(fabs(x)));
}
#if __SIZEOF_POINTER__ == 8
#define X86_64 1
#else
#define X86_64 0
#endif

static int nans(double x, double y) { return x != x && y != y; }

static void two(double x, double y) {
    int same = X86_64 || !nans(x, y); /* every build gives the same bits */
    printf("%016llx %016llx: fmod %016llx fmin %016llx fmax %016llx copysign %016llx\n",
           bits(x), bits(y), same ? bits(fmod(x, y)) : 0, same ? bits(fmin(x, y)) : 0,
           same ? bits(fmax(x, y)) : 0, bits(copysign(x, y)));
}
static void twof(float x, float y) {
    int same = X86_64 || !nans(x, y);
    printf("%08x %08x: floorf %08x sqrtf %08x fmodf %08x fminf %08x fmaxf %08x\n", bitsf(x),
           bitsf(y), bitsf(floorf(x)), bitsf(sqrtf(x)), same ? bitsf(fmodf(x, y)) : 0,
           same ? bitsf(fminf(x, y)) : 0, same ? bitsf(fmaxf(x, y)) : 0);
}

int main(void) {
    const unsigned long long specials[] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x3ff8000000000000ull, /* 1.5 */
        0xc004000000000000ull, /* -2.5 */ 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x7ff8000000000123ull, 0xfff8000000000456ull, 0x0000000000000001ull,
        0x7fefffffffffffffull, 0xc01c000000000000ull, /* -7 */
        0x7ff0000000000789ull, /* signalling: last, 64-bit only */
    };
    const unsigned specials_f[] = {0x00000000u, 0x80000000u, 0x3fc00000u, 0xc0200000u,
                                   0x7f800000u, 0xff800000u, 0x7fc00123u, 0xffc00456u,
                                   0x00000001u, 0x7f7fffffu, 0xc0e00000u, 0x7f800789u};
    int n = sizeof specials / sizeof specials[0] - !X86_64;
    for (int i = 0; i < n; i++) {
        one(of_bits(specials[i]));
        for (int j = 0; j < n; j++) {
            two(of_bits(specials[i]), of_bits(specials[j]));
            twof(of_bitsf(specials_f[i]), of_bitsf(specials_f[j]));
        }
    }
    double x = __VERIFIER_nondet_double(), y = __VERIFIER_nondet_double();
    one(x);
    two(x, y);
    float fx = __VERIFIER_nondet_float(), fy = __VERIFIER_nondet_float();
    twof(fx, fy);
    return 0;
}
