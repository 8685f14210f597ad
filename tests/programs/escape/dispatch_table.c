/* Handlers called only through a table of function pointers: the model checker follows the
 * indirect call into each handler that takes as many arguments, so it proves the impossible
 * branch inside a handler and leaves the reachable ones to testing. */
/* infeasible: 1 */
extern int __VERIFIER_nondet_int(void);
static int level = 0;
static void raise_level(int by) {
  if (by > 3) level += by; /* reachable: the table passes op + 1 */
  else level++;
}
static void reset_level(int by) {
  if (by < 0) level = -1; /* infeasible: the caller passes op + 1 with op >= 0 */
  else level = 0;
}
static void (*const handlers[2])(int) = {raise_level, reset_level};
int main(void) {
  int op = __VERIFIER_nondet_int();
  if (op < 0 || op > 7) return 0;
  handlers[op % 2](op + 1);
  if (level == 7) return 2; /* reachable: op = 6 */
  return 1;
}
