/* Unit mode: a function tested on its own; `main` is never run. */
#include <string.h>
int parse_field(const char *s, int limit) {
  if (limit < 0) return -1;
  if (strncmp(s, "key=", 4) != 0) return -2;
  int v = 0;
  for (const char *p = s + 4; *p >= '0' && *p <= '9'; p++) {
    v = v * 10 + (*p - '0');
    if (v > limit) return -3;
  }
  return v == 42 ? 1 : 0;
}
int main(void) { return parse_field("key=1", 5); }
