/* A lookup table indexed by an input with no range check (tcas' ALIM() in the Siemens suite:
 * Positive_RA_Alt_Thresh[Alt_Layer_Value]). A random first index lies outside the table, and
 * the read faults there; every branch on the value read needs an index in 0..3, which only a
 * decision "the index is inside the table" lets the solver ask for. */
#include <stdio.h>

int thresholds[4];
int unrelated[64];

extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

static int limit(unsigned char layer) { return thresholds[layer]; }

int main(void) {
  thresholds[0] = 400;
  thresholds[1] = 500;
  thresholds[2] = 640;
  thresholds[3] = 740;
  unsigned char layer = __VERIFIER_nondet_uchar();
  int alt = __VERIFIER_nondet_int();
  unrelated[0] = alt;
  int t = limit(layer);
  if (t == 640) {
    if (alt > t) puts("above the third");
    else puts("below the third");
  } else if (t == 740) {
    puts("fourth");
  } else if (t > 400) {
    puts("second");
  } else {
    puts("first");
  }
  return 0;
}
