/* printf formats: conversions, length modifiers, width/precision/flags, %*d, %%, puts, putchar. */
#include <stdio.h>
#include <stddef.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern char __VERIFIER_nondet_char(void);
extern short __VERIFIER_nondet_short(void);
extern size_t __VERIFIER_nondet_size_t(void);

int main(void) {
    int i = __VERIFIER_nondet_int();
    unsigned u = __VERIFIER_nondet_uint();
    long l = __VERIFIER_nondet_long();
    long long ll = __VERIFIER_nondet_longlong();
    unsigned long ul = __VERIFIER_nondet_ulong();
    unsigned long long ull = __VERIFIER_nondet_ulonglong();
    char c = __VERIFIER_nondet_char();
    short s = __VERIFIER_nondet_short();
    size_t z = __VERIFIER_nondet_size_t();
    char pc = (char)('!' + (unsigned char)c % 94u);

    printf("d=%d i=%i u=%u\n", i, i, u);
    printf("x=%x X=%X o=%o\n", u, u, u);
    printf("c=%c s=%s\n", pc, "str");
    printf("ld=%ld lld=%lld lu=%lu llu=%llu\n", l, ll, ul, ull);
    printf("lx=%lx llX=%llX lo=%lo\n", ul, ull, ul);
    printf("hhd=%hhd hhu=%hhu hd=%hd hu=%hu hx=%hx\n", (signed char)c, (unsigned char)c, s, (unsigned short)s, (unsigned short)s);
    printf("zu=%zu zx=%zx\n", z, z);
    printf("[%5d] [%-5d] [%05d] [%+d] [% d]\n", i % 1000, i % 1000, i % 1000, i, i);
    printf("[%#x] [%#o] [%#X] [%#lx]\n", u, u, u, ul);
    printf("[%.2s] [%.0s] [%10s] [%-10s] [%.3s]\n", "abcdef", "abc", "right", "left", "ab");
    int w = (int)(u % 12u);
    int prec = (int)((u >> 4) % 6u);
    printf("[%*d] [%-*d] [%.*d] [%*.*d]\n", w, i % 100, w, i % 100, prec, i % 100, w, prec, i % 100);
    printf("[%*s] [%.*s]\n", w, "pad", prec, "precision");
    printf("100%% sure, %c%c\n", 'o', 'k');
    printf("[%8.3d] [%-8.3x] [%8.5d] [%+05d] [%x]\n", i % 1000, u % 4096u, i % 1000, i % 1000, 0u);
    printf("[%.0d] [%#.0o] [%#x]\n", 0, 0u, 0u);
    printf("[%lld] [%llu] [%lld]\n", (long long)-9223372036854775807LL - 1, 18446744073709551615ULL, 0LL);
    printf("[%hhx] [%hho]\n", (unsigned char)(u >> 3), (unsigned char)(u >> 5));
    printf("[%3c] [%-3c]|\n", pc, pc);
    printf("[%+.2f] [% .3e] [%08.2f] [%-10.1f]| [%G]\n", (double)(i % 10000) / 7.0, (double)l / 3.0,
           (double)(u % 1000u) / 3.0, -1.25, 1e-10);
    printf("[%5.1f%%]\n", (double)(u % 1000u) / 10.0);
    int n = printf("count me %d\n", i % 10);
    printf("printed=%d\n", n);
    puts("puts line");
    puts("");
    putchar(pc);
    putchar('\n');
    fputs("fputs to stdout\n", stdout);
    fprintf(stdout, "fprintf %d\n", i & 0xff);
    return (int)(u % 5u);
}
