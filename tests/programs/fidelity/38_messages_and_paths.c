/* strerror and strsignal's messages, and the three ways glibc splits a path (GNU basename,
 * POSIX basename and dirname, which write into the path), against glibc. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);
/* libgen.h's, declared here: it renames basename, and this file calls both. */
extern char *__xpg_basename(char *);
extern char *dirname(char *);

static int pick(int n) {
    int v = __VERIFIER_nondet_int() % n;
    return v < 0 ? -v : v;
}

static void split(const char *path) {
    char a[16], b[16];
    strcpy(a, path);
    strcpy(b, path);
    printf("[%s] gnu [%s]", path, basename(path));
    char *base = __xpg_basename(a);
    printf(" posix [%s] at %ld", base, base == a || (base >= a && base < a + 16) ? (long)(base - a) : -1L);
    char *dir = dirname(b);
    printf(" dir [%s] same %d\n", dir, dir == b);
}

int main(void) {
    static const char *fixed[] = {"", "/", "//", "///", "a", "a/", "a//", "/a", "//a", "/a/b",
                                  "a/b/", "a//b//", "../x", ".", "//a//", "usr/lib/"};
    for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++) split(fixed[i]);
    for (int k = 0; k < 4; k++) {
        char p[12];
        int n = pick(11);
        for (int i = 0; i < n; i++) p[i] = "/ab."[pick(4)];
        p[n] = 0;
        split(p);
    }
    for (int k = 0; k < 4; k++) {
        int e = pick(150) - 5, s = pick(72) - 3;
        printf("%d: %s | %d: %s\n", e, strerror(e), s, strsignal(s));
    }
    printf("%s / %s\n", strerror(0), strerror(133));
    return 0;
}
