/* setlocale's results depend on the machine's locales and environment: natively every outcome
 * here can happen (LANG names an installed locale or one that is missing; de_DE is installed
 * or not). The build before returned NULL from every call and proved the program's main path
 * unreachable. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    if (!setlocale(LC_ALL, ""))
        return 1;
    const char *now = setlocale(LC_NUMERIC, NULL);
    if (strcmp(now, "C") != 0)
        printf("locale %s\n", now);
    if (setlocale(LC_ALL, "de_DE.UTF-8"))
        printf("%.1f\n", 2.5);
    return 0;
}
