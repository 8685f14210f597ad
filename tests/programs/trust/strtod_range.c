/* glibc's strtod sets errno to ERANGE on overflow and underflow: both outcomes of the check
 * happen natively (parson rejects such a number; the interpreter's strtod left errno alone). */
#include <errno.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  const char *texts[] = {"1e999", "1e-999", "12.5"};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2)
    return 0;
  errno = 0;
  double d = strtod(texts[k], 0);
  if (errno == ERANGE)
    return 1;
  return d > 12.0 ? 2 : 3;
}
