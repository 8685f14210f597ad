/* Old C: main's type is implicit int and one path returns without a value. clang's main
   then returns 0, a native gcc build whatever the return register held (here 1, from the
   comparison), so that path's exit status is not Cairn's to predict; exit(4) still is. */
extern int __VERIFIER_nondet_int(void);
extern void exit(int);
int x;
main() {
    x = __VERIFIER_nondet_int();
    if (x > 3)
        return;
    if (x < -3)
        exit(4);
    return 0;
}
