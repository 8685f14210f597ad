/* Constructors run before main (in priority order) and destructors after it. */
/* infeasible: 2 */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
static int ready = 0;
static int order = 0;
__attribute__((constructor(200))) static void second(void) { order = order * 10 + 2; }
__attribute__((constructor(101))) static void first(void) {
  ready = 1;
  order = order * 10 + 1;
}
__attribute__((destructor)) static void done(void) { printf("bye %d\n", order); }
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (!ready) return 2;      /* infeasible: the constructor ran */
  if (order != 12) return 3; /* infeasible: first ran before second */
  if (x == 3) return 1;
  printf("ready\n");
  return 0;
}
