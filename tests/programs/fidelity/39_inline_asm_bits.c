/* Inline assembly as systems code writes it (x86): bit scans (a tied default of 0 as Linux's
 * fls, `rep; bsf`), bit tests on registers (the offset modulo the width) and on memory (a bit
 * string: a signed offset may leave the word), set/reset/complement with `lock`, the carry
 * through `setc`, `sbb` and flag outputs, and barriers. The interpreter runs these through its
 * models; every offset stays inside `words`, and no scan sees 0 without a default. */
#include <stdio.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

static int fls(unsigned x) {
    int r;
    __asm__("bsrl %1,%0" : "=r"(r) : "rm"(x), "0"(-1));
    return r + 1;
}

static unsigned long ffs_nonzero(unsigned long w) {
    __asm__("rep; bsf %1,%0" : "=r"(w) : "rm"(w));
    return w;
}

static unsigned long highest(unsigned long w) {
    __asm__("bsr %1,%0" : "=r"(w) : "rm"(w));
    return w;
}

static int bit_of_register(unsigned x, int nr) {
    unsigned char c;
    __asm__("btl %2, %1\n\tsetc %0" : "=q"(c) : "r"(x), "r"(nr));
    return c;
}

static int minus_bit(unsigned x, int nr) {
    int r;
    __asm__("btl %2,%1\n\tsbbl %0,%0" : "=r"(r) : "r"(x), "r"(nr));
    return r;
}

static int test_bit(long nr, const volatile unsigned long *addr) {
    _Bool old;
    __asm__ volatile("bt %2,%1" : "=@ccc"(old) : "m"(*(unsigned long *)addr), "Ir"(nr) : "memory");
    return old;
}

static int bit_clear(long nr, const volatile unsigned long *addr) {
    _Bool clear;
    __asm__ volatile("bt %2,%1" : "=@ccnc"(clear) : "m"(*(unsigned long *)addr), "Ir"(nr) : "memory");
    return clear;
}

static void set_bit(long nr, volatile unsigned long *addr) {
    __asm__ volatile("lock; bts %1,%0" : "+m"(*(volatile long *)addr) : "Ir"(nr) : "memory");
}

static void clear_bit(long nr, volatile unsigned long *addr) {
    __asm__ volatile("btr %1,%0" : "+m"(*(volatile long *)addr) : "Ir"(nr) : "memory");
}

static int test_and_change(long nr, volatile unsigned long *addr) {
    _Bool old;
    __asm__ volatile("lock; btc %2,%0" : "+m"(*addr), "=@ccc"(old) : "Ir"(nr) : "memory");
    return old;
}

int main(void) {
    unsigned long words[6] = {0};
    unsigned long *base = &words[2];
    for (int round = 0; round < 6; round++) {
        unsigned x = __VERIFIER_nondet_uint();
        int nr = __VERIFIER_nondet_int();
        __asm__ volatile("" ::: "memory");
        __asm__ volatile("mfence" ::: "memory");
        __asm__ volatile("rep; nop");
        /* Offsets from -64 to 127 bits: inside words[0..5] for 32- and 64-bit longs. */
        long at = (long)((unsigned)nr % 192u) - 64;
        printf("fls %d ffs %lu top %lu\n", fls(x), ffs_nonzero((unsigned long)x | 0x80000000ul),
               highest((unsigned long)x | 1ul));
        printf("reg %d %d %d\n", bit_of_register(x, nr), minus_bit(x, nr & 31),
               bit_of_register(x, 37));
        if (x & 1)
            set_bit(at, base);
        else if (x & 2)
            clear_bit(at, base);
        printf("mem %d %d %d %d\n", test_bit(at, base), bit_clear(5, base),
               test_and_change(at ^ 3, base), test_bit(3, base));
    }
    for (int i = 0; i < 6; i++)
        printf("%lx ", words[i]);
    printf("\n");
    return 0;
}
