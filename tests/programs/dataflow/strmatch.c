/* Naive matching of 2 chars in 4; infeasible: loops' first values exiting, j = 0 at j == 2. */
extern char __VERIFIER_nondet_char(void);
#include <stdio.h>
char text[5], pat[3];
int find(void) {
    int i, j, found;
    found = -1;
    for (i = 0; i + 2 <= 4; i++) {
        j = 0;
        while (j < 2 && text[i + j] == pat[j])
            j++;
        if (j == 2) {
            found = i;
            break;
        }
    }
    return found;
}

int main(void) {
    for (int k = 0; k < 4; k++)
        text[k] = __VERIFIER_nondet_char();
    pat[0] = __VERIFIER_nondet_char();
    pat[1] = __VERIFIER_nondet_char();
    int at = find();
    if (at >= 0)
        printf("found at %d\n", at);
    else
        printf("not found\n");
    return at > 1;
}
