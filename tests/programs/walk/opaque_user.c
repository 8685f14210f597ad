/* A user function kept opaque (`--opaque power`): its loop is not followed symbolically; the
   walk moves x and n together, evaluating power() by running it. */
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);

double power(double x, int n) {
    double r = 1;
    for (int i = 0; i < n; i++) r *= x;
    return r;
}

int main(void) {
    double x = __VERIFIER_nondet_double();
    int n = __VERIFIER_nondet_int();
    if (n < 2 || n > 12 || !(x > 1 && x < 3)) return 0;
    double p = power(x, n);
    if (p > 1000 && p < 1000.5) return 1;
    return 2;
}
