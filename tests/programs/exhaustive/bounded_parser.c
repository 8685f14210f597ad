/* Parses a signed number of at most four characters read through getchar-like input. */
/* infeasible: 3 */
extern char __VERIFIER_nondet_char(void);
void reach_error(void) {}

int main(void) {
  int sign = 1, value = 0, digits = 0;
  for (int i = 0; i < 4; i++) {
    char c = __VERIFIER_nondet_char();
    if (i == 0 && c == '-') { sign = -1; continue; }
    if (c < '0' || c > '9') break;
    value = value * 10 + (c - '0');
    digits++;
  }
  if (digits == 0) return 1;
  if (value > 9999) reach_error();            /* infeasible: four digits at most (+ error goal) */
  if (sign < 0 && digits == 4) return 2;      /* infeasible: the sign takes a character */
  return sign * value > 100 ? 3 : 0;
}
