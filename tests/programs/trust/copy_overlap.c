/* A copy far past the end of both its objects: Cairn predicts an out-of-bounds access, and
 * natively AddressSanitizer's `memcpy` reports first that the two ranges overlap (they do, being
 * that long): the same call's fault, at the same line. */
#include <string.h>
extern int __VERIFIER_nondet_int(void);
static char a[16], b[16];
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 200 && n < 300)
    memcpy(a, b, n);
  return a[0];
}
