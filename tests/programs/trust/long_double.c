/* Long double arithmetic, which the interpreter does not model: a run that reaches it stops
 * there (no proof rests on it), and native runs, the fuzzer's, cover what follows. Old glibc
 * headers classify a double through a dispatch on sizeof with a long double arm no run takes;
 * such a program once was refused as a whole. */
extern int __VERIFIER_nondet_int(void);

static int is_inf(double x) { return x - x != 0; }
static int is_infl(long double x) { return x - x != 0; }
#define IS_INF(x) (sizeof(x) == sizeof(long double) ? is_infl(x) : is_inf(x))

static long double half(long double x) { return x / 2; }

int main(void) {
    int n = __VERIFIER_nondet_int();
    double d = n;
    if (IS_INF(d))
        return 3;
    if (n < 40 || n > 60)
        return 0;
    long double h = half(n);
    if (h > 25)
        return 1;
    return 2;
}
