/* Pointers one past the end of their object (a loop's end, `data + len`) are pointers into
 * it: their differences with pointers into the object are offsets, whatever the layout. */
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
static int spaces(const char *data, size_t len) {
  const char *end = data + len, *p = data;
  while (p != end && *p == ' ')
    p++;
  size_t left = end - p; /* what is left after the spaces */
  if (left > len)
    return -1; /* never */
  if (left == 3)
    return 3;
  return 0;
}
int main(void) {
  char text[5];
  size_t len = __VERIFIER_nondet_int() & 7;
  if (len > sizeof text)
    return 1;
  for (size_t i = 0; i < len; i++)
    text[i] = __VERIFIER_nondet_int() ? ' ' : 'x';
  return spaces(text, len);
}
