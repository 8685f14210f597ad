/* An atexit handler runs after main, called by exit through the runtime's table of handlers:
 * the branch it takes on the state main left must stay open for the model checker. */
/* infeasible: 0 */
#include <stdio.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static int state = 0;
static void at_end(void) {
  if (state == 2) printf("two\n"); /* reachable: input 2 */
  else printf("other\n");
}
int main(void) {
  atexit(at_end);
  state = __VERIFIER_nondet_int();
  return 0;
}
