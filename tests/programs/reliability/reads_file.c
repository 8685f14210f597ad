/* Reliability: a program whose input is a file, run without --sym-files. The file it reads by
 * name is an input (absent, or holding bytes the search chooses); Cairn says so, and nothing
 * past the open is proven unreachable. */
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
