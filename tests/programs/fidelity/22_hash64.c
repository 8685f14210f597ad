/* 64-bit arithmetic: mulhi via 32-bit halves (unsigned and signed), FNV-1a, CRC32, splitmix64, 32/64-bit mixing. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern unsigned int __VERIFIER_nondet_u32(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long long __VERIFIER_nondet_longlong(void);

static uint64_t mulhi64(uint64_t a, uint64_t b) {
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
    return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
}

static uint32_t fnv1a32(const unsigned char *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 16777619u; }
    return h;
}

static uint64_t fnv1a64(const unsigned char *p, size_t n) {
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    return h;
}

static uint32_t crc32(const unsigned char *p, size_t n) {
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(void) {
    uint64_t a = __VERIFIER_nondet_ulonglong(), b = __VERIFIER_nondet_ulonglong();
    uint32_t w = __VERIFIER_nondet_u32();
    long long sl = __VERIFIER_nondet_longlong();
    unsigned char data[32];
    unsigned n = __VERIFIER_nondet_uchar() % 33u;
    for (unsigned i = 0; i < n; i++) data[i] = __VERIFIER_nondet_uchar();

    uint64_t hi = mulhi64(a, b);
    uint64_t hi_sq = mulhi64(a, a);
    printf("a*b lo=%016llx hi=%016llx a*a hi=%016llx\n", (unsigned long long)(a * b),
           (unsigned long long)hi, (unsigned long long)hi_sq);
    /* signed high part derived from the unsigned one */
    uint64_t shi = mulhi64((uint64_t)sl, b) - ((sl < 0) ? b : 0u) - (((int64_t)b < 0) ? (uint64_t)sl : 0u);
    printf("signed hi=%lld\n", (long long)shi);
    uint64_t w64 = (uint64_t)w * w;
    printf("w*w=%llu w*w(32)=%u\n", (unsigned long long)w64, w * w);
    printf("mix=%llx\n", (unsigned long long)(((uint64_t)w << 32) | (uint32_t)(a ^ (a >> 32))));
    uint32_t folded = (uint32_t)a ^ (uint32_t)(a >> 32);
    printf("folded=%08x sext=%lld zext=%llu\n", folded, (long long)(int32_t)folded, (unsigned long long)folded);
    if (b != 0) printf("a/b=%llu a%%b=%llu\n", (unsigned long long)(a / b), (unsigned long long)(a % b));
    if (w != 0) printf("a/w=%llu a%%w=%u\n", (unsigned long long)(a / w), (uint32_t)(a % w));
    printf("sl/1e9=%lld sl%%1e9=%lld\n", sl / 1000000000LL, sl % 1000000000LL);

    printf("n=%u fnv32=%08x fnv64=%016llx crc32=%08x\n", n, fnv1a32(data, n),
           (unsigned long long)fnv1a64(data, n), crc32(data, n));
    const char *check = "123456789";
    printf("crc32(check)=%08x fnv32(check)=%08x\n", crc32((const unsigned char *)check, strlen(check)),
           fnv1a32((const unsigned char *)check, strlen(check)));

    uint64_t st = a;
    uint64_t acc = 0;
    for (int i = 0; i < 8; i++) acc ^= splitmix64(&st) >> (i * 7);
    printf("splitmix acc=%016llx\n", (unsigned long long)acc);

    /* 64-bit loop counter and accumulation */
    uint64_t tri = 0;
    for (uint64_t i = 0; i < (b & 0xff); i++) tri += i * 0x100000001ULL;
    printf("tri=%llu\n", (unsigned long long)tri);
    return (int)(crc32(data, n) & 0x3f);
}
