/* Control flow: for/while/do-while with break/continue, nested loops, goto, ternaries, short-circuit with side effects. */
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

static int calls;
static int touch(int v) { calls++; printf("touch(%d) ", v); return v; }

static int collatz_steps(unsigned n) {
    int steps = 0;
    if (n == 0) return -1;
    while (n != 1 && steps < 100) {
        n = (n & 1u) ? 3u * n + 1u : n / 2u;
        steps++;
    }
    return steps;
}

static int find_pair(const int *v, int n, int target, int *oi, int *oj) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (v[i] + v[j] == target) { *oi = i; *oj = j; goto found; }
    return 0;
found:
    return 1;
}

static int retry_loop(unsigned seed) {
    int attempts = 0;
again:
    attempts++;
    seed = seed * 1103515245u + 12345u;
    if ((seed >> 16) % 4u != 0u && attempts < 10) goto again;
    return attempts;
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    unsigned u = __VERIFIER_nondet_uint();
    int small = x % 50;

    /* short-circuit: side effects happen only when evaluated */
    int r1 = touch(small > 0) && touch(small > 10);
    int r2 = touch(small < 0) || touch(small < -10);
    int r3 = (small == 0) ? touch(100) : touch(200);
    printf("\nr1=%d r2=%d r3=%d calls=%d\n", r1, r2, r3, calls);
    int z = 0;
    int r4 = (u & 1u) && (z = 5, 1);
    int r5 = (u & 2u) || (z += 7);
    printf("r4=%d r5=%d z=%d\n", r4, r5, z);

    /* for with break and continue */
    int sum = 0, last = -1;
    for (int i = 0; i < 100; i++) {
        if (i % 3 == 0) continue;
        if (sum > (int)(u % 1000u)) { last = i; break; }
        sum += i;
    }
    printf("sum=%d last=%d\n", sum, last);

    /* while and do-while */
    unsigned w = u, digits = 0;
    while (w) { w /= 10u; digits++; }
    unsigned d = u;
    int dw = 0;
    do { dw++; d >>= 4; } while (d);
    printf("digits=%u hexdigits=%d\n", digits, dw);
    printf("collatz(%u)=%d\n", u % 10000u, collatz_steps(u % 10000u));

    /* nested loops, goto out of both */
    int v[8];
    for (int i = 0; i < 8; i++) v[i] = (int)((u >> (i * 4)) & 15u);
    int fi = -1, fj = -1;
    int target = (x & 31);
    if (find_pair(v, 8, target, &fi, &fj)) printf("pair %d+%d=%d at %d,%d\n", v[fi], v[fj], target, fi, fj);
    else printf("no pair for %d\n", target);
    printf("retries=%d\n", retry_loop(u));

    /* ternary chains and comma */
    const char *sz = small < -25 ? "very negative" : small < 0 ? "negative" : small == 0 ? "zero" : small < 25 ? "positive" : "very positive";
    int t = (small > 0 ? small : -small) > 20 ? 1 : 0;
    int cm = (t++, t + 10);
    printf("class=%s t=%d cm=%d\n", sz, t, cm);

    /* loop with multiple exits */
    int i = 0, found = -1;
    while (1) {
        if (i >= 8) break;
        if (v[i] == 0) { found = i; break; }
        i++;
    }
    printf("first zero nibble=%d\n", found);
    int code = found < 0 ? 9 : found;
    return code;
}
