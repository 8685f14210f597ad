/* Conditions on the results of inline-assembly bit operations and atomics that only reasoning
 * meets: a highest set bit and low bits at once, a bit set at an input offset then tested at a
 * fixed one, a reference count that drops to zero, and three error calls no input reaches
 * (Linux's fls is at most 32, and 0 only of 0; a count of at most 255 decremented is not 255). */
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

static inline int fls(unsigned x) {
    int r;
    __asm__("bsrl %1,%0" : "=r"(r) : "rm"(x), "0"(-1));
    return r + 1;
}

static inline int test_bit(long nr, const unsigned long *addr) {
    _Bool old;
    __asm__ volatile("bt %2,%1" : "=@ccc"(old) : "m"(*addr), "Ir"(nr) : "memory");
    return old;
}

static inline void set_bit(long nr, unsigned long *addr) {
    __asm__ volatile("lock; bts %1,%0" : "+m"(*addr) : "Ir"(nr) : "memory");
}

typedef struct { int counter; } atomic_t;

static inline int atomic_dec_and_test(atomic_t *v) {
    _Bool zero;
    __asm__ volatile("lock; decl %0" : "+m"(v->counter), "=@cce"(zero) : : "memory");
    return zero;
}

int main(void) {
    unsigned x = __VERIFIER_nondet_uint();
    unsigned long map[4] = {0, 0, 0, 0};
    int top = fls(x);
    if (top == 23 && (x & 0x7fff) == 0x1234)
        x ^= 1;
    set_bit(x % 128, map);
    if (test_bit(77, map))
        x ^= 2;
    if (top > 32)
        reach_error();
    if (top == 0 && x != 0)
        reach_error();
    atomic_t ref = {(int)(x >> 24)};
    if (atomic_dec_and_test(&ref))
        x ^= 4;
    if (ref.counter == 255)
        reach_error();
    return 0;
}
