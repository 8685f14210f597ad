/* A read just before a heap block (the undefined behaviour of an SV-COMP memory-safety task,
 * list-ext-properties/960521-1_1-1: `b[-2]`). Cairn's interpreter stops there with a fault;
 * glibc lets the read through, and the native run branches on the chunk header it finds. So
 * neither outcome of the branch after it may be proven unreachable. */
#include <stdio.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  int mode = __VERIFIER_nondet_int();
  int *b = malloc(4 * sizeof *b);
  for (int i = 0; i < 4; i++)
    b[i] = i + 1;
  int v = 0;
  if (mode == 1)
    v = b[-2];
  if (v > 0)
    puts("positive");
  else
    puts("not positive");
  free(b);
  return 0;
}
