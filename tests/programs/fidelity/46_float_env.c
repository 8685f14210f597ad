/* The floating-point environment saved and restored (fegetenv, fesetenv, feholdexcept,
 * feupdateenv, FE_DFL_ENV) around a rounding mode an input picks: the mode each restores, and
 * a quotient computed in it. */
#include <fenv.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);
extern double __VERIFIER_nondet_double(void);

static const int modes[4] = {FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO};

int main(void) {
    int k = __VERIFIER_nondet_int() & 3, j = __VERIFIER_nondet_int() & 3;
    double x = __VERIFIER_nondet_double();
    fenv_t saved, held;
    fegetenv(&saved);
    fesetround(modes[k]);
    printf("%d %a\n", fegetround(), x / 3.0);
    feholdexcept(&held);
    fesetround(modes[j]);
    printf("%d %a\n", fegetround(), x / 7.0);
    feupdateenv(&held);
    printf("%d %a\n", fegetround(), x / 11.0);
    fesetenv(&saved);
    printf("%d %a\n", fegetround(), x / 13.0);
    fesetround(modes[j]);
    fesetenv(FE_DFL_ENV);
    printf("%d %a\n", fegetround(), x / 17.0);
    return 0;
}
