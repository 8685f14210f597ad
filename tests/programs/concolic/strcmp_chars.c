/* A string compared character by character with a constant, and with strcmp/strncmp. */
/* infeasible: 0 */
#include <string.h>
extern char __VERIFIER_nondet_char(void);
static int check_password(const char *s) {
  const char *want = "s3cr3t";
  for (int i = 0; want[i]; i++)
    if (s[i] != want[i]) return 0;
  return 1;
}
int main(void) {
  char buf[8];
  for (int i = 0; i < 7; i++) buf[i] = __VERIFIER_nondet_char();
  buf[7] = 0;
  if (check_password(buf)) {
    if (buf[6] == '!') return 3;
    return 1;
  }
  if (strncmp(buf, "GET ", 4) == 0) return 2;
  if (strcmp(buf, "quit") == 0) return 4;
  return 0;
}
