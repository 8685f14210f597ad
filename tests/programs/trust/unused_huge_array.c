/* An array far larger than the stack that the run leaves untouched when the count is not a
 * multiple of 5: natively it returns 1, with no fault (the shape of sv-benchmarks'
 * array-tiling tasks, whose count is an input). Cairn once predicted a stack overflow at the
 * declaration, which replay contradicted. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 1000000)
        return 0;
    int cells[n];
    if (n % 5 != 0)
        return 1;
    for (int i = 0; i < n; i++)
        cells[i] = i;
    return cells[n - 1] & 1;
}
