/* A configuration file read first: absent in the replay's scratch directory, present where
 * the program may really run. Nothing after the opens is unreachable. */
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
