/* Branches on addresses: natively they go either way with the memory layout (address
 * randomisation), so no outcome may be proven unreachable. */
#include <stdint.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int local = x;
  char *p = malloc(16);
  if ((uintptr_t)&local & 0x1000) {
    if (x)
      return 1;
    return 2;
  }
  if (((uintptr_t)p >> 12) & 1)
    return 3;
  char *q = p + 8;
  /* A difference within one object is exact. */
  if ((uintptr_t)q - (uintptr_t)p == 8)
    return 4;
  return 5;
}
