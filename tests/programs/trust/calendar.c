/* A log line stamped with the local time, then branches on the date: the clock is an input and
 * the calendar is computed as glibc does (local time is UTC in tests), so the search reaches
 * any hour, Sundays and the leap day. Runs stopped at localtime before (a pointer result
 * without a model), so nothing after the stamp was tested. */
#include <stdio.h>
#include <time.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    time_t now = time(NULL);
    struct tm *tm = localtime(&now);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M", tm);
    printf("[%s] start\n", stamp);
    if (tm->tm_hour < 12)
        printf("morning\n");
    if (tm->tm_wday == 0)
        printf("sunday\n");
    if (tm->tm_mon == 1 && tm->tm_mday == 29)
        printf("leap day\n");
    int x = __VERIFIER_nondet_int();
    if (x == 7)
        printf("seven\n");
    printf("%s", ctime(&now));
    return 0;
}
