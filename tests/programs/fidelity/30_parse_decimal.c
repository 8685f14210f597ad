/* Fidelity: base-10 atoi/atol/atoll/strtol/strtoll against glibc, on strings that end within
 * their first 19 bytes (the runtime parses those without branching on their bytes) and longer
 * ones (the general parser): spaces, signs, leading zeros, no digits, digits cut by other
 * bytes, numbers long enough to overflow a 32-bit long (ERANGE) or a 64-bit one, arguments in
 * the middle of an object. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

static const char alphabet[] = " \t\n+-0123456789x99999";

static void fill(char *s, int n) {
  for (int i = 0; i < n - 1; i++) s[i] = alphabet[__VERIFIER_nondet_uchar() % (sizeof alphabet - 1)];
  s[n - 1] = 0;
  if (__VERIFIER_nondet_uchar() % 3 == 0) s[__VERIFIER_nondet_uchar() % n] = 0;
}

static void show(const char *s) {
  errno = 0;
  long l = strtol(s, NULL, 10);
  int e = errno;
  errno = 0;
  long long ll = strtoll(s, NULL, 10);
  printf("[%s] atoi=%d atol=%ld atoll=%lld strtol=%ld errno=%d strtoll=%lld errno=%d\n", s,
         atoi(s), atol(s), atoll(s), l, e, ll, errno);
}

int main(void) {
  char small[6], digits[19], large[40];
  for (int round = 0; round < 4; round++) {
    fill(small, sizeof small);
    fill(digits, sizeof digits);
    fill(large, sizeof large);
    show(small);
    show(small + 2);
    show(digits);
    show(large);
    show(large + 25);
  }
  show("  -2147483648");
  show("2147483648");
  show("-9999999999");
  show("+000000000000000042");
  show("                         123");
  show("-123456789012345678901234");
  show("123456789012345678");
  return 0;
}
