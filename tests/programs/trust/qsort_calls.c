/* A program that counts the comparator's calls: glibc's merge sort calls it 2 or 3 times on
 * three elements, never once. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static int calls;
static int cmp(const void *a, const void *b) {
  calls++;
  return *(const int *)a - *(const int *)b;
}
int main(void) {
  int a[3];
  for (int i = 0; i < 3; i++)
    a[i] = __VERIFIER_nondet_int() % 1000;
  qsort(a, 3, sizeof a[0], cmp);
  if (calls == 1)
    return 1;
  if (calls == 3)
    return 2;
  return 0;
}
