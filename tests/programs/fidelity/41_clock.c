/* The clock read every way (time with and without a pointer, gettimeofday, clock_gettime,
 * clock, difftime), each value printed: the interpreter's clock model and the replay
 * harness's read the same test values in the same order. */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
    time_t t0, t1 = time(&t0);
    printf("time %ld %ld\n", (long)t0, (long)t1);
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
