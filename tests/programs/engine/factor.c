// Nested loops bounded by an input: factorizes every number up to n. Any n above a few
// thousand runs out of steps, while every branch is reached with n below 100.
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 1)
        return 0;
    int primes = 0, powers = 0, semiprimes = 0;
    for (int i = 2; i <= n; i++) {
        int m = i, factors = 0, distinct = 0;
        for (int d = 2; d * d <= m; d++) {
            if (m % d == 0) {
                distinct++;
                while (m % d == 0) {
                    m /= d;
                    factors++;
                }
            }
        }
        if (m > 1) {
            factors++;
            distinct++;
        }
        if (factors == 1)
            primes++;
        else if (distinct == 1)
            powers++;
        else if (factors == 2)
            semiprimes++;
    }
    if (primes == 0)
        return 1;
    if (powers >= 3 && semiprimes >= 5 && primes < 9)
        return 2; // n is 21 or 22
    if (primes >= 25)
        return 3;
    return 4;
}
