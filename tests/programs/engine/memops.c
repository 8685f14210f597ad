// memset/memcpy/memmove with symbolic data or length: the copies keep their link to the input,
// so the two impossible branches are proved unreachable by exhaustive exploration.
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
    unsigned char x = __VERIFIER_nondet_uchar();
    unsigned char buf[16];
    memset(buf, x, sizeof buf);
    if (buf[7] == 0x5a)
        return 1;
    if (buf[7] != buf[12])
        return 9; // impossible: every byte holds x
    unsigned char src[8], dst[8];
    for (int k = 0; k < 8; k++)
        src[k] = __VERIFIER_nondet_uchar();
    memcpy(dst, src, sizeof dst);
    if (dst[3] == 'C' && dst[5] == 'D')
        return 2;
    memmove(src + 1, src, 7);
    if (src[4] == 'E')
        return 3;
    int n = __VERIFIER_nondet_int();
    if (n >= 0 && n <= 8) {
        unsigned char z[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        memset(z, 0, n);
        if (z[5] == 0)
            return 4;
        if (n < 5 && z[6] == 0)
            return 8; // impossible: only the first n bytes were cleared
    }
    return 0;
}
