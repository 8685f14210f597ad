/* Classify a triangle from three side lengths read as nondeterministic inputs
 * (Test-Comp style). The error call is reachable only for one specific shape. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int classify(int a, int b, int c) {
  if (a <= 0 || b <= 0 || c <= 0) return 0;          /* not a triangle */
  if (a > 1000 || b > 1000 || c > 1000) return 0;    /* too large */
  if (a + b <= c || a + c <= b || b + c <= a) return 0;
  if (a == b && b == c) return 3;                    /* equilateral */
  if (a == b || b == c || a == c) return 2;          /* isosceles */
  return 1;                                          /* scalene */
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  int kind = classify(a, b, c);
  if (kind == 1 && a * a + b * b == c * c) {
    if (c == 13) reach_error();                      /* the 5-12-13 right triangle */
    return 4;
  }
  return kind;
}
