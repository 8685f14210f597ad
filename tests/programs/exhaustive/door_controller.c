/* A door controller driven by eight events: a finite, exact path space. The alarm can only
   sound while the door is open and locked, which the transitions never allow. */
/* infeasible: 5 */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error(void) {}

enum { CLOSED, OPEN, LOCKED };
enum { PUSH, PULL, LOCK, UNLOCK };

int main(void) {
  int state = CLOSED, opened = 0, locks = 0;
  for (int i = 0; i < 8; i++) {
    int ev = __VERIFIER_nondet_int();
    __VERIFIER_assume(ev >= PUSH && ev <= UNLOCK);
    switch (state) {                 /* infeasible: default, state is one of the three */
    case CLOSED:
      if (ev == PULL) { state = OPEN; opened++; }
      else if (ev == LOCK) { state = LOCKED; locks++; }
      break;
    case OPEN:
      if (ev == PUSH) state = CLOSED;
      break;
    case LOCKED:
      if (ev == UNLOCK) state = CLOSED;
      break;
    }
  }
  if (state == OPEN && locks > 0 && opened > 0) return 3; /* infeasible: OPEN, not opened */
  if (opened + locks > 8) reach_error();     /* infeasible: one event per step (+ error goal) */
  if (state == LOCKED && opened > 7) return 2; /* infeasible: eight openings need eight closings */
  return state;
}
