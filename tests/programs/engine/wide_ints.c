/* Branches on integers wider than 64 bits: a 128-bit product (an overflow check as hash and
   allocation code writes it), 128-bit sums with carries, and bit-fields packed into one 72-bit
   storage unit. Every branch is feasible but the first: x + 2y never carries more than 2. */
#include <stdint.h>

extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern long long __VERIFIER_nondet_longlong(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

#pragma pack(push, 1)
struct packed { signed a : 31; unsigned b : 29; signed c : 12; };
#pragma pack(pop)

typedef unsigned __int128 u128;
typedef __int128 i128;

int main(void) {
    unsigned long long x = __VERIFIER_nondet_ulonglong();
    unsigned long long y = __VERIFIER_nondet_ulonglong();
    long long s = __VERIFIER_nondet_longlong();
    int k = __VERIFIER_nondet_int();
    int score = 0;

    u128 sum = (u128)x + ((u128)y << 1);
    if ((sum >> 64) > 2) reach_error();         /* x + 2y < 3 * 2^64 */
    if ((sum >> 64) == 1) score += 16;          /* one carry out of the low word */

    u128 p = (u128)x * y;
    if ((p >> 64) != 0) score += 1;            /* the product overflows 64 bits */
    if ((p >> 64) == 0x1234 && y == 0x10000) score += 2;
    i128 q = (i128)s * 3 + ((i128)k << 70);
    if (q < -((i128)1 << 80)) score += 4;       /* needs k far below zero */
    if (q > ((i128)1 << 72) && s < 0) score += 8;

    struct packed f;
    f.a = k;
    f.b = (unsigned)x;
    f.c = (int)s;
    if (f.c == -7 && f.b > 1000) score += 32;
    if (f.a + f.c == 123456) score += 64;
    return score;
}
