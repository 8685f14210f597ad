/* Inline assembly of Linux's atomics and byte swaps (x86): lock inc/dec/add/sub/and/or/xor on
 * memory with the zero, sign and carry flags read through sete/sets/setc and flag outputs,
 * xadd, xchg, cmpxchg (the accumulator tied to the expected value), bswap, and ffs as
 * bsf + cmovz; memory named by an address in a register (`incl (%0)`) and by separate
 * output and input operands (`"=m"(v) : "m"(v)`). Every operand width the runtime models. */
#include <stdio.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

typedef struct { int counter; } atomic_t;

static void atomic_inc(atomic_t *v) { __asm__ volatile("lock; incl %0" : "+m"(v->counter)); }
static void atomic_add(int i, atomic_t *v) {
    __asm__ volatile("lock; addl %1,%0" : "+m"(v->counter) : "ir"(i));
}
static int atomic_dec_and_test(atomic_t *v) {
    unsigned char c;
    __asm__ volatile("lock; decl %0; sete %1" : "+m"(v->counter), "=qm"(c) : : "memory");
    return c != 0;
}
static int atomic_sub_and_test(int i, atomic_t *v) {
    _Bool z;
    __asm__ volatile("lock; subl %2,%0" : "+m"(v->counter), "=@cce"(z) : "ir"(i) : "memory");
    return z;
}
static int atomic_add_negative(int i, atomic_t *v) {
    unsigned char c;
    __asm__ volatile("lock; addl %2,%0; sets %1" : "+m"(v->counter), "=qm"(c) : "ir"(i) : "memory");
    return c;
}
static int add_carries(unsigned short i, unsigned short *p) {
    _Bool c;
    __asm__ volatile("addw %2,%0" : "+m"(*p), "=@ccc"(c) : "r"(i));
    return c;
}
static int sub_borrows(unsigned char i, unsigned char *p) {
    _Bool c;
    __asm__ volatile("subb %2,%0" : "+m"(*p), "=@ccc"(c) : "q"(i));
    return c;
}
static void mask_bits(unsigned long long m, unsigned long long *p, int op) {
#ifdef __x86_64__
    if (op == 0) __asm__ volatile("lock; andq %1,%0" : "+m"(*p) : "r"(m));
    else if (op == 1) __asm__ volatile("lock; orq %1,%0" : "+m"(*p) : "r"(m));
    else __asm__ volatile("lock; xorq %1,%0" : "+m"(*p) : "r"(m));
#else
    unsigned *half = (unsigned *)p;
    if (op == 0) __asm__ volatile("lock; andl %1,%0" : "+m"(*half) : "r"((unsigned)m));
    else if (op == 1) __asm__ volatile("lock; orl %1,%0" : "+m"(*half) : "r"((unsigned)m));
    else __asm__ volatile("lock; xorl %1,%0" : "+m"(*half) : "r"((unsigned)m));
#endif
}
static int atomic_xadd(int i, atomic_t *v) {
    int old = i;
    __asm__ volatile("lock; xaddl %0, %1" : "+r"(old), "+m"(v->counter) : : "memory");
    return old;
}
static unsigned xchg32(unsigned *p, unsigned x) {
    __asm__ volatile("xchgl %0,%1" : "=r"(x), "+m"(*p) : "0"(x) : "memory");
    return x;
}
static unsigned cmpxchg32(unsigned *p, unsigned old, unsigned new) {
    unsigned ret;
    __asm__ volatile("lock; cmpxchgl %2,%1" : "=a"(ret), "+m"(*p) : "r"(new), "0"(old) : "memory");
    return ret;
}
static int cmpxchg_ok(unsigned *p, unsigned old, unsigned new) {
    _Bool ok;
    __asm__ volatile("lock; cmpxchgl %3,%1" : "+a"(old), "+m"(*p), "=@ccz"(ok) : "r"(new) : "memory");
    return ok;
}
static int admitted;
static void admit(void) { __asm__ volatile("lock; incl (%0)" : : "r"(&admitted) : "memory", "cc"); }
#define SELF_INC(val) __asm__ volatile("lock; incl %0;" : "=m"(val) : "m"(val))

static unsigned swab32(unsigned x) { __asm__("bswapl %0" : "=r"(x) : "0"(x)); return x; }
static int ffs32(int x) {
    int r;
    __asm__("bsfl %1,%0\n\tcmovzl %2,%0" : "=&r"(r) : "rm"(x), "r"(-1));
    return r + 1;
}

int main(void) {
    atomic_t a = {0};
    unsigned short s = 0;
    unsigned char b = 0;
    unsigned long long m = 0x0123456789abcdefULL;
    unsigned word = 7;
    for (int round = 0; round < 6; round++) {
        unsigned x = __VERIFIER_nondet_uint();
        unsigned char k = __VERIFIER_nondet_uchar();
        a.counter = (int)(x % 5) - 2;
        atomic_inc(&a);
        atomic_add((int)(k % 7) - 3, &a);
        printf("a %d dec0 %d", a.counter, atomic_dec_and_test(&a));
        printf(" sub0 %d neg %d a %d\n", atomic_sub_and_test((int)(k % 3), &a),
               atomic_add_negative((int)(x % 9) - 4, &a), a.counter);
        s = (unsigned short)x;
        b = (unsigned char)(x >> 8);
        printf("carry %d %d borrow %d %d\n", add_carries((unsigned short)(x >> 16), &s), s,
               sub_borrows(k, &b), b);
        mask_bits(((unsigned long long)x << 32) | k, &m, round % 3);
        printf("m %llx xadd %d a %d\n", m, atomic_xadd((int)k, &a), a.counter);
        printf("xchg %u word %u\n", xchg32(&word, x), word);
        unsigned expect = (k & 1) ? word : word + 1;
        printf("cas %u word %u ok %d word %u\n", cmpxchg32(&word, expect, k), word,
               cmpxchg_ok(&word, (k & 2) ? word : 5u, x ^ 1), word);
        printf("swab %x ffs %d %d\n", swab32(x), ffs32((int)x), ffs32((int)(x & 0xf0)));
        for (unsigned i = 0; i < (k & 3); i++)
            admit();
        SELF_INC(a.counter);
        printf("admitted %d a %d\n", admitted, a.counter);
    }
    return 0;
}
