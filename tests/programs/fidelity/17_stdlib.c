/* stdlib.h: atoi/atol/strtol (bases 10,16,0, endptr)/strtoul/strtoll, abs/labs/llabs, div/ldiv, sprintf/snprintf round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <errno.h>

extern int __VERIFIER_nondet_int(void);
extern long __VERIFIER_nondet_long(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
    int i = __VERIFIER_nondet_int();
    long l = __VERIFIER_nondet_long();
    long long ll = __VERIFIER_nondet_longlong();
    unsigned long ul = __VERIFIER_nondet_ulong();
    unsigned char k = __VERIFIER_nondet_uchar();
    char buf[64];
    char *end;

    sprintf(buf, "%d", i);
    printf("atoi(%s)=%d same=%d\n", buf, atoi(buf), atoi(buf) == i);
    sprintf(buf, "%ld", l);
    printf("atol=%ld strtol10=%ld\n", atol(buf), strtol(buf, NULL, 10));
    sprintf(buf, "%lld", ll);
    printf("strtoll=%lld\n", strtoll(buf, NULL, 10));

    sprintf(buf, "%lx rest", ul);
    unsigned long back = strtoul(buf, &end, 16);
    printf("strtoul16=%lx same=%d end=\"%s\"\n", back, back == ul, end);
    sprintf(buf, "0x%x", (unsigned)i & 0x7fffffffu);
    printf("strtol0 hex(%s)=%ld\n", buf, strtol(buf, NULL, 0));
    sprintf(buf, "0%o", (unsigned)k);
    printf("strtol0 oct(%s)=%ld\n", buf, strtol(buf, NULL, 0));
    sprintf(buf, "  %+d;tail", i % 100000);
    long parsed = strtol(buf, &end, 0);
    printf("strtol ws=%ld consumed=%td tail=%s\n", parsed, end - buf, end);
    long none = strtol("xyz", &end, 10);
    printf("none=%ld end_at_start=%d\n", none, *end == 'x');
    printf("base36=%ld base2=%ld\n", strtol("zz", NULL, 36), strtol("101101", NULL, 2));

    /* overflow saturation and errno */
    errno = 0;
    long big = strtol("99999999999999999999999", NULL, 10);
    printf("sat=%d erange=%d\n", big == LONG_MAX, errno == ERANGE);
    errno = 0;
    unsigned long ubig = strtoul("-1", NULL, 10);
    printf("strtoul(-1)=%lu\n", ubig);

    /* abs family with guarded minimum values */
    printf("abs=%d labs=%ld llabs=%lld\n", i == INT_MIN ? 0 : abs(i), l == LONG_MIN ? 0L : labs(l),
           ll == LLONG_MIN ? 0LL : llabs(ll));

    int den = (int)(k % 13u) - 6;
    if (den == -1) den = -3;       /* avoid MIN / -1 overflow */
    if (den != 0) {
        div_t d = div(i, den);
        printf("div(%d,%d)=q%d r%d\n", i, den, d.quot, d.rem);
        ldiv_t ld = ldiv(l, (long)den);
        printf("ldiv q=%ld r=%ld\n", ld.quot, ld.rem);
        lldiv_t lld = lldiv(ll, (long long)den);
        printf("lldiv q=%lld r=%lld\n", lld.quot, lld.rem);
    } else {
        puts("den zero");
    }

    /* snprintf truncation and return value */
    char small[8];
    int need = snprintf(small, sizeof small, "value=%d", i);
    printf("need=%d got=%s\n", need, small);
    int n2 = snprintf(NULL, 0, "%ld/%lu", l, ul);
    char *dyn = malloc((size_t)n2 + 1);
    if (!dyn) return 98;
    snprintf(dyn, (size_t)n2 + 1, "%ld/%lu", l, ul);
    printf("n2=%d dyn=%s len=%zu\n", n2, dyn, strlen(dyn));
    free(dyn);
    int w = sprintf(buf, "%s-%c-%05u", "id", 'A' + k % 26, (unsigned)k);
    printf("w=%d buf=%s\n", w, buf);

    /* atof / strtod on formatted values */
    sprintf(buf, "%d.%02u", i % 1000, (unsigned)k % 100u);
    double dv = strtod(buf, &end);
    printf("strtod(%s)=%.2f atof=%.2f\n", buf, dv, atof(buf));
    return (int)(k & 7);
}
