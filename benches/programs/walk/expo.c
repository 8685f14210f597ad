/* Concolic-walk benchmark: exponentials and logarithms. */
#include <math.h>

int exp_times_log(double a, double b) {
    if (!(a > 0.1 && a < 1.5 && b > 1 && b < 4)) return 0;
    if (exp(a) * log(b) > 5) return 1;
    return 0;
}

int pow_large(double a, double b) {
    if (!(a > 0.1 && a < 1.5 && b > 1 && b < 4)) return 0;
    if (pow(b, a) > 6) return 1;
    return 0;
}

int exp_level(double x) {
    if (!(x > -5 && x < 5)) return 0;
    if (fabs(exp(x) - 7.5) < 1e-10) return 1;
    return 0;
}

int log10_sum(double x, double y) {
    if (!(x > 1 && x < 1000 && y > 1 && y < 1000)) return 0;
    if (log10(x) + log10(y) > 5.9 && x < y) return 1;
    return 0;
}

int cosh_minus_sinh(double x) {
    if (!(x > -10 && x < 10)) return 0;
    if (cosh(x) - sinh(x) < 0.01) return 1;
    return 0;
}

int powf_level(float x) {
    if (!(x > 0.0f && x < 20.0f)) return 0;
    if (powf(x, 2.5f) > 1000.0f && powf(x, 2.5f) < 1001.0f) return 1;
    return 0;
}

/* Compound interest reaching a target within a tolerance. */
int interest(double rate, int years) {
    if (!(rate > 0.001 && rate < 0.2) || years < 1 || years > 40) return 0;
    double v = 1000 * pow(1 + rate, years);
    if (fabs(v - 2500) < 1e-6) return 1;
    return 0;
}
