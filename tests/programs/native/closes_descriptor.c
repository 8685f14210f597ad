/* The input chooses a descriptor to close. Natively the fork server's own pipes (198, 199)
 * must survive it, or every later run of the server waits for its time limit. */
extern int __VERIFIER_nondet_int(void);
extern int close(int);

int main(void) {
    int fd = __VERIFIER_nondet_int();
    int r = close(fd);
    if (fd == 198 || fd == 199)
        return r == -1 ? 1 : 2;
    int n = __VERIFIER_nondet_int();
    if (n > 1000 && n < 1010)
        return 3;
    return 0;
}
