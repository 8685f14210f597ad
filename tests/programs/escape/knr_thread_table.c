/* Thread functions defined without a prototype (`void *worker()`) and run through a table of
 * pointers that pass one argument, as CSeq's sequentialized programs run their threads. In C
 * the call is undefined (another parameter count); natively and in the interpreter it runs.
 * The model checker once left such callees out of the call (it followed only callees taking
 * as many arguments) and proved their branches, and main's branch they enable, unreachable. */
/* infeasible: 0 */
extern int __VERIFIER_nondet_int(void);
int shared;
void *worker() {
  if (shared == 5) /* reachable: the input is 5 */
    shared = 10;
  return 0;
}
void *main_thread(void *arg) {
  (void)arg;
  shared = __VERIFIER_nondet_int();
  return 0;
}
void *(*threads[2])(void *);
int main(void) {
  threads[0] = main_thread;
  threads[1] = (void *(*)(void *))worker;
  for (int i = 0; i < 2; i++)
    threads[i](0);
  if (shared == 10) /* reachable: the worker ran on 5 */
    return 1;
  return 0;
}
