/* In unit mode (`--entry setup`) the harness returns from main after the entry, so exit runs
 * the atexit handler the entry registered and the destructor: their branches are reachable. */
#include <stdio.h>
#include <stdlib.h>
static int mode = 0;
static void at_end(void) {
  if (mode == 2) printf("two\n"); /* reachable: setup(2) (line 7) */
  else printf("other\n");
}
__attribute__((destructor)) static void last(void) {
  if (mode > 5) printf("big\n"); /* reachable: setup(6) (line 11) */
}
int setup(int m) {
  mode = m;
  atexit(at_end);
  return m > 0;
}
