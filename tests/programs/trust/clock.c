/* The clock as an input: every way to read it, a branch on the time of day, an elapsed-time
 * check, a busy wait and a random stream seeded from it. The clock never goes back and a
 * timespec's nanoseconds stay below a second; no proof may rest on either (a real clock can
 * move further between two reads than a test's tick). The build before returned 0 from `time`
 * and left the others to stop the run or return an unwritten struct; its claim that the
 * clock reads below 1000 s failed natively. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

int main(void) {
    struct timeval tv;
    struct timespec ts;
    time_t t0 = time(NULL);
    if (t0 > 1000)
        printf("after 1970\n");
    gettimeofday(&tv, NULL);
    if (tv.tv_sec < t0)
        abort();
    if (tv.tv_sec - t0 >= 2)
        printf("slow start\n");
    if (tv.tv_usec > 500000)
        printf("second half\n");
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (ts.tv_nsec >= 1000000000L)
        abort();
    clock_t c0 = clock();
    while (clock() - c0 < CLOCKS_PER_SEC / 100) {
    }
    srand((unsigned)time(NULL));
    if (rand() % 6 == 5)
        printf("six\n");
    return 0;
}
