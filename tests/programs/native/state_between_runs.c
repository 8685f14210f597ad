/* State a run leaves behind: globals in .data and .bss, a static local, a heap pointer kept in
 * a global, an exit from a nested call, abort and a crash. Each "kept" branch is taken only
 * when a run sees an earlier run's state, which a process of its own never does. */
#include <stdio.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

static int calls;
static int seen = 5;
static char *buf;

static void finish(int code) {
    if (calls > 1) printf("calls kept\n");
    exit(code);
}

static int count(void) {
    static int n;
    return ++n;
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    calls++;
    if (count() > 1) printf("static local kept\n");
    if (seen != 5) printf("data kept\n");
    seen = x;
    if (!buf) buf = malloc(16);
    else printf("heap pointer kept\n");
    if (x == 7) finish(3);
    if (x == 9) abort();
    if (x < 0) {
        volatile int *p = 0;
        *p = 1;
    }
    return x > 100;
}
