/* A qsort comparator sets a global when it sees a value: the flag is set behind a library call. */
/* infeasible: 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static int saw_seven = 0;
static int cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (x == 7 || y == 7) saw_seven = 1;
  return (x > y) - (x < y);
}
int main(void) {
  int v[3];
  for (int i = 0; i < 3; i++) v[i] = __VERIFIER_nondet_int();
  qsort(v, 3, sizeof v[0], cmp);
  if (saw_seven) return 1; /* reachable: an input equal to 7 */
  return 0;
}
