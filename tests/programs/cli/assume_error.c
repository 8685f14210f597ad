/* Test-Comp style: the error is reachable only for inputs that satisfy an assumption, which
 * random inputs almost never do. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int main(void) {
  int width = __VERIFIER_nondet_int();
  int words = __VERIFIER_nondet_int();
  __VERIFIER_assume(words == width / 32);
  for (int j = 0; j < width / 8 && j < 1000; j++) {
    if (j / 4 >= words) reach_error();   /* reachable when width % 32 >= 8 */
  }
  return 0;
}
