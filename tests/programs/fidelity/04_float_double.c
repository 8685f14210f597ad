/* Floats and doubles: arithmetic, NaN-aware comparisons, guarded conversions, printf formats, libm. */
#include <stdio.h>
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);

static void show(const char *name, double v) {
    if (isnan(v)) { printf("%s=nan\n", name); return; }
    if (isinf(v)) { printf("%s=%sinf\n", name, v < 0 ? "-" : "+"); return; }
    printf("%s: f=%f e=%e g=%g p3=%.3f w=%10.4f a=%a\n", name, v, v, v, v, v, v);
}

static int to_int_checked(double d, int *out) {
    if (!(d > -2147483649.0 && d < 2147483648.0)) return 0;   /* false for NaN too */
    *out = (int)d;
    return 1;
}

int main(void) {
    double a = __VERIFIER_nondet_double();
    double b = __VERIFIER_nondet_double();
    float f = __VERIFIER_nondet_float();
    int i = __VERIFIER_nondet_int();

    show("a", a);
    show("b", b);
    show("f", (double)f);
    show("sum", a + b);
    show("diff", a - b);
    show("prod", a * b);
    if (b != 0.0) show("quot", a / b); else puts("quot: b is zero");

    /* comparisons; every comparison with NaN is false except != */
    printf("lt=%d le=%d eq=%d ne=%d gt=%d unord=%d\n", a < b, a <= b, a == b, a != b, a > b,
           isunordered(a, b) ? 1 : 0);
    printf("isnan(a)=%d isinf(a)=%d isfinite(a)=%d signbit(a)=%d\n",
           isnan(a) ? 1 : 0, isinf(a) ? 1 : 0, isfinite(a) ? 1 : 0, signbit(a) ? 1 : 0);

    /* int -> float/double conversions are always defined */
    double di = (double)i;
    float fi = (float)i;
    printf("di=%.1f fi=%.1f fi_exact=%d\n", di, (double)fi, (double)fi == di);
    unsigned u = (unsigned)i;
    printf("du=%.1f\n", (double)u);

    /* float -> int, guarded */
    int back;
    if (to_int_checked(a, &back)) printf("(int)a=%d\n", back); else puts("(int)a out of range");
    if (to_int_checked((double)f, &back)) printf("(int)f=%d\n", back); else puts("(int)f out of range");
    if (a >= 0.0 && a < 18446744073709551616.0)
        printf("(ull)a=%llu\n", (unsigned long long)a);

    /* float vs double precision */
    float third_f = 1.0f / 3.0f;
    double third_d = 1.0 / 3.0;
    printf("third_f=%.10f third_d=%.17f\n", (double)third_f, third_d);
    float acc_f = 0.0f; double acc_d = 0.0;
    for (int k = 0; k < 1000; k++) { acc_f += 0.1f; acc_d += 0.1; }
    printf("acc_f=%.6f acc_d=%.12f\n", (double)acc_f, acc_d);
    if (isfinite(a) && fabs(a) < 1e30) {
        float af = (float)a;
        show("a_as_float", (double)af);
    }

    /* libm with guarded domains */
    if (isfinite(a) && fabs(a) < 1e6) {
        printf("fabs=%.6f floor=%.1f ceil=%.1f trunc=%.1f round=%.1f\n",
               fabs(a), floor(a), ceil(a), trunc(a), round(a));
        printf("sin=%.6f cos=%.6f\n", sin(a), cos(a));
        if (a >= 0.0) printf("sqrt=%.6f\n", sqrt(a));
        if (a > 0.0) printf("log=%.6f log10=%.6f\n", log(a), log10(a));
        if (a < 700.0) printf("exp=%.6e\n", exp(a));
        if (isfinite(b) && b != 0.0) printf("fmod=%.6f\n", fmod(a, b));
        printf("pow2=%.6e\n", pow(a, 2.0));
        if (a > 0.0 && a < 100.0) printf("pow=%.6e\n", pow(a, 1.5));
    }
    float sf = (float)(i % 1000) / 7.0f;
    printf("sqrtf=%.4f fabsf=%.4f\n", (double)sqrtf(fabsf(sf)), (double)fabsf(sf));
    printf("fmin=%.2f fmax=%.2f\n", fmin(1.5, (double)(i % 3)), fmax(-2.5, (double)(i % 5)));
    printf("const: %.3f %e %g %g %a\n", 3.14159, 12345.678, 0.0001, 1e20, 1.0);

    int code = 0;
    if (isnan(a)) code = 1;
    else if (a < 0) code = 2;
    else if (a > 1000.0) code = 3;
    return code;
}
