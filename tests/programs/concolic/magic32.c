/* Magic-number comparisons over 32 bits: random testing practically never passes these. */
/* infeasible: 0 */
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  unsigned b = __VERIFIER_nondet_uint();
  int r = 0;
  if (a == 0x1234567) r += 1;
  if (b == 0xdeadbeefu) r += 2;
  if (a + 17 == -98765) r += 4;
  if ((b ^ 0x5a5a5a5au) == 0x01020304u) r += 8;
  if (a * 3 == 123456789) r += 16;   /* a = 41152263 */
  return r;
}
