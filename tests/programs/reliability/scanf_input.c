/* Reliability: scanf conversions of several widths are inputs; native replay feeds the same
 * values through the harness's scanf (it read the real, empty stdin before). */
#include <stdio.h>
int main(void) {
  int a;
  short h;
  long l;
  double d;
  char c;
  scanf("%d %hd %ld %lf %c", &a, &h, &l, &d, &c);
  if (a > 100 && h < -5)
    puts("wide");
  if (l == 123456789L && c == 'q')
    puts("long");
  if (d > 2.5)
    return 2;
  return 0;
}
