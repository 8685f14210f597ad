/* A 32-bit program's double arithmetic (run with --data-model ilp32): in x87 registers
 * 1e16 + 1.0 keeps its 1, in IEEE double it rounds away, and two compilers' x87 builds of this
 * program disagreed on the error call. Cairn's native builds compute in SSE, as IEEE and the
 * interpreter do: the error call is unreachable. */
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);

int main(void) {
    double a = __VERIFIER_nondet_double();
    if (a != 1e16)
        return 0;
    double b = a + 1.0;
    if (b - a == 1.0)
        reach_error();
    return 0;
}
