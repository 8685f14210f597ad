/* A mode set in a loop to 1 or 2 is never 3, and a count below the loop's bound is never
 * above it: the code behind `mode == 3` and `count > n` never runs, so no def-use pair with
 * a definition or a use there can be covered, and `shown = 5` reaches the last return only
 * through it. A model checker proves each such branch outcome once, for every pair behind
 * it; a pair's own cover flag needs a proof per pair. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int mode = 0, acc = 0, count = 0, shown = 5, i;
  if (n < 0 || n > 50)
    return 0;
  for (i = 0; i < n; i++) {
    int x = __VERIFIER_nondet_int();
    if (x > 10)
      mode = 1;
    else
      mode = 2;
    if (x > 0)
      count++;
    acc += x;
  }
  if (mode == 3) {
    int t = acc * 2;
    if (t > count)
      acc = t - count;
    return acc + i;
  }
  if (count > n) {
    acc = acc - count;
    return acc;
  }
  if (n > 0 && mode == 3)
    count = 0;
  else
    shown = 7;
  return acc > 100 ? mode + shown : count;
}
