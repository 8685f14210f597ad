/* Locals read before they are set, as CIL's output of the ssh and driver benchmarks reads
 * them: with --uninitialized-inputs they start with a test's value. `flags` is set on one
 * path only, `pending` never before the loop reads it; `mode` is always set before it is
 * read, `scratch` has its address taken (a callee may set it): neither becomes an input. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

static void fill(int *p) {
  if (__VERIFIER_nondet_int())
    *p = 5;
}

int machine(int rounds) {
  int flags;
  int pending;
  int mode;
  int scratch;
  int state = 0;
  mode = __VERIFIER_nondet_int();
  if (mode > 3)
    flags = 1;
  fill(&scratch);
  while (rounds-- > 0) {
    switch (state) {
    case 0:
      if (flags & 4) {
        state = 1;
      } else {
        state = 2;
      }
      break;
    case 1:
      if (pending == 17) {
        pending = 0;
        state = 3;
      } else {
        state = 2;
      }
      break;
    case 3:
      if (flags == 12 && mode == 2)
        reach_error();
      state = 2;
      break;
    default:
      state = 2;
    }
  }
  return state;
}

int main(void) {
  int r = machine(3);
  return r == 2 ? 0 : 1;
}
