/* A branch on what a library call returns: glibc's puts returns the bytes written (3 for
 * "hi"), snprintf the length it would have written. */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  char b[4];
  int n = snprintf(b, sizeof b, "%d", x);
  if (n > 3)
    x = 0;
  int r = puts("hi");
  if (r == 3) {
    if (x > 5)
      return 1;
    return 2;
  }
  return 0;
}
