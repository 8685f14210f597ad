/* glibc's classification functions, as older <math.h> macros call them: Cairn once had no
 * model of them, so their results were inputs, and a replay that stubbed them "confirmed" an
 * infinite zero. Also a rounding mode the interpreter does not follow. */
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
extern int __isinf(double), __isnan(double), __finite(double);
extern int fesetround(int);

int main(void) {
    double d = __VERIFIER_nondet_double();
    if (__isinf(d) && d == 0.0)
        reach_error();
    if (__isnan(d) && __finite(d))
        reach_error();
    if (d > 1.0 && d < 2.0) {
        fesetround(0xc00); /* toward zero */
        double r = __builtin_rint(d);
        if (r != 1.0)
            reach_error();
    }
    return 0;
}
