/* Fidelity: sscanf (Cairn's runtime) against glibc's on fixed and input-built strings:
 * integers of every width and base, floats, %s %c %[ %n, suppression, widths, literals,
 * matching failures and end of input. */
#include <stdio.h>
#include <string.h>

extern char __VERIFIER_nondet_char(void);

static void show(const char *s) {
  int a = -7, b = -7, n = -7, r;
  unsigned u = 7;
  long l = -7;
  short h = -7;
  signed char hh = -7;
  float f = -7;
  double d = -7;
  char w[16] = "?", c[4] = "??";
  printf("[%s]\n", s);
  r = sscanf(s, "%d %d", &a, &b);
  printf(" d d: %d %d %d\n", r, a, b);
  r = sscanf(s, "%i %x %o", &a, &u, &b);
  printf(" i x o: %d %d %x %o\n", r, a, u, b);
  r = sscanf(s, "%ld%hd%hhd", &l, &h, &hh);
  printf(" ld hd hhd: %d %ld %hd %hhd\n", r, l, h, hh);
  r = sscanf(s, "%f %lf", &f, &d);
  printf(" f lf: %d %g %g\n", r, f, d);
  r = sscanf(s, "%*s%d", &a);
  printf(" *s d: %d %d\n", r, a);
  r = sscanf(s, "%3s%c%n", w, c, &n);
  printf(" 3s c n: %d %s %c %d\n", r, w, c[0], n);
  r = sscanf(s, "%15[a-z0-9]", w);
  printf(" [a-z]: %d %s\n", r, w);
  r = sscanf(s, "%15[^ ,]", w);
  printf(" [^ ]: %d %s\n", r, w);
  r = sscanf(s, "x=%d,", &a);
  printf(" lit: %d %d\n", r, a);
  r = sscanf(s, "%2d%2d", &a, &b);
  printf(" 2d: %d %d %d\n", r, a, b);
}

int main(void) {
  const char *fixed[] = {"", "   ", "12 34", "-5 +6", "0x1f 017 9", "3.5 -2e3", "abc def",
                         "x=42,", "x=", "1234567", "7 ,8", "99999999999 1", "-", "+x",
                         "0x", "1e", ".5", "zz9 1"};
  for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++) show(fixed[i]);
  /* Strings from inputs: digits, signs, spaces, letters, dots. */
  const char alphabet[] = "0123456789 -+.xe,a";
  for (int k = 0; k < 3; k++) {
    char s[8];
    for (int i = 0; i < 7; i++) s[i] = alphabet[(unsigned char)__VERIFIER_nondet_char() % 18];
    s[7] = 0;
    show(s);
  }
  return 0;
}
