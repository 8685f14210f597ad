/* Reliability: a program that yields a test every few dozen milliseconds for about half a second
 * (one per switch case, each run spinning a little first), for killing `cairn gen` at random
 * moments while it writes them. */
extern int __VERIFIER_nondet_int(void);

#define CASE(n) \
  case n:       \
    r += n;     \
    break;
#define CASE10(n) \
  CASE(n##0) CASE(n##1) CASE(n##2) CASE(n##3) CASE(n##4) CASE(n##5) CASE(n##6) CASE(n##7) CASE(n##8) CASE(n##9)

int main(void) {
  int k = __VERIFIER_nondet_int();
  int r = 0;
  unsigned spin = 0;
  for (unsigned i = 0; i < 300000; i++)
    spin += i ^ (spin >> 3);
  switch (k) {
    CASE(10)
    CASE(11)
    CASE(12)
    CASE(13)
    CASE(14)
    CASE(15)
    CASE(16)
    CASE(17)
  default:
    r = -1;
  }
  return (r + (int)(spin & 1)) & 0x7f;
}
