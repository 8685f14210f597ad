/* Date and triangle validators behind input checks; the helpers are shared by several callers
   (days_in_month by the date check and by the day-of-year computation). */
/* infeasible: 3 (no isosceles right triangle has integer sides: the three true outcomes in triangle) */
extern int __VERIFIER_nondet_int(void);

static int leap(int y) {
  if (y % 400 == 0) return 1;
  if (y % 100 == 0) return 0;
  return y % 4 == 0;
}

static int days_in_month(int y, int m) {
  switch (m) {
  case 2: return leap(y) ? 29 : 28;
  case 4: case 6: case 9: case 11: return 30;
  default: return 31;
  }
}

static int valid_date(int y, int m, int d) {
  if (y < 1583 || y > 9999) return 0;
  if (m < 1 || m > 12) return 0;
  if (d < 1 || d > days_in_month(y, m)) return 0;
  return 1;
}

static int day_of_year(int y, int m, int d) {
  int n = d;
  for (int k = 1; k < m; k++) n += days_in_month(y, k);
  return n;
}

static int triangle(int a, int b, int c) {
  if (a <= 0 || b <= 0 || c <= 0) return 0;
  if (a >= b + c || b >= a + c || c >= a + b) return 0;
  if (a == b && b == c) return 3;       /* equilateral */
  if (a == b || b == c || a == c) {
    if (a * a + b * b == c * c || a * a + c * c == b * b || b * b + c * c == a * a) return 5;
    return 2;                           /* isosceles */
  }
  if (a * a + b * b == c * c || a * a + c * c == b * b || b * b + c * c == a * a) return 4; /* right */
  return 1;                             /* scalene */
}

int main(void) {
  int kind = __VERIFIER_nondet_int();
  if (kind == 1) {
    int y = __VERIFIER_nondet_int(), m = __VERIFIER_nondet_int(), d = __VERIFIER_nondet_int();
    if (!valid_date(y, m, d)) return 0;
    int n = day_of_year(y, m, d);
    if (n == 366) return 3;             /* New Year's Eve of a leap year */
    if (n == 60 && leap(y)) return 2;   /* Feb 29 */
    return 1;
  }
  if (kind == 2) {
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();
    if (a > 1000 || b > 1000 || c > 1000) return 0;
    return 10 + triangle(a, b, c);
  }
  return 0;
}
