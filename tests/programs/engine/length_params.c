// Functions taking a buffer and its length: a caller passes at most what its buffer holds,
// so unit mode does too (signed lengths may still be negative).
#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry: `data` holds `size` bytes.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 3)
    return 0;
  if (data[size - 1] == '!' && data[0] == 'h' && data[1] == 'i')
    return 1;
  if (size == 64)
    return 2;
  return 0;
}

int sum(const int *a, int n) {
  if (n < 0)
    return -1;
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  if (n == 16 && s == 100)
    return 1;
  return s > 0;
}

// `k` is not a length: it may index past the buffer, a fault of the function.
int pick(const char *p, int k) {
  if (k > 70)
    return p[k];
  return 0;
}

// `keysize` names the size of `key` (in bits), not how many words `w` holds: no bound.
int key_words(const uint8_t *key, uint32_t *w, int keysize) {
  switch (keysize) {
  case 128: w[0] = key[0]; return 4;
  case 256: w[0] = key[1]; return 8;
  default: return 0;
  }
}

// `s_len` is the length of `s`, the pointer before it.
int first_of(const char *re, const char *s, int s_len) {
  return s_len > 0 && s[s_len - 1] == re[0];
}
