/* A controller that reads events forever. Its state lies in a local (door), a local only the
   last check reads (armed), a global (level), a heap cell (tokens) and an array on main's
   stack (flags): finitely many states, so exploring its paths ends only where the search
   recognises a state it was in before at the loop's head (exec::revisit). Every state the
   events reach is explored, and what none reaches is proven. */
/* infeasible: 3 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int level;
int *tokens;

int main(void) {
  int door = 0, armed = 0;
  int flags[2] = {0, 0};
  tokens = malloc(sizeof *tokens);
  *tokens = 0;
  for (;;) {
    int ev = __VERIFIER_nondet_int();
    if (ev < 0 || ev > 4)
      return 0;
    if (ev == 0)
      door = !door;
    else if (ev == 1) {
      if (door && *tokens < 3)
        *tokens += 1;
    } else if (ev == 2)
      flags[door] = 1;
    else if (ev == 3) {
      if (*tokens == 3) {
        level = (level + 1) % 3;
        *tokens = 0;
      }
    } else
      armed = !armed;
    if (level == 2 && door && flags[0] && flags[1] && armed)
      return 7;
    if (*tokens > 3) /* infeasible: the tokens stop at 3 (and the error call) */
      reach_error();
    if (level > 2) /* infeasible: the level counts modulo 3 */
      return 9;
  }
}
