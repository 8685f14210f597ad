// Team test program for the HTML report: goals that end covered, proven unreachable, and
// unknown (a Collatz-style loop keeps both testing and proving from deciding the last one).
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);

int mode_of(int t) {
  if (t < 15) {
    return 1; // heat
  }
  if (t > 25) {
    return 2; // cool
  }
  return 0;
}

int main(void) {
  int t = __VERIFIER_nondet_int();
  int mode = mode_of(t);
  if (mode == 1) {
    if (t > 30) {
      return 9; // unreachable: heating only below 15
    }
  }
  unsigned n = __VERIFIER_nondet_uint();
  unsigned steps = 0;
  while (n > 1 && steps < 100000) {
    n = (n % 2) ? 3 * n + 1 : n / 2;
    steps++;
  }
  if (steps > 90000) {
    return 7; // unknown: no short search finds such a start, no proof is at hand
  }
  return mode;
}
