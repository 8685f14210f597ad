/* The clock read every way (time with and without a pointer, gettimeofday, clock_gettime,
 * clock, difftime), each value printed: the interpreter's clock model and the replay
 * harness's read the same test values in the same order. The locale: C alone, selected by
 * "", "C" and "POSIX", queried by NULL; other names and categories are unavailable. */
#include <locale.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    time_t t0, t1 = time(&t0);
    printf("time %ld %ld\n", (long)t0, (long)t1);
    static const char *names[] = {"", "C", "POSIX", "de_DE.UTF-8", "C.UTF-8", NULL};
    for (int i = 0; i < 6; i++) {
        const char *r = setlocale(i == 5 ? 99 : LC_ALL - i % 2, names[i]);
        printf("setlocale %s\n", r ? r : "(null)");
    }
    printf("%.2f\n", 1.5);
    int reads = __VERIFIER_nondet_int() & 7;
    for (int i = 0; i < reads; i++) {
        struct timeval tv;
        struct timespec ts;
        switch (__VERIFIER_nondet_int() & 3) {
        case 0:
            printf("gettimeofday %d", gettimeofday(&tv, NULL));
            printf(" %ld.%06ld\n", (long)tv.tv_sec, (long)tv.tv_usec);
            break;
        case 1:
            printf("clock_gettime %d", clock_gettime(CLOCK_REALTIME, &ts));
            printf(" %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
            break;
        case 2:
            printf("clock %ld\n", (long)clock());
            break;
        default:
            printf("time %ld difftime %.1f\n", (long)time(NULL), difftime(time(NULL), t0));
        }
    }
    return (int)(time(NULL) - t0 > 3);
}
