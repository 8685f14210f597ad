/* Unit mode on functions whose pointer parameters may be NULL. A parameter is NULL where the
 * function says what it does with NULL (compares the pointer with it), so `norm1`'s and
 * `count_char`'s first branches are covered; `deref_before_check` reads through its parameter
 * before testing it, a fault; `never_checks` and `second` never test theirs, and no run passes
 * NULL to them (their contract is the caller's): no fault. */
#include <stddef.h>

struct point {
  int x, y;
};
struct node {
  int v;
  struct node *next;
};

int norm1(const struct point *p) {
  if (p == NULL)
    return -1;
  int x = p->x < 0 ? -p->x : p->x;
  int y = p->y < 0 ? -p->y : p->y;
  return x + y > 100 ? 100 : x + y;
}

int count_char(const char *s, char c) {
  if (!s)
    return -2;
  int n = 0;
  for (; *s; s++)
    if (*s == c)
      n++;
  return n;
}

int deref_before_check(struct point *p) {
  int x = p->x;
  if (p == NULL)
    return 0;
  return x > 0;
}

int never_checks(struct point *p) {
  if (p->x > p->y)
    return p->x;
  return p->y;
}

int second(const struct node *n) {
  if (n->next->v == 5)
    return 1;
  return 0;
}
