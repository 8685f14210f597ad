/* Tables in tot_info's shape (the Siemens suite): a header line "ROWS COLS WEIGHT" read by
 * fgets and sscanf, then ROWS * COLS counts read by scanf. The loop's bound is a number parsed
 * from the line, so every iteration puts a bound on it into the path; the weight is a float
 * read with %f, whose digits decide branches on it; a complete table followed by the end of
 * input is the only way to return 0. */
#include <stdio.h>

#define MAXTBL 64
static long f[MAXTBL];

int main(void) {
  char line[64];
  int r, c, tables = 0;
  float w;
  while (fgets(line, sizeof line, stdin) != NULL) {
    if (line[0] == '#') continue;
    if (sscanf(line, "%d %d %f", &r, &c, &w) != 3) { puts("bad header"); return 1; }
    if (r <= 0 || c <= 0) { puts("empty"); return 1; }
    if (r * c > MAXTBL) { puts("too large"); return 1; }
    if (w < 0.0f || w > 1.0f) { puts("bad weight"); return 1; }
    if (w > 0.25f && w < 0.5f) puts("quarter to half");
    long total = 0;
    for (int i = 0; i < r * c; i++) {
      if (scanf(" %ld", &f[i]) != 1) { puts("short table"); return 1; }
      if (f[i] < 0) { puts("negative"); return 1; }
      total += f[i];
    }
    if (total == 0) puts("all zero");
    else if (w * total > 10.0f) puts("heavy");
    else puts("light");
    tables++;
  }
  return tables > 0 ? 0 : 2;
}
