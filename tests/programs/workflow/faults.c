/* Two distinct faults behind input checks, and a clean path: tests/workflow.rs expects both
 * listed (summary, summary.json, faults.sarif) and the exit status of --fail-on-fault. */
#include <assert.h>
#include <stdio.h>
int __VERIFIER_nondet_int(void);

static int table[4] = {1, 2, 3, 4};

int lookup(int i) {
  int *p = 0;
  if (i == 17)
    return *p;             /* null pointer dereference */
  if (i > 1000 && i < 1010)
    assert(i != 1005);     /* assertion failure */
  return table[i & 3];
}

int main(void) {
  int i = __VERIFIER_nondet_int();
  printf("%d\n", lookup(i));
  return 0;
}
