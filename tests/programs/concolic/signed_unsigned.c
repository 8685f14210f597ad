/* Signed/unsigned mixes: comparisons after conversions behave differently. */
/* infeasible: 2 */
extern int __VERIFIER_nondet_int(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  int i = __VERIFIER_nondet_int();
  short s = __VERIFIER_nondet_short();
  unsigned char u = __VERIFIER_nondet_uchar();
  int r = 0;
  if ((unsigned)i > 4000000000u) r |= 1;        /* negative i */
  if (i < 0 && (unsigned)i < 10u) r |= 2;      /* impossible: true outcome infeasible */
  if (s < 0 && (unsigned short)s == 65535) r |= 4;
  if ((signed char)u < -100) r |= 8;
  if ((long long)i * 2 > 4294967296LL) r |= 16;   /* impossible: true outcome infeasible */
  return r;
}
