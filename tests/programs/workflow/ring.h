// A header-only helper: its branches are the program's goals, counted natively too.
static inline int ring_next(int i, int n) {
  if (n <= 0)
    return -2;
  if (i + 1 >= n)
    return 0;
  return i + 1;
}
