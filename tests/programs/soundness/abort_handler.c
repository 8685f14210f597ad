/* A SIGABRT handler runs when the program aborts: its branches are reachable, though the model
 * checker's path ends at abort(). (Not among the escape programs: the replay harness's own
 * SIGABRT handler, which writes gcov's data, is replaced by the program's.) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static int code = 0;
static void on_abort(int sig) {
  (void)sig;
  if (code == 5) printf("five\n"); /* reachable: input 5 (line 11) */
  else printf("other\n");
}
int main(void) {
  signal(SIGABRT, on_abort);
  code = __VERIFIER_nondet_int();
  if (code > 3) abort();
  return 0;
}
