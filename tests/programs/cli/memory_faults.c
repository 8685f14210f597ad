/* Memory faults of every shape, each said in words: which object, how far past it. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
int table[4];
int main(void) {
  int k = __VERIFIER_nondet_int();
  char *p = malloc(10);
  int i = k - 2;
  switch (k) {
  case 0:
    p[10] = 1;
    break;
  case 1:
    return table[i];
  case 2:
    free(p);
    return p[3];
  case 3:
    return *(int *)(p + 8);
  case 4: /* a wild pointer: no object near */
    return *(int *)((unsigned long)__VERIFIER_nondet_int() << 40);
  case 5: /* a library function's access */
    memmove(p, table, k * 3);
    break;
  case 6:
    memset(p, 'a', 10);
    return puts(p); /* no NUL */
  }
  free(p);
  return 0;
}

/* Unit mode: the buffer is Cairn's, of --buffer-size bytes. */
int get(const char *s, int i) { return s[i]; }
