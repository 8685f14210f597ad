/* A word compared before it is surely written: when scanf finds no word, `word` holds
 * whatever the stack held. Cairn reads zeros there, a native run garbage, so a run that
 * decides on it claims nothing past that decision: the empty word's branch and what follows
 * it are never claimed (no word scanf reads is empty), everything before it is. A search's
 * run ends at that decision: past it, zeros would spin the loop below to the step limit. */
#include <stdio.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  char word[16];
  int n = __VERIFIER_nondet_int();
  if (n > 5)
    printf("big\n");
  if (scanf("%15s", word) != 1)
    printf("no word\n");
  if (strcmp(word, "") == 0) {
    printf("empty\n");
    if (n == 3)
      return 3;
    while (word[0] == 0 && n < 100000000)
      n++;
  }
  return 0;
}
