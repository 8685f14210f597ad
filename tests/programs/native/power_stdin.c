/* A loop bounded by a number read from stdin. */
#include <stdio.h>

static long power(long x, unsigned y) {
    long r = 1;
    for (unsigned i = 0; i < y; i++) r *= x;
    return r;
}

int main(void) {
    int x;
    unsigned y;
    if (scanf("%d %u", &x, &y) != 2) return 1;
    long p = power(x, y);
    if (p == 0) printf("zero\n");
    else if (p < 0) printf("negative\n");
    else if (p == 1) printf("one\n");
    else if (p > 1000000) printf("large\n");
    else printf("positive\n");
    if (y > 20 && x == 2) printf("overflowed\n");
    return 0;
}
