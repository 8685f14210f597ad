/* Four nested equalities on four inputs read up front (CREST's uniform_test shape): each
 * solved flip opens the next guard, so every search strategy covers the eight outcomes in
 * five runs, one per flip after the first. No input here is stdin. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    int c = __VERIFIER_nondet_int();
    int d = __VERIFIER_nondet_int();
    if (a == 5) {
        if (b == 19) {
            if (c == 7) {
                if (d == 4) {
                    return 1;
                }
            }
        }
    }
    return 0;
}
