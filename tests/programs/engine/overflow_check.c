/* Overflow checks as compression code writes them (lz4: `(uptrval)op + length < (uptrval)op`):
 * no length below 1000 wraps an address a 64-bit process gives an object, so the outcome is
 * no decision of the layout. Two places in one object compared for equality are equal when
 * their offsets are, which the search steers (`length == 56`). */
#include <stddef.h>
#include <stdint.h>
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned char buf[64];
  unsigned char *op = buf;
  size_t length = __VERIFIER_nondet_uint() % 1000;
  if ((uintptr_t)op + length < (uintptr_t)op)
    return 3;
  unsigned char *end = buf + sizeof buf;
  if ((uintptr_t)(op + 8) + length == (uintptr_t)end)
    return 2;
  return 0;
}
