// Lines and fields read from stdin with scanf's scansets (`%[^\n]`, `%[a-z]`, `%[^,\n]`), as
// user programs read a line with its spaces. Each once stopped every interpreted run
// ("unsupported scanf conversion"): no test at all.
#include <stdio.h>
#include <string.h>

int main(void) {
    char line[64], key[16], value[16];
    if (scanf("%63[^\n]", line) != 1)
        return 1;
    if (scanf(" %15[a-z]=%15[^,\n]", key, value) != 2)
        return 2;
    if (strcmp(key, "mode") == 0 && value[0] == '7')
        return 3;
    // Never: the key's characters are all in a-z.
    if (key[0] < 'a' || key[0] > 'z')
        return 4;
    if (strcmp(line, "hi all") == 0)
        return 5;
    if (strchr(line, ' ') != NULL)
        return 6;
    return 0;
}
