/* Which of two objects lies lower in memory is the allocator's and the layout's choice: no
 * outcome of such a comparison may be proven unreachable. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  char *p = malloc(8), *q = malloc(8);
  int local;
  if (p < q) {
    if (x)
      return 1;
    return 2;
  }
  if ((char *)&local > p)
    return 3;
  return 4;
}
