/* A collision-advisory decision over eight numeric command-line arguments (as the Siemens tcas
 * takes twelve): separations, rates and a layer index parsed with atoi/strtol, thresholds from
 * a table, decisions on sums and differences of the parsed values. */
#include <stdio.h>
#include <stdlib.h>

static const int threshold[4] = { 400, 500, 640, 740 };

static int own_alt, own_rate, other_alt, layer, up_sep, down_sep, climb_inhibit, other_rac;

static int bias() { return climb_inhibit ? up_sep + 100 : up_sep; }

static int climb_preferred(void) {
  int upward = bias() > down_sep;
  if (upward)
    return !(own_alt < other_alt && down_sep >= threshold[layer]);
  return own_alt > other_alt && bias() >= threshold[layer];
}

static int advisory(void) {
  int separated = own_alt - other_alt > 600 || other_alt - own_alt > 600;
  int steady = own_rate > -600 && own_rate < 600;
  if (separated && steady) return 0;
  if (other_rac == 1 && climb_preferred()) return 1;
  if (other_rac == 2 && !climb_preferred()) return 2;
  if (other_rac == 0) return climb_preferred() ? 1 : 2;
  return 3;
}

int main(int argc, char **argv) {
  if (argc != 9) {
    puts("usage: own_alt own_rate other_alt layer up down inhibit rac");
    return 1;
  }
  own_alt = atoi(argv[1]);
  own_rate = (int)strtol(argv[2], NULL, 10);
  other_alt = atoi(argv[3]);
  layer = atoi(argv[4]);
  up_sep = atoi(argv[5]);
  down_sep = (int)strtol(argv[6], NULL, 10);
  climb_inhibit = atoi(argv[7]) != 0;
  other_rac = atoi(argv[8]);
  if (layer < 0 || layer > 3) {
    puts("bad layer");
    return 1;
  }
  printf("%d\n", advisory());
  return 0;
}
