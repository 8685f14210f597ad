/* Structs, pointers to structs, pointer arithmetic over input-filled data. */
/* infeasible: 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct point { int x, y; };
struct rect { struct point lo, hi; };
static int area(const struct rect *r) { return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y); }
static int contains(const struct rect *r, const struct point *p) {
  return p->x >= r->lo.x && p->x < r->hi.x && p->y >= r->lo.y && p->y < r->hi.y;
}
int main(void) {
  struct rect r;
  int *fields = &r.lo.x;
  for (int i = 0; i < 4; i++) fields[i] = __VERIFIER_nondet_int() % 1000;
  struct point *p = malloc(sizeof *p);
  p->x = __VERIFIER_nondet_int() % 1000;
  p->y = __VERIFIER_nondet_int() % 1000;
  int res = 0;
  if (r.hi.x > r.lo.x && r.hi.y > r.lo.y) {
    if (area(&r) == 24) res = 1;
    if (contains(&r, p)) res += 2;
  }
  free(p);
  return res;
}
