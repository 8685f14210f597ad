/* Counters of a loop (mc::loops): `hits` counts the inputs below 7, `score` grows by 2 every
 * iteration, `misses` counts the others downwards. `hits == 39` needs every input below 7: only
 * a relation between `hits` and `i` at the loop's head lets a monitor see a run that can no
 * longer get there. `score > 83` no input passes. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int hits = 0, score = 5, misses = 0;
  for (int i = 0; i < 39; i++) {
    int x = __VERIFIER_nondet_int();
    if (x < 7)
      hits++;
    else
      misses--;
    score += 2;
  }
  int r = 0;
  if (hits == 39)
    r += 1;
  if (score > 83)
    r += 2; /* infeasible: score is 83 after the loop */
  if (misses == -39)
    r += 4;
  return r;
}
