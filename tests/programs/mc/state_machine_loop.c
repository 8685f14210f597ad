/* A protocol state machine driven by inputs in a loop: some states and transitions never occur. */
/* infeasible: 4 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
enum { IDLE, OPEN, SENT, CLOSED };
int main(void) {
  int state = IDLE, sent = 0;
  for (int step = 0; step < 8; step++) {
    int ev = __VERIFIER_nondet_int();
    if (state == IDLE && ev == 1) state = OPEN;
    else if (state == OPEN && ev == 2) { state = SENT; sent++; }
    else if (state == SENT && ev == 3) state = OPEN;
    else if (ev == 9) state = CLOSED;
  }
  if (state == CLOSED && sent > 8) reach_error(); /* infeasible: at most 8 steps (+ its error goal) */
  if (sent > 0 && state == IDLE) reach_error();   /* infeasible: IDLE is never re-entered (+ its error goal) */
  return state;
}
