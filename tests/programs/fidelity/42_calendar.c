/* The calendar against glibc: gmtime's fields for times across centuries (before 1970
 * included), asctime, strftime's conversions, timegm's normalization of fields out of range;
 * local time (UTC in the replay harness as in the interpreter) through localtime, ctime and
 * mktime. */
#include <stdio.h>
#include <string.h>
#include <time.h>

extern long long __VERIFIER_nondet_longlong(void);
extern int __VERIFIER_nondet_int(void);

static void show(const char *what, const struct tm *tm) {
    if (!tm) {
        printf("%s NULL\n", what);
        return;
    }
    printf("%s %d-%d-%d %d:%d:%d wday %d yday %d dst %d off %ld %s\n", what, tm->tm_year,
           tm->tm_mon, tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, tm->tm_wday,
           tm->tm_yday, tm->tm_isdst, tm->tm_gmtoff, tm->tm_zone);
    char buf[512];
    size_t n = strftime(buf, sizeof buf,
                        "%a %A %b %h %B|%c|%C %d %D %e|%F|%g %G %V|%H %I %j %k %l %m %M|%p %P|%r"
                        "|%R %S %T|%u %U %w %W|%x %X|%y %Y %z %Z %%",
                        tm);
    printf("  strftime %zu [%s]\n", n, n ? buf : "");
    char small[8];
    printf("  small %zu\n", strftime(small, sizeof small, "%Y-%m-%d", tm));
    char *a = asctime(tm);
    printf("  asctime %s", a ? a : "NULL\n");
}

int main(void) {
    long long r = __VERIFIER_nondet_longlong();
    /* Within about 1,000 years of 1970 either way, or the clock's range. */
    time_t t = (time_t)(r % 3) == 0 ? (time_t)(r % 32000000000LL) : (time_t)(unsigned)r;
    if (sizeof(time_t) == 4)
        t = (time_t)(int)r;
    printf("t %lld\n", (long long)t);
    struct tm g;
    show("gmtime", gmtime_r(&t, &g));
    g.tm_mon += __VERIFIER_nondet_int() % 30;
    g.tm_mday += __VERIFIER_nondet_int() % 400;
    g.tm_hour += __VERIFIER_nondet_int() % 50;
    time_t back = timegm(&g);
    printf("timegm %lld\n", (long long)back);
    show("normalized", back == (time_t)-1 ? NULL : &g);
    show("localtime", localtime(&t));
    char *c = ctime(&t);
    printf("ctime %s", c ? c : "NULL\n");
    struct tm l;
    if (localtime_r(&t, &l)) {
        l.tm_min += 90;
        printf("mktime %lld\n", (long long)mktime(&l));
    }
    return 0;
}
