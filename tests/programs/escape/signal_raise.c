/* A signal handler installed with signal() and triggered with raise() sets a flag. */
/* infeasible: 0 */
#include <signal.h>
extern int __VERIFIER_nondet_int(void);
static volatile sig_atomic_t got = 0;
static void on_usr1(int sig) {
  if (sig == SIGUSR1) got = 1;
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  signal(SIGUSR1, on_usr1);
  if (x > 10) raise(SIGUSR1);
  if (got) return 1; /* reachable: x > 10 */
  return 0;
}
