/* Unit mode on a function of linked structures: `walk(list)` follows `next` pointers, looks
 * into a node's `child` and its `name`. Cairn gives a pointer the function loads from its
 * inputs null or a fresh block (lazily, as CUTE does), so every branch can be covered with no
 * wild pointer. */
#include <stddef.h>

struct node {
  int key;
  struct node *next;
  struct node *child;
  const char *name;
};

int walk(struct node *list) {
  int count = 0;
  for (struct node *p = list; p; p = p->next) {
    count++;
    if (p->key == 42 && p->child && p->child->key == 7)
      return 100 + count;
    if (count == 4)
      return 4;
  }
  if (count == 3)
    return 3;
  if (list->name && list->name[0] == 'x' && list->name[1] == 'y')
    return 9;
  return count;
}
