/* Select- and phi-heavy code: nested ternaries, min/max chains, median, loops with several induction variables. */
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);

static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }
static int max3(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
static int median3(int a, int b, int c) {
    return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}
static long long llmin(long long a, long long b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }

static const char *grade(int s) {
    return s >= 90 ? "A" : s >= 80 ? "B" : s >= 70 ? "C" : s >= 60 ? "D" : s >= 0 ? "F" : "?";
}

static int sign3(int v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

int main(void) {
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();
    unsigned u = __VERIFIER_nondet_uint();
    long long ll = __VERIFIER_nondet_longlong();

    printf("min3=%d max3=%d median=%d\n", min3(a, b, c), max3(a, b, c), median3(a, b, c));
    printf("llmin=%lld umax=%u\n", llmin(ll, (long long)a), umax(u, (unsigned)b));
    int score = (int)(u % 120u) - 10;
    printf("score=%d grade=%s sign=%d,%d,%d\n", score, grade(score), sign3(a), sign3(b), sign3(c));

    /* conditional selects on mixed types */
    unsigned char small = (unsigned char)(a < 0 ? 0 : a > 255 ? 255 : a);
    long long pick = (u & 1) ? ll : (u & 2) ? (long long)a : (long long)u;
    double dsel = (b & 1) ? 0.5 : -0.25;
    printf("small=%u pick=%lld dsel=%.2f\n", small, pick, dsel);

    /* loop with several induction variables and a running min/max */
    int lo = a, hi = a;
    unsigned x = u;
    int i, j, k;
    long long acc = 0;
    for (i = 0, j = 100, k = 1; i < j; i += 3, j -= 2, k = (k * 3) % 101) {
        x = x * 1664525u + 1013904223u;
        int v = (int)(x >> 8) - (1 << 23);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        acc += (i & 1) ? k : -k;
        acc = acc > 5000 ? acc - 5000 : acc < -5000 ? acc + 5000 : acc;
    }
    printf("i=%d j=%d k=%d lo=%d hi=%d acc=%lld\n", i, j, k, lo, hi, acc);

    /* phi-heavy: values swapped and rotated through a loop with early exits */
    int p = a % 1000, q = b % 1000, r = c % 1000, steps = 0;
    while (steps < 50) {
        int t = p;
        p = q > r ? q - r : r - q;
        q = r;
        r = t;
        steps++;
        if (p == 0 && q == 0) break;
        if (steps > 30 && p == r) break;
    }
    printf("p=%d q=%d r=%d steps=%d\n", p, q, r, steps);

    /* branch-free style abs/clamp via selects */
    int clamped = a < -1000 ? -1000 : a > 1000 ? 1000 : a;
    int absc = clamped < 0 ? -clamped : clamped;
    unsigned bitsel = (u & 0xF0F0F0F0u) | (~u & 0x0F0F0F0Fu);
    int cnt = 0;
    for (unsigned t = 0, m = 1u, n = 0; t < 32u; t++, m <<= 1, n += t)
        cnt += (bitsel & m) ? (int)(n & 1u) + 1 : 0;
    printf("clamped=%d abs=%d bitsel=%08x cnt=%d\n", clamped, absc, bitsel, cnt);
    return median3(a & 7, b & 7, c & 7) + (sign3(a) + 1) * 8;
}
