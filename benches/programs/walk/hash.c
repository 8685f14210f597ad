/* Concolic-walk benchmark: hash-like mixes. */
#include <math.h>

/* Multiply-xorshift mixing with constants: linear in the bit-vector theory (Z3 inverts it). */
int mix_constant(unsigned x) {
    unsigned h = x * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    h ^= h >> 13;
    if (h == 0x12345678u) return 1;
    return 0;
}

/* A product of two inputs inside the mix. */
int mix_product(unsigned x, unsigned y) {
    if (x < 1000 || y < 1000) return 0;
    unsigned h = (x * y) ^ (x >> 3);
    if (h == 0xCAFEBABEu) return 1;
    return 0;
}

/* A polynomial hash modulo a prime. */
int poly_hash(int a, int b, int c) {
    if (a < 0 || b < 0 || c < 0 || a > 1000 || b > 1000 || c > 1000) return 0;
    if (((a * 31 + b) * 31 + c) % 1000003 == 424242) return 1;
    return 0;
}

/* Blind: a non-linear equation over integers with a linear guard (the paper's example1). */
int blind(int x, int y) {
    int z = x * y;
    if (x > 2 && z == x + 10 * y + 33) return 1;
    return 0;
}

/* A float folded into a hash. */
int float_hash(double x) {
    if (!(x > 0 && x < 1000)) return 0;
    unsigned h = (unsigned)(x * 65536.0);
    h ^= h >> 7;
    h *= 2654435761u;
    if ((h >> 24) == 0xAB && sqrt(x) > 20) return 1;
    return 0;
}
