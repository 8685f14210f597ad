/* A frame of 24 sync words, each read and checked in a loop: the frame is accepted (exit 3)
 * only when every word is the sync word. Fixing one word at a time changes nothing a fuzzer
 * sees until all are fixed. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int bad = 0;
  for (int i = 0; i < 24; i++) {
    int w = __VERIFIER_nondet_int();
    if (w != 0x5a5a)
      bad++;
  }
  if (bad == 0)
    return 3;
  return bad > 12;
}
