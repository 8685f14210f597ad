/* Source names from the debug information: two loop counters named `i` (LLVM calls the second
   slot `i1`), a parameter (slot `x.addr`), a static local (symbol `f.calls`), a shadowing
   block-scope `s`. */
extern int __VERIFIER_nondet_int(void);
int total;
int f(int x) {
    static int calls;
    calls = calls + 1;
    int s = 0;
    for (int i = 0; i < x; i++)
        s += i;
    for (int i = 0; i < 3; i++) {
        int s = i * 2;
        total += s;
    }
    return s + calls;
}
int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 0 || n > 5)
        return 0;
    int r = f(n);
    return r > 4;
}
