/* Unit mode (`--entry parse`): the fault needs one byte of the buffer; every other byte of a
 * reproducer is noise that tests/workflow.rs expects the minimizer to zero. */
int parse(const char *s, int n) {
  if (s[3] == 'x' && n > 2) {
    int *p = 0;
    return *p;
  }
  return s[0] + n;
}
