/* A packet passes four checks a fuzzer meets by chance seldom: a magic word read from its
 * bytes, a keyword compared with memcmp, a code point spelled in hex within the surrogates'
 * range (as a JSON parser's `\u` escapes), and an FNV-1a checksum of what precedes it. The
 * exit status says how far it got (4 failed the checksum ... 1 failed the magic word). */
#include <string.h>

void klee_make_symbolic(void *p, unsigned long n, const char *name);

static unsigned fnv(const unsigned char *p, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++) {
    h ^= p[i];
    h *= 16777619u;
  }
  return h;
}

static int hex4(const unsigned char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    int c = s[i], d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return -1;
    v = v * 16 + d;
  }
  return v;
}

int main(void) {
  unsigned char pkt[32];
  klee_make_symbolic(pkt, sizeof pkt, "pkt");
  unsigned magic, sum;
  memcpy(&magic, pkt, 4);
  if (magic != 0x4e524143u) /* "CARN" */
    return 1;
  if (memcmp(pkt + 4, "v2", 2) != 0)
    return 2;
  int code = hex4(pkt + 6);
  if (code < 0xd800 || code > 0xdbff)
    return 3;
  memcpy(&sum, pkt + 28, 4);
  if (sum != fnv(pkt, 28))
    return 4;
  return 0;
}
