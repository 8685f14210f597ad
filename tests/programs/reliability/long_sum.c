/* A sum of 100,000 inputs: a chain of 200,000 additions in the symbolic shadow, which the
 * solver's translation walked recursively until Cairn's own stack overflowed (an abort, every
 * result of the session lost but what was written). Its latest additions stay symbolic. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    long long sum = 0;
    for (int i = 0; i < 100000; i++)
        sum = sum + i + __VERIFIER_nondet_int();
    if (sum == 12345)
        return 1;
    return 0;
}
