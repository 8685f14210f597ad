// Team test program (Test-Comp style, ILP32): a sensor log decoder. Records arrive as a kind
// byte and a `long` value (32 bits in ILP32). Every condition is a single comparison, so
// TestCov's decision outcomes and gcov's condition branches are the same goals.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "sensor_log.c", 8, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long __VERIFIER_nondet_long(void);
extern int __VERIFIER_nondet_int(void);

#define MAX_RECORDS 5

static unsigned long scaled(long v) {
  // Wraps at 2^32 in ILP32.
  unsigned long u = (unsigned long)v * 100000UL;
  if (u / 100000UL != (unsigned long)v) {
    return 0;
  }
  return u;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) {
    return 0;
  }
  if (n > MAX_RECORDS) {
    n = MAX_RECORDS;
  }
  long total = 0;
  int warnings = 0;
  int counters = 0;
  for (int i = 0; i < n; i++) {
    if (i >= MAX_RECORDS) {
      abort(); // infeasible: n was clamped
    }
    unsigned char kind = __VERIFIER_nondet_uchar();
    long v = __VERIFIER_nondet_long();
    switch (kind) {
    case 'T': // temperature in tenths of a degree
      if (v < -400) {
        warnings++;
        break;
      }
      if (v > 1250) {
        warnings++;
        break;
      }
      total += v;
      break;
    case 'P': // pressure in pascal, counted in hectopascal
      if (v < 0) {
        warnings++;
        break;
      }
      if (scaled(v) == 0) {
        warnings++;
        break;
      }
      total += v / 100;
      break;
    case 'C':
      counters++;
      break;
    default:
      warnings++;
    }
  }
  if (warnings > 2) {
    if (counters > 0) {
      if (total == 1234) {
        reach_error();
      }
    }
  }
  return 0;
}
