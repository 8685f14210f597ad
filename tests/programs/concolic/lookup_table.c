/* Input-indexed arrays and lookup tables: each table entry must be reachable. */
/* infeasible: 0 */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
static const int prime_bonus[16] = {0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0};
static const unsigned char sbox[8] = {7, 3, 0, 5, 6, 1, 4, 2};
int main(void) {
  unsigned char k = __VERIFIER_nondet_uchar();
  int i = __VERIFIER_nondet_int();
  int score = 0;
  if (prime_bonus[k & 15]) score += 10;
  if (sbox[k & 7] == 6) score += 1;          /* only k & 7 == 4 */
  if (i >= 0 && i < 8 && sbox[sbox[i]] == 7) score += 100;  /* sbox[i] == 0: i == 2 */
  int table[5] = {10, 20, 30, 40, 50};
  if (i >= 0 && i < 5) {
    table[i] += 5;
    if (table[3] == 45) score += 1000;        /* i == 3 */
  }
  return score;
}
