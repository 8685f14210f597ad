/* Reliability: a program that writes without end to stdout and allocates without end. Cairn
 * keeps a few MB of a run's output and bounds the run's memory: its own stays bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int mode = __VERIFIER_nondet_int();
  char line[4096];
  memset(line, 'x', sizeof line - 1);
  line[sizeof line - 1] = 0;
  if (mode == 1) {
    for (;;) {
      char *p = malloc(1 << 20);
      if (!p)
        return 3;
      memset(p, mode, 1 << 20);
    }
  }
  if (mode == 2) {
    for (;;) {
      char *p = malloc(16);
      free(p);
    }
  }
  for (;;)
    fputs(line, stdout);
  return 0;
}
