/* One input never ends its run: what a time-out is for. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 7) {
        volatile unsigned spins = 0;
        for (;;) spins++;
    }
    return x > 100;
}
