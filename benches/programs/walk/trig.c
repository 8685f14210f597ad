/* Concolic-walk benchmark: trigonometry. */
#include <math.h>

int tan_steep(double a) {
    if (!(a > 0.1 && a < 1.5)) return 0;
    if (tan(a) > 5) return 1;
    return 0;
}

int sin_plus_cos(double x, double y) {
    if (!(x > -3.2 && x < 3.2 && y > -3.2 && y < 3.2)) return 0;
    if (sin(x) + cos(y) > 1.95) return 1;
    return 0;
}

int sin_level(double x) {
    if (!(x > 0 && x < 3)) return 0;
    if (fabs(sin(x) - 0.3) < 1e-9) return 1;
    return 0;
}

int atan2_angle(double x, double y) {
    if (!(x > -10 && x < 10 && y > -10 && y < 10)) return 0;
    if (fabs(atan2(y, x) + 2.5) < 1e-6) return 1;
    return 0;
}

int asin_vs_acos(double x) {
    if (!(x > -1 && x < 1)) return 0;
    if (asin(x) > 2 * acos(x)) return 1;
    return 0;
}

/* Two angles whose sines and cosines must agree at once. */
int angle_pair(double a, double b) {
    if (!(a > 0 && a < 6.28 && b > 0 && b < 6.28)) return 0;
    if (fabs(sin(a) - cos(b)) < 1e-7 && a > b + 1) return 1;
    return 0;
}

/* Single precision. */
int sinf_cosf(float x, float y) {
    if (!(x > -3.0f && x < 3.0f && y > -3.0f && y < 3.0f)) return 0;
    if (sinf(x) * cosf(y) > 0.49f) return 1;
    return 0;
}

/* Heading of a vector against a bound, as collision-avoidance code computes it. */
int heading(double vx, double vy) {
    if (!(vx > -500 && vx < 500 && vy > -500 && vy < 500)) return 0;
    double speed = sqrt(vx * vx + vy * vy);
    if (speed < 100) return 0;
    double hdg = atan2(vy, vx) * 180 / 3.141592653589793;
    if (hdg > 44.99 && hdg < 45.01 && speed > 480) return 1;
    return 0;
}
