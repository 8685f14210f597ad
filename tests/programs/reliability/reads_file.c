/* Reliability: a program whose input is a file. Cairn does not model files yet: it must say so
 * clearly, never end with no test and exit 0 as if all were well. */
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
