/* A message dispatched on a 32-bit tag by a `switch` (compiled as one, not as comparisons), as
 * binary formats dispatch on a chunk type or an opcode; each handler's tag is a value a fuzzer
 * meets by chance once in 2^32 runs. The exit status names the handler (0: none). */
#include <string.h>

void klee_make_symbolic(void *p, unsigned long n, const char *name);

int main(void) {
  unsigned char msg[8];
  klee_make_symbolic(msg, sizeof msg, "msg");
  unsigned tag;
  memcpy(&tag, msg, 4);
  switch (tag) {
  case 0x474e4950u: /* "PING" */
    return 1;
  case 0x214b4341u: /* "ACK!" */
    return 2;
  case 0xdeadbeefu:
    return 3;
  case 0x00c0ffeeu:
    return 4;
  default:
    return 0;
  }
}
