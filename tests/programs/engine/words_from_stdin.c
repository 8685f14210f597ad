// Words read from stdin with scanf's %s, with and without a width. %s once stopped every
// interpreted run ("unsupported scanf conversion"). The nickname has no width and a buffer
// of 8: a longer word overflows it, a fault the tests must show. The search goes for it
// through the branch on a long nickname, which no run reaches without the overflow.
#include <stdio.h>
#include <string.h>

static int check_login(void) {
    char user[16], role[8];
    if (scanf("%15s %7s", user, role) != 2)
        return -1;
    if (strcmp(user, "admin") == 0) {
        if (strcmp(role, "root") == 0)
            return 2;
        return 1;
    }
    if (strlen(user) > 12)
        return 3;
    return 0;
}

static void greet(void) {
    char nickname[8] = "";
    if (scanf("%s", nickname) == 1 && nickname[0] == 'Z')
        printf("hello %s\n", nickname);
    if (strlen(nickname) > 7)
        printf("too long\n");
}

int main(void) {
    int r = check_login();
    if (r == 2)
        greet();
    return r;
}
