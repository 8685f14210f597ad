#include <stdio.h>
/* The paper's power function: the initial definition of res never reaches the uses after
   the negative-exponent branch, because the loop always runs at least once there. */ extern int __VERIFIER_nondet_int(void);
double power(int x, int y) {
    int exp;
    double res;
    if (y > 0)
        exp = y;
    else
        exp = -y;
    res = 1;
    while (exp != 0) {
        res *= x;
        exp -= 1;
    }
    if (y < 0) {
        if (x == 0)
            return 0;
        res = 1 / res;
    }
    return res;
}

int main(void) {
    int x, y;
    x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
    /* inputs */
    if (y < -8 || y > 8)
        return 0;
    printf("%g\n", power(x, y));
    return 0;
}
