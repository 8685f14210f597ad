/* Concolic-walk benchmark: roots and rounding. */
#include <math.h>

int hypot_level(double a, double b) {
    if (!(a > 0.1 && a < 1.5 && b > 1 && b < 4)) return 0;
    if (fabs(hypot(a, b) - 2.5) < 1e-9) return 1;
    return 0;
}

int sqrt_sum(double x, double y) {
    if (!(x > 0 && x < 100 && y > 0 && y < 100)) return 0;
    if (x > 2 * y && fabs(sqrt(x) + sqrt(y) - 13.0) < 1e-9) return 1;
    return 0;
}

int cbrt_level(double x) {
    if (!(x > -100 && x < 100)) return 0;
    if (fabs(cbrt(x) - 2.7) < 1e-12) return 1;
    return 0;
}

/* Exactly expressible in IEEE arithmetic: Z3 can do this one. */
int sqrt_floor(double x) {
    if (!(x > 0 && x < 1000)) return 0;
    if (floor(sqrt(x)) == 17 && x < 300) return 1;
    return 0;
}

/* The larger root of a x^2 + b x + c = 0 at a given place. */
int quadratic_root(double a, double b, double c) {
    if (!(a > 0.5 && a < 10 && b > -10 && b < 10 && c > -10 && c < 10)) return 0;
    double d = b * b - 4 * a * c;
    if (d < 0) return 0;
    double x = (-b + sqrt(d)) / (2 * a);
    if (fabs(x - 1.5) < 1e-9) return 1;
    return 0;
}

int fmod_window(double x) {
    if (!(x > 0 && x < 1000)) return 0;
    if (fmod(x, 7.3) > 7.29 && x > 500) return 1;
    return 0;
}
