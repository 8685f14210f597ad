/* Reliability: long paths whose conditions chain a multiplicative hash through hundreds of
 * inputs, so late branches make slow solver queries. The time budget must hold anyway. */
extern unsigned __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned h = 2166136261u;
  int hits = 0;
  for (int i = 0; i < 300; i++) {
    unsigned x = __VERIFIER_nondet_uint();
    h = (h ^ x) * 16777619u;
    if (h % 1000u == (unsigned)i)
      hits++;
    if (x * x == 0x12345679u + (unsigned)i)
      hits += 2;
  }
  if (hits > 5)
    return 1;
  return 0;
}
