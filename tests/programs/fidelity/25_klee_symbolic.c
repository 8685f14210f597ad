/* klee_make_symbolic on a char buffer, an int and a struct, then parse the buffer as "cmd number" text. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

extern void klee_make_symbolic(void *p, unsigned long size, const char *name);

struct header { unsigned short magic; unsigned char version; unsigned char flags; int length; };

static int parse_int(const char *s, int *out, const char **end) {
    int neg = 0;
    long v = 0;
    int nd = 0;
    while (*s == ' ') s++;
    if (*s == '-' || *s == '+') { neg = *s == '-'; s++; }
    while (isdigit((unsigned char)*s) && nd < 9) { v = v * 10 + (*s - '0'); s++; nd++; }
    *end = s;
    if (nd == 0) return 0;
    *out = (int)(neg ? -v : v);
    return 1;
}

int main(void) {
    char buf[16];
    int key;
    struct header h;
    klee_make_symbolic(buf, sizeof buf, "buf");
    klee_make_symbolic(&key, sizeof key, "key");
    klee_make_symbolic(&h, sizeof h, "header");
    buf[sizeof buf - 1] = '\0';

    /* show the buffer safely */
    printf("buf=");
    for (size_t i = 0; i < sizeof buf - 1; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == 0) { printf("\\0"); continue; }
        if (isprint(c)) putchar(c); else printf("\\x%02x", c);
    }
    printf(" strlen=%zu key=%d\n", strlen(buf), key);

    const char *p = buf;
    int total = 0, count = 0;
    while (*p && count < 8) {
        int v;
        const char *e;
        if (parse_int(p, &v, &e)) {
            printf("number %d\n", v);
            total += v % 1000;
            count++;
            p = e;
        } else {
            p++;
        }
    }
    printf("count=%d total=%d\n", count, total);

    int code = 0;
    if (buf[0] == 'x' && buf[1] == '-') { puts("prefix x-"); code = 1; }
    else if (strncmp(buf, "0x", 2) == 0) { puts("hex prefix"); code = 2; }
    else if (isdigit((unsigned char)buf[0])) { puts("starts with digit"); code = 3; }
    if ((key & 0xff) == count) { puts("key matches count"); code += 4; }
    if (key > 1000000 && total < 0) { puts("big key, negative total"); code += 8; }

    printf("header magic=%04x v=%u flags=%02x\n", h.magic, h.version, h.flags);
    if (h.magic == 0xCAFE) puts("magic ok");
    if (h.length >= 0 && h.length < 16) printf("length ok, byte=%d\n", (int)(unsigned char)buf[h.length]);
    else puts("length out of range");
    return code;
}
