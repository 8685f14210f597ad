/* Compiles only with the flags tests/workflow.rs gives after `--`: -std=c99 (the `for`
 * declaration and `restrict` are C99), and -include of a header that defines LIMIT. */
#include <stdio.h>
int __VERIFIER_nondet_int(void);

int sum(const int *restrict v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

int main(void) {
  int v[2] = {__VERIFIER_nondet_int(), __VERIFIER_nondet_int()};
  if (sum(v, 2) > LIMIT)
    printf("over\n");
  return 0;
}
