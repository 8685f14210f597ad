/* Integer arithmetic: wraparound, signed/unsigned div/rem, shifts, mixed comparisons. */
#include <stdio.h>
#include <limits.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);

static int safe_div(int a, int b) {
    if (b == 0 || (a == INT_MIN && b == -1)) return 0;
    return a / b;
}

static int safe_rem(int a, int b) {
    if (b == 0 || (a == INT_MIN && b == -1)) return 0;
    return a % b;
}

static long safe_ldiv(long a, long b) {
    if (b == 0 || (a == LONG_MIN && b == -1)) return 0;
    return a / b;
}

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    unsigned int ua = __VERIFIER_nondet_uint();
    unsigned int ub = __VERIFIER_nondet_uint();
    long la = __VERIFIER_nondet_long();
    unsigned long ula = __VERIFIER_nondet_ulong();

    /* unsigned wraparound */
    unsigned int usum = ua + ub;
    unsigned int udiff = ua - ub;
    unsigned int uprod = ua * ub;
    printf("usum=%u udiff=%u uprod=%u\n", usum, udiff, uprod);
    printf("uneg=%u ulneg=%lu\n", -ua, -ula);

    /* signed arithmetic done safely via unsigned, then converted back */
    int wsum = (int)((unsigned)a + (unsigned)b);
    int wprod = (int)((unsigned)a * (unsigned)b);
    printf("wsum=%d wprod=%d\n", wsum, wprod);

    /* signed division and remainder, with negative operands */
    printf("div=%d rem=%d\n", safe_div(a, b), safe_rem(a, b));
    printf("div7=%d rem7=%d divm7=%d remm7=%d\n", a / 7, a % 7, a / -7, a % -7);
    printf("ldiv=%ld lrem3=%ld\n", safe_ldiv(la, (long)b), la % 3);
    if (ub != 0) printf("udiv=%u urem=%u\n", ua / ub, ua % ub);
    printf("ulrem=%lu uldiv=%lu\n", ula % 1000003UL, ula / 17UL);

    /* shifts with masked amounts */
    unsigned sh = ub & 31u;
    unsigned sh64 = ub & 63u;
    printf("shl=%u lshr=%u\n", ua << sh, ua >> sh);
    printf("ashr=%d\n", a >> sh);             /* arithmetic shift of possibly negative int */
    printf("lshl=%lu lshr64=%lu\n", ula << sh64, ula >> sh64);
    printf("ashr64=%ld\n", la >> sh64);
    /* left shift of signed value done via unsigned */
    printf("sshl=%d\n", (int)((unsigned)a << sh));

    /* comparisons mixing signed and unsigned */
    printf("a<ua:%d a<5u:%d (unsigned)a>ub:%d\n", (unsigned)a < ua, (unsigned)a < 5u, (unsigned)a > ub);
    printf("a<(int)ua:%d la<(long)ua:%d\n", a < (int)ua, la < (long)ua);
    printf("neg1_vs_1u:%d\n", -1 < (int)1u);
    printf("cmp_ul:%d\n", (unsigned long)la > ula);

    /* negation and abs done safely */
    int nega = (a == INT_MIN) ? a : -a;
    printf("nega=%d\n", nega);

    /* promotions of small types */
    unsigned char c1 = (unsigned char)ua, c2 = (unsigned char)ub;
    int promoted = c1 - c2;               /* int, can be negative */
    unsigned char trunc = (unsigned char)(c1 - c2);
    printf("promoted=%d trunc=%u\n", promoted, trunc);
    unsigned short s1 = (unsigned short)ua;
    printf("s1*s1=%u\n", (unsigned)s1 * (unsigned)s1);

    int code = 0;
    if (usum < ua) code |= 1;              /* carry */
    if (a < 0) code |= 2;
    if ((ula & 0xff) > 127) code |= 4;
    return code;
}
