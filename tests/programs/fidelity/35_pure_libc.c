/* Pure libc functions the runtime defines (their results were inputs before): ffs, the byte
 * order conversions, imaxabs, on special values and inputs. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <strings.h>

extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);

static void show(const char *name, int x, long long l) {
    printf("%s: %d %d %d %u %u %u %u %lld\n", name, ffs(x), ffsl((long)l), ffsll(l),
           (unsigned)htonl((unsigned)x), (unsigned)ntohl((unsigned)x), (unsigned)htons((unsigned short)x),
           (unsigned)ntohs((unsigned short)x), (long long)imaxabs((intmax_t)l));
}

int main(void) {
    const int xs[] = {0, 1, -1, 0x80000000, 0x12345678, 6, 1 << 20};
    for (int i = 0; i < 7; i++)
        show("special", xs[i], (long long)xs[i] << (i * 5));
    int x = __VERIFIER_nondet_int();
    show("input", x, __VERIFIER_nondet_longlong());
    return ffs(x) > 16;
}
