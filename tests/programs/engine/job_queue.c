#include <stdio.h>
#include <stdlib.h>

/* Engine: schedule2's shape. Commands on stdin, one per line, parsed with sscanf: `1 P` queues
 * a new job at priority P, `2 P R` moves the job at ratio R (0 to 1) of queue P up a priority,
 * `3 R` takes the job at ratio R of the blocked queue back, `4` blocks the first job, `5`
 * finishes it. Finding a job needs one command that creates it and a later one that names
 * its queue with a ratio in range: two changes of the input, neither of which covers
 * anything new alone. */
#define MAXPRIO 3
struct job { int pid, prio; struct job *next; };
static struct job *queue[MAXPRIO + 1]; /* [0]: blocked */
static int length[MAXPRIO + 1], next_pid;

static void put_end(int prio, struct job *j) {
  struct job **p = &queue[prio];
  while (*p) p = &(*p)->next;
  j->next = 0; *p = j; length[prio]++;
}

static struct job *take(int prio, float ratio) {
  if (ratio < 0.0 || ratio > 1.0) { printf("bad ratio\n"); return 0; }
  int index = (int)(ratio * length[prio]);
  if (index >= length[prio]) index = length[prio] - 1;
  struct job **p = &queue[prio];
  for (; index > 0 && *p; index--) p = &(*p)->next;
  struct job *j = *p;
  if (!j) { printf("empty\n"); return 0; }
  *p = j->next; length[prio]--;
  return j;
}

static struct job *first(void) {
  for (int p = MAXPRIO; p > 0; p--)
    if (queue[p]) return take(p, 0.0);
  return 0;
}

int main(void) {
  char line[32];
  while (fgets(line, sizeof line, stdin)) {
    int cmd = -1, prio = -1;
    float ratio = -1.0;
    struct job *j;
    sscanf(line, "%d", &cmd);
    switch (cmd) {
    case 1:
      sscanf(line, "%*d %d", &prio);
      if (prio < 1 || prio > MAXPRIO) { printf("bad prio\n"); break; }
      j = malloc(sizeof *j);
      j->pid = next_pid++; j->prio = prio;
      put_end(prio, j);
      break;
    case 2:
      sscanf(line, "%*d %d %f", &prio, &ratio);
      if (prio < 1 || prio >= MAXPRIO) { printf("bad prio\n"); break; }
      if ((j = take(prio, ratio))) {
        j->prio = prio + 1;
        put_end(prio + 1, j);
        printf("upgraded %d\n", j->pid);
      }
      break;
    case 3:
      sscanf(line, "%*d %f", &ratio);
      if ((j = take(0, ratio))) {
        put_end(j->prio, j);
        printf("unblocked %d\n", j->pid);
      }
      break;
    case 4:
      if ((j = first())) put_end(0, j);
      break;
    case 5:
      if ((j = first())) { printf("finished %d\n", j->pid); free(j); }
      break;
    default:
      printf("unknown\n");
    }
  }
  return 0;
}
