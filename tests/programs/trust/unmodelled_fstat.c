// A program that asks fstat about its input and may map it. fstat and mmap have no model:
// fstat's result is the test's next value (natively the replay harness stubs it), and mmap
// stops the interpreted run. The native goal probes once opened and mapped their counters
// through open, fstat and mmap themselves: with the program's fstat stubbed they read a test
// value instead and mapped nothing, so no claim was confirmed per goal, and a file the program
// opens to read made each claim a mismatch.
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    struct stat st;
    if (fstat(0, &st) != 0)
        return 2;
    if (x == 42)
        return 3;
    if (x > 1000) {
        void *m = mmap(0, 4096, PROT_READ, MAP_PRIVATE, 0, 0);
        return m == MAP_FAILED ? 4 : 5;
    }
    return 0;
}
