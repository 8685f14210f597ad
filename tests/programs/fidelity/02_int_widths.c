/* Integer widths: char/short/int/long long, signed and unsigned; truncation, sign-extension, promotions. */
#include <stdio.h>
#include <stdint.h>

extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

static signed char sc_add(signed char x, signed char y) {
    return (signed char)(x + y);       /* computed in int, then truncated */
}

static short s_mul(short x, short y) {
    return (short)((int)x * (int)y);   /* fits in int: |x*y| <= 2^30 */
}

static unsigned short us_mul(unsigned short x, unsigned short y) {
    return (unsigned short)((unsigned)x * (unsigned)y);
}

int main(void) {
    char c = __VERIFIER_nondet_char();
    unsigned char uc = __VERIFIER_nondet_uchar();
    short s = __VERIFIER_nondet_short();
    unsigned short us = __VERIFIER_nondet_ushort();
    long long ll = __VERIFIER_nondet_longlong();
    unsigned long long ull = __VERIFIER_nondet_ulonglong();

    signed char sc = (signed char)uc;
    printf("c=%d uc=%u sc=%d\n", (int)(signed char)c, uc, sc);
    printf("sc_add=%d\n", sc_add(sc, (signed char)c));
    printf("uc+uc=%d uc*uc=%d\n", uc + uc, uc * uc);
    printf("~uc=%d (uc)~uc=%u\n", ~uc, (unsigned char)~uc);
    printf("s=%d us=%u\n", s, us);
    printf("s_mul=%d us_mul=%u\n", s_mul(s, (short)us), us_mul(us, (unsigned short)s));
    printf("s>>3=%d us>>3=%d\n", s >> 3, us >> 3);

    /* sign-extension vs zero-extension */
    int from_sc = sc;
    int from_uc = uc;
    long long from_s = s;
    unsigned long long from_us = us;
    unsigned int sext_u = (unsigned int)sc;       /* sign-extend then reinterpret */
    printf("from_sc=%d from_uc=%d from_s=%lld from_us=%llu sext_u=%u\n",
           from_sc, from_uc, from_s, from_us, sext_u);

    /* truncations */
    printf("ll->int=%d ll->short=%d ll->uchar=%u\n", (int)ll, (short)ll, (unsigned char)ll);
    printf("ull->uint=%u ull->schar=%d\n", (unsigned)ull, (signed char)ull);
    int32_t lo = (int32_t)(uint32_t)ull;
    int32_t hi = (int32_t)(uint32_t)(ull >> 32);
    printf("lo=%d hi=%d\n", lo, hi);

    /* 64-bit wraparound via unsigned */
    unsigned long long w = ull * 6364136223846793005ULL + 1442695040888963407ULL;
    long long sw = (long long)((unsigned long long)ll + ull);
    printf("w=%llu sw=%lld\n", w, sw);
    printf("ll%%1000=%lld ll/1000=%lld\n", ll % 1000, ll / 1000);
    printf("ll>>(ull&63)=%lld\n", ll >> (ull & 63));

    /* comparisons across widths */
    printf("sc<uc:%d s<us:%d ll<ull:%d\n", sc < uc, s < us, (unsigned long long)ll < ull);
    printf("s==(short)us:%d\n", s == (short)us);
    int8_t i8 = (int8_t)ll;
    uint8_t u8 = (uint8_t)ll;
    int16_t i16 = (int16_t)ll;
    uint16_t u16 = (uint16_t)ll;
    printf("i8=%d u8=%u i16=%d u16=%u eq:%d\n", i8, u8, i16, u16, i8 == (int8_t)u8);

    /* compound assignment on narrow types */
    unsigned char acc = uc;
    for (int i = 0; i < 10; i++) acc = (unsigned char)(acc * 5 + i + (acc >> 3));
    short sacc = s;
    for (int i = 0; i < 5; i++) sacc = (short)(sacc ^ (short)((unsigned)sacc << 1));
    printf("acc=%u sacc=%d\n", acc, sacc);

    return ((acc >> 4) & 3) | ((s < 0) << 2);
}
