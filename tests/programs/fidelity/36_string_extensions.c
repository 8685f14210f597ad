/* BSD and GNU string extensions and the drand48 family, defined by Cairn's runtime, against
 * glibc: results, returned offsets and the bytes written. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);

static long off(const void *p, const void *base) { return p ? (const char *)p - (const char *)base : -1; }

static void show(const char *name, char *s) {
    char buf[16], tmp[32];
    size_t n = strlen(s);
    printf("%s: bcmp %d index %ld rindex %ld chrnul %ld memrchr %ld casestr %ld coll %d\n", name,
           bcmp(s, "ab", 2) != 0, off(index(s, 'a'), s), off(rindex(s, 'a'), s),
           off(strchrnul(s, ','), s), off(memrchr(s, 'b', n), s), off(strcasestr(s, "Ab"), s),
           strcoll(s, "ab") > 0 ? 1 : strcoll(s, "ab") < 0 ? -1 : 0);
    memset(buf, 'x', sizeof buf);
    printf("  mempcpy %ld", off(mempcpy(buf, s, n < 3 ? n : 3), buf));
    printf(" memccpy %ld", off(memccpy(buf, s, ',', n < 6 ? n + 1 : 6), buf));
    printf(" stpncpy %ld", off(stpncpy(buf, s, 10), buf));
    printf(" xfrm %zu %zu", strxfrm(tmp, s, sizeof tmp), strxfrm(NULL, s, 0));
    bzero(buf + 2, 3);
    bcopy(s, buf + 8, n < 4 ? n : 4);
    for (size_t i = 0; i < sizeof buf; i++) printf(" %d", buf[i]);
    char *end;
    printf("\n  imax %jd umax %ju", strtoimax(s, &end, 0), strtoumax(s, NULL, 16));
    printf(" end %ld\n", off(end, s));
    strcpy(tmp, s);
    char *p = tmp, *tok;
    while ((tok = strsep(&p, ",;")) != NULL) printf("  [%s] %ld", tok, p ? off(p, tmp) : -1L);
    printf("\n");
}

int main(void) {
    show("fixed", "ab,Ab;0x1f,ba");
    show("empty", "");
    show("digits", "-9223372036854775809");
    char s[10];
    for (int i = 0; i < 9; i++) {
        int k = __VERIFIER_nondet_char() & 7;
        s[i] = "aAb,;0x1"[k];
    }
    s[9] = 0;
    show("input", s);
    srand48(__VERIFIER_nondet_int() & 3);
    long a = lrand48(), b = mrand48();
    double d = drand48();
    printf("rand48 %ld %ld %.17g\n", a, b, d);
    return (int)(a & 1);
}
