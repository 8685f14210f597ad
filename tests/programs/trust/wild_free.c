/* Frees of pointers malloc did not return, far from null: a non-canonical address (a pointer
 * slot past the blocks Cairn links for one run keeps such input bytes) and an unmapped
 * canonical one. Natively AddressSanitizer's `free` crashes on both (SEGV) before it can say
 * "not malloc()-ed"; replay takes that SEGV, at the same line, as the fault Cairn predicted. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k == 7)
    free((void *)0x0702150fff0d0780UL);
  if (k == 8)
    free((void *)0x10000UL);
  return 0;
}
