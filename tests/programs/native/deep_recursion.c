/* A recursive primality check: the recursion is as deep as the square root of the input
 * (tens of thousands of calls), and the interesting outcomes need large primes. */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);

static int divides_none(int n, int d) {
    if ((long)d * d > n) return 1;
    if (n % d == 0) return 0;
    return divides_none(n, d + 1);
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 2) return 0;
    int prime = divides_none(n, 2);
    if (prime) {
        if (n > 1000000) {
            printf("a large prime\n");
            if (n % 10 == 3) printf("ending in 3\n");
            if (n % 4 == 1) printf("a sum of two squares\n");
        } else if (n > 1000) {
            printf("a medium prime\n");
        } else {
            printf("a small prime\n");
        }
    } else if (n > 1000000 && n % 2 == 1) {
        printf("a large odd composite\n");
    } else {
        printf("composite\n");
    }
    return 0;
}
