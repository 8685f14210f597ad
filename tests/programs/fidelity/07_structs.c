/* Structs: nested, by-value pass/return (small, large, double pair, char/short), assignment, pointers, bitfields, packed. */
#include <stdio.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern double __VERIFIER_nondet_double(void);
extern unsigned int __VERIFIER_nondet_uint(void);

struct pair { int a; int b; };
struct big { long a, b, c, d; };
struct vec2 { double x; double y; };
struct cs { char c; short s; };
struct inner { int id; struct pair p; };
struct outer { struct inner in; char tag[8]; struct vec2 pos; };

struct flags {
    unsigned int ready : 1;
    unsigned int mode : 3;
    signed int delta : 5;
    unsigned int count : 7;
    signed int big : 16;
};

struct __attribute__((packed)) wire {
    unsigned char kind;
    unsigned int value;
    unsigned short port;
};

static struct pair make_pair(int a, int b) { struct pair p = { a, b }; return p; }
static struct pair swap_pair(struct pair p) { int t = p.a; p.a = p.b; p.b = t; return p; }
static struct big big_mix(struct big x, long k) {
    struct big r;
    r.a = (long)((unsigned long)x.a + (unsigned long)k);
    r.b = x.b ^ k;
    r.c = x.c & k;
    r.d = x.a > x.d ? x.a : x.d;
    return r;
}
static struct vec2 vadd(struct vec2 p, struct vec2 q) { struct vec2 r = { p.x + q.x, p.y + q.y }; return r; }
static struct cs cs_bump(struct cs v) { v.c = (char)(v.c + 1); v.s = (short)(v.s * 2); return v; }
static void pair_inc(struct pair *p) { p->a = (int)((unsigned)p->a + 1u); p->b = p->b / 2; }

int main(void) {
    int i1 = __VERIFIER_nondet_int(), i2 = __VERIFIER_nondet_int();
    long l = __VERIFIER_nondet_long();
    double d = __VERIFIER_nondet_double();
    unsigned u = __VERIFIER_nondet_uint();

    struct pair p = make_pair(i1, i2);
    struct pair q = swap_pair(p);
    pair_inc(&q);
    printf("p=(%d,%d) q=(%d,%d)\n", p.a, p.b, q.a, q.b);

    struct big b = { l, l >> 3, ~l, (long)u };
    struct big b2 = big_mix(b, (long)i1);
    printf("b2=%ld %ld %ld %ld\n", b2.a, b2.b, b2.c, b2.d);

    if (d != d || d > 1e100 || d < -1e100) d = 1.25;
    struct vec2 v1 = { d, -d }, v2 = { 0.5, 2.0 };
    struct vec2 v3 = vadd(v1, v2);
    printf("v3=(%.4f,%.4f)\n", v3.x, v3.y);

    struct cs c1 = { (char)('a' + (u % 20)), (short)(i1 & 0x3fff) };
    struct cs c2 = cs_bump(c1);
    printf("cs=%c,%d -> %c,%d size=%zu\n", c1.c, c1.s, c2.c, c2.s, sizeof(struct cs));

    struct outer o;
    memset(&o, 0, sizeof o);
    o.in.id = (int)(u & 0xffff);
    o.in.p = p;
    strcpy(o.tag, "node");
    o.tag[4] = (char)('0' + u % 10);
    o.pos = v3;
    struct outer o2 = o;               /* struct assignment copies everything */
    o2.in.p.a = 0;
    struct outer *op = &o2;
    printf("o.id=%d o.p.a=%d o2.p.a=%d tag=%s pos.x=%.2f\n", o.in.id, o.in.p.a, op->in.p.a, op->tag, op->pos.x);

    struct flags f = { 0 };
    f.ready = u & 1u;
    f.mode = (u >> 1) & 7u;
    f.delta = (int)((u >> 4) & 31u) - 16;     /* in range [-16,15] */
    f.count = (u >> 9) & 127u;
    f.big = (int)((u >> 16) & 0x7fff) - 16384;
    f.count = (f.count + 1u) & 127u;
    printf("flags ready=%u mode=%u delta=%d count=%u big=%d\n", f.ready, f.mode, f.delta, f.count, f.big);
    printf("sizeof flags=%zu\n", sizeof f);

    struct wire w;
    w.kind = (unsigned char)u;
    w.value = u * 3u;
    w.port = (unsigned short)(u >> 8);
    unsigned char raw[sizeof(struct wire)];
    memcpy(raw, &w, sizeof w);
    unsigned sum = 0;
    for (size_t i = 0; i < sizeof raw; i++) sum = sum * 31u + raw[i];
    printf("wire size=%zu kind=%u value=%u port=%u sum=%u\n", sizeof w, w.kind, w.value, w.port, sum);

    struct pair arr[3] = { p, q, { 7, 8 } };
    struct pair *pp = &arr[u % 3];
    printf("picked=(%d,%d) eq=%d\n", pp->a, pp->b, memcmp(&arr[0], &arr[1], sizeof(struct pair)) == 0);

    return (int)(f.mode + f.ready);
}
