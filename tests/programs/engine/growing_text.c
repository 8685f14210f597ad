/* A fuzz target's usual first lines (the data copied into a buffer one longer, ended by a
 * NUL), then a branch on the text's length. The NUL's store `s[size] = 0` goes through a
 * pointer made from `size`: checked against the buffer of this run, it would hold `size` to
 * what the run had (`size + 1` bytes), and no search could make the text longer. Checked
 * against the size `malloc` was asked for, every run can ask for a longer one. */
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size) {
  char *s = malloc(size + 1);
  if (!s)
    return 0;
  memcpy(s, data, size);
  s[size] = 0;
  int n = 0;
  for (char *p = s; *p; p++)
    n++;
  free(s);
  if (n >= 40)
    return 2;
  return 0;
}
