/* A longjmp back into main: setjmp returns twice natively (the second time with g set). */
#include <setjmp.h>
extern int __VERIFIER_nondet_int(void);
static jmp_buf env;
int g;
static void f(int x) { if (x > 10) { g = 1; longjmp(env, x); } }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int r = setjmp(env);
  if (r == 0) {
    f(x);
    return 1;
  }
  if (g == 1)
    return 2;
  return 3;
}
