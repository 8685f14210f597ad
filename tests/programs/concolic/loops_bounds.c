/* Loops whose bounds are inputs; a target reached only after a specific iteration count. */
/* infeasible: 0 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 0 || n > 20) return 0;
  int sum = 0;
  for (int i = 0; i < n; i++) sum += i;
  if (sum == 45) return 1;          /* n == 10 */
  int count = 0;
  while (m > 1 && count < 30) {     /* Collatz steps of a small input */
    m = (m % 2) ? 3 * m + 1 : m / 2;
    count++;
  }
  if (count == 7) return 2;         /* e.g. m = 20 */
  return 3;
}
