/* One input makes the program loop forever: runs are cut by the instruction limit. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k == 2) { volatile int spin = 1; while (spin) {} }
  if (k > 0) return 1;
  return 0;
}
