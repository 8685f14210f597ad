/* Exit paths: exit() with input-dependent code from a deep call, abort(), assert(), atexit handlers, return from main. */
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

static unsigned depth_reached;

static void on_exit_handler(void) {
    printf("atexit handler: depth=%u\n", depth_reached);
}

static int dive(unsigned depth, unsigned target, int code) {
    depth_reached = depth;
    if (depth == target) {
        printf("exiting at depth %u with %d\n", depth, code);
        fflush(stdout);
        exit(code);
    }
    if (depth >= 20) return (int)depth;
    return dive(depth + 1, target, code) + 1;
}

static int checked_ratio(int num, int den) {
    assert(den != 0 && "denominator must be non-zero");
    return num / den;
}

static void validate(unsigned v) {
    if (v % 7u == 3u) {
        puts("fatal: magic value, aborting");
        fflush(stdout);
        abort();
    }
}

int main(void) {
    atexit(on_exit_handler);
    unsigned sel = __VERIFIER_nondet_uint();
    int x = __VERIFIER_nondet_int();
    printf("sel=%u mode=%u\n", sel, sel % 5u);

    switch (sel % 5u) {
    case 0: {
        int r = dive(0, (sel >> 3) % 30u, (int)((sel >> 8) & 0x7f));
        printf("dive returned %d\n", r);
        break;
    }
    case 1:
        validate(sel >> 3);
        puts("validated");
        break;
    case 2: {
        int den = x % 4;
        if (den == -1) den = 1;      /* keep INT_MIN / -1 impossible */
        printf("ratio=%d\n", checked_ratio(x, den));
        break;
    }
    case 3:
        if (x < 0) {
            puts("negative input, exit(EXIT_FAILURE)");
            exit(EXIT_FAILURE);
        }
        puts("non-negative");
        break;
    default:
        puts("plain path");
        return 17;
    }
    puts("end of main");
    return (int)(sel & 3u);
}
