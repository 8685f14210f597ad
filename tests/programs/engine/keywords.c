/* Engine: a tokenizer of stdin (getchar) whose tokens are looked up in a keyword table with
 * strcmp; each keyword has its own action. A keyword matches only a token of its exact length,
 * which a search that flips one branch at a time must first build character by character. */
#include <stdio.h>
#include <string.h>

static const char *keywords[] = { "let", "while", "return", "lambda", "function", "continue" };

static int lookup(const char *tok) {
  for (int i = 0; i < 6; i++)
    if (strcmp(tok, keywords[i]) == 0) return i;
  return -1;
}

int main(void) {
  char tok[16];
  int n = 0, c, counts[6] = { 0 }, words = 0;
  do {
    c = getchar();
    if (c == ' ' || c == '\n' || c == EOF) {
      if (n > 0) {
        tok[n] = 0;
        int k = lookup(tok);
        if (k >= 0) counts[k]++;
        else words++;
        n = 0;
      }
    } else if (n < 15) {
      tok[n++] = (char)c;
    }
  } while (c != EOF);
  if (counts[0]) puts("let");
  if (counts[1]) puts("while");
  if (counts[2]) puts("return");
  if (counts[3]) puts("lambda");
  if (counts[4]) puts("function");
  if (counts[5]) puts("continue");
  if (words > 2) puts("words");
  return 0;
}
