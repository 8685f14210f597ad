/* The environment as an input: a variable absent or set, its value steering the program; the
 * same value at every call for one name. Runs stopped at getenv before (no model). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    const char *mode = getenv("APP_MODE");
    if (!mode)
        return 0;
    if (strcmp(mode, "fast") == 0) {
        printf("fast\n");
        return 1;
    }
    const char *again = getenv("APP_MODE");
    if (again != mode || strcmp(again, mode) != 0)
        abort();
    return 2;
}
