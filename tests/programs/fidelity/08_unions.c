/* Unions: int/float and long/double punning, byte views through unsigned char*, tagged unions. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern float __VERIFIER_nondet_float(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

union fbits { float f; uint32_t u; unsigned char b[4]; };
union dbits { double d; uint64_t u; uint32_t w[2]; };
union wide { uint64_t q; uint32_t d[2]; uint16_t h[4]; uint8_t b[8]; };

enum kind { K_INT, K_FLOAT, K_STR };
struct tagged {
    enum kind k;
    union { int i; float f; const char *s; } v;
};

static void print_tagged(const struct tagged *t) {
    switch (t->k) {
    case K_INT: printf("int %d\n", t->v.i); break;
    case K_FLOAT: printf("float %.3f\n", (double)t->v.f); break;
    case K_STR: printf("str %s\n", t->v.s); break;
    }
}

static float classify_and_make(uint32_t bits, int *cls) {
    union fbits x;
    x.u = bits;
    uint32_t exp = (x.u >> 23) & 0xffu, man = x.u & 0x7fffffu;
    if (exp == 0xffu) *cls = man ? 3 : 2;      /* nan : inf */
    else if (exp == 0) *cls = man ? 1 : 0;     /* subnormal : zero */
    else *cls = 4;
    return x.f;
}

int main(void) {
    uint32_t u = __VERIFIER_nondet_uint();
    float fin = __VERIFIER_nondet_float();
    uint64_t q = __VERIFIER_nondet_ulonglong();

    int cls;
    float f = classify_and_make(u, &cls);
    printf("bits=%08x class=%d\n", u, cls);
    if (cls == 4 || cls == 1 || cls == 0) printf("value=%g\n", (double)f);

    union fbits fb;
    fb.f = fin;
    printf("fin bits=%08x sign=%u exp=%u bytes=%02x %02x %02x %02x\n",
           fb.u, fb.u >> 31, (fb.u >> 23) & 0xffu, fb.b[0], fb.b[1], fb.b[2], fb.b[3]);
    fb.u ^= 0x80000000u;                       /* flip sign through the integer view */
    if (fb.f == fb.f) printf("negated=%g\n", (double)fb.f); else puts("negated nan");

    union dbits db;
    db.u = q;
    printf("dbits lo=%08x hi=%08x\n", db.w[0], db.w[1]);
    db.d = 1.0;
    printf("one=%016llx\n", (unsigned long long)db.u);
    db.d = -2.5;
    printf("m2.5=%016llx\n", (unsigned long long)db.u);

    union wide w;
    w.q = q;
    printf("h=%04x %04x %04x %04x\n", w.h[0], w.h[1], w.h[2], w.h[3]);
    w.b[u & 7] = 0xAB;
    printf("q'=%016llx\n", (unsigned long long)w.q);

    /* reading bytes of an int through unsigned char* */
    unsigned int val = u;
    const unsigned char *p = (const unsigned char *)&val;
    unsigned acc = 0;
    for (size_t i = 0; i < sizeof val; i++) acc = (acc << 8) | p[i];
    printf("byte-reversed-via-ptr=%08x little_endian=%d\n", acc, p[0] == (u & 0xffu));

    /* memcpy-based punning */
    double dd;
    uint64_t pattern = 0x400921FB54442D18ULL;   /* pi */
    memcpy(&dd, &pattern, sizeof dd);
    printf("pi=%.15f\n", dd);

    struct tagged items[3];
    items[0].k = K_INT; items[0].v.i = (int)(u % 1000u);
    items[1].k = K_FLOAT; items[1].v.f = (float)(u % 100u) / 8.0f;
    items[2].k = K_STR; items[2].v.s = (u & 1u) ? "odd" : "even";
    for (int i = 0; i < 3; i++) print_tagged(&items[(u + (unsigned)i) % 3u]);
    printf("sizeof union=%zu %zu %zu\n", sizeof(union fbits), sizeof(union dbits), sizeof(struct tagged));

    return cls;
}
