/* An array sized by an input: a huge size overflows the stack (random first inputs often are),
   size 0 has no element, and the error needs a size above 2. Exploration that did not record
   which sizes overflow took the first run for the only path and proved the error call
   unreachable (seeds 3 and 8); seeding the array's "first element" as if it were a scalar
   local made size 0 fault. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
    unsigned int n = __VERIFIER_nondet_uint();
    int v[n];
    if (n == 0)
        return 0;
    v[0] = 1;
    if (n > 2 && v[0] == 1)
        reach_error();
    return 0;
}
