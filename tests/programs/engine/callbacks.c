// A function taking a callback: unit mode passes one whose results are inputs.
typedef int (*visit_fn)(char c, void *user);

int each(const char *s, visit_fn visit, void *user) {
  int marks = 0;
  for (int i = 0; s[i]; i++) {
    int r = visit(s[i], user);
    if (r < 0)
      return -1; // the callback asks to stop
    if (r == 7)
      marks++;
  }
  if (marks > 1)
    return 2;
  return marks;
}
