/* More of the C library the runtime defines, against glibc: string functions with their
 * returned pointers and lengths, case-insensitive comparisons, tokenizing, vsscanf, strtof,
 * strtoull, the ASCII predicates and the random number generators after a seed. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

static int scan(const char *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vsscanf(s, fmt, ap);
    va_end(ap);
    return r;
}

static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
    char s[24], t[24];
    int ls = __VERIFIER_nondet_uchar() % 12, lt = __VERIFIER_nondet_uchar() % 12;
    /* Letters of both cases, digits, separators. */
    const char alphabet[] = "aAbB,; 19";
    for (int i = 0; i < ls; i++) s[i] = alphabet[__VERIFIER_nondet_uchar() % 9];
    for (int i = 0; i < lt; i++) t[i] = alphabet[__VERIFIER_nondet_uchar() % 9];
    s[ls] = t[lt] = 0;
    int k = __VERIFIER_nondet_uchar() % 14;
    unsigned char c = __VERIFIER_nondet_uchar();

    printf("strcasecmp=%d strncasecmp=%d\n", sign(strcasecmp(s, t)), sign(strncasecmp(s, t, (size_t)k)));
    printf("strnlen=%zu\n", strnlen(s, (size_t)k));
    char *p = strpbrk(s, ",;");
    printf("strpbrk=%d\n", p ? (int)(p - s) : -1);
    char d[64];
    char *e = stpcpy(d, s);
    printf("stpcpy end=%d\n", (int)(e - d));
    e = stpcpy(e, t);
    printf("stpcpy end2=%d d=%s\n", (int)(e - d), d);
    d[0] = 0;
    strncat(d, s, (size_t)k);
    strncat(d, t, (size_t)(k / 2));
    printf("strncat=%s len=%zu\n", d, strlen(d));
    char *dup = strndup(s, (size_t)k);
    printf("strndup=%s len=%zu\n", dup ? dup : "(null)", dup ? strlen(dup) : 0);
    free(dup);
    char *r = rawmemchr(s, 0);
    printf("rawmemchr=%d\n", (int)(r - s));

    /* Tokens: strtok and strtok_r on copies. */
    char a[24], b[24];
    strcpy(a, s);
    strcpy(b, t);
    int n = 0;
    for (char *tok = strtok(a, ",; "); tok; tok = strtok(NULL, ",; ")) printf("tok%d=%s ", n++, tok);
    printf("tokens=%d\n", n);
    char *save = NULL;
    n = 0;
    for (char *tok = strtok_r(b, "aA", &save); tok; tok = strtok_r(NULL, "aA", &save)) printf("r%d=%s ", n++, tok);
    printf("tokens_r=%d\n", n);

    /* Numbers. */
    char num[32];
    int x = __VERIFIER_nondet_int();
    sprintf(num, "%d.%02u", x % 100000, c % 100);
    char *end;
    float f = strtof(num, &end);
    printf("strtof=%.3f consumed=%d\n", (double)f, (int)(end - num));
    sprintf(num, "%u%u", (unsigned)x, c);
    errno = 0;
    unsigned long long u = strtoull(num, &end, 10);
    printf("strtoull=%llu errno=%d consumed=%d\n", u, errno, (int)(end - num));
    int v1 = 0, v2 = 0;
    char w[8] = "";
    sprintf(num, "%d %s %d", x % 1000, s[0] ? "w" : "", c);
    int got = scan(num, "%d %7s %d", &v1, w, &v2);
    printf("vsscanf=%d v1=%d w=%s v2=%d\n", got, v1, w, v2);

    /* ASCII. */
    int ch = c;
    printf("isascii=%d toascii=%d\n", isascii(ch) ? 1 : 0, toascii(ch));

    /* Random numbers after a seed (glibc's generator). */
    srand((unsigned)c);
    int r1 = rand(), r2 = rand();
    srandom((unsigned)x);
    long r3 = random();
    printf("rand=%d %d random=%ld\n", r1, r2, r3);
    return 0;
}
