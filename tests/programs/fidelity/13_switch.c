/* Switch statements: dense, sparse, fallthrough, default, switch on char, nested switch, switch in loop. */
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned long __VERIFIER_nondet_ulong(void);

static const char *dense(int x) {
    switch (x) {
    case 0: return "zero";
    case 1: return "one";
    case 2: return "two";
    case 3: return "three";
    case 4: return "four";
    case 5: return "five";
    case 6: return "six";
    case 7: return "seven";
    default: return "many";
    }
}

static int sparse(int x) {
    switch (x) {
    case -1000000: return 1;
    case -7: return 2;
    case 0: return 3;
    case 42: return 4;
    case 1000: return 5;
    case 65536: return 6;
    case 2147483647: return 7;
    case -2147483647 - 1: return 8;
    default: return 0;
    }
}

static int fall(int x) {
    int r = 0;
    switch (x & 7) {
    case 0: r += 1; /* fallthrough */
    case 1: r += 10; /* fallthrough */
    case 2: r += 100; break;
    case 3:
    case 4: r += 1000; /* fallthrough */
    default: r += 10000;
    }
    return r;
}

static int char_class(char c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': return 2;
    case ' ': case '\t': case '\n': return 3;
    case '\0': return 4;
    case '\x7f': return 5;
    default: return (unsigned char)c >= 128 ? 6 : 0;
    }
}

static int nested(int a, int b) {
    switch (a % 3) {
    case 0:
        switch (b % 2) { case 0: return 1; default: return 2; }
    case 1:
    case -1:
        switch (b & 3) { case 0: case 1: return 3; case 2: break; default: return 4; }
        return 5;
    default:
        return 6;
    }
}

static int big_switch(unsigned long v) {
    switch (v) {
    case 0UL: return 1;
    case 0xFFFFFFFFUL: return 2;
    case 0x100000000UL: return 3;
    case ~0UL: return 4;
    default: return (int)(v % 5UL) + 10;
    }
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    char c = __VERIFIER_nondet_char();
    unsigned long ul = __VERIFIER_nondet_ulong();

    printf("dense=%s dense_mod=%s\n", dense(x), dense(x % 9));
    printf("sparse=%d sparse_small=%d\n", sparse(x), sparse(x % 50));
    printf("fall=%d\n", fall(x));
    printf("char_class(%d)=%d\n", (int)(unsigned char)c, char_class(c));
    printf("nested=%d\n", nested(x, (int)(ul & 0xff)));
    printf("big=%d\n", big_switch(ul));

    /* switch in a loop with continue/break */
    int acc = 0;
    for (int i = 0; i < 20; i++) {
        switch (((unsigned)x + (unsigned)i) & 3u) {
        case 0: acc += i; continue;
        case 1: acc -= 1; break;
        case 2: if (i > 15) goto out; acc *= 2; break;
        default: acc ^= i;
        }
        acc &= 0xffff;
    }
out:
    printf("acc=%d\n", acc);

    enum color { RED, GREEN = 5, BLUE };
    enum color col = (enum color)((ul % 3) == 0 ? RED : (ul % 3) == 1 ? GREEN : BLUE);
    switch (col) {
    case RED: puts("red"); break;
    case GREEN: puts("green"); break;
    case BLUE: puts("blue"); break;
    }
    return char_class(c) + fall(x) % 3;
}
