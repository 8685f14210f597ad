/* Arrays: 1D/2D global and local, masked input-indexed lookups, arrays of structs, initialised tables. */
#include <stdio.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

static const int primes[16] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53 };
static int grid[4][5] = {
    { 1, 2, 3, 4, 5 },
    { 6, 7, 8, 9, 10 },
    { 11, 12, 13, 14, 15 },
    { 16, 17, 18, 19, 20 },
};
static unsigned char sparse[64] = { [3] = 30, [10] = 100, [63] = 255 };
static int zeroed[32];

struct item { const char *name; int weight; short qty; };
static struct item inventory[] = {
    { "apple", 3, 10 }, { "bread", 5, 2 }, { "cheese", 8, 1 }, { "dates", 1, 40 },
};
#define NINV (sizeof inventory / sizeof inventory[0])

static int trace(int m[4][5]) {
    int t = 0;
    for (int i = 0; i < 4; i++) t += m[i][i];
    return t;
}

static long dot(const int *a, const int *b, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += (long)a[i] * b[i];
    return s;
}

int main(void) {
    unsigned idx = __VERIFIER_nondet_uint();
    int v = __VERIFIER_nondet_int();

    printf("prime=%d sparse=%u zeroed=%d\n", primes[idx & 15], sparse[idx & 63], zeroed[idx & 31]);
    unsigned r = idx % 4, c = (idx / 4) % 5;
    printf("grid[%u][%u]=%d\n", r, c, grid[r][c]);
    grid[r][c] = v % 100;
    printf("trace=%d\n", trace(grid));
    zeroed[(idx >> 8) & 31] = v;

    int local[10];
    for (int i = 0; i < 10; i++) local[i] = (int)((idx >> (i * 3 % 32)) & 0xff) - 128;
    int mx = local[0], mn = local[0];
    for (int i = 1; i < 10; i++) { if (local[i] > mx) mx = local[i]; if (local[i] < mn) mn = local[i]; }
    printf("local max=%d min=%d dot=%ld\n", mx, mn, dot(local, primes, 10));

    /* 2D local array, transposed copy */
    int m[3][4], t[4][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) m[i][j] = (int)((idx + (unsigned)(i * 4 + j)) % 17u);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) t[j][i] = m[i][j];
    for (int j = 0; j < 4; j++) printf("t[%d]= %d %d %d\n", j, t[j][0], t[j][1], t[j][2]);

    /* array of structs */
    const struct item *it = &inventory[idx % NINV];
    printf("item=%s weight=%d qty=%d\n", it->name, it->weight, it->qty);
    int total = 0;
    for (unsigned i = 0; i < NINV; i++) total += inventory[i].weight * inventory[i].qty;
    inventory[(idx >> 4) % NINV].qty = (short)(v & 0x7f);
    int total2 = 0;
    for (unsigned i = 0; i < NINV; i++) total2 += inventory[i].weight * inventory[i].qty;
    printf("total=%d total2=%d sizeof_inv=%zu\n", total, total2, sizeof inventory);

    /* char array and histogram */
    char buf[33];
    int hist[8] = { 0 };
    for (int i = 0; i < 32; i++) {
        unsigned bits = (idx >> (i % 29)) & 7u;
        buf[i] = (char)('A' + bits);
        hist[bits]++;
    }
    buf[32] = '\0';
    printf("buf=%s\n", buf);
    for (int i = 0; i < 8; i++) printf("%d%c", hist[i], i == 7 ? '\n' : ' ');

    /* variable-length array with clamped size */
    unsigned n = (idx % 20u) + 1u;
    int vla[n];
    for (unsigned i = 0; i < n; i++) vla[i] = (int)(i * i);
    int vs = 0;
    for (unsigned i = 0; i < n; i++) vs += vla[i];
    printf("n=%u vla_sum=%d sizeof_vla=%zu\n", n, vs, sizeof vla);

    return (mx - mn) & 15;
}
