/* An array far larger than the stack: natively its declaration only moves the stack pointer,
 * and the run faults at the first access, after the input's branch. Cairn stops at the
 * declaration, so proving that branch unreachable would be wrong. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int() > 0 ? 1000 : 999;
    int big[n][n][n];
    int k = __VERIFIER_nondet_int();
    if (k > 5)
        k = 5;
    big[0][0][0] = k;
    return big[0][0][0];
}
