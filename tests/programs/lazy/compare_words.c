/* Lazy expansion, in the spirit of Figure 1 of the LATEST paper: the unit under test compares
 * two input words with constant words through a hand-written comparison function and branches
 * on both results. Test `testme` (unit mode, --buffer-size 16). */
int compare(const char *a, const char *b) {
  while (*a != '\0' && *b != '\0' && *a == *b) {
    a++;
    b++;
  }
  return *a - *b;
}

int testme(const char *s1, const char *s2) {
  int t1 = compare(s1, "Hello World");
  int t2 = compare(s2, "Hello ESEC/FSE");
  if (t1 == 0) {
    if (t2 == 0)
      return 2;
    return 1;
  }
  return 0;
}

int main(void) { return testme("Hello World", "Hello ESEC/FSE"); }
