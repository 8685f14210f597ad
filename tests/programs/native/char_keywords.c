/* A command read a `char` input at a time into an array and compared with keywords by the
 * library: the comparison log's keywords are spelled in the `char` inputs (input-to-state). */
#include <string.h>
extern char __VERIFIER_nondet_char(void);
int main(void) {
  char buf[8];
  for (int i = 0; i < 7; i++) buf[i] = __VERIFIER_nondet_char();
  buf[7] = 0;
  if (strncmp(buf, "GET ", 4) == 0) return 2;
  if (strcmp(buf, "quit") == 0) return 4;
  return 0;
}
