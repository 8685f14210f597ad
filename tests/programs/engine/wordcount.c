/* Engine: counts words, numbers and lines of a file named on the command line (run with
 * --sym-args 0 1 2 --sym-files 1 12): fopen, fgetc to the end, ungetc. */
#include <stdio.h>
#include <ctype.h>

int main(int argc, char **argv) {
  FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
  if (!f) {
    printf("cannot open\n");
    return 2;
  }
  int c, words = 0, numbers = 0, lines = 0;
  while ((c = fgetc(f)) != EOF) {
    if (c == '\n') lines++;
    else if (isdigit(c)) {
      while ((c = fgetc(f)) != EOF && isdigit(c)) ;
      if (c != EOF) ungetc(c, f);
      numbers++;
    } else if (isalpha(c)) {
      words++;
    }
  }
  if (lines >= 2 && numbers > 0) printf("numbers on lines\n");
  if (words > 2) printf("many words\n");
  fclose(f);
  return 0;
}
