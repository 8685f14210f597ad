/* A fuzz target's usual first lines: the data copied into a buffer one longer, then ended by
 * a NUL. The copy's length is an input, so the bytes past it are "the old byte" in the
 * search's view, and that old byte was never written; but no run reads one (the NUL ends
 * the text first), so decisions on the text are steered, not counted as resting on
 * uninitialized memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s)
    return 0;
  memcpy(s, data, size);
  s[size] = 0;
  int r = 0;
  if (strlen(s) == 4 && s[0] == '{' && s[3] == '}')
    r = 1;
  if (strcmp(s, "null") == 0)
    r = 2;
  free(s);
  return r;
}
