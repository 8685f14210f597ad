/* A configuration file read first: a file read by name is an input, absent or present, as it
 * may be where the program really runs. Nothing after the opens is unreachable. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
    FILE *f = fopen("settings.cfg", "r");
    if (f == NULL) return 1;
    int fd = open("extra.cfg", O_RDONLY);
    if (fd < 0) return 2;
    int x = __VERIFIER_nondet_int();
    if (x == 5) return 3;
    return 0;
}
