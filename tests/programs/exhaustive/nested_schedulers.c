/* Input loops in called functions: a server main calls twice from its own loop, and a
   recursive handler with an input loop in each activation. The server's states repeat from
   one call to the next while main's locals differ (which round, the total so far), and the
   handler's repeat at every depth: exploring the paths ends only where the search recognises a
   state it was in before, and a state is the same only with the same frames below it (where
   each resumes, what its registers hold). Treating the second round's server states as the
   first round's would cut every path to `total == 4` and "prove" it unreachable. */
/* infeasible: 4 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int phase;

__attribute__((noinline)) int serve(void) {
  int queue = 0;
  for (;;) {
    int ev = __VERIFIER_nondet_int();
    if (ev < 0 || ev > 3)
      return queue;
    if (ev == 0) {
      if (queue < 2)
        queue++;
    } else if (ev == 1) {
      if (queue > 0)
        queue--;
    } else if (ev == 2) {
      if (queue == 2)
        phase = (phase + 1) % 3;
    }
    if (queue > 2) /* infeasible: the queue stops at 2 (and the error call) */
      reach_error();
  }
}

__attribute__((noinline)) int handle(int depth) {
  int seen = 0;
  for (;;) {
    int ev = __VERIFIER_nondet_int();
    if (ev == 0)
      return seen;
    if (ev == 1 && depth < 2)
      seen |= handle(depth + 1);
    else if (ev == 2 && depth == 2)
      seen = 1;
    if (seen > 1) /* infeasible: seen is 0 or 1 */
      return 7;
  }
}

int main(void) {
  int total = 0;
  for (int round = 0; round < 2; round++)
    total += serve();
  if (total == 4 && phase == 2)
    return 1;
  if (total > 4) /* infeasible: each round returns at most 2 */
    return 9;
  if (handle(0) == 1 && phase == 1)
    return 2;
  return 0;
}
