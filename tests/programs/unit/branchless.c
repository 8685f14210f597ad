/* Entries without a branch of their own: every input takes their one path, and the suite
   still needs a test of it (its outcome, its fault, its lines). */
#include <stdio.h>

int square(int x) { return x * x; }

/* Reads one int past the end of a 64-byte buffer (16 ints). */
int seventeenth(const int *v) { return v[16]; }

/* The only branch is in another function. */
int elsewhere(int y) {
  if (y > 3)
    return 1;
  return 0;
}

int main(void) {
  printf("%d\n", square(3));
  return 0;
}
