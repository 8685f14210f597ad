/* Each run leaks a descriptor and 8 MB of heap, as a program run once may: a process that runs
 * it again and again must not let a later run see what earlier ones left (descriptors numbered
 * higher, allocations failing at the memory limit). The exit status says what the run saw
 * (0 or 3: what a fresh process sees). */
#include <stdlib.h>
#include <unistd.h>

int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int fd = dup(1);
  char *p = malloc(8 << 20);
  if (fd < 0 || fd > 32)
    return 1;
  if (!p)
    return 2;
  if (x == 42)
    return 3;
  return 0;
}
