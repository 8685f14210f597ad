/* Input read with getchar: a tiny command parser. */
/* infeasible: 0 */
#include <stdio.h>
int main(void) {
  char line[16];
  int n = 0, c;
  while (n < 15 && (c = getchar()) != EOF && c != '\n') line[n++] = (char)c;
  line[n] = 0;
  if (n >= 3 && line[0] == 'a' && line[1] == 'd' && line[2] == 'd') return 1;
  if (n == 1 && line[0] == 'q') return 2;
  if (n > 0 && line[0] >= '0' && line[0] <= '9') return 3;
  return 0;
}
