/* Reliability: conditions on IEEE products and quotients of converted inputs. Z3 4.8.12's
 * incremental solver bit-blasts a double quotient past its timeout (4 s for a 100 ms check,
 * over a gigabyte): a 3-s budget ended after 4.4-7.9 s. */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern float __VERIFIER_nondet_float(void);

int main(void) {
  int m = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  float f = __VERIFIER_nondet_float();
  if ((double)(m + 10) / 7.0 * 7.0 < m + 10) puts("rounded down");
  if ((double)n * 1.1 / 3.3 > (double)m * 0.7) puts("ratio");
  if ((double)(m - n) / 3.0 * 3.0 != (double)(m - n)) puts("inexact");
  if (f / 3.0f * (float)n == 12.5f) puts("product");
  return 0;
}
