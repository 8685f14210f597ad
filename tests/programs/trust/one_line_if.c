/* One-line ifs and ifs without else: a claimed outcome shares its line with the other. */
extern int __VERIFIER_nondet_int(void);
int g;
int main(void) {
  int c = __VERIFIER_nondet_int();
  if (c == 42) g = 1;
  if (c > 100) { g = 2; }
  if (c < -7) g += 3; else g -= 1;
  return g;
}
