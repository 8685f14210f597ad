/* Files the program reads by name are inputs: a settings file read line by line ("key=value"),
 * a binary file in a subdirectory read through a descriptor, and the settings file opened a
 * second time, which must be the same file. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int verbose, level = 1;

static void setting(const char *line) {
  if (strncmp(line, "verbose=", 8) == 0)
    verbose = line[8] == '1';
  else if (strncmp(line, "level=", 6) == 0) {
    level = atoi(line + 6);
    if (level > 9)
      level = 9;
  } else if (line[0] != '#')
    printf("unknown setting\n");
}

int main(void) {
  FILE *f = fopen("app.cfg", "r");
  if (f == NULL) {
    printf("defaults\n");
  } else {
    char line[24];
    while (fgets(line, sizeof line, f))
      setting(line);
    fclose(f);
  }
  if (verbose)
    printf("verbose\n");
  if (level == 7)
    printf("level seven\n");
  int fd = open("data/limits.bin", O_RDONLY);
  if (fd >= 0) {
    unsigned char b[2];
    if (read(fd, b, 2) == 2 && b[0] == 0xCA && b[1] == 0xFE)
      printf("magic\n");
    close(fd);
  }
  FILE *g = fopen("app.cfg", "r");
  if ((f == NULL) != (g == NULL))
    abort(); /* the same name names the same file within a run */
  if (g)
    fclose(g);
  return 0;
}
