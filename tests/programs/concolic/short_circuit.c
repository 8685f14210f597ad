/* Short-circuit evaluations in value and loop contexts: clang computes the last operand of
   a || b into a value, gcc branches on it (and gcov counts it). Every branch is feasible. */
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

static int is_ident(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }
static int in_range(int x, int lo, int hi) { return x >= lo && x <= hi; }
static int sign_flags(int a, int b) { return !(a < 0 || b < 0); }
static int mixed(int a, int b, int c) { return a > 10 && (b == 3 || c == 7); }
static int take(int v) { return v * 2; }

int main(void) {
    char s[4];
    for (int i = 0; i < 4; i++)
        s[i] = __VERIFIER_nondet_char();
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    int c = __VERIFIER_nondet_int();
    int n = 0;
    while (n < 4 && is_ident(s[n]))
        n++;
    int ok = in_range(a, 5, 50);
    int both = sign_flags(b, c);
    int m = mixed(a, b, c);
    int t = take(b > 100 || c < -100);
    int r = 0;
    if (n == 4)
        r += 1;
    if (ok)
        r += 2;
    if (both)
        r += 4;
    if (m)
        r += 8;
    if (t)
        r += 16;
    return r == 31 ? 1 : 0;
}
