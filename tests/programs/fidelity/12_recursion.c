/* Recursion: factorial, fibonacci, gcd, mutual recursion, Ackermann (tiny), recursive BST on the heap. */
#include <stdio.h>
#include <stdlib.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

static unsigned long long fact(unsigned n) { return n <= 1 ? 1ULL : n * fact(n - 1); }
static unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static unsigned ack(unsigned m, unsigned n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int hanoi_moves;
static void hanoi(int n, char from, char to, char via, int print) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to, print);
    hanoi_moves++;
    if (print) printf("%c->%c ", from, to);
    hanoi(n - 1, via, to, from, print);
}

struct tree { int key; int count; struct tree *l, *r; };

static struct tree *insert(struct tree *t, int key) {
    if (!t) {
        t = malloc(sizeof *t);
        if (!t) exit(99);
        t->key = key; t->count = 1; t->l = t->r = NULL;
        return t;
    }
    if (key < t->key) t->l = insert(t->l, key);
    else if (key > t->key) t->r = insert(t->r, key);
    else t->count++;
    return t;
}
static int height(const struct tree *t) {
    if (!t) return 0;
    int a = height(t->l), b = height(t->r);
    return 1 + (a > b ? a : b);
}
static void inorder(const struct tree *t) {
    if (!t) return;
    inorder(t->l);
    printf("%d", t->key);
    if (t->count > 1) printf("x%d", t->count);
    putchar(' ');
    inorder(t->r);
}
static int tsum(const struct tree *t) { return t ? t->key * t->count + tsum(t->l) + tsum(t->r) : 0; }
static void tfree(struct tree *t) { if (!t) return; tfree(t->l); tfree(t->r); free(t); }

static int sum_digits(unsigned n) { return n < 10 ? (int)n : (int)(n % 10) + sum_digits(n / 10); }

int main(void) {
    unsigned u = __VERIFIER_nondet_uint();
    unsigned n = u % 21u;
    printf("fact(%u)=%llu\n", n, fact(n));
    printf("fib(%u)=%u\n", n, fib(n));
    unsigned a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint();
    printf("gcd(%u,%u)=%u\n", a, b, gcd(a, b));
    unsigned m = u % 200u;
    printf("even(%u)=%d odd=%d\n", m, is_even(m), is_odd(m));
    unsigned am = (u >> 8) % 3u, an = (u >> 12) % 5u;
    printf("ack(%u,%u)=%u\n", am, an, ack(am, an));
    int hn = (int)((u >> 4) % 8u);
    hanoi(hn, 'A', 'C', 'B', hn <= 3);
    printf("\nhanoi(%d) moves=%d\n", hn, hanoi_moves);
    printf("digitsum=%d\n", sum_digits(a));

    struct tree *root = NULL;
    int cnt = (int)((u >> 16) % 30u);
    for (int i = 0; i < cnt; i++) root = insert(root, __VERIFIER_nondet_int() % 50);
    inorder(root);
    printf("\nheight=%d sum=%d\n", height(root), tsum(root));
    tfree(root);
    return (int)(fib(n) & 7);
}
