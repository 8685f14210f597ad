# 0 "/work/main/examples/triangle.c"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "/work/main/examples/triangle.c"


extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int classify(int a, int b, int c) {
  if (a <= 0 || b <= 0 || c <= 0) return 0;
  if (a > 1000 || b > 1000 || c > 1000) return 0;
  if (a + b <= c || a + c <= b || b + c <= a) return 0;
  if (a == b && b == c) return 3;
  if (a == b || b == c || a == c) return 2;
  return 1;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  int kind = classify(a, b, c);
  if (kind == 1 && a * a + b * b == c * c) {
    if (c == 13) reach_error();
    return 4;
  }
  return kind;
}
