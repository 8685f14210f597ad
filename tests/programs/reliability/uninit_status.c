/* main returns a local no path may have set: the exit status is whatever the stack held,
   which the interpreter reads as 0 and a native run need not. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int status;
  if (x > 10) status = 3;
  if (x == 7) return 5;
  return status;
}
