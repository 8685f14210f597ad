/* Magic numbers over 64 bits, and a 64-bit value assembled from two 32-bit inputs. */
/* infeasible: 0 */
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  long long x = __VERIFIER_nondet_longlong();
  unsigned long long y = __VERIFIER_nondet_ulonglong();
  unsigned hi = __VERIFIER_nondet_uint(), lo = __VERIFIER_nondet_uint();
  unsigned long long joined = ((unsigned long long)hi << 32) | lo;
  if (x == 0x123456789abcdefLL) return 1;
  if (x < -1000000000000LL && (x & 0xff) == 0x42) return 2;
  if (y > 0xfffffffffffff000ULL) return 3;
  if (joined == 0xcafebabe00c0ffeeULL) return 4;
  return 0;
}
