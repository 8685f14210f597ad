#ifndef RING_H
#define RING_H
#include <stddef.h>

/* A fixed-size ring buffer of ints. */
struct ring {
  int items[16];
  size_t head, count;
};

#define RING_CAPACITY_PUBLIC 16

/* Appends v; returns 0, or -1 when the ring is full. */
int ring_push(struct ring *r, int v);
/* Classifies a value for the ring's statistics: -1 negative, 0 zero, 1 small, 2 large. */
int ring_classify(int v);
/* Clamps v into [lo, hi]; lo > hi is reported as -2. */
long ring_clamp(long v, long lo, long hi);
/* A checksum of the first n bytes of s (stops at NUL). */
unsigned ring_checksum(const char *s, int n);
/* Counts the digits in s and writes them, in order, into out (NUL-terminated). */
int ring_digits(const char *s, char *out);
#endif
