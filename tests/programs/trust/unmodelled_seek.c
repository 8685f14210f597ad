// A program that rewinds its input with lseek. lseek has no model: its result is the test's
// next value, and the replay harness stubs it natively. The harness once loaded the test's
// values with fopen/fseek/ftell itself (fseek was then unmodelled too), so with the program's
// seek stubbed it read no values at all: every native run saw zeros, and the claims below
// failed natively. It measures files with system calls now.
#include <stdio.h>
#include <unistd.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (lseek(0, 0, SEEK_SET) != 0)
        return 2;
    printf("%d\n", x);
    if (x == 42)
        return 3;
    if (x > 1000)
        return 4;
    return 0;
}
