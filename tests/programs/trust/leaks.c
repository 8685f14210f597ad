/* Heap memory the program can no longer reach at exit is a leak, reported where it was
 * allocated (as LeakSanitizer reports it): a block lost when an input says so, and a strdup
 * never freed, reported at the call in the program. Not leaks: blocks reachable from a
 * global, directly or through another block; blocks live frames still point to when exit()
 * is called; the runtime's own (getenv's value), a library's (setvbuf's buffer). Lines are
 * asserted. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int v;
};
struct node *kept;

static void finish(int code) {
  char *held = malloc(8); /* a live frame points to it when exit runs */
  held[0] = (char)code;
  exit(held[0] == 7 ? 7 : 0);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  char *scratch = malloc(16);
  kept = malloc(sizeof *kept);
  kept->next = malloc(sizeof *kept);
  kept->next->next = 0;
  char *copy = strdup("abc");
  (void)getenv("HOME");
  if (n == 3)
    return 1; /* scratch and copy leak */
  free(scratch);
  if (n == 5)
    return 2; /* copy leaks */
  if (n == 7)
    finish(n); /* main's and finish's frames hold copy and held */
  free(copy);
  if (n == 9) {
    char *buffer = malloc(64); /* the library keeps it */
    setvbuf(stdout, buffer, _IOFBF, 64);
  }
  return 0;
}
