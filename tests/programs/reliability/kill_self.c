/* Reliability: the process id is an input (natively it changes from run to run); a signal the
 * program sends to itself with kill(getpid(), ...) runs its handler in the interpreter and in
 * native replay alike, and a kill aimed at any other pid reaches no real process. */
#include <signal.h>
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);
static volatile int hit;
static void on_usr1(int s) { hit = s; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int other = __VERIFIER_nondet_int();
  signal(SIGUSR1, on_usr1);
  if (x == 7)
    kill(getpid(), SIGUSR1);
  else if (x == 8 && kill(other, SIGUSR1) == 0)
    return 2;
  if (hit)
    return 1;
  return 0;
}
