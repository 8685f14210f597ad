/* The first random input divides by zero (d is 0 unless x is the largest value): the check
   recorded at the division must say it failed on that run, or exploration believes the
   passing side explored. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
    unsigned int x = __VERIFIER_nondet_uint();
    unsigned int d = x / 4294967295u;
    unsigned int y = 100 / d;
    if (y == 100)
        reach_error();
    return 0;
}
