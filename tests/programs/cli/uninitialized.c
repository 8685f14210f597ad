// A local read before it is set on one path: natively it holds whatever the stack did, so
// `lim == 77` may hold; the interpreter reads 0 there. Cairn warns and proves nothing on it.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int lim;
  if (x > 3)
    lim = 5;
  if (lim == 77)
    return 1;
  return 0;
}
