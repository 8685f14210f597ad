/* A small lexer: counts numbers, identifiers and operators in 6 input characters. The state
   machine's variables carry values between iterations (loop-carried pairs). */
extern char __VERIFIER_nondet_char(void);
#include <stdio.h>
int numbers, idents, ops;
int main(void) {
    int state = 0, len = 0, value = 0;
    for (int k = 0; k < 6; k++) {
        char c = __VERIFIER_nondet_char();
        int digit = c >= '0' && c <= '9';
        int alpha = (c >= 'a' && c <= 'z') || c == '_';
        if (state == 1 && !digit) {
            numbers++;
            state = 0;
        } else if (state == 2 && !digit && !alpha) {
            idents++;
            state = 0;
        }
        if (state == 0) {
            if (digit) {
                state = 1;
                value = c - '0';
            } else if (alpha) {
                state = 2;
                len = 1;
            } else if (c == '+' || c == '-' || c == '*') {
                ops++;
            }
        } else if (state == 1) {
            value = value * 10 + (c - '0');
        } else {
            len = len + 1;
        }
    }
    if (state == 1 && value > 99)
        printf("long number\n");
    if (state == 2 && len > 3)
        printf("long identifier\n");
    printf("%d %d %d\n", numbers, idents, ops);
    return 0;
}
