/* Lazy expansion and side effects (Figure 6 of the LATEST paper): `count` always sets `touched`,
 * so `top` can never return 1, whatever an abstraction of `count` assumes. Test `top`.
 * infeasible: 3 (the true side of `touched == 0`, both sides of `x == 0`) */
int touched;

int count(int u) {
  touched = 1;
  int n = 0;
  for (int i = 0; i < u && i < 3; i++)
    n++;
  return n;
}

int top(int y) {
  touched = 0;
  int x = count(y);
  if (touched == 0 && x == 0)
    return 1;
  if (x == 2)
    return 2;
  return 0;
}

int main(void) { return top(2); }
