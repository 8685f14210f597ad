/* A run that writes a file in its working directory, and the file's absence at the start of
 * every run: each native replay run starts in an empty directory, as the interpreter's runs
 * do. (Replay ran every test in one directory: the second test found the first one's file
 * and its claimed `fopen` failure did not happen natively.) */
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    FILE *old = fopen("state.txt", "r");
    if (old) {
        fclose(old);
        return 1;
    }
    int x = __VERIFIER_nondet_int();
    if (x > 0) {
        FILE *out = fopen("state.txt", "w");
        if (out)
            fclose(out);
    }
    return 0;
}
