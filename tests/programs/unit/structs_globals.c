/* Unit mode with structs passed by value and globals as inputs: `check` takes a large struct
 * (passed in memory, `byval`), a small one (passed in registers) and reads two globals. */
struct Packet {
  int kind;
  int len;
  unsigned char payload[16];
  long stamp;
};
struct Point {
  int x, y;
};

int mode;                /* an input with --symbolic-globals */
unsigned short limit = 7; /* likewise (its initial value is only the default) */
static int calls;         /* static: a harness cannot set it, so it keeps its value */

int check(struct Packet p, struct Point q) {
  calls++;
  if (p.kind != 3)
    return 0;
  if (p.payload[5] != 'Z')
    return 1;
  if (q.x > q.y + 100)
    return 2;
  if (mode == 0x1234 && limit == 9000)
    return 3;
  if (p.stamp == 1234567890123L)
    return 4;
  return 5;
}

int main(void) {
  struct Packet p = {3, 0, {0}, 0};
  struct Point q = {1, 2};
  return check(p, q);
}
