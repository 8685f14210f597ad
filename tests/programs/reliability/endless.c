/* Reliability: every run ends in an endless loop. With a huge --max-steps, only the time budget
 * (and Ctrl-C) can end a run: the interpreter must watch both as it runs. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned long spin = 0;
  if (x > 100)
    spin = 1;
  for (;;) {
    spin = spin * 6364136223846793005UL + 1442695040888963407UL;
    if (spin == 0)
      x++;
  }
  return x;
}
