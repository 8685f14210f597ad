/* Reliability: a program whose input is a file, run without --sym-files. Cairn must say how
 * to make the file an input; the file is absent (as in the replay's scratch directory), which
 * is one test, and nothing past the open is proven unreachable. */
#include <stdio.h>

int main(void) {
  FILE *f = fopen("input.txt", "r");
  if (!f)
    return 1;
  char buf[16];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  if (n > 3 && buf[0] == 'C' && buf[1] == 'A')
    return 2;
  return 0;
}
