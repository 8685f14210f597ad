// Conditions clang compiles with their targets swapped (`if (!p)` branches on `p`). Each
// `if`'s and loop's first statement is on the line after it.
extern int __VERIFIER_nondet_int(void);

int g(int x) { return x + 1; }

int main(void) {
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  int *p = a > 0 ? &a : 0;
  int r = 0;
  if (!p)
    r += 1;
  if (!(a == 0))
    r += 2;
  else
    r -= 2;
  if (!a && b)
    r += 3;
  if (!(a && b))
    r += 4;
  if (!a || !b)
    r += 5;
  if (a != 3 || b)
    r += 6;
  r += !b ? g(a) : g(b);
  while (!(r > 100))
    r += 7;
  for (; !(b > 2);)
    b++;
  return r;
}
