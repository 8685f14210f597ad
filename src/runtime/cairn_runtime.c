/* Cairn's C runtime: the parts of libc that are best executed as C, linked (weakly) with the
 * program under test. Written in C so that the concolic engine sees through them byte by byte,
 * as KLEE does with its libc. Semantics follow glibc (C locale). Branches in this file are not
 * coverage goals. Primitives that need the host (output, input, memory, exit) are Cairn builtins. */
/* glibc's names of its extensions (struct tm's tm_gmtoff, tm_zone) under any -std the program
 * is compiled with. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif
#include <stddef.h>
#include <limits.h>
#include <errno.h>

#define W __attribute__((weak))

extern void __cairn_exit(int) __attribute__((noreturn));
extern void __cairn_unsupported(const char *) __attribute__((noreturn));
/* An operation on the machine's environment (a file that is not an input, a thread schedule):
 * not even a native run of the same inputs decides what follows. */
extern void __cairn_environment(const char *) __attribute__((noreturn));
/* v: a result the environment decides natively (a file created in the current directory may
 * fail to be); no proof rests on it. */
extern long __cairn_environment_result(long v);
/* Declared, not left implicit: an implicit `int realloc()` loses a pointer's upper half, and
 * the warning sends every compile through a second pass for library prototypes. */
extern void *malloc(size_t);
extern void *realloc(void *, size_t);
extern int vsnprintf(char *, size_t, const char *, __builtin_va_list);
extern const unsigned short **__ctype_b_loc(void);
extern const int **__ctype_tolower_loc(void);
extern const int **__ctype_toupper_loc(void);
extern int *__errno_location(void);

/* ---------------------------------------------------------------- string.h */
W size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n; }
W size_t strnlen(const char *s, size_t m) { size_t n = 0; while (n < m && s[n]) n++; return n; }
W char *strcpy(char *d, const char *s) { char *r = d; while ((*d++ = *s++)) ; return r; }
W char *stpcpy(char *d, const char *s) { while ((*d = *s)) { d++; s++; } return d; }
W char *strncpy(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i < n && s[i]; i++) d[i] = s[i];
  for (; i < n; i++) d[i] = 0;
  return d;
}
W char *strcat(char *d, const char *s) { strcpy(d + strlen(d), s); return d; }
W char *strncat(char *d, const char *s, size_t n) {
  char *e = d + strlen(d);
  size_t i = 0;
  for (; i < n && s[i]; i++) e[i] = s[i];
  e[i] = 0;
  return d;
}
W int strcmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  while (*x && *x == *y) { x++; y++; }
  return *x - *y;
}
W int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (; n; n--, x++, y++) {
    if (*x != *y) return *x - *y;
    if (!*x) return 0;
  }
  return 0;
}
static int lower_c(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }
W int strcasecmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  while (*x && lower_c(*x) == lower_c(*y)) { x++; y++; }
  return lower_c(*x) - lower_c(*y);
}
W int strncasecmp(const char *a, const char *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (; n; n--, x++, y++) {
    if (lower_c(*x) != lower_c(*y)) return lower_c(*x) - lower_c(*y);
    if (!*x) return 0;
  }
  return 0;
}
W char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c) return (char *)s;
    if (!*s) return NULL;
  }
}
W char *strrchr(const char *s, int c) {
  const char *r = NULL;
  for (;; s++) {
    if (*s == (char)c) r = s;
    if (!*s) return (char *)r;
  }
}
W char *strstr(const char *h, const char *n) {
  if (!*n) return (char *)h;
  for (; *h; h++) {
    size_t i = 0;
    while (n[i] && h[i] == n[i]) i++;
    if (!n[i]) return (char *)h;
  }
  return NULL;
}
W size_t strspn(const char *s, const char *acc) {
  size_t n = 0;
  for (; s[n]; n++) {
    const char *a = acc;
    while (*a && *a != s[n]) a++;
    if (!*a) break;
  }
  return n;
}
W size_t strcspn(const char *s, const char *rej) {
  size_t n = 0;
  for (; s[n]; n++) {
    const char *r = rej;
    while (*r && *r != s[n]) r++;
    if (*r) break;
  }
  return n;
}
W char *strpbrk(const char *s, const char *acc) {
  s += strcspn(s, acc);
  return *s ? (char *)s : NULL;
}
W char *strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) for (size_t i = 0; i < n; i++) d[i] = s[i];
  return d;
}
W char *strndup(const char *s, size_t m) {
  size_t n = strnlen(s, m);
  char *d = malloc(n + 1);
  if (d) { for (size_t i = 0; i < n; i++) d[i] = s[i]; d[n] = 0; }
  return d;
}
static char *strtok_save;
W char *strtok_r(char *s, const char *delim, char **save) {
  if (!s) s = *save;
  s += strspn(s, delim);
  if (!*s) { *save = s; return NULL; }
  char *end = s + strcspn(s, delim);
  if (*end) { *end = 0; *save = end + 1; } else *save = end;
  return s;
}
W char *strtok(char *s, const char *delim) { return strtok_r(s, delim, &strtok_save); }
W int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return x[i] - y[i];
  return 0;
}
W void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  for (size_t i = 0; i < n; i++)
    if (p[i] == (unsigned char)c) return (void *)(p + i);
  return NULL;
}
W void *rawmemchr(const void *s, int c) {
  const unsigned char *p = s;
  while (*p != (unsigned char)c) p++;
  return (void *)p;
}
/* BSD and GNU extensions glibc defines: without a model a run stopped at them (a pointer
 * result), or their results were inputs and their writes never happened (bzero, bcopy). */
extern void *memset(void *, int, size_t);
extern void *memcpy(void *, const void *, size_t);
extern void *memmove(void *, const void *, size_t);
W int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }
W void bzero(void *s, size_t n) { memset(s, 0, n); }
W void explicit_bzero(void *s, size_t n) { memset(s, 0, n); }
W void bcopy(const void *s, void *d, size_t n) { memmove(d, s, n); }
W char *index(const char *s, int c) { return strchr(s, c); }
W char *rindex(const char *s, int c) { return strrchr(s, c); }
W char *strchrnul(const char *s, int c) {
  while (*s && *s != (char)c) s++;
  return (char *)s;
}
W void *memrchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  while (n--)
    if (p[n] == (unsigned char)c) return (void *)(p + n);
  return NULL;
}
W void *mempcpy(void *d, const void *s, size_t n) { return (char *)memcpy(d, s, n) + n; }
W void *memccpy(void *d, const void *s, int c, size_t n) {
  unsigned char *x = d;
  const unsigned char *y = s;
  for (size_t i = 0; i < n; i++) {
    x[i] = y[i];
    if (y[i] == (unsigned char)c) return x + i + 1;
  }
  return NULL;
}
W char *stpncpy(char *d, const char *s, size_t n) {
  size_t i = 0;
  for (; i < n && s[i]; i++) d[i] = s[i];
  char *r = d + i;
  for (; i < n; i++) d[i] = 0;
  return r;
}
W char *strsep(char **sp, const char *delim) {
  char *s = *sp;
  if (!s) return NULL;
  char *e = s + strcspn(s, delim);
  if (*e) { *e = 0; *sp = e + 1; } else *sp = NULL;
  return s;
}
W char *strcasestr(const char *h, const char *n) {
  if (!*n) return (char *)h;
  for (; *h; h++) {
    size_t i = 0;
    while (n[i] && lower_c((unsigned char)h[i]) == lower_c((unsigned char)n[i])) i++;
    if (!n[i]) return (char *)h;
  }
  return NULL;
}
/* The C locale's collation is byte order. */
W int strcoll(const char *a, const char *b) { return strcmp(a, b); }
W size_t strxfrm(char *d, const char *s, size_t n) {
  size_t l = strlen(s);
  if (n) strncpy(d, s, l + 1 < n ? l + 1 : n);
  return l;
}

/* ---------------------------------------------------------------- messages and file names */
/* glibc's messages (2.36), read off its strerror and strsignal. */
static const char *const errno_text[] = {
  "Success", "Operation not permitted", "No such file or directory", "No such process",
  "Interrupted system call", "Input/output error", "No such device or address",
  "Argument list too long", "Exec format error", "Bad file descriptor", "No child processes",
  "Resource temporarily unavailable", "Cannot allocate memory", "Permission denied",
  "Bad address", "Block device required", "Device or resource busy", "File exists",
  "Invalid cross-device link", "No such device", "Not a directory", "Is a directory",
  "Invalid argument", "Too many open files in system", "Too many open files",
  "Inappropriate ioctl for device", "Text file busy", "File too large", "No space left on device",
  "Illegal seek", "Read-only file system", "Too many links", "Broken pipe",
  "Numerical argument out of domain", "Numerical result out of range",
  "Resource deadlock avoided", "File name too long", "No locks available",
  "Function not implemented", "Directory not empty", "Too many levels of symbolic links",
  "Unknown error 41", "No message of desired type", "Identifier removed",
  "Channel number out of range", "Level 2 not synchronized", "Level 3 halted", "Level 3 reset",
  "Link number out of range", "Protocol driver not attached", "No CSI structure available",
  "Level 2 halted", "Invalid exchange", "Invalid request descriptor", "Exchange full", "No anode",
  "Invalid request code", "Invalid slot", "Unknown error 58", "Bad font file format",
  "Device not a stream", "No data available", "Timer expired", "Out of streams resources",
  "Machine is not on the network", "Package not installed", "Object is remote",
  "Link has been severed", "Advertise error", "Srmount error", "Communication error on send",
  "Protocol error", "Multihop attempted", "RFS specific error", "Bad message",
  "Value too large for defined data type", "Name not unique on network",
  "File descriptor in bad state", "Remote address changed",
  "Can not access a needed shared library", "Accessing a corrupted shared library",
  ".lib section in a.out corrupted", "Attempting to link in too many shared libraries",
  "Cannot exec a shared library directly", "Invalid or incomplete multibyte or wide character",
  "Interrupted system call should be restarted", "Streams pipe error", "Too many users",
  "Socket operation on non-socket", "Destination address required", "Message too long",
  "Protocol wrong type for socket", "Protocol not available", "Protocol not supported",
  "Socket type not supported", "Operation not supported", "Protocol family not supported",
  "Address family not supported by protocol", "Address already in use",
  "Cannot assign requested address", "Network is down", "Network is unreachable",
  "Network dropped connection on reset", "Software caused connection abort",
  "Connection reset by peer", "No buffer space available",
  "Transport endpoint is already connected", "Transport endpoint is not connected",
  "Cannot send after transport endpoint shutdown", "Too many references: cannot splice",
  "Connection timed out", "Connection refused", "Host is down", "No route to host",
  "Operation already in progress", "Operation now in progress", "Stale file handle",
  "Structure needs cleaning", "Not a XENIX named type file", "No XENIX semaphores available",
  "Is a named type file", "Remote I/O error", "Disk quota exceeded", "No medium found",
  "Wrong medium type", "Operation canceled", "Required key not available", "Key has expired",
  "Key has been revoked", "Key was rejected by service", "Owner died", "State not recoverable",
  "Operation not possible due to RF-kill", "Memory page has hardware error",
};
static const char *const signal_text[] = {
  "Hangup", "Interrupt", "Quit", "Illegal instruction", "Trace/breakpoint trap", "Aborted",
  "Bus error", "Floating point exception", "Killed", "User defined signal 1",
  "Segmentation fault", "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated",
  "Stack fault", "Child exited", "Continued", "Stopped (signal)", "Stopped",
  "Stopped (tty input)", "Stopped (tty output)", "Urgent I/O condition",
  "CPU time limit exceeded", "File size limit exceeded", "Virtual timer expired",
  "Profiling timer expired", "Window changed", "I/O possible", "Power failure", "Bad system call",
};
/* `prefix` and `n` in decimal, in `buf` (of 32 bytes at least). */
static char *numbered(char *buf, const char *prefix, int n) {
  char digits[12];
  unsigned u = n < 0 ? -(unsigned)n : (unsigned)n;
  int k = 0, i = 0;
  do { digits[k++] = '0' + u % 10; u /= 10; } while (u);
  for (; *prefix; prefix++) buf[i++] = *prefix;
  if (n < 0) buf[i++] = '-';
  while (k) buf[i++] = digits[--k];
  buf[i] = 0;
  return buf;
}
W char *strerror(int e) {
  static char unknown[32];
  if (e >= 0 && e < (int)(sizeof errno_text / sizeof *errno_text)) return (char *)errno_text[e];
  return numbered(unknown, "Unknown error ", e);
}
W char *strsignal(int s) {
  static char other[32];
  if (s >= 1 && s <= 31) return (char *)signal_text[s - 1];
  /* glibc keeps 32 and 33 for its threads: the real-time signals start at 34. */
  if (s >= 34 && s <= 64) return numbered(other, "Real-time signal ", s - 34);
  return numbered(other, "Unknown signal ", s);
}
/* GNU basename (string.h): what follows the last slash, the string unchanged. */
W char *basename(const char *path) {
  const char *p = strrchr(path, '/');
  return (char *)(p ? p + 1 : path);
}
/* POSIX basename (libgen.h): trailing slashes removed in place; "." for an empty path. */
W char *__xpg_basename(char *path) {
  char *p;
  if (!path || !path[0]) return (char *)".";
  p = strrchr(path, '/');
  if (!p) return path;
  if (p[1]) return p + 1;
  while (p > path && p[-1] == '/') --p;
  if (p == path) {
    /* Only slashes: "/". */
    while (p[1]) ++p;
    return p;
  }
  *p-- = 0;
  while (p > path && p[-1] != '/') --p;
  return p;
}
/* POSIX dirname (libgen.h), as glibc's: "//" kept when the path starts with exactly two. */
W char *dirname(char *path) {
  char *last = path ? strrchr(path, '/') : NULL;
  if (last && last != path && !last[1]) {
    char *run = last;
    while (run != path && run[-1] == '/') --run;
    if (run != path) last = memrchr(path, '/', run - path);
  }
  if (!last) return (char *)".";
  char *run = last;
  while (run != path && run[-1] == '/') --run;
  if (run == path)
    last = last == path + 1 ? last + 1 : path + 1;
  else
    last = run;
  *last = 0;
  return path;
}

/* ---------------------------------------------------------------- ctype.h (functions) */
#define CT(name, bit) W int name(int c) { return (c >= -128 && c < 256) ? ((*__ctype_b_loc())[c] & (unsigned short)(bit)) : 0; }
/* glibc's little-endian bit assignments */
CT(isupper, 1 << 8) CT(islower, 1 << 9) CT(isalpha, 1 << 10) CT(isdigit, 1 << 11) CT(isxdigit, 1 << 12)
CT(isspace, 1 << 13) CT(isprint, 1 << 14) CT(isgraph, 1 << 15) CT(iscntrl, 1 << 1) CT(ispunct, 1 << 2)
CT(isalnum, 1 << 3) CT(isblank, 1 << 0)
W int tolower(int c) { return (c >= -128 && c < 256) ? (*__ctype_tolower_loc())[c] : c; }
W int toupper(int c) { return (c >= -128 && c < 256) ? (*__ctype_toupper_loc())[c] : c; }
W int isascii(int c) { return (c & ~0x7f) == 0; }
W int toascii(int c) { return c & 0x7f; }

/* ------------------------------------------------------- strings.h, arpa/inet.h */
/* Pure functions glibc defines: without a model their results would be inputs, any value. */
W int ffs(int x) { return x == 0 ? 0 : __builtin_ctz((unsigned)x) + 1; }
W int ffsl(long x) { return x == 0 ? 0 : __builtin_ctzl((unsigned long)x) + 1; }
W int ffsll(long long x) { return x == 0 ? 0 : __builtin_ctzll((unsigned long long)x) + 1; }
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the byte-order functions below assume a little-endian host"
#endif
W unsigned int htonl(unsigned int x) { return __builtin_bswap32(x); }
W unsigned int ntohl(unsigned int x) { return __builtin_bswap32(x); }
W unsigned short htons(unsigned short x) { return __builtin_bswap16(x); }
W unsigned short ntohs(unsigned short x) { return __builtin_bswap16(x); }

/* ---------------------------------------------------------------- stdlib.h */
W int abs(int x) { return x < 0 ? -x : x; }
W long labs(long x) { return x < 0 ? -x : x; }
W long long llabs(long long x) { return x < 0 ? -x : x; }
W long long imaxabs(long long x) { return x < 0 ? -x : x; }
typedef struct { int quot, rem; } cairn_div_t;
typedef struct { long quot, rem; } cairn_ldiv_t;
typedef struct { long long quot, rem; } cairn_lldiv_t;
W cairn_div_t div(int a, int b) { cairn_div_t r = { a / b, a % b }; return r; }
W cairn_ldiv_t ldiv(long a, long b) { cairn_ldiv_t r = { a / b, a % b }; return r; }
W cairn_lldiv_t lldiv(long long a, long long b) { cairn_lldiv_t r = { a / b, a % b }; return r; }

static int is_space(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static int digit_val(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}
/* v = v * base + d unless that overflows (then returns 0). `bound` is base to the count of
 * digits read so far, a concrete number above any value they can spell: while the next digit
 * cannot overflow the check needs no arithmetic on the symbolic v (a division of it made
 * every query over a parsed number bit-blast a 64-bit divider: 0.2 s each). */
static int next_digit(unsigned long long *v, unsigned long long *bound, unsigned base, unsigned d) {
  if (*bound <= ULLONG_MAX / base) {
    *bound *= base;
    *v = *v * base + d;
    return 1;
  }
  unsigned long long cutoff = ULLONG_MAX / base, cutlim = ULLONG_MAX % base;
  if ((*v > cutoff) | ((*v == cutoff) & (d > cutlim))) return 0;
  *v = *v * base + d;
  return 1;
}
/* Parses magnitude into *out (saturating at ULLONG_MAX); returns pointer past the number or NULL. */
static const char *parse_mag(const char *s, int base, unsigned long long *out, int *ovf, int *neg, int *okbase) {
  *neg = 0; *ovf = 0; *okbase = 1;
  while (is_space((unsigned char)*s)) s++;
  if (*s == '-') { *neg = 1; s++; } else if (*s == '+') s++;
  if (base < 0 || base == 1 || base > 36) { *okbase = 0; return NULL; }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_val((unsigned char)s[2]) < 16) {
    s += 2; base = 16;
  } else if (base == 0) base = (s[0] == '0') ? 8 : 10;
  unsigned long long v = 0, bound = 1;
  const char *start = s;
  for (;; s++) {
    int d = digit_val((unsigned char)*s);
    if (d >= base) break;
    if (!next_digit(&v, &bound, (unsigned)base, (unsigned)d)) *ovf = 1, v = ULLONG_MAX;
  }
  if (s == start) return NULL;
  *out = v;
  return s;
}
/* The bytes from p to the end of its object (0: no object). */
extern unsigned long __cairn_readable(const void *p);
/* Base-10 parse of a string that ends within its first 19 bytes (a command-line argument, a
 * number in a line buffer), computed without branching on its bytes: the value is one
 * expression of them, so a branch on it is flipped by one query, where parsing as parse_mag
 * does splits every number into paths by its count of spaces, sign and digits (tcas's twelve
 * arguments: 11 of 66 goals in 5 s). Each byte steps a one-hot automaton (spaces, sign,
 * digits, done) with masks, never with branches (clang at -O0 compiles `?:`, `&&` and `||` to
 * branches). At most 18 digits fit, so the 64-bit value cannot overflow. Returns 0 when the
 * string goes on past those bytes or past its object (one branch; the caller then parses as
 * usual, faulting where natively it would). */
static int parse_dec_small(const char *s, long long *out, int *neg_out) {
  unsigned long n = __cairn_readable(s);
  if (n == 0) return 0;
  if (n > 19) n = 19;
  long long acc = 0;
  int spaces = 1, sign = 0, digits = 0, neg = 0;
  for (unsigned long i = 0; i < n; i++) {
    int c = (unsigned char)s[i];
    int sp = (c == ' ') | ((unsigned)(c - '\t') < 5);
    int d = (unsigned)(c - '0') < 10;
    int take = (spaces | sign | digits) & d;
    long long m = -(long long)take;
    acc = ((acc * 10 + (c - '0')) & m) | (acc & ~m);
    neg |= spaces & (c == '-');
    sign = spaces & ((c == '+') | (c == '-'));
    spaces = spaces & sp;
    digits = take;
  }
  if (spaces | sign | digits) return 0;
  *out = acc;
  *neg_out = neg;
  return 1;
}
/* -v when neg (0 or 1), else v: without a branch. */
static long long negate_if(long long v, int neg) { return (v ^ -(long long)neg) + neg; }
/* hi when c (0 or 1), else lo: without a branch. */
static long long pick(int c, long long hi, long long lo) {
  long long m = -(long long)c;
  return (hi & m) | (lo & ~m);
}
W long long strtoll(const char *nptr, char **end, int base) {
  unsigned long long m = 0; int ovf, neg, okb;
  long long small;
  if (base == 10 && !end && parse_dec_small(nptr, &small, &neg)) return negate_if(small, neg);
  const char *e = parse_mag(nptr, base, &m, &ovf, &neg, &okb);
  if (!e) { if (end) *end = (char *)nptr; if (!okb) *__errno_location() = EINVAL; return 0; }
  if (end) *end = (char *)e;
  if (ovf || (!neg && m > (unsigned long long)LLONG_MAX) || (neg && m > (unsigned long long)LLONG_MAX + 1)) {
    *__errno_location() = ERANGE;
    return neg ? LLONG_MIN : LLONG_MAX;
  }
  return neg ? (long long)(0 - m) : (long long)m;
}
W unsigned long long strtoull(const char *nptr, char **end, int base) {
  unsigned long long m = 0; int ovf, neg, okb;
  const char *e = parse_mag(nptr, base, &m, &ovf, &neg, &okb);
  if (!e) { if (end) *end = (char *)nptr; if (!okb) *__errno_location() = EINVAL; return 0; }
  if (end) *end = (char *)e;
  if (ovf) { *__errno_location() = ERANGE; return ULLONG_MAX; }
  return neg ? 0 - m : m;
}
/* intmax_t is 64 bits in both data models. */
W long long strtoimax(const char *nptr, char **end, int base) { return strtoll(nptr, end, base); }
W unsigned long long strtoumax(const char *nptr, char **end, int base) { return strtoull(nptr, end, base); }
W long strtol(const char *nptr, char **end, int base) {
  unsigned long long m = 0; int ovf, neg, okb;
  long long small;
  if (base == 10 && !end && parse_dec_small(nptr, &small, &neg)) {
    if (sizeof(long) == sizeof(long long)) return negate_if(small, neg);
    /* A 32-bit long saturates with ERANGE, as glibc's. */
    int high = !neg & (small > (long long)LONG_MAX);
    int low = neg & (small > (long long)LONG_MAX + 1);
    int *e = __errno_location();
    *e = (int)pick(high | low, ERANGE, *e);
    return (long)pick(high, LONG_MAX, pick(low, LONG_MIN, negate_if(small, neg)));
  }
  const char *e = parse_mag(nptr, base, &m, &ovf, &neg, &okb);
  if (!e) { if (end) *end = (char *)nptr; if (!okb) *__errno_location() = EINVAL; return 0; }
  if (end) *end = (char *)e;
  if (ovf || (!neg && m > (unsigned long long)LONG_MAX) || (neg && m > (unsigned long long)LONG_MAX + 1)) {
    *__errno_location() = ERANGE;
    return neg ? LONG_MIN : LONG_MAX;
  }
  return neg ? (long)(0 - m) : (long)m;
}
W unsigned long strtoul(const char *nptr, char **end, int base) {
  unsigned long long m = 0; int ovf, neg, okb;
  const char *e = parse_mag(nptr, base, &m, &ovf, &neg, &okb);
  if (!e) { if (end) *end = (char *)nptr; if (!okb) *__errno_location() = EINVAL; return 0; }
  if (end) *end = (char *)e;
  if (ovf || m > (unsigned long long)ULONG_MAX) {
    if (!neg || m > (unsigned long long)ULONG_MAX || ovf) { *__errno_location() = ERANGE; return ULONG_MAX; }
  }
  return neg ? (unsigned long)(0 - m) : (unsigned long)m;
}
/* sscanf over a string, as glibc scans: conversions d i u x X o, f e g E G a, s c [ n %, with
 * '*', widths and the hh h l ll j z t length modifiers. Numbers are read digit by digit, so a
 * branch of the program on a scanned field is a branch on the string's bytes. */
/* The host's strtod and strtof (the library model reads the bytes as they are). */
extern double __cairn_strtod(const char *, char **);
extern float __cairn_strtof(const char *, char **);
/* Decimals as strtod reads them, from their digits, so that a branch on the value is a branch
 * on the bytes (a ratio read with sscanf("%f") was a concrete value: only luck gave one in
 * [0, 1]). Only the exact fast path: spaces, sign, at most `max_digits` digits with an optional
 * point, no exponent. The digits spell an integer m below 2^53 (2^24 for a float) and the point
 * divides by 10^k, exact as a double up to 10^22 (as a float up to 10^10): one IEEE division of
 * exact operands is correctly rounded, which is what strtod returns. Anything else (an
 * exponent, hex, inf, nan, more digits) returns 0 and the caller asks the host. */
static const double exact_pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static int parse_decimal(const char *s, int max_digits, unsigned long long *m, int *k, int *neg,
                         const char **end) {
  while (is_space((unsigned char)*s)) s++;
  *neg = *s == '-';
  if (*s == '-' || *s == '+') s++;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return 0;
  int digits = 0, frac = 0, point = 0;
  *m = 0;
  for (;; s++) {
    if (*s >= '0' && *s <= '9') {
      if (++digits > max_digits) return 0;
      *m = *m * 10 + (unsigned)(*s - '0');
      frac += point;
    } else if (*s == '.' && !point) {
      point = 1;
    } else {
      break;
    }
  }
  if (!digits || *s == 'e' || *s == 'E') return 0;
  *k = frac;
  *end = s;
  return 1;
}
W double strtod(const char *s, char **end) {
  unsigned long long m; int k, neg; const char *e;
  if (!parse_decimal(s, 15, &m, &k, &neg, &e)) return __cairn_strtod(s, end);
  if (end) *end = (char *)e;
  double v = (double)m / exact_pow10[k];
  return neg ? -v : v;
}
W double atof(const char *s) { return strtod(s, NULL); }
W float strtof(const char *s, char **end) {
  unsigned long long m; int k, neg; const char *e;
  /* Seven digits: m < 2^24 and k <= 7, both exact as floats. */
  if (!parse_decimal(s, 7, &m, &k, &neg, &e)) return __cairn_strtof(s, end);
  if (end) *end = (char *)e;
  float v = (float)m / (float)exact_pow10[k];
  return neg ? -v : v;
}
static void store_int(void *p, const char *len, unsigned long long v) {
  if (len[0] == 'h' && len[1] == 'h') *(char *)p = (char)v;
  else if (len[0] == 'h') *(short *)p = (short)v;
  else if ((len[0] == 'l' && len[1] == 'l') || len[0] == 'q' || len[0] == 'j') *(long long *)p = (long long)v;
  else if (len[0] == 'l' || len[0] == 'z' || len[0] == 't') *(long *)p = (long)v;
  else *(int *)p = (int)v;
}
/* A scanset's text after `%[`: sets *set..*end to its members (after a `^`, which *set points
 * at) and returns the format past its `]`. */
static const char *scanset(const char *f, const char **set, const char **end) {
  *set = f;
  if (*f == '^') f++;
  if (*f == ']') f++;
  while (*f && *f != ']') f++;
  *end = f;
  return *f ? f + 1 : f;
}
/* Whether the byte `ch` (0..255) matches the scanset; branches only on the set's characters,
 * so a symbolic `ch` adds none. */
static int scanset_member(const char *set, const char *end, int ch) {
  int negate = *set == '^', in = 0;
  if (negate) set++;
  for (const char *q = set; q < end; q++) {
    if (q[1] == '-' && q + 2 < end) {
      in |= (ch >= (unsigned char)q[0]) & (ch <= (unsigned char)q[2]);
      q += 2;
    } else {
      in |= ch == (unsigned char)*q;
    }
  }
  return in ^ negate;
}
/* A character stdin's `%[` reads: a member, not NUL. */
static int scanset_has(const char *set, const char *end, int ch) {
  return scanset_member(set, end, ch) & (ch != 0);
}
/* The scanset's first member from ' ' on (wrapping past 255), or -1. */
static int scanset_first(const char *set, const char *end) {
  for (int t = 0; t < 256; t++)
    if (scanset_has(set, end, (t + ' ') & 0xff)) return (t + ' ') & 0xff;
  return -1;
}
static int scan_hit_end;
static int scan_end(void) { scan_hit_end = 1; return -1; }
/* Scans the `avail` characters at `str`, as glibc's vfscanf reads a stream; a string ends at
 * its NUL instead (`nul_ends`: no strlen first, which would branch on every byte). Where the
 * scan stopped goes to *stop, and peeking past the end sets scan_hit_end. The end is a count,
 * not a pointer: a file's size is an input, and a pointer computed from it would be
 * concretized. */
#define C(i) ((size_t)(s - str) + (i) < avail && !(nul_ends && s[i] == 0) ? (int)s[i] : scan_end())
#define DONE(v) do { *stop = s; return (v); } while (0)
static int scan_text(const unsigned char *str, size_t avail, int nul_ends, const char *fmt,
                     __builtin_va_list ap, const unsigned char **stop) {
  const unsigned char *s = str;
  int count = 0;
  while (*fmt) {
    if (is_space((unsigned char)*fmt)) {
      while (is_space(C(0))) s++;
      fmt++;
      continue;
    }
    if (*fmt != '%' || fmt[1] == '%') {
      if (*fmt == '%') { fmt++; while (is_space(C(0))) s++; }
      if (C(0) < 0) DONE(count ? count : -1);
      if (C(0) != (unsigned char)*fmt) DONE(count);
      s++; fmt++;
      continue;
    }
    fmt++;
    int suppress = 0;
    if (*fmt == '*') { suppress = 1; fmt++; }
    long width = 0;
    while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    char len[3] = {0, 0, 0};
    int nl = 0;
    while (*fmt && strchr("hlLqjzt", *fmt)) { if (nl < 2) len[nl++] = *fmt; fmt++; }
    char conv = *fmt++;
    if (!conv) DONE(count);
    if (len[0] == 'L') __cairn_unsupported("sscanf conversion with L (long double)");
    if (conv == 'n') {
      if (!suppress) store_int(__builtin_va_arg(ap, void *), len, (unsigned long long)(s - str));
      continue;
    }
    if (conv != 'c' && conv != '[') while (is_space(C(0))) s++;
    if (C(0) < 0) DONE(count ? count : -1); /* end of input: EOF unless something was stored */
    if (width <= 0) width = conv == 'c' ? 1 : LONG_MAX;
    if (strchr("diuxXo", conv)) {
      int base = conv == 'd' || conv == 'u' ? 10 : conv == 'o' ? 8 : conv == 'i' ? 0 : 16;
      int neg = 0;
      long used = 0;
      if (used < width && (C(0) == '-' || C(0) == '+')) { neg = C(0) == '-'; s++; used++; }
      if ((base == 0 || base == 16) && used + 1 < width && C(0) == '0' && (C(1) == 'x' || C(1) == 'X')
          && digit_val(C(2)) < 16) { s += 2; used += 2; base = 16; }
      else if (base == 0) base = C(0) == '0' ? 8 : 10;
      unsigned long long v = 0, bound = 1;
      long digits = 0;
      int ovf = 0;
      while (used < width && digit_val(C(0)) < base) {
        if (!next_digit(&v, &bound, (unsigned)base, (unsigned)digit_val(*s))) ovf = 1;
        s++; used++; digits++;
      }
      if (!digits) DONE(count);
      /* As glibc: strtol/strtoul (strtoll/strtoull for ll, q, j) semantics, then truncation. */
      int wide = (len[0] == 'l' && len[1] == 'l') || len[0] == 'q' || len[0] == 'j';
      if (conv == 'd' || conv == 'i') {
        unsigned long long lim = wide ? (unsigned long long)LLONG_MAX : (unsigned long long)LONG_MAX;
        if (ovf || v > lim + (unsigned)neg) v = neg ? -(lim + 1) : lim;
        else if (neg) v = -v;
      } else {
        unsigned long long lim = wide ? ULLONG_MAX : (unsigned long long)ULONG_MAX;
        if (ovf || v > lim) v = lim;
        else if (neg) v = -v & lim;
      }
      if (!suppress) { store_int(__builtin_va_arg(ap, void *), len, v); count++; }
    } else if (strchr("feEgGaA", conv)) {
      char buf[64];
      long n = 0;
      if (n < width && (C(0) == '-' || C(0) == '+')) buf[n++] = (char)*s++;
      long digits = 0;
      if (n + 1 < width && C(0) == '0' && (C(1) == 'x' || C(1) == 'X')) {
        /* A hexadecimal float: strtod reads it; "0x" alone fails to match, as in glibc. */
        buf[n++] = (char)*s++; buf[n++] = (char)*s++;
        while (n < width && n < 58 && (digit_val(C(0)) < 16 || C(0) == '.')) { if (*s != '.') digits++; buf[n++] = (char)*s++; }
        if (!digits) DONE(count);
        if (n + 1 < width && (C(0) == 'p' || C(0) == 'P') && ((C(1) >= '0' && C(1) <= '9') || C(1) == '-' || C(1) == '+')) {
          buf[n++] = (char)*s++;
          if (C(0) == '-' || C(0) == '+') buf[n++] = (char)*s++;
          while (n < width && n < 62 && C(0) >= '0' && C(0) <= '9') buf[n++] = (char)*s++;
        }
      } else {
        while (n < width && n < 60 && C(0) >= '0' && C(0) <= '9') { buf[n++] = (char)*s++; digits++; }
        if (n < width && n < 60 && C(0) == '.') {
          buf[n++] = (char)*s++;
          while (n < width && n < 60 && C(0) >= '0' && C(0) <= '9') { buf[n++] = (char)*s++; digits++; }
        }
        if (!digits) DONE(count);
        if (n + 1 < width && n < 58 && (C(0) == 'e' || C(0) == 'E')
            && ((C(1) >= '0' && C(1) <= '9') || ((C(1) == '-' || C(1) == '+') && C(2) >= '0' && C(2) <= '9' && n + 2 < width))) {
          buf[n++] = (char)*s++;
          if (C(0) == '-' || C(0) == '+') buf[n++] = (char)*s++;
          while (n < width && n < 62 && C(0) >= '0' && C(0) <= '9') buf[n++] = (char)*s++;
        }
      }
      buf[n] = 0;
      if (!suppress) {
        void *p = __builtin_va_arg(ap, void *);
        /* As glibc: strtof for a float, strtod for a double. */
        if (len[0] == 'l') *(double *)p = strtod(buf, NULL); else *(float *)p = strtof(buf, NULL);
        count++;
      }
    } else if (conv == 's') {
      char *d = suppress ? NULL : __builtin_va_arg(ap, char *);
      long n = 0;
      while (n < width && C(0) >= 0 && !is_space(C(0))) { if (d) d[n] = (char)*s; s++; n++; }
      if (d) { d[n] = 0; count++; }
    } else if (conv == 'c') {
      char *d = suppress ? NULL : __builtin_va_arg(ap, char *);
      long n = 0;
      while (n < width && C(0) >= 0) { if (d) d[n] = (char)*s; s++; n++; }
      if (n < width) DONE(count ? count : -1);
      if (d) count++;
    } else if (conv == '[') {
      const char *set, *set_end;
      fmt = scanset(fmt, &set, &set_end);
      char *d = suppress ? NULL : __builtin_va_arg(ap, char *);
      long n = 0;
      while (n < width && C(0) >= 0) {
        if (!scanset_member(set, set_end, *s)) break;
        if (d) d[n] = (char)*s;
        s++; n++;
      }
      if (!n) DONE(count);
      if (d) { d[n] = 0; count++; }
    } else {
      __cairn_unsupported("sscanf conversion");
    }
  }
  DONE(count);
}
#undef C
#undef DONE
W int vsscanf(const char *str, const char *fmt, __builtin_va_list ap) {
  const unsigned char *s = (const unsigned char *)str, *stop;
  return scan_text(s, (size_t)-1, 1, fmt, ap, &stop);
}
W int sscanf(const char *str, const char *fmt, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int n = vsscanf(str, fmt, ap);
  __builtin_va_end(ap);
  return n;
}
W int __isoc99_sscanf(const char *str, const char *fmt, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, fmt);
  int n = vsscanf(str, fmt, ap);
  __builtin_va_end(ap);
  return n;
}
W int __isoc99_vsscanf(const char *str, const char *fmt, __builtin_va_list ap) { return vsscanf(str, fmt, ap); }

W int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
W long atol(const char *s) { return strtol(s, NULL, 10); }
W long long atoll(const char *s) { return strtoll(s, NULL, 10); }

/* glibc's classification functions, which the macros of older <math.h> call (preprocessed
 * programs keep the calls): the same results, branch-free, so they add no decision to a path.
 * An unmodelled function's result would be an input, and a replay stubbing it "confirms" runs
 * glibc never makes (__isinf(0.0) == 10). */
#define CAIRN_CLASSIFY(T, SUF, INF, MIN_NORMAL, FABS)                                        \
    W int __isinf##SUF(T x) { return (x == INF) - (x == -INF); }                              \
    W int isinf##SUF(T x) { return __isinf##SUF(x); }                                         \
    W int __isnan##SUF(T x) { return x != x; }                                                \
    W int isnan##SUF(T x) { return x != x; }                                                  \
    W int __finite##SUF(T x) { return x - x == 0; }                                           \
    W int finite##SUF(T x) { return x - x == 0; }                                             \
    /* FP_NAN 0, FP_INFINITE 1, FP_ZERO 2, FP_SUBNORMAL 3, FP_NORMAL 4 */                    \
    W int __fpclassify##SUF(T x) {                                                            \
        T a = FABS(x);                                                                        \
        return (x == x) * (1 + (a < INF) * (1 + (a != 0) * (1 + (a >= MIN_NORMAL))));        \
    }
CAIRN_CLASSIFY(double, , __builtin_inf(), 2.2250738585072014e-308, __builtin_fabs)
CAIRN_CLASSIFY(float, f, __builtin_inff(), 1.17549435e-38f, __builtin_fabsf)
/* glibc's __signbit returns a build's own nonzero value, measured on glibc 2.36: i386's is the
 * x87 status word's C1 bit (0x200), x86-64's the sign byte's top bit (0x80; 8 for a float). */
#if __SIZEOF_POINTER__ == 4
W int __signbit(double x) { return (__builtin_signbit(x) != 0) * 0x200; }
W int __signbitf(float x) { return (__builtin_signbit(x) != 0) * 0x200; }
#else
W int __signbit(double x) { return (__builtin_signbit(x) != 0) * 0x80; }
W int __signbitf(float x) { return (__builtin_signbit(x) != 0) * 0x8; }
#endif

/* The rounding mode: the interpreter computes the program's float operations in it, as the
 * hardware does natively (FE_* values as on x86: 0, 0x400, 0x800, 0xc00). */
extern int __cairn_get_rounding(void);
extern void __cairn_set_rounding(int);
W int fegetround(void) { return __cairn_get_rounding(); }
W int fesetround(int mode) {
    if (mode & ~0xc00)
        return 1; /* not a rounding mode: glibc refuses it */
    __cairn_set_rounding(mode);
    return 0;
}
/* The environment as glibc keeps it on x86 (fenv_t: the x87 control word first, on x86-64 the
 * SSE MXCSR at byte 28), holding the rounding mode; the exception flags are not modelled (the
 * status word reads 0; fetestexcept and kin are unmodelled calls, their results inputs). */
W int fegetenv(void *env) {
    unsigned short *x87 = env;
    int mode = __cairn_get_rounding();
    for (int i = 0; i < (__SIZEOF_POINTER__ == 8 ? 16 : 14); i++)
        x87[i] = 0;
    x87[0] = 0x037f | mode; /* every exception masked, extended precision */
    x87[4] = 0xffff;        /* every register empty */
#if __SIZEOF_POINTER__ == 8
    *(unsigned *)((char *)env + 28) = 0x1f80 | (mode << 3);
#endif
    return 0;
}
W int fesetenv(const void *env) {
    if (env == (const void *)-1) { /* FE_DFL_ENV */
        __cairn_set_rounding(0);
        return 0;
    }
    if (env == (const void *)-2) /* FE_NOMASK_ENV: exceptions trap */
        __cairn_unsupported("fesetenv(FE_NOMASK_ENV): floating-point exceptions that trap");
    __cairn_set_rounding(*(const unsigned short *)env & 0xc00);
    return 0;
}
W int feholdexcept(void *env) { return fegetenv(env); }
W int feupdateenv(const void *env) { return fesetenv(env); }

static void swap_bytes(char *a, char *b, size_t n) { while (n--) { char t = *a; *a++ = *b; *b++ = t; } }
/* glibc's qsort (2.36, msort.c): a top-down merge sort, so the comparator is called on the
 * same pairs in the same order as natively (a program may count or log the calls). */
static void cairn_msort(char *b, size_t n, size_t size, int (*cmp)(const void *, const void *), char *t) {
  if (n <= 1) return;
  size_t n1 = n / 2, n2 = n - n1;
  char *b1 = b, *b2 = b + n1 * size, *tmp = t;
  cairn_msort(b1, n1, size, cmp, t);
  cairn_msort(b2, n2, size, cmp, t);
  while (n1 > 0 && n2 > 0) {
    if (cmp(b1, b2) <= 0) { for (size_t k = 0; k < size; k++) tmp[k] = b1[k]; b1 += size; --n1; }
    else { for (size_t k = 0; k < size; k++) tmp[k] = b2[k]; b2 += size; --n2; }
    tmp += size;
  }
  for (size_t k = 0; k < n1 * size; k++) tmp[k] = b1[k];
  for (size_t k = 0; k < (n - n2) * size; k++) b[k] = t[k];
}
W void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *b = base;
  if (n < 2 || size == 0) return;
  char *tmp = malloc(n * size);
  if (!tmp) { /* fall back to insertion sort (also stable) */
    for (size_t i = 1; i < n; i++)
      for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) swap_bytes(b + (j - 1) * size, b + j * size, size);
    return;
  }
  cairn_msort(b, n, size, cmp, tmp);
  extern void free(void *);
  free(tmp);
}
W void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *p = (const char *)base + mid * size;
    int c = cmp(key, p);
    if (c < 0) hi = mid;
    else if (c > 0) lo = mid + 1;
    else return (void *)p;
  }
  return NULL;
}

/* glibc random(): the additive feedback generator behind rand() (TYPE_3, seed 1 by default). */
static int rand_r_[34 + 310 + 1];
static unsigned int rand_tbl[31];
static int rand_f, rand_r_i, rand_init;
W void srand(unsigned int seed) {
  int r[34];
  if (seed == 0) seed = 1;
  r[0] = (int)seed;
  for (int i = 1; i < 31; i++) {
    long long hi = r[i - 1] / 127773, lo = r[i - 1] % 127773;
    long long word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    r[i] = (int)word;
  }
  for (int i = 0; i < 31; i++) rand_tbl[i] = (unsigned)r[i];
  rand_f = 3; rand_r_i = 0; rand_init = 1;
  for (int i = 0; i < 310; i++) {
    rand_tbl[rand_f] += rand_tbl[rand_r_i];
    if (++rand_f >= 31) rand_f = 0;
    if (++rand_r_i >= 31) rand_r_i = 0;
  }
  (void)rand_r_;
}
W int rand(void) {
  if (!rand_init) srand(1);
  rand_tbl[rand_f] += rand_tbl[rand_r_i];
  int result = (int)(rand_tbl[rand_f] >> 1);
  if (++rand_f >= 31) rand_f = 0;
  if (++rand_r_i >= 31) rand_r_i = 0;
  return result;
}
W long random(void) { return rand(); }

/* ---------------------------------------------------------------- time.h: the calendar */
/* UTC in the C locale, as glibc computes it (fidelity program 42 compares). The clock and
 * local time are the environment's (environment.c, at the end of this file). */
#include <time.h>
extern int snprintf(char *, size_t, const char *, ...);
W double difftime(time_t t1, time_t t0) { return (double)t1 - (double)t0; }
static int is_leap(long long y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }
/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar (m from 1). */
static long long days_from_civil(long long y, int m, int d) {
  y -= m <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
  long long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}
/* The date within a 400-year era (`doe` days into it, which starts on March 1st): 32-bit
 * arithmetic, which the solvers decide far faster than 64-bit divisions. */
static void civil_in_era(unsigned doe, unsigned *yoe, unsigned *doy, unsigned *mp) {
  *yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  *doy = doe - (365 * *yoe + *yoe / 4 - *yoe / 100);
  *mp = (5 * *doy + 2) / 153;
}
W struct tm *gmtime_r(const time_t *t, struct tm *tm) {
  long long s = *t, days, era;
  unsigned rem, doe, yoe, doy, mp;
  if (s >= 951868800 && s - 951868800 <= 0xffffffffLL) {
    /* 2000-03-01 to 2136 (most of the clock's values): 32-bit throughout. */
    unsigned u = (unsigned)(s - 951868800), d = u / 86400;
    rem = u % 86400;
    doe = d;
    days = 11017 + (long long)d;
    era = 5;
  } else {
    days = s / 86400;
    long long r = s % 86400;
    if (r < 0) { r += 86400; days--; }
    rem = (unsigned)r;
    long long z = days + 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = (unsigned)(z - era * 146097);
  }
  civil_in_era(doe, &yoe, &doy, &mp);
  int mon = (int)(mp < 10 ? mp + 3 : mp - 9);
  long long year = (long long)yoe + era * 400 + (mon <= 2);
  if (year - 1900 > INT_MAX || year - 1900 < INT_MIN) { errno = EOVERFLOW; return NULL; }
  tm->tm_year = (int)(year - 1900);
  tm->tm_mon = mon - 1;
  tm->tm_mday = (int)(doy - (153 * mp + 2) / 5 + 1);
  /* Days since January 1st: March 1st is day 59 or 60 of its year. */
  tm->tm_yday = (int)(mp < 10 ? doy + 59 + is_leap(year) : doy - 306);
  tm->tm_wday = (int)((days % 7 + 11) % 7);
  tm->tm_hour = (int)(rem / 3600);
  tm->tm_min = (int)(rem / 60 % 60);
  tm->tm_sec = (int)(rem % 60);
  tm->tm_isdst = 0;
  tm->tm_gmtoff = 0;
  tm->tm_zone = "GMT";
  return tm;
}
W struct tm *gmtime(const time_t *t) { static struct tm tm; return gmtime_r(t, &tm); }
/* Normalizes the fields (a month past 11, a day past the month's end...) as mktime does. */
W time_t timegm(struct tm *tm) {
  long long mon = tm->tm_mon, y = (long long)tm->tm_year + 1900 + mon / 12;
  mon %= 12;
  if (mon < 0) { mon += 12; y--; }
  long long t = (days_from_civil(y, (int)mon + 1, 1) + tm->tm_mday - 1) * 86400 +
                (long long)tm->tm_hour * 3600 + (long long)tm->tm_min * 60 + tm->tm_sec;
  time_t r = (time_t)t;
  struct tm out;
  if (r != t || !gmtime_r(&r, &out)) { errno = EOVERFLOW; return -1; }
  *tm = out;
  return r;
}
static const char *const cairn_days[7] = {"Sunday", "Monday", "Tuesday", "Wednesday",
                                          "Thursday", "Friday", "Saturday"};
static const char *const cairn_months[12] = {"January", "February", "March", "April",
                                             "May", "June", "July", "August", "September",
                                             "October", "November", "December"};
W char *asctime_r(const struct tm *tm, char *buf) {
  if (tm->tm_year > INT_MAX - 1900) { errno = EOVERFLOW; return NULL; }
  int n = snprintf(buf, 26, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n",
                   tm->tm_wday < 0 || tm->tm_wday >= 7 ? "???" : cairn_days[tm->tm_wday],
                   tm->tm_mon < 0 || tm->tm_mon >= 12 ? "???" : cairn_months[tm->tm_mon],
                   tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, 1900 + tm->tm_year);
  if (n < 0) return NULL;
  if (n >= 26) { errno = EOVERFLOW; return NULL; }
  return buf;
}
W char *asctime(const struct tm *tm) { static char buf[114]; return asctime_r(tm, buf); }
/* ISO 8601: the days since the week-based year's first Monday (glibc's iso_week_days). */
static int iso_week_days(int yday, int wday) {
  return yday - (yday - wday + 4 + 378) % 7 + 3;
}
/* The C locale's conversions without flags or widths (another stops the run). */
W size_t strftime(char *s, size_t max, const char *f, const struct tm *tm) {
  size_t n = 0;
  long long year = (long long)tm->tm_year + 1900;
  int h12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
  const char *day = tm->tm_wday < 0 || tm->tm_wday > 6 ? "?" : cairn_days[tm->tm_wday];
  const char *month = tm->tm_mon < 0 || tm->tm_mon > 11 ? "?" : cairn_months[tm->tm_mon];
  for (; *f; f++) {
    char tmp[64];
    const char *piece = tmp;
    if (*f != '%') {
      tmp[0] = *f;
      tmp[1] = 0;
    } else {
      switch (*++f) {
      case 'a': snprintf(tmp, sizeof tmp, "%.3s", day); break;
      case 'A': piece = day; break;
      case 'b': case 'h': snprintf(tmp, sizeof tmp, "%.3s", month); break;
      case 'B': piece = month; break;
      case 'c': strftime(tmp, sizeof tmp, "%a %b %e %H:%M:%S %Y", tm); break;
      case 'C': snprintf(tmp, sizeof tmp, "%lld", year / 100 - (year % 100 < 0)); break;
      case 'd': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mday); break;
      case 'D': case 'x': strftime(tmp, sizeof tmp, "%m/%d/%y", tm); break;
      case 'e': snprintf(tmp, sizeof tmp, "%2d", tm->tm_mday); break;
      case 'F': strftime(tmp, sizeof tmp, "%Y-%m-%d", tm); break;
      case 'g': case 'G': case 'V': {
        long long y = year;
        int days = iso_week_days(tm->tm_yday, tm->tm_wday);
        if (days < 0) {
          y--;
          days = iso_week_days(tm->tm_yday + 365 + is_leap(y), tm->tm_wday);
        } else {
          int d = iso_week_days(tm->tm_yday - 365 - is_leap(y), tm->tm_wday);
          if (d >= 0) { y++; days = d; }
        }
        if (*f == 'g') snprintf(tmp, sizeof tmp, "%02lld", (y % 100 + 100) % 100);
        else if (*f == 'G') snprintf(tmp, sizeof tmp, "%lld", y);
        else snprintf(tmp, sizeof tmp, "%02d", days / 7 + 1);
        break;
      }
      case 'H': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour); break;
      case 'I': snprintf(tmp, sizeof tmp, "%02d", h12); break;
      case 'j': snprintf(tmp, sizeof tmp, "%03d", tm->tm_yday + 1); break;
      case 'k': snprintf(tmp, sizeof tmp, "%2d", tm->tm_hour); break;
      case 'l': snprintf(tmp, sizeof tmp, "%2d", h12); break;
      case 'm': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mon + 1); break;
      case 'M': snprintf(tmp, sizeof tmp, "%02d", tm->tm_min); break;
      case 'n': piece = "\n"; break;
      case 'p': piece = tm->tm_hour >= 12 ? "PM" : "AM"; break;
      case 'P': piece = tm->tm_hour >= 12 ? "pm" : "am"; break;
      case 'r': strftime(tmp, sizeof tmp, "%I:%M:%S %p", tm); break;
      case 'R': strftime(tmp, sizeof tmp, "%H:%M", tm); break;
      case 'S': snprintf(tmp, sizeof tmp, "%02d", tm->tm_sec); break;
      case 't': piece = "\t"; break;
      case 'T': case 'X': strftime(tmp, sizeof tmp, "%H:%M:%S", tm); break;
      case 'u': snprintf(tmp, sizeof tmp, "%d", (tm->tm_wday + 6) % 7 + 1); break;
      case 'U': snprintf(tmp, sizeof tmp, "%02d", (tm->tm_yday - tm->tm_wday + 7) / 7); break;
      case 'w': snprintf(tmp, sizeof tmp, "%d", tm->tm_wday); break;
      case 'W':
        snprintf(tmp, sizeof tmp, "%02d", (tm->tm_yday - (tm->tm_wday - 1 + 7) % 7 + 7) / 7);
        break;
      case 'y': snprintf(tmp, sizeof tmp, "%02lld", (year % 100 + 100) % 100); break;
      case 'Y': snprintf(tmp, sizeof tmp, "%lld", year); break;
      case 'z': {
        long off = tm->tm_gmtoff, a = off < 0 ? -off : off;
        snprintf(tmp, sizeof tmp, "%c%02ld%02ld", off < 0 ? '-' : '+', a / 3600, a / 60 % 60);
        break;
      }
      case 'Z': piece = tm->tm_zone ? tm->tm_zone : ""; break;
      case '%': piece = "%"; break;
      default: __cairn_unsupported("a strftime conversion Cairn does not model (%s, a flag, a width, a locale modifier)");
      }
    }
    size_t len = strlen(piece);
    if (n + len >= max) return 0;
    memcpy(s + n, piece, len);
    n += len;
  }
  s[n] = 0;
  return n;
}
W void srandom(unsigned int s) { srand(s); }

/* glibc's drand48 family: x = (0x5DEECE66D x + 0xB) mod 2^48 from 0x1234ABCD330E. */
static unsigned long long rand48_x = 0x1234ABCD330EULL;
static unsigned long long rand48_next(void) {
  rand48_x = (rand48_x * 0x5DEECE66DULL + 0xB) & 0xFFFFFFFFFFFFULL;
  return rand48_x;
}
W void srand48(long seed) { rand48_x = ((unsigned long long)(unsigned int)seed << 16) | 0x330E; }
W long lrand48(void) { return (long)(rand48_next() >> 17); }
W long mrand48(void) { return (long)(int)(unsigned int)(rand48_next() >> 16); }
W double drand48(void) { return (double)rand48_next() * (1.0 / 281474976710656.0); }

/* atexit handlers run by exit(), last registered first. */
static void (*atexit_fns[32])(void);
static int atexit_n;
W int atexit(void (*f)(void)) {
  if (atexit_n >= 32) return -1;
  atexit_fns[atexit_n++] = f;
  return 0;
}
/* ---------------------------------------------------------------- signals
 * Handlers installed with signal() or sigaction() run when the program raises the signal
 * itself (raise, kill of its own pid); nothing else delivers signals in a test run. */
typedef void (*cairn_handler)(int);
#define CAIRN_NSIG 65
#define CAIRN_SIG_IGN ((cairn_handler)1)
#define CAIRN_SIG_ERR ((cairn_handler)-1)
static cairn_handler sig_handlers[CAIRN_NSIG];
static int sig_flags[CAIRN_NSIG];
extern void __cairn_signal_death(int) __attribute__((noreturn));
extern int __cairn_own_pid(void);
static int sig_settable(int sig) { return sig >= 1 && sig < CAIRN_NSIG && sig != 9 && sig != 19; }
W cairn_handler signal(int sig, cairn_handler h) {
  if (!sig_settable(sig)) { errno = EINVAL; return CAIRN_SIG_ERR; }
  cairn_handler old = sig_handlers[sig];
  sig_handlers[sig] = h;
  sig_flags[sig] = 0;
  return old;
}
/* struct sigaction (glibc, x86): the handler first, then a 128-byte mask, then the flags. */
W int sigaction(int sig, const void *act, void *old) {
  if (!sig_settable(sig) && !(act == 0 && sig >= 1 && sig < CAIRN_NSIG)) { errno = EINVAL; return -1; }
  if (old) {
    *(cairn_handler *)old = sig_handlers[sig];
    *(int *)((char *)old + sizeof(void *) + 128) = sig_flags[sig];
  }
  if (act) {
    sig_handlers[sig] = *(const cairn_handler *)act;
    sig_flags[sig] = *(const int *)((const char *)act + sizeof(void *) + 128);
  }
  return 0;
}
W int raise(int sig) {
  if (sig < 1 || sig >= CAIRN_NSIG) { errno = EINVAL; return -1; }
  cairn_handler h = sig_handlers[sig];
  if (h == CAIRN_SIG_IGN) return 0;
  if (h == 0) {
    /* Default action: SIGCHLD, SIGCONT, SIGURG and SIGWINCH are ignored, the rest kill. */
    if (sig == 17 || sig == 18 || sig == 23 || sig == 28) return 0;
    __cairn_signal_death(sig);
  }
  int flags = sig_flags[sig];
  if (flags & (int)0x80000000) sig_handlers[sig] = 0; /* SA_RESETHAND */
  if (flags & 4) {                                     /* SA_SIGINFO */
    static int info[32];
    info[0] = sig;
    ((void (*)(int, void *, void *))h)(sig, info, 0);
  } else {
    h(sig);
  }
  return 0;
}
W int kill(int pid, int sig) {
  if (pid == 0 || pid == -1 || pid == __cairn_own_pid()) return sig == 0 ? 0 : raise(sig);
  errno = ESRCH;
  return -1;
}

/* ---------------------------------------------------------------- threads
 * A thread runs to completion inside pthread_create, before it returns; joins hand back its
 * result. Interleavings are not explored (Cairn warns when a program starts threads). */
W void exit(int code);
static void *thread_ret[256];
static unsigned long thread_n, thread_cur;
W int pthread_create(unsigned long *t, const void *attr, void *(*fn)(void *), void *arg) {
  (void)attr;
  if (thread_n >= 256) return 11; /* EAGAIN */
  unsigned long id = ++thread_n, outer = thread_cur;
  *t = id + 1;
  thread_cur = id;
  thread_ret[id - 1] = fn(arg);
  thread_cur = outer;
  return 0;
}
W int pthread_join(unsigned long t, void **ret) {
  if (t < 2 || t > thread_n + 1) return 3; /* ESRCH */
  if (ret) *ret = thread_ret[t - 2];
  return 0;
}
W unsigned long pthread_self(void) { return thread_cur + 1; }
W int pthread_equal(unsigned long a, unsigned long b) { return a == b; }
W int pthread_detach(unsigned long t) { (void)t; return 0; }
W void pthread_exit(void *r) {
  (void)r;
  if (thread_cur) __cairn_environment("pthread_exit inside a thread (threads run sequentially)");
  exit(0);
}
W int pthread_attr_init(void *a) { (void)a; return 0; }
W int pthread_attr_destroy(void *a) { (void)a; return 0; }
W int pthread_mutex_init(void *m, const void *a) { (void)m; (void)a; return 0; }
W int pthread_mutex_destroy(void *m) { (void)m; return 0; }
W int pthread_mutex_lock(void *m) { (void)m; return 0; }
W int pthread_mutex_trylock(void *m) { (void)m; return 0; }
W int pthread_mutex_unlock(void *m) { (void)m; return 0; }
W int pthread_cond_wait(void *c, void *m) {
  (void)c; (void)m;
  __cairn_environment("pthread_cond_wait (threads run sequentially)");
}
W int pthread_cond_signal(void *c) { (void)c; return 0; }
W int pthread_cond_broadcast(void *c) { (void)c; return 0; }

/* Inline assembly of systems code (ir::asm_models recognises the idioms, ir::asm_rewrite turns
 * them into calls of these; native builds run the assembly). Values travel zero-extended in 64
 * bits; `bytes` is the operand size. A scan of 0 leaves the destination as it was: the
 * statement's default when it has one, else undefined. A bit test on memory addresses a bit
 * string: a register offset is signed and may leave the word. */
unsigned long long __cairn_asm_scan(unsigned long long x, int highest, int has_default,
                                    unsigned long long if_zero) {
  if (x == 0) {
    if (has_default) return if_zero;
    __cairn_unsupported("bsr or bsf of 0 (the destination keeps an undefined value)");
  }
  return highest ? 63 - __builtin_clzll(x) : __builtin_ctzll(x);
}
/* Unit mode: what a function-pointer parameter points to. A callback's result is an input;
 * its arguments (any number: no prototype) are ignored. */
extern int __cairn_nondet_int(void);
int __cairn_unit_callback() { return __cairn_nondet_int(); }
int __cairn_asm_bit(void *base, long long bit, int op) {
  unsigned char *p = (unsigned char *)base + (bit >> 3);
  unsigned char mask = (unsigned char)(1u << (bit & 7));
  int old = (*p & mask) != 0;
  if (op == 1) *p |= mask;
  else if (op == 2) *p &= (unsigned char)~mask;
  else if (op == 3) *p ^= mask;
  return old;
}
static unsigned long long asm_load(const void *p, int bytes) {
  switch (bytes) {
  case 1: return *(const unsigned char *)p;
  case 2: return *(const unsigned short *)p;
  case 4: return *(const unsigned int *)p;
  default: return *(const unsigned long long *)p;
  }
}
static void asm_store(void *p, int bytes, unsigned long long v) {
  switch (bytes) {
  case 1: *(unsigned char *)p = (unsigned char)v; break;
  case 2: *(unsigned short *)p = (unsigned short)v; break;
  case 4: *(unsigned int *)p = (unsigned int)v; break;
  default: *(unsigned long long *)p = v;
  }
}
static unsigned long long asm_mask(unsigned long long v, int bytes) {
  return bytes >= 8 ? v : v & ((1ULL << (8 * bytes)) - 1);
}
/* add, sub, and, or, xor, inc, dec of memory; the new value. */
unsigned long long __cairn_asm_rmw(void *p, int bytes, int op, unsigned long long src) {
  unsigned long long v = asm_load(p, bytes);
  switch (op) {
  case 0: v += src; break;
  case 1: v -= src; break;
  case 2: v &= src; break;
  case 3: v |= src; break;
  case 4: v ^= src; break;
  case 5: v += 1; break;
  default: v -= 1;
  }
  v = asm_mask(v, bytes);
  asm_store(p, bytes, v);
  return v;
}
unsigned long long __cairn_asm_xchg(void *p, int bytes, unsigned long long v) {
  unsigned long long old = asm_load(p, bytes);
  asm_store(p, bytes, v);
  return old;
}
unsigned long long __cairn_asm_cmpxchg(void *p, int bytes, unsigned long long expected,
                                       unsigned long long desired) {
  unsigned long long old = asm_load(p, bytes);
  if (old == expected) asm_store(p, bytes, desired);
  return old;
}
void __cairn_asm_store(void *p, int bytes, unsigned long long v) { asm_store(p, bytes, v); }
unsigned long long __cairn_asm_bswap(unsigned long long x, int bytes) {
  return __builtin_bswap64(x) >> (64 - 8 * bytes);
}
/* cpuid: register `reg` (eax, ebx, ecx, edx) of the host processor's answer, which native runs
 * on this machine get too; no proof rests on it. */
extern unsigned __cairn_cpuid(unsigned leaf, unsigned subleaf, int reg);
unsigned __cairn_asm_cpuid(unsigned long long leaf, unsigned long long subleaf, int reg) {
  return __cairn_cpuid((unsigned)leaf, (unsigned)subleaf, reg);
}

/* rdtsc, rdtscp and their intrinsics: the interpreter counts a cycle per step of the run, so
 * readings follow from the inputs; natively they are the processor's. No proof rests on them. */
extern unsigned long long __cairn_tsc(void);
unsigned long long __cairn_asm_rdtsc(void) { return __cairn_tsc(); }

/* Constructors and destructors of the program, in native order (bodies made by the front end
 * from llvm.global_ctors / llvm.global_dtors). Destructors run after the atexit handlers, as
 * glibc's _dl_fini, registered before any handler, does. */
extern void __cairn_ctors(void);
extern void __cairn_dtors(void);
W void exit(int code) {
  while (atexit_n > 0) atexit_fns[--atexit_n]();
  __cairn_dtors();
  __cairn_exit(code);
}

/* ---------------------------------------------------------------- argv, files and stdin
 * Command-line arguments and files as inputs, as KLEE's POSIX runtime makes them. The driver
 * sets __cairn_env before a run (`--sym-args MIN MAX LEN`, `--sym-files N SIZE`); the replay
 * harness builds the same argv and files natively from a test's values, in this order: the
 * argument count (MIN + the value modulo MAX - MIN + 1), each argument's LEN bytes, then each
 * file's size (modulo SIZE + 1) and SIZE bytes. */
int __cairn_env[5]; /* fewest arguments, most arguments, bytes per argument, files, file bytes */
extern unsigned char __cairn_nondet_uchar(void);
extern unsigned int __cairn_nondet_uint(void);
extern void __cairn_make_symbolic(void *, size_t, const char *);
extern void *stdin;
extern int __cairn_fgetc(void *);

#define CAIRN_FILES 26
#define CAIRN_STREAMS 16
/* Files the run creates (natively in the test's scratch directory): at most 16 in a run. */
#define CAIRN_WRITTEN 16
/* The input files (symbolic, then read by name), then the files the run wrote, at
 * CAIRN_FILES + their number. */
static unsigned char *file_data[CAIRN_FILES + CAIRN_WRITTEN];
static unsigned int file_size[CAIRN_FILES + CAIRN_WRITTEN];
static int file_count;
/* A stream open on a file, to read or (sink) to write: a FILE * of the program points to one
 * of these. `append` writes at the end; `unflushed` counts the bytes written since the
 * stream's last flush, which natively sit in its buffer. */
struct cairn_stream { int open, file, unget, eof, sink, append; unsigned int pos, unflushed; };
static struct cairn_stream streams[CAIRN_STREAMS];
/* stdin: each character read is an input (-1 for end of input); ungetc pushes one back. */
static int stdin_unget = -1, stdin_eof;
/* A read of stdin after its end. A run that reads there 1,000 times is taken to loop forever
 * on it (a menu that reads its choice until it is "quit", a validation loop that asks again):
 * it ends as if at the step limit; natively it would hang. Each such run is one the search
 * pays for in full: at 10,000 reads a validation loop's runs took half a second each. A
 * program that goes on after 1,000 reads at the end (a table of scanf calls, each failing)
 * is cut too; runs with more input reach past it. */
extern void __cairn_endless_loop(void) __attribute__((noreturn));
static int stdin_reads_at_end;
static int read_at_end(void) {
  if (++stdin_reads_at_end > 1000) __cairn_endless_loop();
  return -1;
}

static char **sym_env(int *argc, char **argv) {
  int lo = __cairn_env[0], hi = __cairn_env[1], len = __cairn_env[2];
  if (hi > 0) {
    /* Every value of the input is a count in range (no run is lost to an assumption). */
    int n = lo + __cairn_nondet_uchar() % (hi - lo + 1);
    /* Sizes and indices from the loop's counter, not from n: a size computed from an input
     * is concretized, and a store at an input-dependent index makes every later read of argv
     * an if-then-else over the array. */
    char **av = malloc(sizeof(char *) * (size_t)(hi + 2));
    av[0] = argv[0];
    int i = 1;
    for (; i <= n; i++) {
      char name[8] = "arg";
      name[3] = (char)('0' + i / 10); name[4] = (char)('0' + i % 10); name[5] = 0;
      av[i] = malloc((size_t)len + 1);
      __cairn_make_symbolic(av[i], (size_t)len, name);
      av[i][len] = 0;
    }
    av[i] = NULL;
    *argc = i;
    argv = av;
  }
  file_count = __cairn_env[3] < CAIRN_FILES ? __cairn_env[3] : CAIRN_FILES;
  for (int f = 0; f < file_count; f++) {
    unsigned int size = __cairn_nondet_uint() % ((unsigned int)__cairn_env[4] + 1);
    char name[2] = { (char)('A' + f), 0 };
    file_data[f] = malloc((size_t)__cairn_env[4] + 1);
    __cairn_make_symbolic(file_data[f], (size_t)__cairn_env[4], name);
    file_data[f][__cairn_env[4]] = 0;
    file_size[f] = size;
  }
  return argv;
}

static struct cairn_stream *sym_stream(void *f) {
  char *p = (char *)f;
  return p >= (char *)streams && p < (char *)(streams + CAIRN_STREAMS) ? (struct cairn_stream *)f : NULL;
}
/* Natively the harness opens "A", "B", ... from the test (fmemopen) and runs nothing else
 * there: another name without a directory does not exist, one with a directory is the host's. */
static void *open_stream(int file, int sink) {
  for (int i = 0; i < CAIRN_STREAMS; i++) {
    if (streams[i].open) continue;
    struct cairn_stream *s = &streams[i];
    s->open = 1; s->file = file; s->unget = -1; s->eof = 0; s->sink = sink; s->append = 0;
    s->pos = 0; s->unflushed = 0;
    return s;
  }
  errno = EMFILE;
  return NULL;
}
/* The number of the symbolic file `name` names, or -1. The number is the loop's counter,
 * never name[0] - 'A': reads through an index computed from an input would be if-then-elses
 * over every file. */
static int symbolic_file(const char *name) {
  for (int f = 0; f < file_count; f++)
    if (name[0] == 'A' + f && name[1] == 0) return f;
  return -1;
}
/* A name in the current directory: the replay runs every test in a fresh, empty one. */
static int local_name(const char *name) {
  return name[0] && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}
static void *open_file(int file) { return open_stream(file, 0); }
/* Files the run created, with what it wrote through stdio (fputc, fputs, fwrite, fprintf),
 * so that reading one back reads it. What a descriptor writes is not kept (`write` has no
 * model): such a file is `opaque`, and a run that reads it back stops. A removed file's name
 * is null. */
static char *written_names[CAIRN_WRITTEN];
static int written_opaque[CAIRN_WRITTEN];
static unsigned int written_cap[CAIRN_WRITTEN];
static int written_count;
/* The number of the file the run wrote under `name`, or -1. */
static int written_file(const char *name) {
  for (int i = 0; i < written_count; i++)
    if (written_names[i] && !strcmp(written_names[i], name)) return i;
  return -1;
}
static int was_written(const char *name) { return written_file(name) >= 0; }
/* Natively a stream's writes sit in its buffer until a flush: a run that opens the file again
 * meanwhile would see less than the interpreter keeps, so it stops. */
static void no_unflushed_writes(int file) {
  for (int i = 0; i < CAIRN_STREAMS; i++)
    if (streams[i].open && streams[i].sink && streams[i].file == file && streams[i].unflushed)
      __cairn_environment("opening a file again while a stream holds unflushed writes to it");
}
/* Opens `name` (local, not symbolic) to write: a sink stream, or null with errno set.
 * `truncate`: "w" (empty from here on); else "a" (kept, written at the end). */
static void *create_file(const char *name, int exclusive, int truncate, int through_fd) {
  int w = written_file(name);
  if (exclusive && w >= 0) { errno = EEXIST; return NULL; }
  if (w < 0) {
    if (written_count == CAIRN_WRITTEN) __cairn_environment("more than 16 files written in a run");
    w = written_count++;
    written_names[w] = strdup(name);
    written_opaque[w] = 0;
    written_cap[w] = 0;
    file_data[CAIRN_FILES + w] = NULL;
    file_size[CAIRN_FILES + w] = 0;
  }
  int file = CAIRN_FILES + w;
  no_unflushed_writes(file);
  if (truncate) file_size[file] = 0;
  written_opaque[w] |= through_fd;
  struct cairn_stream *s = (struct cairn_stream *)__cairn_environment_result((long)open_stream(file, 1));
  if (s) s->append = !truncate;
  return s;
}
/* The stream of the file the run wrote under `name`, opened to read. */
static void *reopen_written(const char *name) {
  int w = written_file(name);
  if (written_opaque[w]) __cairn_environment("reading back a file the run wrote through a descriptor (write has no model)");
  no_unflushed_writes(CAIRN_FILES + w);
  return open_file(CAIRN_FILES + w);
}
/* Appends or overwrites at the stream's position; the file grows up to 1 MiB. */
#define CAIRN_WRITTEN_MAX (1u << 20)
static void put_bytes(struct cairn_stream *s, const unsigned char *p, size_t n) {
  int w = s->file - CAIRN_FILES;
  unsigned int *size = &file_size[s->file];
  if (s->append) s->pos = *size;
  if (n > CAIRN_WRITTEN_MAX - s->pos) __cairn_environment("a file the run wrote grew past 1 MiB");
  unsigned int end = s->pos + (unsigned int)n;
  if (end > written_cap[w]) {
    unsigned int cap = written_cap[w] ? written_cap[w] : 256;
    while (cap < end) cap *= 2;
    file_data[s->file] = realloc(file_data[s->file], cap);
    written_cap[w] = cap;
  }
  unsigned char *data = file_data[s->file];
  for (; *size < s->pos; ++*size) data[*size] = 0; /* after a seek past the end */
  for (size_t k = 0; k < n; k++) data[s->pos + k] = p[k];
  s->pos = end;
  if (end > *size) *size = end;
  s->unflushed += (unsigned int)n;
}
/* A file the program reads by a relative name is an input, as the symbolic files are: at the
 * name's first open in a run, one input says whether it exists (0: absent, as natively in the
 * replay's empty scratch directory), then its size (modulo SIZE + 1) and SIZE bytes, SIZE from
 * --sym-files or CAIRN_NAMED_FILE_SIZE. Later opens of the name find the same file. Natively
 * the harness reads the same values at the same open. */
#define CAIRN_NAMED_FILE_SIZE 128
static char *named_names[CAIRN_FILES];
static int named_count;
/* A relative name of a file, not a directory, that stays inside the current directory: in
 * the replay's empty scratch directory it exists only if the run creates it. */
static int input_name(const char *name) {
  if (!name[0] || name[0] == '/') return 0;
  for (const char *p = name; *p; p++)
    if (p[0] == '.' && p[1] == '.' && (p == name || p[-1] == '/') && (!p[2] || p[2] == '/')) return 0;
  size_t n = strlen(name);
  /* A directory: ".", "x/.", "x/". */
  return name[n - 1] != '/' && !(name[n - 1] == '.' && (n == 1 || name[n - 2] == '/'));
}
/* The file number of the input file `name`, or -1 (errno ENOENT) if it does not exist. */
static int named_file(const char *name) {
  for (int i = 0; i < named_count; i++)
    if (!strcmp(named_names[i], name)) {
      if (file_size[file_count + i] == ~0u) { errno = ENOENT; return -1; }
      return file_count + i;
    }
  if (file_count + named_count == CAIRN_FILES) __cairn_environment("more than 26 files read in a run");
  int f = file_count + named_count;
  named_names[named_count++] = strdup(name);
  if (!(__cairn_nondet_uchar() & 1)) { file_size[f] = ~0u; errno = ENOENT; return -1; }
  unsigned int cap = __cairn_env[4] > 0 ? (unsigned int)__cairn_env[4] : CAIRN_NAMED_FILE_SIZE;
  file_size[f] = __cairn_nondet_uint() % (cap + 1);
  file_data[f] = malloc((size_t)cap + 1);
  __cairn_make_symbolic(file_data[f], (size_t)cap, name);
  file_data[f][cap] = 0;
  return f;
}
/* A relative name inside a subdirectory ("out/x.txt", not "./x.txt"): natively the replay's
 * scratch directory starts empty and the program's mkdir is an unmodelled call there (as it
 * is here), so no subdirectory exists and creating such a file fails. */
static int in_missing_directory(const char *name) {
  if (!input_name(name)) return 0;
  for (const char *p = name, *slash; (slash = strchr(p, '/')); p = slash + 1)
    if (slash - p != 1 || p[0] != '.') return 1;
  return 0;
}
W void *fopen(const char *name, const char *mode) {
  int f = symbolic_file(name);
  if (mode[0] == 'r' && !strchr(mode, '+')) {
    if (f >= 0) return open_file(f);
    if (input_name(name) && !was_written(name)) {
      f = named_file(name);
      return f < 0 ? NULL : open_file(f);
    }
  }
  if (f < 0 && local_name(name)) {
    if ((mode[0] == 'w' || mode[0] == 'a') && !strchr(mode, '+'))
      return create_file(name, strchr(mode, 'x') != NULL, mode[0] == 'w', 0);
    if (mode[0] == 'r' && !strchr(mode, '+')) return reopen_written(name);
  }
  if (f < 0 && in_missing_directory(name)) { errno = ENOENT; return NULL; }
  __cairn_environment("fopen of a file outside the current directory to write, or to read and write");
}
W int fclose(void *f) {
  struct cairn_stream *s = sym_stream(f);
  if (s) s->open = 0;
  return 0;
}
/* Writes: into a file the run wrote, kept; elsewhere the host's (stdout, stderr), through the
 * models, whose results are known here (a model's result taken would count as a value the
 * shadow cannot follow when the data is symbolic). */
extern int __cairn_fputc(int, void *);
extern int __cairn_fputs(const char *, void *);
extern size_t __cairn_fwrite(const void *, size_t, size_t, void *);
extern int __cairn_vfprintf(void *, const char *, __builtin_va_list);
extern int __cairn_fflush(void *);
/* The stream `f` if it is one of a file: writing one opened to read fails, as natively. */
static struct cairn_stream *write_stream(void *f, int *failed) {
  struct cairn_stream *s = sym_stream(f);
  *failed = s && !s->sink;
  if (*failed) errno = EBADF;
  return s;
}
W int fputc(int c, void *f) {
  int failed;
  struct cairn_stream *s = write_stream(f, &failed);
  if (!s) { __cairn_fputc(c, f); return (unsigned char)c; } /* its model's result */
  if (failed) return -1;
  unsigned char b = (unsigned char)c;
  put_bytes(s, &b, 1);
  return b;
}
W int putc(int c, void *f) { return fputc(c, f); }
W int _IO_putc(int c, void *f) { return fputc(c, f); }
W int fputc_unlocked(int c, void *f) { return fputc(c, f); }
W int putc_unlocked(int c, void *f) { return fputc(c, f); }
W int fputs(const char *str, void *f) {
  int failed;
  struct cairn_stream *s = write_stream(f, &failed);
  if (!s) { __cairn_fputs(str, f); return 1; }
  if (failed) return -1;
  put_bytes(s, (const unsigned char *)str, strlen(str));
  return 1;
}
W int fputs_unlocked(const char *str, void *f) { return fputs(str, f); }
W size_t fwrite(const void *p, size_t size, size_t n, void *f) {
  int failed;
  struct cairn_stream *s = write_stream(f, &failed);
  if (!s) { __cairn_fwrite(p, size, n, f); return n; }
  if (failed || !size || !n) return 0;
  put_bytes(s, (const unsigned char *)p, size * n);
  return n;
}
W size_t fwrite_unlocked(const void *p, size_t size, size_t n, void *f) { return fwrite(p, size, n, f); }
W int vfprintf(void *f, const char *fmt, __builtin_va_list ap) {
  int failed;
  struct cairn_stream *s = write_stream(f, &failed);
  if (!s) return __cairn_vfprintf(f, fmt, ap);
  if (failed) return -1;
  __builtin_va_list again;
  __builtin_va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, again);
  __builtin_va_end(again);
  if (n < 0) return n;
  char *text = malloc((size_t)n + 1);
  vsnprintf(text, (size_t)n + 1, fmt, ap);
  put_bytes(s, (const unsigned char *)text, (size_t)n);
  free(text);
  return n;
}
W int fprintf(void *f, const char *fmt, ...) {
  __builtin_va_list ap; __builtin_va_start(ap, fmt);
  int n = vfprintf(f, fmt, ap);
  __builtin_va_end(ap);
  return n;
}
W int fflush(void *f) {
  struct cairn_stream *s = sym_stream(f);
  if (s) { s->unflushed = 0; return 0; }
  if (!f)
    for (int i = 0; i < CAIRN_STREAMS; i++) streams[i].unflushed = 0;
  __cairn_fflush(f);
  return 0;
}
/* Positions in a file's stream: glibc's fseek, ftell and rewind on it (natively an fmemopen
 * stream or a file of the scratch directory). A stream of the host has none here. */
W int fseek(void *f, long off, int whence) {
  struct cairn_stream *s = sym_stream(f);
  if (!s) __cairn_environment("fseek on a stream other than a file the run opened");
  long base = whence == 0 ? 0 : whence == 1 ? (long)s->pos : whence == 2 ? (long)file_size[s->file] : -1;
  if (base < 0 || base + off < 0) { errno = EINVAL; return -1; }
  if (s->sink) s->unflushed = 0; /* glibc flushes before it moves */
  s->pos = (unsigned int)(base + off);
  s->unget = -1;
  s->eof = 0;
  return 0;
}
W int fseeko(void *f, long off, int whence) { return fseek(f, off, whence); }
W int fseeko64(void *f, long off, int whence) { return fseek(f, off, whence); }
W long ftell(void *f) {
  struct cairn_stream *s = sym_stream(f);
  if (!s) __cairn_environment("ftell on a stream other than a file the run opened");
  if (s->append) return (long)file_size[s->file];
  return (long)s->pos - (s->unget >= 0);
}
W long ftello(void *f) { return ftell(f); }
W long ftello64(void *f) { return ftell(f); }
W void rewind(void *f) { fseek(f, 0, 0); }
/* Removing a file the run wrote; any other name in the current directory does not exist
 * natively (the replay's scratch directory starts empty; input files are served, not
 * created). */
W int remove(const char *name) {
  int w = written_file(name);
  if (w < 0 && !local_name(name)) __cairn_environment("removing a file outside the current directory");
  if (w < 0) { errno = ENOENT; return -1; }
  free(written_names[w]);
  written_names[w] = NULL;
  return 0;
}
W int unlink(const char *name) { return remove(name); }
/* open/read/close on the symbolic files: a descriptor is 3 plus its stream's index (natively
 * the harness opens a memfd holding the file's bytes: 3 is the first free descriptor). */
#define CAIRN_FD_BASE 3
static struct cairn_stream *sym_fd(int fd) {
  int i = fd - CAIRN_FD_BASE;
  return i >= 0 && i < CAIRN_STREAMS && streams[i].open ? &streams[i] : NULL;
}
#define CAIRN_O_WRONLY 01 /* Linux's values, on every architecture Cairn runs */
#define CAIRN_O_CREAT 0100
#define CAIRN_O_EXCL 0200
#define CAIRN_O_TRUNC 01000
static int stream_fd(struct cairn_stream *s) { return s ? CAIRN_FD_BASE + (int)(s - streams) : -1; }
W int open(const char *name, int flags, ...) {
  int f = symbolic_file(name), access = flags & 3;
  if (access == 0) {
    if (f >= 0) return stream_fd(open_file(f));
    if (input_name(name) && !was_written(name)) {
      f = named_file(name);
      return f < 0 ? -1 : stream_fd(open_file(f));
    }
  }
  if (f < 0 && local_name(name)) {
    int written = was_written(name);
    if (access == CAIRN_O_WRONLY) {
      if (!written && !(flags & CAIRN_O_CREAT)) { errno = ENOENT; return -1; }
      return stream_fd(create_file(name, (flags & CAIRN_O_EXCL) != 0, (flags & CAIRN_O_TRUNC) != 0, 1));
    }
    if (access == 0 && written) return stream_fd(reopen_written(name));
  }
  if (f < 0 && in_missing_directory(name)) { errno = ENOENT; return -1; }
  __cairn_environment("open of a file outside the current directory to write, or to read and write");
}
W int open64(const char *name, int flags, ...) { return open(name, flags); }
W int creat(const char *name, unsigned mode) { (void)mode; return open(name, CAIRN_O_WRONLY | CAIRN_O_CREAT); }
W long read(int fd, void *buf, size_t n) {
  struct cairn_stream *s = sym_fd(fd);
  if (!s || s->sink) {
    if (fd >= 0 && fd <= 2) __cairn_environment("read from a standard descriptor (stdin is read by getchar, fgets, fread, scanf)");
    errno = EBADF;
    return -1;
  }
  size_t k = 0;
  for (; k < n && s->pos < file_size[s->file]; k++) ((unsigned char *)buf)[k] = file_data[s->file][s->pos++];
  return (long)k;
}
W int close(int fd) {
  struct cairn_stream *s = sym_fd(fd);
  if (s) { s->open = 0; return 0; }
  if (fd >= 0 && fd <= 2) return 0;
  errno = EBADF;
  return -1;
}
W int fgetc(void *f) {
  struct cairn_stream *s = sym_stream(f);
  if (s && s->sink) { errno = EBADF; return -1; } /* opened to write only */
  if (s) {
    if (s->unget >= 0) { int c = s->unget; s->unget = -1; return c; }
    if (s->pos >= file_size[s->file]) { s->eof = 1; return -1; }
    return file_data[s->file][s->pos++];
  }
  if (f == stdin && stdin_unget >= 0) { int c = stdin_unget; stdin_unget = -1; return c; }
  if (f == stdin && stdin_eof) return read_at_end(); /* end of input stays the end */
  int c = __cairn_fgetc(f);
  if (c < 0 && f == stdin) stdin_eof = 1;
  return c;
}
W int getc(void *f) { return fgetc(f); }
W int _IO_getc(void *f) { return fgetc(f); }
W int getc_unlocked(void *f) { return fgetc(f); }
W int fgetc_unlocked(void *f) { return fgetc(f); }
W int getchar(void) { return fgetc(stdin); }
W int getchar_unlocked(void) { return fgetc(stdin); }
W int ungetc(int c, void *f) {
  if (c == -1) return -1;
  struct cairn_stream *s = sym_stream(f);
  if (s && !s->sink) { s->unget = (unsigned char)c; s->eof = 0; return (unsigned char)c; }
  if (f == stdin) { stdin_unget = (unsigned char)c; stdin_eof = 0; return (unsigned char)c; }
  __cairn_environment("ungetc on a stream other than stdin or a symbolic file");
}
W char *fgets(char *b, int n, void *f) {
  if (!sym_stream(f) && f != stdin) return NULL; /* no other stream has contents here */
  if (n <= 0) return NULL;
  if (n == 1) { b[0] = 0; return b; } /* as glibc */
  int i = 0;
  while (i < n - 1) {
    int c = fgetc(f);
    if (c < 0) break;
    b[i++] = (char)c;
    if (c == '\n') break;
  }
  if (i == 0) return NULL;
  b[i] = 0;
  return b;
}
/* scanf on stdin: each conversion's value is an input of its type; one more input, read first,
 * says where the call stops (modulo k + 2; 0: every conversion succeeds; j <= k: the j-th
 * fails to match; k + 1: end of input), so every result real input text can give is reachable. */
extern signed char __cairn_nondet_char(void);
extern short __cairn_nondet_short(void);
extern unsigned short __cairn_nondet_ushort(void);
extern int __cairn_nondet_int(void);
extern long __cairn_nondet_long(void);
extern unsigned long __cairn_nondet_ulong(void);
extern long long __cairn_nondet_longlong(void);
extern unsigned long long __cairn_nondet_ulonglong(void);
extern float __cairn_nondet_float(void);
extern double __cairn_nondet_double(void);
/* Bytes from the network are inputs, within recv's contract: -1, or at most `n` bytes (an
 * unmodelled function's result could be any number, and a program that writes a terminator at
 * buf[r] then "overflowed" where no socket lets it). The harness reads the same values. */
#define CAIRN_RECV_BODY                                                                       \
  long r = __cairn_nondet_long();                                                              \
  if (r < 0) { errno = ECONNRESET; return -1; }                                                \
  if ((unsigned long)r > n) r = (long)n;                                                       \
  for (long k = 0; k < r; k++) ((char *)buf)[k] = __cairn_nondet_char();                       \
  return r;
W long recv(int fd, void *buf, size_t n, int flags) { (void)fd; (void)flags; CAIRN_RECV_BODY }
W long recvfrom(int fd, void *buf, size_t n, int flags, void *from, void *fromlen) {
  (void)fd; (void)flags; (void)from; (void)fromlen; CAIRN_RECV_BODY
}
/* The environment is an input: a variable is absent or holds up to 16 input characters, read
 * at the first getenv of its name in a run (later calls return the same value). A run stopped
 * at getenv before (a pointer result without a model). The harness reads the same values. */
static struct { char *name, *value; } cairn_env[16];
static int cairn_env_n;
W char *getenv(const char *name) {
  for (int i = 0; i < cairn_env_n; i++)
    if (!strcmp(cairn_env[i].name, name)) return cairn_env[i].value;
  long r = __cairn_nondet_long();
  char *v = NULL;
  if (r >= 0) {
    if (r > 16) r = 16;
    v = malloc(r + 1);
    for (long k = 0; k < r; k++) v[k] = __cairn_nondet_char();
    v[r] = 0;
  }
  if (cairn_env_n < 16) { cairn_env[cairn_env_n].name = strdup(name); cairn_env[cairn_env_n++].value = v; }
  return v;
}
W char *secure_getenv(const char *name) { return getenv(name); }
static int scan_stdin(const char *fmt, __builtin_va_list ap) {
  if (stdin_eof) return read_at_end();
  int k = 0;
  for (const char *f = fmt; *f; f++)
    if (*f == '%') { if (f[1] == '%') f++; else k++; }
  int stop = __cairn_nondet_uchar() % (k + 2);
  if (stop == k + 1) { stdin_eof = 1; return -1; }
  int ok = stop == 0 ? k : stop - 1, count = 0, i = 0;
  for (const char *f = fmt; *f; ) {
    if (*f++ != '%') continue;
    if (*f == '%') { f++; continue; }
    if (i++ >= ok) break;
    int suppress = 0;
    if (*f == '*') { suppress = 1; f++; }
    unsigned width = 0;
    while (*f >= '0' && *f <= '9') width = width * 10 + (unsigned)(*f++ - '0');
    char len[3] = {0, 0, 0};
    int nl = 0;
    while (*f && strchr("hlLqjzt", *f)) { if (nl < 2) len[nl++] = *f; f++; }
    char c = *f;
    if (!c) break;
    f++;
    int wide = (len[0] == 'l' && len[1] == 'l') || len[0] == 'q' || len[0] == 'j';
    int lng = !wide && (len[0] == 'l' || len[0] == 'z' || len[0] == 't');
    if (c == 'd' || c == 'i') {
      if (len[0] == 'h' && len[1] == 'h') { signed char v = __cairn_nondet_char(); if (!suppress) *__builtin_va_arg(ap, signed char *) = v; }
      else if (len[0] == 'h') { short v = __cairn_nondet_short(); if (!suppress) *__builtin_va_arg(ap, short *) = v; }
      else if (wide) { long long v = __cairn_nondet_longlong(); if (!suppress) *__builtin_va_arg(ap, long long *) = v; }
      else if (lng) { long v = __cairn_nondet_long(); if (!suppress) *__builtin_va_arg(ap, long *) = v; }
      else { int v = __cairn_nondet_int(); if (!suppress) *__builtin_va_arg(ap, int *) = v; }
    } else if (c == 'u' || c == 'x' || c == 'X' || c == 'o') {
      if (len[0] == 'h' && len[1] == 'h') { unsigned char v = __cairn_nondet_uchar(); if (!suppress) *__builtin_va_arg(ap, unsigned char *) = v; }
      else if (len[0] == 'h') { unsigned short v = __cairn_nondet_ushort(); if (!suppress) *__builtin_va_arg(ap, unsigned short *) = v; }
      else if (wide) { unsigned long long v = __cairn_nondet_ulonglong(); if (!suppress) *__builtin_va_arg(ap, unsigned long long *) = v; }
      else if (lng) { unsigned long v = __cairn_nondet_ulong(); if (!suppress) *__builtin_va_arg(ap, unsigned long *) = v; }
      else { unsigned int v = __cairn_nondet_uint(); if (!suppress) *__builtin_va_arg(ap, unsigned int *) = v; }
    } else if (strchr("feEgGaA", c) && len[0] != 'L') {
      if (len[0] == 'l') { double v = __cairn_nondet_double(); if (!suppress) *__builtin_va_arg(ap, double *) = v; }
      else { float v = __cairn_nondet_float(); if (!suppress) *__builtin_va_arg(ap, float *) = v; }
    } else if (c == 'c' && !len[0]) {
      signed char v = __cairn_nondet_char();
      if (!suppress) *__builtin_va_arg(ap, char *) = (char)v;
    } else if (c == 's' && !len[0]) {
      /* A word: its length (1 to the width, or to 32 without one: a longer word than the
       * buffer is the program's overflow), then its characters; a blank or NUL reads as '_'.
       * Stores at the loop's counter, never at the length: a store at an index computed from
       * an input would pin it. */
      unsigned n = 1 + __cairn_nondet_uchar() % (width ? (width < 255 ? width : 255) : 32);
      char *p = suppress ? NULL : __builtin_va_arg(ap, char *);
      for (unsigned j = 0;; j++) {
        if (j == n) { if (p) p[j] = 0; break; }
        int ch = __cairn_nondet_char();
        /* Without a branch: the search should flip the program's comparisons, not these. */
        int blank = (ch == 0) | (ch == ' ') | ((unsigned)(ch - '\t') < 5);
        ch += blank * ('_' - ch);
        if (p) p[j] = (char)ch;
      }
    } else if (c == '[' && !len[0]) {
      /* A scanset (`%[^\n]`, `%[a-z]`): as a word, its length then its characters; one
       * outside the set (or NUL) reads as the set's first member from ' ' on. The replay
       * harness maps them alike. */
      const char *set, *end;
      f = scanset(f, &set, &end);
      int repl = scanset_first(set, end);
      if (repl < 0) __cairn_unsupported("scanf scanset that no character matches");
      unsigned n = 1 + __cairn_nondet_uchar() % (width ? (width < 255 ? width : 255) : 32);
      char *p = suppress ? NULL : __builtin_va_arg(ap, char *);
      for (unsigned j = 0;; j++) {
        if (j == n) { if (p) p[j] = 0; break; }
        int ch = (unsigned char)__cairn_nondet_char();
        int out = 1 - scanset_has(set, end, ch); /* without a branch on ch, as for words */
        ch += out * (repl - ch);
        if (p) p[j] = (char)ch;
      }
    } else {
      __cairn_unsupported("scanf conversion (stdin scanf reads numbers, %c, %s and %[)");
    }
    if (!suppress) count++;
  }
  return count;
}
W int scanf(const char *fmt, ...) {
  __builtin_va_list ap; __builtin_va_start(ap, fmt);
  int n = scan_stdin(fmt, ap);
  __builtin_va_end(ap);
  return n;
}
W int __isoc99_scanf(const char *fmt, ...) {
  __builtin_va_list ap; __builtin_va_start(ap, fmt);
  int n = scan_stdin(fmt, ap);
  __builtin_va_end(ap);
  return n;
}
/* fscanf on a symbolic file scans its bytes as sscanf scans a string (glibc's sscanf is its
 * vfscanf on a string stream); natively it is glibc's on the fmemopen stream. */
static int scan_stream(void *f, const char *fmt, __builtin_va_list ap) {
  struct cairn_stream *st = sym_stream(f);
  if (!st) {
    if (f != stdin) __cairn_environment("fscanf on a stream other than stdin or a symbolic file");
    return scan_stdin(fmt, ap);
  }
  if (st->sink) { errno = EBADF; return -1; }
  const unsigned char *data = file_data[st->file], *stop;
  if (st->unget >= 0) {
    /* Pushed back: the character just read (scanf itself never pushes back another). */
    if (st->pos == 0 || data[st->pos - 1] != st->unget)
      __cairn_unsupported("fscanf after ungetc of a character other than the one read");
    st->pos--;
    st->unget = -1;
  }
  scan_hit_end = 0;
  int n = scan_text(data + st->pos, file_size[st->file] - st->pos, 0, fmt, ap, &stop);
  st->pos = (unsigned int)(stop - data);
  if (scan_hit_end) st->eof = 1;
  return n;
}
W int fscanf(void *f, const char *fmt, ...) {
  __builtin_va_list ap; __builtin_va_start(ap, fmt);
  int n = scan_stream(f, fmt, ap);
  __builtin_va_end(ap);
  return n;
}
W int __isoc99_fscanf(void *f, const char *fmt, ...) {
  __builtin_va_list ap; __builtin_va_start(ap, fmt);
  int n = scan_stream(f, fmt, ap);
  __builtin_va_end(ap);
  return n;
}
W size_t fread(void *p, size_t size, size_t n, void *f) {
  struct cairn_stream *s = sym_stream(f);
  if (!s && f != stdin) __cairn_environment("fread from a stream other than stdin or a symbolic file");
  size_t k = 0, total = size * n;
  for (; k < total; k++) {
    int c = fgetc(f);
    if (c < 0) break;
    ((unsigned char *)p)[k] = (unsigned char)c;
  }
  return size ? k / size : 0;
}
W int feof(void *f) {
  struct cairn_stream *s = sym_stream(f);
  if (s) return s->eof;
  return f == stdin ? stdin_eof : 0;
}
W int ferror(void *f) { (void)f; return 0; }

/* Program start: constructors, then main; returning from main is exit(main's value). */
extern int main(int, char **);
void __cairn_start(int argc, char **argv) {
  __cairn_ctors();
  if (__cairn_env[1] > 0 || __cairn_env[3] > 0) argv = sym_env(&argc, argv);
  exit(main(argc, argv));
}

/* quick_exit: the at_quick_exit handlers in reverse order, then _exit (no atexit handlers, no
 * stdio flush), as glibc does. */
static void (*cairn_quick_exit_fns[32])(void);
static int cairn_quick_exit_n;
W int at_quick_exit(void (*f)(void)) {
  if (cairn_quick_exit_n >= 32) return -1;
  cairn_quick_exit_fns[cairn_quick_exit_n++] = f;
  return 0;
}
W void quick_exit(int status) {
  extern void _exit(int);
  while (cairn_quick_exit_n > 0) cairn_quick_exit_fns[--cairn_quick_exit_n]();
  _exit(status);
}
