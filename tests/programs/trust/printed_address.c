/* Trust: text and counts made by printf's %p are the address layout's choice. Natively the last
 * hex digit of &x is 0 in some layouts and not in others; the count of an address printed with
 * %p varies too. Neither outcome may be proven unreachable. */
#include <stdio.h>
#include <string.h>

int main(void) {
  int x = 0;
  char buf[64];
  sprintf(buf, "%p", (void *)&x);
  int r = buf[strlen(buf) - 1] == '0' ? 1 : 2;
  int n = snprintf(0, 0, "%p", (void *)buf);
  if (n > 14)
    r += 10;
  return r;
}
