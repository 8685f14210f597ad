/* A loop bounded by an input read with __VERIFIER_nondet_uint. */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);

static long power(long x, unsigned y) {
    long r = 1;
    for (unsigned i = 0; i < y; i++) r *= x;
    return r;
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    unsigned y = __VERIFIER_nondet_uint();
    long p = power(x, y);
    if (p == 0) printf("zero\n");
    else if (p < 0) printf("negative\n");
    else if (p == 1) printf("one\n");
    else if (p > 1000000) printf("large\n");
    else printf("positive\n");
    if (y > 20 && x == 2) printf("overflowed\n");
    return 0;
}
