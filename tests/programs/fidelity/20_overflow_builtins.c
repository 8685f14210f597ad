/* Overflow builtins: __builtin_{add,sub,mul}_overflow on int/long/unsigned/mixed; saturating ops; min/max; abs. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern short __VERIFIER_nondet_short(void);

static int sat_add(int a, int b) {
    int r;
    if (__builtin_add_overflow(a, b, &r)) return a > 0 ? INT_MAX : INT_MIN;
    return r;
}

static int sat_mul(int a, int b) {
    int r;
    if (__builtin_mul_overflow(a, b, &r)) return ((a < 0) != (b < 0)) ? INT_MIN : INT_MAX;
    return r;
}

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static int clamp(int v, int lo, int hi) { return imin(imax(v, lo), hi); }

int main(void) {
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
    long la = __VERIFIER_nondet_long(), lb = __VERIFIER_nondet_long();
    unsigned ua = __VERIFIER_nondet_uint();
    short s = __VERIFIER_nondet_short();
    int flags = 0;

    int r;
    int o = __builtin_add_overflow(a, b, &r);
    printf("add ovf=%d r=%d\n", o, r);
    flags |= o;
    o = __builtin_sub_overflow(a, b, &r);
    printf("sub ovf=%d r=%d\n", o, r);
    flags |= o << 1;
    o = __builtin_mul_overflow(a, b, &r);
    printf("mul ovf=%d r=%d\n", o, r);
    flags |= o << 2;

    long lr;
    o = __builtin_add_overflow(la, lb, &lr);
    printf("ladd ovf=%d r=%ld\n", o, lr);
    o = __builtin_sub_overflow(la, lb, &lr);
    printf("lsub ovf=%d r=%ld\n", o, lr);
    o = __builtin_mul_overflow(la, lb, &lr);
    printf("lmul ovf=%d r=%ld\n", o, lr);
    flags |= o << 3;

    unsigned ur;
    o = __builtin_add_overflow(ua, (unsigned)b, &ur);
    printf("uadd ovf=%d r=%u\n", o, ur);
    o = __builtin_sub_overflow(ua, (unsigned)b, &ur);
    printf("usub ovf=%d r=%u\n", o, ur);
    o = __builtin_mul_overflow(ua, 3u, &ur);
    printf("umul3 ovf=%d r=%u\n", o, ur);

    /* mixed types: signed inputs, unsigned result; wide inputs, narrow result */
    o = __builtin_add_overflow(a, 0, &ur);
    printf("int->unsigned ovf=%d r=%u\n", o, ur);
    short sr;
    o = __builtin_mul_overflow(s, 3, &sr);
    printf("short mul ovf=%d r=%d\n", o, sr);
    o = __builtin_add_overflow(la, 0, &r);
    printf("long->int ovf=%d r=%d\n", o, r);
    int p = __builtin_sadd_overflow(a, 1, &r);
    printf("sadd+1 ovf=%d\n", p);
    unsigned long long ullr;
    o = __builtin_umulll_overflow((unsigned long long)ua, (unsigned long long)ua * 4294967296ULL, &ullr);
    printf("umulll ovf=%d r=%llu\n", o, ullr);

    printf("sat_add=%d sat_mul=%d\n", sat_add(a, b), sat_mul(a, b));
    printf("min=%d max=%d clamp=%d\n", imin(a, b), imax(a, b), clamp(a, -100, 100));
    long lmin = la < lb ? la : lb, lmax = la > lb ? la : lb;
    printf("lmin=%ld lmax=%ld\n", lmin, lmax);
    printf("abs=%d labs=%ld\n", a == INT_MIN ? -1 : abs(a), la == LONG_MIN ? -1L : labs(la));
    int absdiff;
    if (__builtin_sub_overflow(a, b, &absdiff) || absdiff == INT_MIN) printf("absdiff overflow\n");
    else printf("absdiff=%d\n", abs(absdiff));
    return flags;
}
