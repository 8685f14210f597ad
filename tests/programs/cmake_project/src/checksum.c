#include "ring.h"

unsigned ring_checksum(const char *s, int n) {
  unsigned sum = 7;
  for (int i = 0; i < n && s[i]; i++) {
    if (s[i] >= 'a' && s[i] <= 'z')
      sum = sum * 31 + (unsigned)(s[i] - 'a');
    else
      sum ^= (unsigned char)s[i];
  }
  return sum;
}

int ring_digits(const char *s, char *out) {
  int n = 0;
  for (int i = 0; s[i]; i++)
    if (s[i] >= '0' && s[i] <= '9')
      out[n++] = s[i];
  out[n] = 0;
  return n;
}
