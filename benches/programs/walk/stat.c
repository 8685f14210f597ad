/* Concolic-walk benchmark: mean and standard deviation of five samples. */
#include <math.h>

int stats(double x0, double x1, double x2, double x3, double x4) {
    double x[5] = {x0, x1, x2, x3, x4};
    double sum = 0;
    for (int i = 0; i < 5; i++) {
        if (!(x[i] > 0 && x[i] < 100)) return 0;
        sum += x[i];
    }
    double mean = sum / 5;
    double var = 0;
    for (int i = 0; i < 5; i++) var += (x[i] - mean) * (x[i] - mean);
    double sd = sqrt(var / 4);
    if (sd < 1e-9) return 2;                   /* all equal */
    if (mean > 50 && sd > 40) return 3;        /* wide and high */
    if (fabs(sd - 12.5) < 1e-6 && fabs(mean - 42) < 1e-6) return 1;
    return 0;
}

/* Coefficient of variation in a narrow band. */
int variation(double a, double b, double c) {
    if (!(a > 1 && a < 50 && b > 1 && b < 50 && c > 1 && c < 50)) return 0;
    double m = (a + b + c) / 3;
    double s = sqrt(((a - m) * (a - m) + (b - m) * (b - m) + (c - m) * (c - m)) / 2);
    if (s / m > 0.7499 && s / m < 0.7501) return 1;
    return 0;
}
