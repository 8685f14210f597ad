/* memcpy of structs containing arrays; struct with a flexible array member allocated with malloc and grown with realloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

struct record {
    int id;
    char name[12];
    short scores[5];
    double weights[3];
};

struct packet {
    unsigned short kind;
    unsigned len;
    unsigned char data[];      /* flexible array member */
};

struct intvec { size_t n; int v[]; };

static struct packet *make_packet(unsigned short kind, const unsigned char *src, unsigned len) {
    struct packet *p = malloc(sizeof *p + len);
    if (!p) exit(99);
    p->kind = kind;
    p->len = len;
    memcpy(p->data, src, len);
    return p;
}

static unsigned checksum(const struct packet *p) {
    unsigned s = p->kind;
    for (unsigned i = 0; i < p->len; i++) s = (s << 5) + s + p->data[i];
    return s;
}

static void print_record(const struct record *r) {
    printf("id=%d name=%s scores=%d,%d,%d,%d,%d w=%.2f,%.2f,%.2f\n", r->id, r->name, r->scores[0], r->scores[1],
           r->scores[2], r->scores[3], r->scores[4], r->weights[0], r->weights[1], r->weights[2]);
}

int main(void) {
    unsigned u = __VERIFIER_nondet_uint();
    int x = __VERIFIER_nondet_int();

    struct record a;
    memset(&a, 0, sizeof a);
    a.id = x % 10000;
    for (int i = 0; i < 11; i++) a.name[i] = (char)('a' + (u >> (i % 28)) % 26u);
    a.name[u % 11u] = '\0';
    for (int i = 0; i < 5; i++) a.scores[i] = (short)((int)((u >> (i * 5)) & 0x3ff) - 512);
    for (int i = 0; i < 3; i++) a.weights[i] = (double)((u >> (i * 7)) & 0xff) / 16.0;

    struct record b;
    memcpy(&b, &a, sizeof a);
    b.scores[u % 5u] = 0;
    b.name[0] = 'Z';
    print_record(&a);
    print_record(&b);
    printf("memcmp differs=%d\n", memcmp(&a, &b, sizeof a) != 0);

    struct record arr[4];
    for (int i = 0; i < 4; i++) { arr[i] = a; arr[i].id += i; }
    memmove(&arr[1], &arr[0], 3 * sizeof arr[0]);     /* overlapping struct array shift */
    printf("ids=%d,%d,%d,%d sizeof=%zu\n", arr[0].id, arr[1].id, arr[2].id, arr[3].id, sizeof(struct record));

    /* flexible array member */
    unsigned len = __VERIFIER_nondet_uchar() % 40u;
    unsigned char src[40];
    for (unsigned i = 0; i < len; i++) src[i] = (unsigned char)(u * (i + 1u) >> 3);
    struct packet *p = make_packet((unsigned short)(u & 0xffff), src, len);
    printf("packet kind=%u len=%u sum=%u sizeof=%zu\n", p->kind, p->len, checksum(p), sizeof(struct packet));
    struct packet *q = make_packet(p->kind, p->data, p->len);
    if (q->len > 0) q->data[q->len - 1] ^= 0xFF;
    printf("copy sum=%u equal=%d\n", checksum(q), memcmp(p->data, q->data, p->len) == 0);
    free(p);
    free(q);

    /* growing a flexible-array vector */
    struct intvec *v = malloc(sizeof *v + 2 * sizeof(int));
    if (!v) return 98;
    v->n = 0;
    size_t cap = 2;
    unsigned n = u % 50u;
    for (unsigned i = 0; i < n; i++) {
        if (v->n == cap) {
            cap *= 2;
            struct intvec *nv = realloc(v, sizeof *nv + cap * sizeof(int));
            if (!nv) { free(v); return 98; }
            v = nv;
        }
        v->v[v->n++] = (int)(i * 7u % 13u) - 6;
    }
    long s = 0;
    for (size_t i = 0; i < v->n; i++) s += v->v[i];
    printf("intvec n=%zu cap=%zu sum=%ld\n", v->n, cap, s);
    free(v);

    /* struct containing an array, returned and copied by value */
    struct record c = b;
    c.weights[2] = -1.0;
    printf("b.w2=%.2f c.w2=%.2f\n", b.weights[2], c.weights[2]);
    return (int)(len & 7);
}
