/* Lists of lists, five levels deep, each list built while an input says "more", as SV-COMP's
 * memory-safety tasks build their heaps (forester-heap, memsafety/test-0235): every nonzero
 * value goes on. A random first input makes the levels multiply until the step limit, and
 * shrinking the values towards zero helps only once they reach 0. */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  struct node *down;
};

static struct node *build(int depth) {
  struct node *list = 0;
  do {
    struct node *n = calloc(1, sizeof *n);
    if (depth > 0)
      n->down = build(depth - 1);
    n->next = list;
    list = n;
  } while (__VERIFIER_nondet_int());
  return list;
}

static int count(struct node *list) {
  int c = 0;
  for (; list; list = list->next)
    c += 1 + count(list->down);
  return c;
}

int main(void) {
  struct node *tree = build(4);
  int c = count(tree);
  if (c == 5)
    return 1; /* one node per level */
  if (c < 10)
    return 2;
  return 3;
}
