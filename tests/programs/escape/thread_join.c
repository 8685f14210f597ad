/* A thread writes a global that main reads after pthread_join. */
/* infeasible: 0 */
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
static int result = 0;
static int arg_value;
static void *worker(void *p) {
  int v = *(int *)p;
  if (v > 5) result = v;
  return 0;
}
int main(void) {
  arg_value = __VERIFIER_nondet_int();
  pthread_t t;
  pthread_create(&t, 0, worker, &arg_value);
  pthread_join(t, 0);
  if (result > 5) return 1; /* reachable: the thread stored an input above 5 */
  return 0;
}
