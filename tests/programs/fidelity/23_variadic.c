/* Variadic functions in C: va_list summing ints/longs/doubles, va_copy, vprintf/vsnprintf wrappers. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static long sum_ints(int count, ...) {
    va_list ap;
    va_start(ap, count);
    long s = 0;
    for (int i = 0; i < count; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

/* sentinel-terminated list of strings */
static size_t total_len(const char *first, ...) {
    va_list ap;
    size_t n = 0;
    va_start(ap, first);
    for (const char *s = first; s != NULL; s = va_arg(ap, const char *)) n += strlen(s);
    va_end(ap);
    return n;
}

/* mixed types described by a format string: i=int, l=long, d=double, c=char(promoted to int), s=string */
static void describe(const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int count = 0;
    for (const char *p = fmt; *p; p++) {
        switch (*p) {
        case 'i': printf("i:%d ", va_arg(ap, int)); break;
        case 'l': printf("l:%ld ", va_arg(ap, long)); break;
        case 'd': printf("d:%.3f ", va_arg(ap, double)); break;
        case 'c': printf("c:%c ", (char)va_arg(ap, int)); break;
        case 's': printf("s:%s ", va_arg(ap, const char *)); break;
        default: break;
        }
        count++;
    }
    va_end(ap);
    /* second pass over the copy: only count ints */
    long isum = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p == 'i') isum += va_arg(ap2, int);
        else if (*p == 'l') (void)va_arg(ap2, long);
        else if (*p == 'd') (void)va_arg(ap2, double);
        else if (*p == 'c') (void)va_arg(ap2, int);
        else if (*p == 's') (void)va_arg(ap2, const char *);
    }
    va_end(ap2);
    printf("| count=%d isum=%ld\n", count, isum);
}

static int log_line(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int log_line(const char *level, const char *fmt, ...) {
    va_list ap;
    int n = printf("[%s] ", level);
    va_start(ap, fmt);
    n += vprintf(fmt, ap);
    va_end(ap);
    return n;
}

static int format_into(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int format_into(char *buf, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int a = __VERIFIER_nondet_int() % 10000, b = __VERIFIER_nondet_int() % 10000;
    long l = __VERIFIER_nondet_long();
    unsigned char k = __VERIFIER_nondet_uchar();

    printf("sum0=%ld sum3=%ld sum8=%ld\n", sum_ints(0), sum_ints(3, a, b, 7),
           sum_ints(8, 1, 2, 3, 4, a, b, -a, (int)k));
    printf("total_len=%zu\n", total_len("ab", "cde", k & 1 ? "odd" : "even", "", (const char *)NULL));
    describe("ilds", a, l, (double)b / 4.0, "text");
    describe("cicid", 'A' + k % 26, a, 'z', b, 2.5);
    describe("");
    int n = log_line("info", "a=%d b=%d l=%ld\n", a, b, l);
    printf("log printed %d chars\n", n);
    char buf[16];
    int need = format_into(buf, sizeof buf, "%d+%d=%d", a, b, a + b);
    printf("need=%d buf=%s truncated=%d\n", need, buf, need >= (int)sizeof buf);
    char big[128];
    format_into(big, sizeof big, "%s|%5.2f|%x|%c", "v", (double)k / 3.0, (unsigned)k, 'a' + k % 26);
    printf("big=%s\n", big);
    return (int)(sum_ints(2, a, b) & 15);
}
