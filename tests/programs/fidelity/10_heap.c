/* Heap: malloc, calloc, realloc growth, free; linked list build/traverse/reverse/free; dynamic array. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

struct node { int value; struct node *next; };

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    if (!n) { puts("oom"); exit(99); }
    n->value = v;
    n->next = head;
    return n;
}

static struct node *reverse(struct node *h) {
    struct node *prev = NULL;
    while (h) { struct node *nx = h->next; h->next = prev; prev = h; h = nx; }
    return prev;
}

static struct node *remove_if_even(struct node *h, int *removed) {
    struct node **pp = &h;
    while (*pp) {
        if (((*pp)->value & 1) == 0) {
            struct node *dead = *pp;
            *pp = dead->next;
            free(dead);
            (*removed)++;
        } else {
            pp = &(*pp)->next;
        }
    }
    return h;
}

static void free_list(struct node *h) {
    while (h) { struct node *nx = h->next; free(h); h = nx; }
}

struct dynarr { int *data; size_t len, cap; };

static void da_push(struct dynarr *a, int v) {
    if (a->len == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 2;
        int *nd = realloc(a->data, nc * sizeof *nd);
        if (!nd) { puts("oom"); exit(99); }
        a->data = nd;
        a->cap = nc;
    }
    a->data[a->len++] = v;
}

int main(void) {
    unsigned n = __VERIFIER_nondet_uint() % 40u;
    int seed = __VERIFIER_nondet_int();

    struct node *list = NULL;
    for (unsigned i = 0; i < n; i++) list = push(list, (int)(((unsigned)seed ^ (i * 2654435761u)) % 97u));
    list = reverse(list);
    int removed = 0;
    list = remove_if_even(list, &removed);
    int cnt = 0, sum = 0;
    for (struct node *p = list; p; p = p->next) { cnt++; sum += p->value; }
    printf("n=%u removed=%d remaining=%d sum=%d\n", n, removed, cnt, sum);
    if (list) printf("first=%d\n", list->value);
    free_list(list);

    /* calloc must be zeroed */
    size_t m = (n % 10u) + 1u;
    long *z = calloc(m, sizeof *z);
    if (!z) return 98;
    long zs = 0;
    for (size_t i = 0; i < m; i++) zs += z[i];
    for (size_t i = 0; i < m; i++) z[i] = (long)i * seed;
    printf("calloc m=%zu zero_sum=%ld last=%ld\n", m, zs, z[m - 1]);
    free(z);

    /* growing a char buffer with realloc */
    size_t cap = 4, len = 0;
    char *buf = malloc(cap);
    if (!buf) return 98;
    for (unsigned i = 0; i < n; i++) {
        if (len + 2 > cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); return 98; }
            buf = nb;
        }
        buf[len++] = (char)('a' + ((unsigned)seed + i) % 26u);
    }
    buf[len] = '\0';
    printf("buf(len=%zu cap=%zu)=%s\n", len, cap, buf);
    char *copy = malloc(len + 1);
    if (!copy) { free(buf); return 98; }
    memcpy(copy, buf, len + 1);
    free(buf);
    printf("copy=%s\n", copy);
    free(copy);

    struct dynarr a = { NULL, 0, 0 };
    for (unsigned i = 0; i < n * 2; i++) da_push(&a, (int)(i * i) - seed % 50);
    long ds = 0;
    for (size_t i = 0; i < a.len; i++) ds += a.data[i];
    printf("dynarr len=%zu cap=%zu sum=%ld\n", a.len, a.cap, ds);
    free(a.data);

    /* shrink with realloc, and realloc(NULL, ...) */
    int *r = realloc(NULL, 16 * sizeof(int));
    if (!r) return 98;
    for (int i = 0; i < 16; i++) r[i] = i * 3;
    r = realloc(r, 4 * sizeof(int));
    if (!r) return 98;
    printf("shrunk=%d %d %d %d\n", r[0], r[1], r[2], r[3]);
    free(r);
    free(NULL);

    return removed & 15;
}
