/* CPU-bound mix for interpreter throughput: integer hashing, array updates, calls, branches. */
#include <stdio.h>

static unsigned table[256];

static unsigned mix(unsigned h, unsigned v) {
  h ^= v;
  h *= 16777619u;
  return (h << 5) | (h >> 27);
}

static int collatz_len(unsigned long n) {
  int steps = 0;
  while (n != 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    steps++;
  }
  return steps;
}

int main(void) {
  unsigned h = 2166136261u;
  for (unsigned i = 0; i < 256; i++) table[i] = i * 2654435761u;
  long total = 0;
  for (unsigned round = 0; round < 40; round++) {
    for (unsigned i = 0; i < 20000; i++) {
      h = mix(h, table[(h ^ i) & 255]);
      table[i & 255] += h;
      if (h % 3 == 0) total += h & 7;
      else total -= 1;
    }
    total += collatz_len(round * 7919 + 27);
  }
  printf("%u %ld\n", h, total);
  return 0;
}
