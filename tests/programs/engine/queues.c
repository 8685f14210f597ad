/* Job queues per priority, kept as a scheduler keeps them (the Siemens schedule's
 * prio_queue[prio]): a table of pointers to queues, each a linked list. Which queue a command
 * serves is an input; whether that queue has work, and what its first job costs, is state the
 * setup and earlier commands left. No comparison on the input decides those branches: only
 * picking another queue does, so the read through the chosen pointer must offer every queue
 * it can be, and a write through it must change the queue it picks. */
#include <stdio.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct job {
  int cost;
  struct job *next;
};

struct queue {
  int count;
  struct job *first;
};

static struct queue *queues[4];

static void push(struct queue *q, int cost) {
  struct job *j = malloc(sizeof *j);
  j->cost = cost;
  j->next = q->first;
  q->first = j;
  q->count++;
}

int main(void) {
  for (int i = 0; i < 4; i++)
    queues[i] = calloc(1, sizeof(struct queue));
  push(queues[2], 30);
  push(queues[2], 70);
  push(queues[3], 5);
  for (int round = 0; round < 2; round++) {
    int prio = __VERIFIER_nondet_int();
    if (prio < 0 || prio > 3)
      continue;
    struct queue *q = queues[prio];
    if (q->count > 0) {
      struct job *j = q->first;
      if (j->cost > 50)
        puts("expensive");
      else
        puts("cheap");
      q->first = j->next;
      q->count--;
    } else {
      puts("idle");
    }
  }
  if (queues[3]->count == 0 && queues[2]->count == 1)
    puts("both served");
  return 0;
}
