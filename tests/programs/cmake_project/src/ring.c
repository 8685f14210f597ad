#include "ring.h"

#ifndef RING_CAPACITY
#error "RING_CAPACITY must be defined by the build"
#endif

int ring_push(struct ring *r, int v) {
  if (r->count >= RING_CAPACITY)
    return -1;
  r->items[(r->head + r->count) % RING_CAPACITY] = v;
  r->count++;
  return 0;
}

int ring_classify(int v) {
  if (v < 0)
    return -1;
  if (v == 0)
    return 0;
  if (v < 1000)
    return 1;
  return 2;
}

long ring_clamp(long v, long lo, long hi) {
  if (lo > hi)
    return -2;
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}
