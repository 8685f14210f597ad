/* Integers wider than 64 bits: bit-fields sharing a 72-, 88- or 120-bit storage unit (as Csmith
   writes them) and __int128 arithmetic, comparisons, shifts, casts, selects and
   loops. Not 32-bit C (__int128). */
#include <stdio.h>
#include <stdint.h>

extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern long long __VERIFIER_nondet_longlong(void);
extern int __VERIFIER_nondet_int(void);

#pragma pack(push, 1)
struct S72 { signed a : 31; unsigned b : 29; signed c : 12; };
struct S88 { unsigned char tag; signed x : 23; unsigned y : 30; signed long long z : 35; };
struct S120 { signed a : 31; unsigned b : 29; signed c : 31; unsigned d : 29; signed e : 16; };
#pragma pack(pop)

static struct S72 g72 = { -5, 7, -1 };
static volatile struct S88 g88;
static struct S120 g120 = { 1, 2, -3, 4, -5 };

typedef unsigned __int128 u128;
typedef __int128 i128;

static void show(const char *what, u128 v) {
    printf("%s %016llx%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

static u128 sum_squares(unsigned long long x, int n) {
    u128 s = 0;
    for (int i = 0; i < n; i++) s += (u128)(x + i) * (x + i);
    return s;
}

int main(void) {
    unsigned long long x = __VERIFIER_nondet_ulonglong();
    unsigned long long y = __VERIFIER_nondet_ulonglong();
    long long sx = __VERIFIER_nondet_longlong();
    int k = __VERIFIER_nondet_int();

    /* Bit-fields in a 72-bit unit. */
    g72.a = (int)x;
    g72.b = (unsigned)(y >> 7);
    g72.c = k;
    printf("s72 %d %u %d\n", g72.a, g72.b, g72.c);
    g72.b += g72.c;
    g72.a ^= g72.b;
    printf("s72' %d %u %d %d\n", g72.a, g72.b, g72.c, g72.a < g72.c);

    /* Bit-fields in an 88-bit unit, volatile. */
    g88.tag = (unsigned char)k;
    g88.x = (int)(sx >> 3);
    g88.y = (unsigned)x;
    g88.z = (long long)y;
    printf("s88 %u %d %u %lld\n", g88.tag, g88.x, g88.y, (long long)g88.z);
    g88.z = g88.z * 3 - g88.x;
    printf("s88' %lld %d\n", (long long)g88.z, g88.z > g88.x);

    /* Bit-fields in a 120-bit unit. */
    g120.c = (int)(sx >> 5);
    g120.e = k >> 3;
    g120.d += g120.e;
    printf("s120 %d %u %d %u %d\n", g120.a, g120.b, g120.c, g120.d, g120.e);
    g120.a = g120.c - g120.e;
    printf("s120' %d %d %d\n", g120.a, g120.c < g120.e, g120.d == 4u);

    /* 128-bit arithmetic. */
    u128 p = (u128)x * y;
    i128 q = (i128)sx * (i128)(long long)y;
    show("mul", p);
    show("smul", (u128)q);
    show("add", p + ((u128)y << 64) + x);
    show("sub", p - ((u128)x << 32) - y);
    show("mul128", p * (p + 12345));
    show("xor", p ^ (u128)q);
    show("and/or", (p & ((u128)0xff << 60)) | ((u128)k << 90));
    show("shl1", p << 1);
    show("shl63", p << 63);
    show("shl64", p << 64);
    show("shl65", p << 65);
    show("shl127", p << 127);
    show("lshr1", p >> 1);
    show("lshr64", p >> 64);
    show("lshr100", p >> 100);
    show("ashr3", (u128)(q >> 3));
    show("ashr64", (u128)(q >> 64));
    show("ashr70", (u128)(q >> 70));
    show("ashr127", (u128)(q >> 127));
    show("shl var", p << (k & 127));
    show("lshr var", p >> ((k >> 7) & 127));
    show("ashr var", (u128)(q >> ((k >> 14) & 127)));
    printf("cmp %d %d %d %d %d %d\n", p < (u128)q, q < 0, q <= (i128)p, p == (u128)q,
           p != 0, q > ((i128)1 << 100));
    i128 m = q < 0 ? -q : q;
    show("abs", (u128)m);
    show("sext", (u128)(i128)sx);
    show("zext", (u128)(unsigned)k);
    show("sumsq", sum_squares(x, (k & 7) + 1));
    long long narrow = (long long)(q >> 40);
    int tiny = (int)(p >> 90);
    printf("narrow %lld %d\n", narrow, tiny);
    if (p > ((u128)1 << 120)) printf("huge\n");
    else if (p > ((u128)1 << 64)) printf("big\n");
    else printf("small\n");
    return 0;
}
