/* cpuid as programs ask it: cpuid.h's __cpuid (rbx kept by exchanges), __cpuid_count with a
 * subleaf, and a plain statement naming ebx; the interpreter asks the host processor, as the
 * native run does. Leaf 1's ebx carries the current core's APIC id: masked. (__get_cpuid's
 * 32-bit check of the EFLAGS ID bit, pushf and popf, is not modelled.) */
#include <cpuid.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    unsigned a, b, c, d;
    /* Leaves that ignore ecx: __cpuid leaves it as it was. */
    static const unsigned leaves[] = {0, 1, 0x80000000u, 0x80000002u, 0x80000003u, 0x80000004u};
    int i = __VERIFIER_nondet_int() % 6;
    unsigned leaf = leaves[i < 0 ? -i : i];
    __cpuid(leaf & 0x80000000u, a, b, c, d);
    if (a < leaf) {
        printf("leaf %x unsupported\n", leaf);
        return 1;
    }
    __cpuid(leaf, a, b, c, d);
    if (leaf == 1)
        b &= 0xffff;
    printf("leaf %x: %08x %08x %08x %08x\n", leaf, a, b, c, d);
    __cpuid_count(7, 0, a, b, c, d);
    printf("7.0: %08x %08x %08x\n", a, b, c);
    unsigned x, y, z, w;
    __asm__ volatile("cpuid" : "=a"(x), "=b"(y), "=c"(z), "=d"(w) : "a"(0));
    printf("vendor %.4s%.4s%.4s max %u\n", (char *)&y, (char *)&w, (char *)&z, x);
    return (c & bit_SSE4_2) != 0;
}
