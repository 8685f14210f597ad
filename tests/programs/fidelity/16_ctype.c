/* ctype.h: classification and case conversion over input characters (cast to unsigned char first). */
#include <stdio.h>
#include <ctype.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern char __VERIFIER_nondet_char(void);

#define N 24

static int b(int v) { return v != 0; }   /* classification functions return any nonzero for true */

int main(void) {
    unsigned char s[N];
    for (int i = 0; i < N; i++) {
        unsigned char c = __VERIFIER_nondet_uchar();
        s[i] = (i & 1) ? (unsigned char)(c % 128u) : (unsigned char)(32u + c % 95u);
    }
    int alpha = 0, digit = 0, space = 0, upper = 0, lower = 0, alnum = 0, punct = 0, xdigit = 0, cntrl = 0, print = 0, graph = 0;
    for (int i = 0; i < N; i++) {
        int c = s[i];
        alpha += b(isalpha(c)); digit += b(isdigit(c)); space += b(isspace(c));
        upper += b(isupper(c)); lower += b(islower(c)); alnum += b(isalnum(c));
        punct += b(ispunct(c)); xdigit += b(isxdigit(c)); cntrl += b(iscntrl(c));
        print += b(isprint(c)); graph += b(isgraph(c));
    }
    printf("alpha=%d digit=%d space=%d upper=%d lower=%d alnum=%d\n", alpha, digit, space, upper, lower, alnum);
    printf("punct=%d xdigit=%d cntrl=%d print=%d graph=%d\n", punct, xdigit, cntrl, print, graph);

    /* print the printable characters, case-swapped */
    for (int i = 0; i < N; i++) {
        int c = s[i];
        if (!isprint(c)) { putchar('.'); continue; }
        putchar(isupper(c) ? tolower(c) : islower(c) ? toupper(c) : c);
    }
    putchar('\n');

    /* a plain char from input, possibly negative: must be converted via unsigned char */
    char pc = __VERIFIER_nondet_char();
    unsigned char uc = (unsigned char)pc;
    printf("pc=%d alpha=%d digit=%d upper->%d lower->%d\n", (int)uc, b(isalpha(uc)), b(isdigit(uc)),
           toupper(uc), tolower(uc));
    printf("EOF: alpha=%d toupper=%d\n", b(isalpha(EOF)), toupper(EOF));

    /* hex digit value parsing */
    unsigned val = 0;
    int nhex = 0;
    for (int i = 0; i < N && nhex < 8; i++) {
        int c = s[i];
        if (isxdigit(c)) {
            int dv = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
            val = val * 16u + (unsigned)dv;
            nhex++;
        }
    }
    printf("hex=%u from %d digits\n", val, nhex);

    /* word capitalisation over a derived lowercase string */
    char words[N + 1];
    for (int i = 0; i < N; i++) words[i] = (s[i] % 5u == 0u) ? ' ' : (char)('a' + s[i] % 26u);
    words[N] = '\0';
    int start = 1;
    for (int i = 0; i < N; i++) {
        unsigned char c = (unsigned char)words[i];
        if (isspace(c)) start = 1;
        else if (start) { words[i] = (char)toupper(c); start = 0; }
    }
    printf("words=[%s]\n", words);

    /* full table check for all 0..127 */
    unsigned sig = 0;
    for (int c = 0; c < 128; c++)
        sig = sig * 3u + (unsigned)(b(isalpha(c)) + 2 * b(isdigit(c)) + 4 * b(isspace(c)) + 8 * b(ispunct(c)));
    printf("table sig=%u\n", sig);
    return alpha & 15;
}
