/* getchar input: read up to 64 chars until EOF or newline, classify, count and echo them. */
#include <stdio.h>
#include <ctype.h>

#define MAXN 64

int main(void) {
    char line[MAXN + 1];
    int n = 0, c = 0;
    int letters = 0, digits = 0, spaces = 0, upper = 0, other = 0;
    unsigned hash = 5381u;

    while (n < MAXN && (c = getchar()) != EOF && c != '\n') {
        unsigned char uc = (unsigned char)c;
        line[n++] = isprint(uc) ? (char)uc : '?';
        hash = hash * 33u + uc;
        if (isalpha(uc)) { letters++; if (isupper(uc)) upper++; }
        else if (isdigit(uc)) digits++;
        else if (isspace(uc)) spaces++;
        else other++;
    }
    line[n] = '\0';
    const char *why = (n == MAXN) ? "limit" : (c == EOF) ? "eof" : "newline";

    printf("read %d chars, stopped by %s\n", n, why);
    printf("line=[%s]\n", line);
    printf("letters=%d (upper %d) digits=%d spaces=%d other=%d\n", letters, upper, digits, spaces, other);
    printf("hash=%u\n", hash);

    /* words and the longest word */
    int words = 0, best = 0, cur = 0, best_start = 0, cur_start = 0;
    for (int i = 0; i <= n; i++) {
        if (i < n && isalnum((unsigned char)line[i])) {
            if (cur == 0) cur_start = i;
            cur++;
        } else if (cur > 0) {
            words++;
            if (cur > best) { best = cur; best_start = cur_start; }
            cur = 0;
        }
    }
    printf("words=%d longest=%.*s (%d)\n", words, best, line + best_start, best);

    /* sum of digit characters as a number, bounded */
    long num = 0;
    for (int i = 0; i < n; i++)
        if (isdigit((unsigned char)line[i]) && num < 100000000L) num = num * 10 + (line[i] - '0');
    printf("num=%ld\n", num);

    /* echo reversed, then read what remains of the next line (at most 16 chars) */
    for (int i = n - 1; i >= 0; i--) putchar(line[i]);
    putchar('\n');
    int extra = 0;
    if (c == '\n') {
        while (extra < 16 && (c = getchar()) != EOF && c != '\n') extra++;
    }
    printf("extra=%d\n", extra);

    if (n == 0) return 3;
    return letters > digits ? 1 : 2;
}
