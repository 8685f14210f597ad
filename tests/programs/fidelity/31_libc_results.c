/* Results of library calls that programs branch on: the return values of output functions,
 * how often and on which pairs qsort and bsearch call the comparator, offsets found by the
 * string searches, errno. Each line prints what the program could test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <errno.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static int calls;
static int trace[64];
static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    if (calls < 64) trace[calls] = x;
    calls++;
    return (x > y) - (x < y);
}

struct rec { int key; char tag; };
static int cmp_rec(const void *a, const void *b) {
    calls++;
    return ((const struct rec *)a)->key - ((const struct rec *)b)->key;
}

static void show_trace(const char *what) {
    int h = 0;
    for (int i = 0; i < calls && i < 64; i++) h = h * 31 + trace[i];
    printf("%s calls=%d trace=%d\n", what, calls, h);
}

int main(void) {
    int n = __VERIFIER_nondet_uchar() % 24;
    int a[24];
    for (int i = 0; i < 24; i++) a[i] = __VERIFIER_nondet_int() % 50;
    unsigned char c = __VERIFIER_nondet_uchar();
    int k = __VERIFIER_nondet_int() % 50;
    char s[32];
    int len = __VERIFIER_nondet_uchar() % 20;
    for (int i = 0; i < len; i++) s[i] = 'a' + (__VERIFIER_nondet_uchar() % 6);
    s[len] = 0;

    /* Output functions: their results. */
    int r = puts(s);
    printf("puts=%d\n", r);
    r = fputs(s, stdout);
    printf("\nfputs=%d\n", r);
    r = putchar('a' + c % 26);
    printf("\nputchar=%d\n", r);
    r = fputc('0' + c % 10, stdout);
    printf("\nfputc=%d\n", r);
    r = printf("%s|%d|", s, n);
    printf("printf=%d\n", r);
    r = fprintf(stdout, "<%*d>", n % 9, k);
    printf("fprintf=%d\n", r);
    char buf[16];
    r = snprintf(buf, sizeof buf, "%s-%s", s, s);
    printf("snprintf=%d buf=%s\n", r, buf);
    r = sprintf(buf, "%d", k);
    printf("sprintf=%d\n", r);
    size_t w = fwrite(s, 1, (size_t)len, stdout);
    printf("\nfwrite=%zu\n", w);
    printf("fflush=%d\n", fflush(stdout));

    /* qsort: result and the comparator's calls. */
    calls = 0;
    qsort(a, (size_t)n, sizeof a[0], cmp_int);
    show_trace("qsort");
    for (int i = 0; i < n; i++) printf("%d ", a[i]);
    printf("\n");
    calls = 0;
    int *hit = bsearch(&k, a, (size_t)n, sizeof a[0], cmp_int);
    show_trace("bsearch");
    printf("bsearch found=%d\n", hit ? (int)(hit - a) >= 0 : -1);
    /* Stability and a record larger than 32 bytes' worth of keys: equal keys keep order. */
    struct rec recs[12];
    for (int i = 0; i < 12; i++) { recs[i].key = a[i] % 4; recs[i].tag = 'a' + i; }
    calls = 0;
    qsort(recs, 12, sizeof recs[0], cmp_rec);
    printf("qsort recs calls=%d order=", calls);
    for (int i = 0; i < 12; i++) printf("%c", recs[i].tag);
    printf("\n");

    /* String searches: offsets. */
    char needle = 'a' + c % 6;
    char *p = strchr(s, needle), *q = strrchr(s, needle);
    printf("strchr=%d strrchr=%d\n", p ? (int)(p - s) : -1, q ? (int)(q - s) : -1);
    char pat[3] = {needle, (char)('a' + k % 6 + (k < 0 ? 6 : 0) % 6), 0};
    p = strstr(s, pat);
    printf("strstr=%d\n", p ? (int)(p - s) : -1);
    p = memchr(s, needle, (size_t)len);
    printf("memchr=%d\n", p ? (int)(p - s) : -1);
    printf("strspn=%zu strcspn=%zu\n", strspn(s, "abc"), strcspn(s, pat));
    printf("strcmp=%d strncmp=%d memcmp=%d\n", strcmp(s, pat) > 0 ? 1 : strcmp(s, pat) < 0 ? -1 : 0,
           strncmp(s, pat, 1) > 0 ? 1 : strncmp(s, pat, 1) < 0 ? -1 : 0,
           len >= 2 ? (memcmp(s, pat, 2) > 0 ? 1 : memcmp(s, pat, 2) < 0 ? -1 : 0) : 9);
    char d[32];
    memset(d, 'x', sizeof d);
    char *ret = strncpy(d, s, 24);
    printf("strncpy ret=%d pad=%d\n", ret == d, d[23] == 0 && len < 23);
    ret = strcat(d, "!");
    printf("strcat ret=%d len=%zu\n", ret == d, strlen(d));

    /* ctype on every byte value and EOF. */
    int ch = (c == 255) ? EOF : c;
    printf("ctype %d: %d%d%d%d%d%d %d %d\n", ch, !!isalpha(ch), !!isdigit(ch), !!isspace(ch),
           !!isupper(ch), !!ispunct(ch), !!isxdigit(ch), toupper(ch), tolower(ch));

    /* errno from number parsing. */
    errno = 0;
    sprintf(buf, "%d9999999999", k);
    long v = strtol(buf, NULL, 10);
    printf("strtol=%ld errno=%d\n", v, errno);
    errno = 0;
    unsigned long u = strtoul(s, NULL, 16);
    printf("strtoul=%lu errno=%d\n", u, errno);
    printf("atoi=%d abs=%d\n", atoi(buf + 1), abs(k));
    return 0;
}
