/* Engine: a small command-line tool (run with --sym-args 0 3 4): options, a number after
 * "-n", a word to look up. Every branch needs command-line arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int verbose = 0, count = 1;
  const char *word = NULL;
  if (argc < 2) {
    printf("usage\n");
    return 1;
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0)
      verbose = 1;
    else if (argv[i][0] == '-' && argv[i][1] == 'n')
      count = atoi(argv[i] + 2);
    else
      word = argv[i];
  }
  if (count > 3 && count < 10)
    printf("several\n");
  if (word && strcmp(word, "pig") == 0) {
    if (verbose)
      printf("verbose pig\n");
    else
      printf("pig\n");
  }
  return 0;
}
