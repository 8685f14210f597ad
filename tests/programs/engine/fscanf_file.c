/* A configuration read with fscanf from the file named by argv[1]: a number, a word, then a
 * second number; every branch depends on what fscanf matched. */
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc < 2)
        return 1;
    FILE *f = fopen(argv[1], "r");
    if (!f)
        return 2;
    int limit, step;
    char mode[6];
    int n = fscanf(f, "%d %5s", &limit, mode);
    if (n == EOF) {
        fclose(f);
        return 3; /* empty file */
    }
    if (n == 0)
        return 4; /* not a number */
    if (limit > 9) {
        if (n == 2 && mode[0] == 'f' && mode[1] == 'a')
            return 5;
        return 6;
    }
    if (limit < 0)
        return 7;
    if (n == 2 && fscanf(f, "%x", &step) == 1) {
        if (step == 2 * limit + 1)
            return 8;
        if (step > 0xff)
            return 9;
        return 10;
    }
    if (feof(f))
        return 11; /* the number ended the file */
    return 0;
}
