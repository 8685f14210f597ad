/* Text formatting: fills the words of 10 input characters into lines of at most WIDTH columns
   (a word longer than a line gets a line of its own), a newline ending a paragraph. The pairs
   carry state between iterations: a word's length, the column, a space owed before the next
   word. */
extern char __VERIFIER_nondet_char(void);
#include <stdio.h>
#define WIDTH 6
int lines;
int main(void) {
    int col = 0, word = 0, words = 0, space = 0;
    for (int k = 0; k < 10; k++) {
        char c = __VERIFIER_nondet_char();
        if (c == ' ' || c == '\n') {
            if (word > 0) {
                words++;
                space = 1;
                word = 0;
            }
            if (c == '\n' && col > 0) {
                putchar('\n');
                lines++;
                col = 0;
                space = 0;
            }
        } else if (c >= 'a' && c <= 'z') {
            if (word == 0 && col > 0 && col + space + 1 > WIDTH) {
                putchar('\n');
                lines++;
                col = 0;
                space = 0;
            }
            if (space) {
                putchar(' ');
                col++;
                space = 0;
            }
            putchar(c);
            col++;
            word++;
        }
    }
    if (word > 0)
        words++;
    if (col > 0)
        lines++;
    printf("\n%d words, %d lines\n", words, lines);
    return col > WIDTH;
}
