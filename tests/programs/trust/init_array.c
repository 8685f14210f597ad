/* A constructor the program places in .init_array itself: it runs before main natively. */
extern int __VERIFIER_nondet_int(void);
int g;
static void init(void) { g = 7; }
__attribute__((section(".init_array"), used)) static void (*init_p)(void) = init;
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (g == 0) {
    if (x)
      return 1;
    return 2;
  }
  if (x)
    return 3;
  return 4;
}
