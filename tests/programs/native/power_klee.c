/* A loop bounded by an input made symbolic with klee_make_symbolic: random first bytes would
 * make it run billions of times. */
#include <stdio.h>
extern void klee_make_symbolic(void *p, unsigned long size, const char *name);

static long power(long x, unsigned y) {
    long r = 1;
    for (unsigned i = 0; i < y; i++) r *= x;
    return r;
}

int main(void) {
    int x;
    unsigned y;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(&y, sizeof y, "y");
    long p = power(x, y);
    if (p == 0) printf("zero\n");
    else if (p < 0) printf("negative\n");
    else if (p == 1) printf("one\n");
    else if (p > 1000000) printf("large\n");
    else printf("positive\n");
    if (y > 20 && x == 2) printf("overflowed\n");
    return 0;
}
