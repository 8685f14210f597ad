/* File and process operations on things outside Cairn's scratch directory: replay must not
 * write, truncate, remove or rename VICTIM, nor signal process VICTIM_PID. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 1) { FILE *f = fopen(VICTIM, "w"); if (f) { fputs("gone", f); fclose(f); } }
  if (x == 2) { int fd = open(VICTIM, O_WRONLY | O_TRUNC); if (fd >= 0) close(fd); }
  if (x == 3) { FILE *f = fopen(VICTIM, "a"); if (f) { fputs("more", f); fclose(f); } }
  if (x == 4) remove(VICTIM);
  if (x == 5) rename(VICTIM, VICTIM ".moved");
  if (x == 6) truncate(VICTIM, 0);
  if (x == 7) kill(VICTIM_PID, SIGKILL);
  if (x == 8) unlink(VICTIM);
  return 0;
}
