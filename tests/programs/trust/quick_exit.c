/* quick_exit runs the at_quick_exit handlers (not the atexit ones) and ends the process. */
#include <stdio.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static int x;
static void on_quick(void) {
  if (x > 3)
    _exit(7);
}
static void on_exit_(void) {
  if (x > 3)
    _exit(9);
}
int main(void) {
  x = __VERIFIER_nondet_int();
  at_quick_exit(on_quick);
  atexit(on_exit_);
  if (x > 0)
    quick_exit(1);
  return 0;
}
