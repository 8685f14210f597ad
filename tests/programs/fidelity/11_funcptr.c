/* Function pointers: dispatch table indexed by input, callbacks, qsort with comparators, bsearch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

typedef int (*binop)(int, int);

static int op_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
static int op_sub(int a, int b) { return (int)((unsigned)a - (unsigned)b); }
static int op_and(int a, int b) { return a & b; }
static int op_xor(int a, int b) { return a ^ b; }
static int op_max(int a, int b) { return a > b ? a : b; }
static int op_min(int a, int b) { return a < b ? a : b; }

static const struct { const char *name; binop fn; } ops[] = {
    { "add", op_add }, { "sub", op_sub }, { "and", op_and },
    { "xor", op_xor }, { "max", op_max }, { "min", op_min },
};

static int fold(const int *v, int n, binop f, int init) {
    int acc = init;
    for (int i = 0; i < n; i++) acc = f(acc, v[i]);
    return acc;
}

static void for_each(int *v, int n, void (*cb)(int *, void *), void *ctx) {
    for (int i = 0; i < n; i++) cb(&v[i], ctx);
}

static void cb_count_neg(int *x, void *ctx) { if (*x < 0) ++*(int *)ctx; }
static void cb_clamp(int *x, void *ctx) { int lim = *(int *)ctx; if (*x > lim) *x = lim; if (*x < -lim) *x = -lim; }

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static binop choose(unsigned k) { return ops[k % 6].fn; }

int main(void) {
    unsigned sel = __VERIFIER_nondet_uint();
    int vals[12];
    for (int i = 0; i < 12; i++) vals[i] = __VERIFIER_nondet_int() % 1000;

    unsigned k = sel % 6u;
    printf("op=%s fold=%d\n", ops[k].name, fold(vals, 12, ops[k].fn, 0));
    binop f = choose(sel >> 3);
    printf("choose(%u)(vals0,vals1)=%d\n", (sel >> 3) % 6u, f(vals[0], vals[1]));
    printf("same fn: %d\n", f == ops[(sel >> 3) % 6].fn);
    int (*direct)(int, int) = &op_max;
    printf("direct=%d deref=%d\n", direct(3, 9), (*direct)(-3, -9));

    int neg = 0;
    for_each(vals, 12, cb_count_neg, &neg);
    int lim = 500;
    for_each(vals, 12, cb_clamp, &lim);
    printf("neg=%d\n", neg);

    int sorted[12];
    memcpy(sorted, vals, sizeof vals);
    qsort(sorted, 12, sizeof(int), (sel & 1) ? cmp_int : cmp_int_desc);
    for (int i = 0; i < 12; i++) printf("%d%c", sorted[i], i == 11 ? '\n' : ' ');

    if (!(sel & 1)) qsort(sorted, 12, sizeof(int), cmp_int);
    int key = vals[sel % 12];
    int *hit = bsearch(&key, sorted, 12, sizeof(int), cmp_int);
    printf("bsearch key=%d found=%d\n", key, hit != NULL && *hit == key);
    int missing = 1001;
    printf("bsearch missing=%d\n", bsearch(&missing, sorted, 12, sizeof(int), cmp_int) != NULL);

    const char *words[] = { "pear", "apple", "fig", "kiwi", "banana", "cherry", "date" };
    size_t nw = sizeof words / sizeof words[0];
    qsort(words, nw, sizeof words[0], cmp_str);
    for (size_t i = 0; i < nw; i++) printf("%s%s", words[i], i + 1 == nw ? "\n" : ",");
    const char *want = (sel & 2) ? "kiwi" : "grape";
    const char **wh = bsearch(&want, words, nw, sizeof words[0], cmp_str);
    printf("word %s %s\n", want, wh ? "found" : "missing");

    return (int)(k + (unsigned)neg) & 31;
}
