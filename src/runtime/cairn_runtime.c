/* Cairn's C runtime: the parts of libc that are best executed as C, linked (weakly) with the
 * program under test. Written in C so that the concolic engine sees through them byte by byte,
 * as KLEE does with its libc. Semantics follow glibc (C locale). Branches in this file are not
 * coverage goals. Primitives that need the host (output, input, memory, exit) are Cairn builtins. */
#include <stddef.h>
#include <limits.h>
#include <errno.h>

#define W __attribute__((weak))

extern void __cairn_exit(int) __attribute__((noreturn));
extern void *malloc(size_t);
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

/* ---------------------------------------------------------------- stdlib.h */
W int abs(int x) { return x < 0 ? -x : x; }
W long labs(long x) { return x < 0 ? -x : x; }
W long long llabs(long long x) { return x < 0 ? -x : x; }
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
/* Parses magnitude into *out (saturating at ULLONG_MAX); returns pointer past the number or NULL. */
static const char *parse_mag(const char *s, int base, unsigned long long *out, int *ovf, int *neg, int *okbase) {
  *neg = 0; *ovf = 0; *okbase = 1;
  while (is_space((unsigned char)*s)) s++;
  if (*s == '-') { *neg = 1; s++; } else if (*s == '+') s++;
  if (base < 0 || base == 1 || base > 36) { *okbase = 0; return NULL; }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_val((unsigned char)s[2]) < 16) {
    s += 2; base = 16;
  } else if (base == 0) base = (s[0] == '0') ? 8 : 10;
  unsigned long long v = 0;
  const char *start = s;
  for (;; s++) {
    int d = digit_val((unsigned char)*s);
    if (d >= base) break;
    if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base) *ovf = 1, v = ULLONG_MAX;
    else v = v * base + d;
  }
  if (s == start) return NULL;
  *out = v;
  return s;
}
W long long strtoll(const char *nptr, char **end, int base) {
  unsigned long long m = 0; int ovf, neg, okb;
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
W long strtol(const char *nptr, char **end, int base) {
  unsigned long long m = 0; int ovf, neg, okb;
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
W int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
W long atol(const char *s) { return strtol(s, NULL, 10); }
W long long atoll(const char *s) { return strtoll(s, NULL, 10); }

/* glibc's qsort is a stable merge sort: equal elements keep their order. */
static void swap_bytes(char *a, char *b, size_t n) { while (n--) { char t = *a; *a++ = *b; *b++ = t; } }
W void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *b = base;
  if (n < 2 || size == 0) return;
  char *tmp = malloc(n * size);
  if (!tmp) { /* fall back to insertion sort (also stable) */
    for (size_t i = 1; i < n; i++)
      for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) swap_bytes(b + (j - 1) * size, b + j * size, size);
    return;
  }
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (cmp(b + i * size, b + j * size) <= 0) { for (size_t t = 0; t < size; t++) tmp[k * size + t] = b[i * size + t]; i++; }
        else { for (size_t t = 0; t < size; t++) tmp[k * size + t] = b[j * size + t]; j++; }
        k++;
      }
      for (; i < mid; i++, k++) for (size_t t = 0; t < size; t++) tmp[k * size + t] = b[i * size + t];
      for (; j < hi; j++, k++) for (size_t t = 0; t < size; t++) tmp[k * size + t] = b[j * size + t];
    }
    for (size_t t = 0; t < n * size; t++) b[t] = tmp[t];
  }
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
W void srandom(unsigned int s) { srand(s); }

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
extern void __cairn_unsupported(const char *) __attribute__((noreturn));
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
  if (thread_cur) __cairn_unsupported("pthread_exit inside a thread (threads run sequentially)");
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
  __cairn_unsupported("pthread_cond_wait (threads run sequentially)");
}
W int pthread_cond_signal(void *c) { (void)c; return 0; }
W int pthread_cond_broadcast(void *c) { (void)c; return 0; }

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

/* Program start: constructors, then main; returning from main is exit(main's value). */
extern int main(int, char **);
void __cairn_start(int argc, char **argv) {
  __cairn_ctors();
  exit(main(argc, argv));
}
