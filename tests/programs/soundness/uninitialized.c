/* Reads of indeterminate values: an uninitialized local, an uninitialized stack array and
   fresh heap memory. The interpreter reads zeros; a native run reads whatever was there, so
   no goal that depends on them may be proven unreachable. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int flag;
  int buf[4];
  if (x > 5) flag = 1;
  if (flag == 7) reach_error();      /* garbage may be 7 */
  if (buf[2] == 3) return 4;         /* garbage may be 3 */
  int *p = malloc(4 * sizeof *p);
  if (p && p[1] == 9) return 5;      /* garbage may be 9 */
  return 0;
}
