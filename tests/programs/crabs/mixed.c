// Hard goals mixed with infeasible ones: a call reached only when twenty-four inputs read in a loop
// all equal a constant, branches that contradict the facts established before them, and a
// mode that, once left, is never re-entered.
extern int __VERIFIER_nondet_int(void);

int hits;

void rare(void) { hits++; }

int main(void) {
  int all = 1;
  for (int i = 0; i < 24; i++) {
    int x = __VERIFIER_nondet_int();
    if (x != 7)
      all = 0;
  }
  if (all)
    rare();
  int a = __VERIFIER_nondet_int();
  if (a > 100) {
    if (a < 50) // infeasible
      hits += 10;
    hits++;
  }
  int mode = 0;
  if (a == 3)
    mode = 2;
  if (mode == 2 && a != 3) // second conjunct infeasible
    hits += 20;
  return hits;
}
