/* Constants copied through variables in one block, as CIL writes them: `a = 0; b = a;` stores
   0 into b. What a call or a store through a pointer may change in between is not a copy.
   A null pointer is a constant too (the initial `head`, `head = 0`); an object's address is
   not one the analysis relies on. */
int __VERIFIER_nondet_int(void);

int idle, phase, level, shadow;
int *target;
struct cell { int v; } one = {5};
struct cell *head;

int peek(void) {
  if (head)
    return head->v;
  return -1;
}

void rearm(int v) { level = v; }

int main(void) {
  int steps = 0, hits = 0;
  int spare, mirror;
  target = &shadow;
  while (steps < 6) {
    int x = __VERIFIER_nondet_int();
    idle = 0;
    phase = idle;            /* stores 0 */
    level = 1;
    rearm(x);
    mirror = level;          /* whatever rearm stored: not a copy of 1 */
    shadow = 2;
    *target = x;
    spare = shadow;          /* x, written through target */
    if (phase == 1)
      hits++;
    if (mirror == 1)
      hits += 2;
    if (spare == 2)
      hits += 3;
    if (x > 100) {
      int a = 7, b;
      b = a;                 /* stores 7 */
      if (b != 7)
        hits += 4;
    }
    if (x > 50)
      head = &one;
    else if (x < -50)
      head = 0;
    hits += peek();
    steps++;
  }
  return hits;
}
