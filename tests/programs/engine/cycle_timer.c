// Times a checksum with the time-stamp counter in every way C code reads it: inline `rdtsc`
// into eax and edx, into the pair `=A`, `rdtscp` with the processor number, and the
// intrinsics. Each reading once stopped every interpreted run, so nothing after the first one
// was tested. The program divides by the cycles a loop took and checks that the counter does
// not go back: neither may be claimed to fail.
#include <stdint.h>
#include <x86intrin.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);

static uint64_t cycles(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

static uint64_t cycles_serialized(unsigned *cpu) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(*cpu));
    return ((uint64_t)hi << 32) | lo;
}

static uint64_t cycles_pair(void) {
    uint64_t t;
    __asm__ __volatile__("rdtsc" : "=A"(t)); // the low half on x86-64
    return t;
}

int main(void) {
    unsigned char data[8];
    for (int i = 0; i < 8; i++)
        data[i] = __VERIFIER_nondet_uchar();
    uint64_t start = cycles();
    unsigned sum = 0;
    for (int i = 0; i < 8; i++)
        sum = sum * 31 + data[i];
    uint64_t end = cycles();
    if (end <= start)
        reach_error();
    uint64_t rate = 8000 / (end - start);
    unsigned cpu;
    uint64_t a = cycles_serialized(&cpu), b = __rdtsc();
    unsigned aux;
    uint64_t c = __rdtscp(&aux);
    if (b < a || c < b)
        reach_error();
    uint32_t low = (uint32_t)cycles_pair();
    int mode = __VERIFIER_nondet_int();
    if (mode == 7 && data[0] == 'T' && data[7] == '!') {
        if (sum % 3 == 0)
            return 3;
        return 2;
    }
    if (mode < 0)
        return 1;
    return (int)((rate + low + cpu + aux) & 0);
}
