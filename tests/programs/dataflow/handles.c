/* A run queue driven by commands, the way schedulers keep their state: `current` is filled
   through its address (`take(&current)`) and cleared with constants, and `op` is read
   through its address (`next_op(&op)`). Passing an address does not stop a constant from
   deciding what it reaches: the call, like any write through the pointer, ends the
   definition before it, so wherever a definition still holds the variable holds its
   constant. (`current = 0` never reaches `if (!current)` false; `op = 0` reaches the first
   check true only, never the switch: `next_op(&op)` redefines it first, as `left`.) */
extern int __VERIFIER_nondet_int(void);

struct job {
  int id;
  int prio;
  struct job *next;
};

struct job jobs[3];
struct job *queue;
struct job *current;
int reads;

int take(struct job **slot) {
  if (!queue)
    return 0;
  *slot = queue;
  queue = queue->next;
  return 1;
}

int next_op(int *op) {
  if (reads >= 3)
    return 0;
  reads++;
  *op = __VERIFIER_nondet_int();
  return 1;
}

struct job *running(void) {
  if (!current)
    take(&current);
  return current;
}

void finish(void) {
  if (running()) {
    current = 0;
  }
}

void requeue(void) {
  struct job *j = running();
  if (j) {
    current = 0;
    j->next = queue;
    queue = j;
  }
}

int main(void) {
  int op = 0;
  int done = 0;
  for (int i = 0; i < 3; i++) {
    jobs[i].id = i;
    jobs[i].prio = 2 * i;
    jobs[i].next = i < 2 ? &jobs[i + 1] : 0;
  }
  queue = &jobs[0];
  if (op == 0)
    done = 1;
  while (next_op(&op)) {
    switch (op) {
    case 1:
      finish();
      break;
    case 2:
      requeue();
      break;
    default:
      done++;
      break;
    }
  }
  if (current && current->prio > 2)
    done += 10;
  int left = 2 * reads;
  next_op(&left);
  if (left > 4)
    done++;
  return done;
}
