/* A token held across the steps of an endless loop, as the SystemC token rings hold theirs:
   the states at the loop's head hold an input's expression, so two of them are the same only
   up to which input it was, and only with the same conditions on it. Step 2 sorts the token
   without changing anything else: a state reached with `copy > 100` looks like one reached
   with `copy <= 100` but for the condition, and treating them as one would cut every path to
   `copy == 7` or to `copy == 200` (whichever side came second) after a sort and "prove" it
   unreachable. */
/* infeasible: 3 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int token, copy, passed, sorted;

int main(void) {
  token = __VERIFIER_nondet_int();
  copy = token;
  for (;;) {
    int ev = __VERIFIER_nondet_int();
    if (ev < 0 || ev > 3)
      return 0;
    if (ev == 0) { /* a fresh token */
      token = __VERIFIER_nondet_int();
      copy = token;
      passed = 0;
      sorted = 0;
    } else if (ev == 1) { /* passed on, once */
      if (!passed) {
        token = copy + 1;
        passed = 1;
      }
    } else if (ev == 2) { /* sorted: either way the same state but for the condition */
      if (copy > 100)
        sorted = 1;
      else
        sorted = 1;
    } else {
      if (token != copy && token != copy + 1) /* infeasible: never apart (and the call) */
        reach_error();
      if (sorted && copy == 7) {
        if (passed) {
          if (token == 8) /* infeasible: its false side */
            sorted = 0;
        }
      }
      if (sorted && copy == 200)
        sorted = 0;
    }
  }
}
