/* Nested loops with a counter that stays bounded, and a helper called in the loop. */
/* infeasible: 2 */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
static int clamp(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}
int main(void) {
  int rows = clamp(__VERIFIER_nondet_int(), 0, 5);
  int cols = clamp(__VERIFIER_nondet_int(), 0, 5);
  int cells = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      cells++;
  if (rows > 5) reach_error();     /* infeasible: clamp bounds rows (+ its error goal) */
  if (cells == 12) return 1;       /* 3 x 4 or 4 x 3 */
  return 0;
}
