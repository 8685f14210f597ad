/* A loop bounded by a command-line argument (cairn gen --sym-args 2 2 4). */
#include <stdio.h>
#include <stdlib.h>

static long power(long x, unsigned y) {
    long r = 1;
    for (unsigned i = 0; i < y; i++) r *= x;
    return r;
}

int main(int argc, char **argv) {
    if (argc < 3) return 1;
    int x = atoi(argv[1]);
    unsigned y = (unsigned)strtoul(argv[2], 0, 10);
    long p = power(x, y);
    if (p == 0) printf("zero\n");
    else if (p < 0) printf("negative\n");
    else if (p == 1) printf("one\n");
    else if (p > 1000000) printf("large\n");
    else printf("positive\n");
    if (y > 20 && x == 2) printf("overflowed\n");
    return 0;
}
