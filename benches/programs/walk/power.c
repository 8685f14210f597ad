/* Concolic-walk benchmark: a power function. `power` is kept opaque (--opaque power): the
   walk treats it as one function of (x, n) instead of following its loop. */
#include <math.h>

// opaque: power
double power(double x, int n) {
    double r = 1;
    for (int i = 0; i < n; i++) r *= x;
    return r;
}

int power_window(double x, int n) {
    if (n < 2 || n > 12 || !(x > 1 && x < 3)) return 0;
    double p = power(x, n);
    if (p > 1000 && p < 1000.5) return 1;
    return 0;
}

int power_match(double x, double y) {
    if (!(x > 1 && x < 10 && y > 1 && y < 10)) return 0;
    if (fabs(power(x, 3) - power(y, 2) - 7) < 1e-9 && x > 2) return 1;
    return 0;
}
