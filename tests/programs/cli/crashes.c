/* Some inputs crash: null dereference, division by zero, out-of-bounds write. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int table[4];
int main(void) {
  int k = __VERIFIER_nondet_int();
  int *p = (k == 3) ? NULL : &table[0];
  if (k == 5) return 10 / (k - 5);
  if (k == 7) { table[k + 100000] = 1; }
  if (k > 100) return 1;
  return *p;
}
