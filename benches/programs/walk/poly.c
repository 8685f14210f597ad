/* Concolic-walk benchmark: polynomials. Each non-static function is one benchmark in unit mode
   (its parameters are the inputs); it returns 1 exactly when its target condition holds. */
#include <math.h>

/* A root of x^3 - 3x + 1 near 0.347. */
int cubic_root(double a) {
    if (!(a > 0.1 && a < 1.5)) return 0;
    if (fabs(a * a * a - 3 * a + 1) < 1e-6) return 1;
    return 0;
}

/* A root of x^4 - 10x^2 + 8.5. */
int quartic_root(double x) {
    if (!(x > -10 && x < 10)) return 0;
    double x2 = x * x;
    if (fabs(x2 * x2 - 10 * x2 + 8.5) < 1e-7) return 1;
    return 0;
}

/* Two variables, a curve intersected with a region. */
int saddle(double x, double y) {
    if (!(x > -5 && x < 5 && y > -5 && y < 5)) return 0;
    if (x * y > 1 && fabs(x * x * y - y * y * x + x - 2.25) < 1e-9) return 1;
    return 0;
}

/* A rational function. */
int rational(double x) {
    if (!(x > 1 && x < 100)) return 0;
    if (fabs((x * x + 1) / (x - 0.5) - 31.7) < 1e-8) return 1;
    return 0;
}

/* Integer cubic: n = 123. */
int int_cubic(int n) {
    if (n < -2000 || n > 2000) return 0;
    if (n * n * n - 1000 * n == 1737867) return 1;
    return 0;
}

/* (x - y)^2 = 49 in disguise, both positive and x large. */
int int_square_gap(int x, int y) {
    if (x < 0 || x > 46000 || y < 0 || y > 46000) return 0;
    if (x > 30000 && x * x + y * y == 2 * x * y + 49) return 1;
    return 0;
}

/* A product of three inputs with a sum constraint (linear part in the polytope). */
int box_volume(double l, double w, double h) {
    if (!(l > 0 && w > 0 && h > 0 && l + w + h < 30)) return 0;
    if (l * w * h > 950) return 1;
    return 0;
}
