/* Bit manipulation: popcount (loop and builtin), clz/ctz (zero-guarded), bswap, rotations, masks. */
#include <stdio.h>
#include <stdint.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static int popcount_loop(uint32_t x) {
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
}

static int popcount64_shift(uint64_t x) {
    int n = 0;
    for (int i = 0; i < 64; i++) n += (int)((x >> i) & 1u);
    return n;
}

static uint32_t rotl32(uint32_t x, unsigned r) {
    r &= 31u;
    return (x << r) | (x >> ((32u - r) & 31u));
}

static uint32_t rotr32(uint32_t x, unsigned r) {
    r &= 31u;
    return (x >> r) | (x << ((32u - r) & 31u));
}

static uint64_t rotl64(uint64_t x, unsigned r) {
    r &= 63u;
    return (x << r) | (x >> ((64u - r) & 63u));
}

static uint32_t bswap32_manual(uint32_t x) {
    return ((x & 0xffu) << 24) | ((x & 0xff00u) << 8) | ((x >> 8) & 0xff00u) | (x >> 24);
}

static uint32_t reverse_bits(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) { r = (r << 1) | (x & 1u); x >>= 1; }
    return r;
}

int main(void) {
    uint32_t x = __VERIFIER_nondet_uint();
    uint64_t y = __VERIFIER_nondet_ulonglong();
    unsigned r = __VERIFIER_nondet_uchar();

    printf("x=%08x y=%016llx r=%u\n", x, (unsigned long long)y, r);
    printf("pop loop=%d builtin=%d\n", popcount_loop(x), __builtin_popcount(x));
    printf("pop64 loop=%d builtin=%d\n", popcount64_shift(y), __builtin_popcountll(y));
    if (x != 0)
        printf("clz=%d ctz=%d\n", __builtin_clz(x), __builtin_ctz(x));
    else
        printf("x is zero\n");
    if (y != 0)
        printf("clzll=%d ctzll=%d\n", __builtin_clzll(y), __builtin_ctzll(y));
    else
        printf("y is zero\n");
    printf("ffs=%d parity=%d\n", __builtin_ffs((int)x), __builtin_parity(x));

    printf("bswap32=%08x manual=%08x\n", __builtin_bswap32(x), bswap32_manual(x));
    printf("bswap64=%016llx\n", (unsigned long long)__builtin_bswap64(y));
    printf("bswap16=%04x\n", (unsigned)__builtin_bswap16((uint16_t)x));
    printf("rotl=%08x rotr=%08x\n", rotl32(x, r), rotr32(x, r));
    printf("rotl64=%016llx\n", (unsigned long long)rotl64(y, r));
    printf("rev=%08x\n", reverse_bits(x));

    /* mask tricks */
    uint32_t lowest = x & (~x + 1u);
    uint32_t cleared = x & (x - 1u);
    uint32_t upto = (r & 31u) ? ((1u << (r & 31u)) - 1u) : 0u;
    printf("lowest=%08x cleared=%08x upto=%08x\n", lowest, cleared, upto);
    uint32_t bitfield = (x >> (r % 24u)) & 0xffu;
    printf("field=%u\n", bitfield);
    int is_pow2 = x != 0 && (x & (x - 1u)) == 0;
    printf("pow2=%d\n", is_pow2);
    uint64_t interleave = 0;
    for (int i = 0; i < 16; i++) {
        interleave |= (uint64_t)((x >> i) & 1u) << (2 * i);
        interleave |= (uint64_t)((y >> i) & 1u) << (2 * i + 1);
    }
    printf("interleave=%llx\n", (unsigned long long)interleave);
    unsigned char b = (unsigned char)r;
    unsigned char nib = (unsigned char)((b << 4) | (b >> 4));
    printf("nibswap=%02x not=%02x\n", nib, (unsigned char)~b);

    return popcount_loop(x) & 7;
}
