/* Trial-division factorization (2 <= n <= 200). Infeasible: n's value as passed (line 6) with
   n > 1 false (line 19); last = 1 (line 9) reaching the return; count's first values (main's
   start, line 8) reaching main's test (line 28); count == 1 right after line 15. */ extern int __VERIFIER_nondet_int(void);
#include <stdio.h>
int count;
int factor(int n) {
    int d, last;
    count = 0;
    last = 1;
    d = 2;
    while (d * d <= n) {
        while (n % d == 0) {
            n = n / d;
            last = d;
            count = count + 1;
        }
        d = d + 1;
    }
    if (n > 1) { last = n; count = count + 1; }
    return last;
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 2 || n > 200)
        return 0;
    int big = factor(n);
    if (count == 1)
        printf("prime %d\n", big);
    else if (big > 10)
        printf("large factor %d\n", big);
    return 0;
}
