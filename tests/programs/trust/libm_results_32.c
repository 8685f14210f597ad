/* Math functions in a 32-bit program (run with --data-model ilp32), as preprocessed regression
 * tasks call them: `long` results of 32 bits, __signbit's i386 value, exact functions. Every
 * check holds natively; Cairn once made the results inputs and "reached" each error call. */
extern void reach_error(void);
extern long lround(double), lrint(double);
extern double fdim(double, double), remainder(double, double), fmod(double, double);
extern int __signbit(double), ilogb(double);
extern long long llround(double);

static void check(int c) {
    if (!c)
        reach_error();
}

int main(void) {
    double x = 3.5;
    check(lround(x) == 4);
    check(lrint(-2.5) == -2);
    /* Too large for a 32-bit long: i386 glibc's "integer indefinite" (a volatile operand, or
     * gcc folds the call itself and saturates). */
    volatile double big = 1e10;
    check(lround(big) == -2147483647L - 1);
    check(fdim(1.0, 4.0) == 0.0 && fdim(4.0, 1.0) == 3.0);
    check(remainder(5.0, 3.0) == -1.0);
    check(fmod(-5.5, 2.0) == -1.5);
    check(__signbit(-0.0) != 0 && __signbit(x) == 0);
    /* Integer results that are the same in both builds (INT_MIN for zero). */
    volatile double zero = 0.0;
    check(ilogb(big) == 33 && ilogb(zero) == -2147483647 - 1);
    check(llround(big) == 10000000000LL);
    return 0;
}
