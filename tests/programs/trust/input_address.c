/* Pointers made from inputs compared with objects' addresses (sv-benchmarks' seq-pthread
 * cs_sync): which number equals an address is the layout's, so a test that takes such a side
 * is layout-dependent and no outcome may be proven unreachable. A pointer the program chose
 * among its own objects stays a decision on the input that chose it. */
extern unsigned long __VERIFIER_nondet_ulong(void);
extern int __VERIFIER_nondet_int(void);
int slots[4];
int *table[2];
int main(void) {
  int x = __VERIFIER_nondet_int();
  int *q = x * 3 == 123459 ? &slots[3] : 0;
  if (q == &slots[3])
    x = 0;
  table[0] = (int *)__VERIFIER_nondet_ulong();
  if (table[0] == &slots[1])
    return 1;
  if (table[0] == &slots[x & 3])
    return 2;
  int *p = (int *)__VERIFIER_nondet_ulong();
  if (p == 0)
    return 3;
  if (p + 1 > &slots[2])
    return 4;
  return 0;
}
