/* The parts of the environment a test decides, modelled once: the interpreter's runtime and
 * the native replay harness are built from this same text. CAIRN_ENV_UINT() is the test's next
 * unsigned int; CAIRN_ENV_FN(ret, name, params) defines `name`. No proof rests on these (the
 * shadow counts their calls as the environment's).
 *
 * The clock is an input. A run's first read of it takes the test's seconds and nanoseconds;
 * each later read advances it by the test's next value in nanoseconds (under 4.3 s), so it
 * never goes back. `time`, `gettimeofday`, `clock_gettime` (every clock id) and `clock` read
 * it; `clock`'s processor time starts below a second (the first read's nanoseconds) and grows
 * by the same ticks. */
#include <sys/time.h>
#include <time.h>
static int cairn_clock_read;
static unsigned long long cairn_clock_sec, cairn_clock_nsec, cairn_clock_elapsed;
static void cairn_clock_advance(void) {
  if (!cairn_clock_read) {
    cairn_clock_read = 1;
    cairn_clock_sec = CAIRN_ENV_UINT();
    cairn_clock_nsec = CAIRN_ENV_UINT() % 1000000000u;
    cairn_clock_elapsed = cairn_clock_nsec;
    return;
  }
  unsigned long long d = CAIRN_ENV_UINT();
  cairn_clock_elapsed += d;
  cairn_clock_nsec += d;
  cairn_clock_sec += cairn_clock_nsec / 1000000000u;
  cairn_clock_nsec %= 1000000000u;
}
CAIRN_ENV_FN(time_t, time, (time_t *t)) {
  cairn_clock_advance();
  if (t) *t = (time_t)cairn_clock_sec;
  return (time_t)cairn_clock_sec;
}
CAIRN_ENV_FN(int, gettimeofday, (struct timeval *tv, void *tz)) {
  (void)tz;
  cairn_clock_advance();
  if (tv) { tv->tv_sec = (time_t)cairn_clock_sec; tv->tv_usec = (long)(cairn_clock_nsec / 1000); }
  return 0;
}
CAIRN_ENV_FN(int, clock_gettime, (clockid_t id, struct timespec *ts)) {
  (void)id;
  cairn_clock_advance();
  if (ts) { ts->tv_sec = (time_t)cairn_clock_sec; ts->tv_nsec = (long)cairn_clock_nsec; }
  return 0;
}
CAIRN_ENV_FN(clock_t, clock, (void)) {
  cairn_clock_advance();
  return (clock_t)(cairn_clock_elapsed / 1000);
}
/* Local time is UTC, whatever the machine's zone: glibc's calendar (gmtime_r, timegm,
 * asctime; the runtime's own in the interpreter) with the zone named "UTC". */
CAIRN_ENV_FN(struct tm *, localtime_r, (const time_t *t, struct tm *tm)) {
  if (!gmtime_r(t, tm)) return 0;
  tm->tm_zone = "UTC";
  return tm;
}
CAIRN_ENV_FN(struct tm *, localtime, (const time_t *t)) {
  static struct tm tm;
  return localtime_r(t, &tm);
}
CAIRN_ENV_FN(time_t, mktime, (struct tm *tm)) {
  time_t r = timegm(tm);
  if (r != (time_t)-1) tm->tm_zone = "UTC";
  return r;
}
CAIRN_ENV_FN(char *, ctime_r, (const time_t *t, char *buf)) {
  struct tm tm;
  return localtime_r(t, &tm) ? asctime_r(&tm, buf) : 0;
}
CAIRN_ENV_FN(char *, ctime, (const time_t *t)) {
  struct tm *tm = localtime(t);
  return tm ? asctime(tm) : 0;
}
/* The C locale is the only one (the interpreter's printf and ctype are C's): a query returns
 * its name; "" (the environment's choice), "C" and "POSIX" select it; any other name is
 * unavailable, as is a category glibc does not have. */
static char cairn_locale_c[] = "C";
CAIRN_ENV_FN(char *, setlocale, (int category, const char *name)) {
  if (category < 0 || category > 12) return 0;
  if (!name || !name[0] || !strcmp(name, "C") || !strcmp(name, "POSIX")) return cairn_locale_c;
  return 0;
}
