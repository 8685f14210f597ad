/* A connection struct from malloc whose callback is tested before anything writes it (the
 * shape of sv-benchmarks' openssl tasks): every run decides on uninitialized memory before
 * it reads its input. Cairn reads zeros there and claims nothing past that decision; a
 * native run goes wherever malloc's memory leads. The fuzzer keeps the inputs whose native
 * runs (in a fresh process) went somewhere new, as tests claiming nothing, with the goals
 * they reached natively: without them the suite was empty. */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct conn {
  int state;
  void (*callback)(int);
};

int main(void) {
  struct conn *c = malloc(sizeof *c);
  if (!c)
    return 1;
  if (c->callback)
    c->callback(0);
  int x = __VERIFIER_nondet_int();
  if (x > 10) {
    if (x < 20)
      return 2;
    return 3;
  }
  return 0;
}
