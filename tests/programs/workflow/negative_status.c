// `main` returns negative values, as many programs do: natively 255 and 254, normal exits.
#include "ring.h"
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int i = __VERIFIER_nondet_int(), n = __VERIFIER_nondet_int();
  int next = ring_next(i, n);
  if (next < 0)
    return -2;
  if (next == 0 && i > 3)
    return -1;
  return 0;
}
