/* Unit mode on a function of linked structures: `walk(list)` follows `next` pointers, looks
 * into a node's `child` and its `name`. Cairn gives a pointer the function loads from its
 * inputs null or a fresh block (lazily, as CUTE does), so every branch can be covered with no
 * wild pointer. `free_list(list)` frees every node, the parameter's buffer too, as its owner
 * would: the replay harness's buffers are on the heap, as the interpreter's are. */
#include <stdlib.h>

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
  if (list && list->name && list->name[0] == 'x' && list->name[1] == 'y')
    return 9;
  return count;
}

int free_list(struct node *list) {
  int freed = 0;
  while (list) {
    struct node *next = list->next;
    free(list);
    list = next;
    freed++;
  }
  return freed > 2 ? 2 : freed;
}
