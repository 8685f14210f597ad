/* A scheduler driven by priorities given through klee_make_symbolic on an array: each
 * command's cost is a loop over the queue. */
#include <stdio.h>
extern void klee_make_symbolic(void *p, unsigned long size, const char *name);

#define N 8
struct job { int prio; int left; };
static struct job q[N];
static int len;

static int pick(void) {
    int best = -1;
    for (int i = 0; i < len; i++)
        if (q[i].left > 0 && (best < 0 || q[i].prio > q[best].prio)) best = i;
    return best;
}

int main(void) {
    int cmds[12];
    klee_make_symbolic(cmds, sizeof cmds, "cmds");
    int done = 0, preempted = 0, idle = 0;
    for (int k = 0; k < 12; k++) {
        int c = cmds[k] & 0xff, arg = (cmds[k] >> 8) & 0x7f;
        switch (c % 4) {
        case 0:
            if (len < N) { q[len].prio = arg % 5; q[len].left = arg % 3 + 1; len++; }
            else printf("queue full\n");
            break;
        case 1: {
            int j = pick();
            if (j < 0) { idle++; break; }
            if (--q[j].left == 0) done++;
            break;
        }
        case 2:
            for (int i = 0; i < len; i++)
                if (q[i].prio < 4 && arg > 64) { q[i].prio++; preempted++; }
            break;
        default:
            if (len > 0 && q[len - 1].left == 0) len--;
        }
    }
    if (done >= 3) printf("three jobs done\n");
    if (done >= 3 && preempted > 2) printf("done and boosted\n");
    if (idle > 2 && done > 0) printf("idle after work\n");
    if (len == N) printf("full at the end\n");
    return 0;
}
