/* Reliability: branches only a long solver query can flip (factoring 64-bit products), so the
 * search spends its time inside Z3. Ctrl-C must still stop it at once. */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void reach_error(void);

static const unsigned long long products[] = {
    0xC4A0E5F5E3ADC2FDULL, 0x9E3779B97F4A7C15ULL, 0xD6E8FEB86659FD93ULL,
    0xA0761D6478BD642FULL, 0xE7037ED1A0B428DBULL, 0x8EBC6AF09C88C6E3ULL,
    0x589965CC75374CC3ULL, 0x1D8E4E27C47D124FULL,
};

int main(void) {
  int found = 0;
  for (int i = 0; i < 8; i++) {
    unsigned long long a = __VERIFIER_nondet_ulonglong();
    unsigned long long b = __VERIFIER_nondet_ulonglong();
    if (a > 1 && b > 1 && a < 0xFFFFFFFFULL && b < 0xFFFFFFFFULL && a * b == products[i])
      found++;
  }
  if (found == 8)
    reach_error();
  return 0;
}
