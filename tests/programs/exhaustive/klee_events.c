/* An endless event loop whose events come from `klee_make_symbolic`: each event's bytes are a
   fresh input in a stack slot that outlives the iteration, so the states at the loop's head
   hold the last event's bytes and the path's conditions on them, and repeat only up to which
   input they were. */
/* infeasible: 4 */
#include <stddef.h>
extern void klee_make_symbolic(void *, size_t, const char *);
void reach_error(void) {}

int main(void) {
  int level = 0, alarm = 0;
  for (;;) {
    int ev;
    klee_make_symbolic(&ev, sizeof ev, "ev");
    if (ev <= 0 || ev > 4)
      return 0;
    if (ev == 1) {
      if (level < 3)
        level++;
    } else if (ev == 2) {
      if (level > 0)
        level--;
    } else if (ev == 3) {
      if (level == 3)
        alarm = 1;
    } else if (alarm && level == 0) {
      alarm = 0;
    }
    if (level > 3) /* infeasible: its true side and the call */
      reach_error();
    if (alarm && level < 0) /* infeasible: `level < 0` and the call */
      reach_error();
  }
}
