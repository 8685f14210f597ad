#include <stdio.h>
/* Triangle classification. Infeasible pairs of kind: 3 (line 12) with the outcomes
   "kind != 3" true (line 15) and "kind == 1" true (line 17); 1 (line 14) with "kind != 3"
   false, "kind == 1" false, and the use at line 19 (line 18 always redefines it first). */ extern int __VERIFIER_nondet_int(void);
int classify(int a, int b, int c) {
    int kind;
    if (a <= 0 || b <= 0 || c <= 0)
        return -1;
    if (a + b <= c || a + c <= b || b + c <= a)
        return 0;
    if (a == b && b == c)
        kind = 3;
    else
        kind = 1;
    if (kind != 3 && a != b && b != c && a != c)
        goto scalene;
    if (kind == 1)
        kind = 2;
    return kind;
scalene:
    kind = 1;
    return kind;
}

int main(void) {
    int a, b, c;
    a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();
    /* inputs */
    printf("%d\n", classify(a, b, c));
    return 0;
}
