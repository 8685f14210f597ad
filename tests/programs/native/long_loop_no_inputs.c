/* A loop of 2^26 iterations and no input (SV-COMP's nested3-2: 2^28): every run is the same
 * one, some hundred milliseconds long natively and past the interpreter's step limit. While no
 * native run has ended, the time limit grows until one does: the error call below is reached
 * (before, every run timed out at the least limit, 20 ms, and the call stayed unknown). */
extern void reach_error(void);

int main(void) {
  unsigned int x = 0, z = 0;
  while (x < 0x40u) {
    z = 0;
    while (z < 0x00100000u)
      z++;
    x++;
  }
  reach_error();
  return 0;
}
