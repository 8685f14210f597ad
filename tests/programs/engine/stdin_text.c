/* A command reader of stdin by characters (fgets, getc, ungetc, fread): each test's text,
 * run natively as the program's stdin, must end the program as the test says. A byte past
 * 127 and a NUL are part of the text too. */
#include <stdio.h>
#include <string.h>

int main(void) {
  char line[16];
  if (!fgets(line, sizeof line, stdin))
    return 1;
  if (strncmp(line, "go", 2) != 0)
    return 2;
  int c = getc(stdin);
  if (c == 0xe9) {
    ungetc(c, stdin);
    unsigned char rest[3];
    size_t n = fread(rest, 1, sizeof rest, stdin);
    if (n == 3 && rest[2] == 0)
      return 6;
    return 5;
  }
  if (c == EOF)
    return 3;
  return 4;
}
