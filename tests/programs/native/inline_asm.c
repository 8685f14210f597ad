/* Inline assembly the interpreter has no model of (a rotation: Cairn models bit scans and
 * tests, atomics, byte swaps and barriers), as systems code writes it: interpreted runs stop at
 * the `rol`, and the paths past it are the native fuzzer's. */
#include <stdio.h>
extern unsigned __VERIFIER_nondet_uint(void);

static inline unsigned swap_bytes(unsigned x) {
    __asm__("bswapl %0" : "+r"(x));
    return x;
}

static inline unsigned rotate_left(unsigned x, unsigned char n) {
    __asm__("roll %%cl, %0" : "+r"(x) : "c"(n));
    return x;
}

int main(void) {
    unsigned flags = __VERIFIER_nondet_uint();
    if (flags == 0) {
        printf("no flags\n");
        return 0;
    }
    unsigned top = swap_bytes(flags) & 0xff; /* the highest byte */
    if (top >= 0x80) printf("high byte\n");
    else if (top >= 0x08) printf("middle byte\n");
    else printf("low byte\n");
    if ((rotate_left(flags, 4) & 0xf) == 3 && top == 0x30) printf("30 on top\n");
    if (rotate_left(flags, 16) & 1) {
        if (flags & 1) printf("16 and 0\n");
        else printf("16 without 0\n");
    }
    return 0;
}
