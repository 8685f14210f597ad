/* A program that writes files: every native run starts in the same empty directory, as each
 * replay run starts in a fresh one. (A run that opened the directory itself forgot it with
 * the program's data, which the fork server restores between runs: the next run made "run"
 * inside "run", one level deeper each time.) */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  FILE *f = fopen("left_by_an_earlier_run.txt", "r");
  if (f) {
    fclose(f);
    return 5; /* an earlier run's file */
  }
  f = fopen("left_by_an_earlier_run.txt", "w");
  if (f) {
    fputs("x", f);
    fclose(f);
  }
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) && strstr(cwd, "/run/run"))
    return 7; /* a directory inside an earlier run's */
  return x > 0;
}
