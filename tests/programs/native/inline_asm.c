/* Bit operations in inline assembly, as systems code writes them (the interpreter does not
 * execute assembly: these paths are the native fuzzer's). */
#include <stdio.h>
extern unsigned __VERIFIER_nondet_uint(void);

static inline unsigned highest_bit(unsigned x) {
    unsigned r;
    __asm__("bsrl %1, %0" : "=r"(r) : "rm"(x));
    return r;
}

static inline int test_bit(unsigned long word, int nr) {
    unsigned char c;
    __asm__("btq %2, %1\n\tsetc %0" : "=q"(c) : "r"(word), "r"((unsigned long)nr));
    return c;
}

int main(void) {
    unsigned flags = __VERIFIER_nondet_uint();
    if (flags == 0) {
        printf("no flags\n");
        return 0;
    }
    unsigned top = highest_bit(flags);
    if (top >= 24) printf("high flag\n");
    else if (top >= 8) printf("middle flag\n");
    else printf("low flag\n");
    if (test_bit(flags, 3) && top == 3) printf("only bit 3 on top\n");
    if (test_bit(flags, 17)) {
        if (flags & 1) printf("17 and 0\n");
        else printf("17 without 0\n");
    }
    return 0;
}
