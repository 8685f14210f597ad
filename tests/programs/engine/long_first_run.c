// Every run reads a million inputs in a loop of constant bound, so each interpreted run hits
// the step limit whatever the values are, and retrying the first run with smaller values
// cannot help. Such retries once took the whole budget: the model checker never had a turn to
// prove the error call below unreachable.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

#define N 1000000
static int values[N];

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 10 && x < 5)
        reach_error();
    int nonzero = 0;
    for (int i = 0; i < N; i++) {
        values[i] = __VERIFIER_nondet_int();
        if (values[i] != 0)
            nonzero++;
    }
    return nonzero > N / 2;
}
