/* One input of every kind, each checked against the value the test gives it: the exit code is
 * the first that differs (0: all as given). */
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void klee_make_symbolic(void *, unsigned long, const char *);

int main(void) {
    if (__VERIFIER_nondet_char() != -3) return 1;
    if (__VERIFIER_nondet_uchar() != 250) return 2;
    if (__VERIFIER_nondet_short() != -1000) return 3;
    if (__VERIFIER_nondet_ushort() != 60000) return 4;
    if (__VERIFIER_nondet_int() != -123456) return 5;
    if (__VERIFIER_nondet_uint() != 4000000000u) return 6;
    if (__VERIFIER_nondet_long() != -(1L << 40)) return 7;
    if (__VERIFIER_nondet_ulong() != (1UL << 63) + 5) return 8;
    if (__VERIFIER_nondet_bool() != 1) return 9;
    if (__VERIFIER_nondet_float() != 1.5f) return 10;
    if (__VERIFIER_nondet_double() != -2.25) return 11;
    unsigned char b[5];
    klee_make_symbolic(b, sizeof b, "b");
    if (b[0] != 1 || b[1] != 2 || b[2] != 0xff || b[3] != 0 || b[4] != 0) return 12;
    /* Past the values: zero. */
    if (__VERIFIER_nondet_int() != 0) return 13;
    return 0;
}
