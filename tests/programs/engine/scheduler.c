#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Engine: a scheduler with three priority queues (run with --sym-args 0 2 3): queue sizes
 * from argv, commands on stdin read with fscanf until it fails or input ends, and one command
 * whose arguments are a line read with fgets and parsed with sscanf. */
#define N 8
static int q[3][N], len[3];

static void push(int p, int job) {
  if (p < 0 || p > 2) { printf("bad prio\n"); return; }
  if (len[p] == N) { printf("full\n"); return; }
  q[p][len[p]++] = job;
}
static int pop(void) {
  for (int p = 2; p >= 0; p--)
    if (len[p] > 0) {
      int j = q[p][0];
      memmove(q[p], q[p] + 1, sizeof(int) * (size_t)(len[p] - 1));
      len[p]--;
      return j;
    }
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 3) { printf("usage: sched N1 N2\n"); return 1; }
  int n1 = atoi(argv[1]), n2 = atoi(argv[2]);
  if (n1 < 0 || n2 < 0) { printf("negative\n"); return 1; }
  for (int i = 0; i < n1 && i < 3; i++) push(0, 100 + i);
  for (int i = 0; i < n2 && i < 3; i++) push(1, 200 + i);
  int cmd, served = 0;
  while (fscanf(stdin, "%d", &cmd) == 1) {
    if (cmd == 1) {
      int p, job;
      if (fscanf(stdin, "%d %d", &p, &job) != 2) break;
      push(p, job);
    } else if (cmd == 2) {
      int j = pop();
      if (j < 0) printf("empty\n");
      else if (j >= 200 && j < 300) { served++; printf("served %d\n", j); }
    } else if (cmd == 3) {
      char line[32];
      if (!fgets(line, sizeof line, stdin)) break;
      int p; float ratio;
      if (sscanf(line, "%d%f", &p, &ratio) == 2 && p == 2 && ratio > 0.5f) printf("upgrade\n");
    } else {
      printf("unknown command\n");
    }
  }
  if (served >= 2) printf("two served\n");
  return 0;
}
