//! `replay/harness.c`: defines the program's input functions so that
//! `cc program.c harness.c && CAIRN_TEST=tests/000001.json ./a.out` replays a test natively.
//! Only functions the program uses and does not define are emitted. External functions Cairn
//! has no model of read their result from the test too, in the order the interpreter did; they
//! are defined under their symbol name (`__asm__`), so no header's prototype can conflict.
//! With argv or files as inputs (and in unit mode) the harness has the `main`: compile the
//! program with `-Dmain=cairn_program_main` (`PROGRAM_MAIN`).

use crate::exec::InputKind;
use crate::exec::env::SymEnv;
use crate::ir::{Module, frontend};

const PRELUDE: &str = r#"/* Cairn replay harness: generated, do not edit.
 * Usage: cc program.c harness.c -o prog && CAIRN_TEST=DIR/tests/000001.json ./prog */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1 /* struct tm's tm_zone under any -std */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The harness's own settings, from the environment itself: the program's `getenv` reads the
 * test's values (as the interpreter's does). */
extern char **environ;
static const char *cairn_setting(const char *name) {
  size_t n = strlen(name);
  for (char **e = environ; e && *e; e++)
    if (!strncmp(*e, name, n) && (*e)[n] == '=') return *e + n + 1;
  return NULL;
}
/* The harness's own file work goes through system calls: the program's `fstat`, `mmap`,
 * `fseek`... may be the harness's stand-ins (an unmodelled one returns the test's next
 * value). A length by lseek, not fstat: the i386 kernel's struct stat is not glibc's. */
static long cairn_file_length(int fd) {
  long n = syscall(SYS_lseek, fd, 0L, SEEK_END);
  return n >= 0 && syscall(SYS_lseek, fd, 0L, SEEK_SET) == 0 ? n : -1;
}
#ifdef SYS_mmap2
#define CAIRN_SYS_MMAP SYS_mmap2 /* i386: SYS_mmap takes its arguments in memory */
#else
#define CAIRN_SYS_MMAP SYS_mmap
#endif

/* The test's values (the file's text, cut in place), allocated at the first read. */
static char **cairn_vals;
/* Per value of a test file: its `"link"` (a lazily linked pointer, `cairn_link_placed`) or
 * NULL, and its index among the file's values (a source build skips some). */
static char **cairn_links;
static int *cairn_jpos;
/* cairn_tail_n: values read past a fuzzing run's own (the fork server's batch tail). */
static int cairn_nvals = -1, cairn_pos, cairn_tail_n;
/* What reads the values now (8: stdin's characters, 16: scanf on stdin, 24: a made-up
 * pointer's block, 32: whether a unit's pointer parameter is NULL; 0: an input call): the
 * fuzzer's reads map carries it with each value's kind, so that the tests of its runs tell
 * these apart as the interpreter's do. */
static __attribute__((unused)) unsigned char cairn_channel;

#ifdef CAIRN_FORKSERVER
/* Cairn's native fuzzing: the values come from a map shared with Cairn (the header, the
 * batch's tail of values every run reads past its own, then one record per run of a batch: the
 * number of values, the record's length, the values), read in order; the run keeps the number
 * read current. A value is binary, not text (parsing text
 * would cost more than many runs): its length in bytes (a word), then its bytes, padded to a
 * word; a number is 8 bytes, as a long long (signed kinds sign-extended) or a double. */
static char *cairn_shared_in, *cairn_cursor, *cairn_tail, *cairn_record;
/* A value of a record with this bit in its length word is a lazily linked pointer (its 8
 * bytes: whether it is non-null, bit 0; its offset, bits 1-31; the index of the value whose
 * block holds it, bits 32-63), the next value its block (`cairn_link_placed`). */
#define CAIRN_LINK_FLAG (1u << 30)
/* Values a run read past the last one read in order (linked pointers, read before the call). */
static int cairn_linked_upto;
#define CAIRN_RECORDS 64
#endif

static void cairn_load(void) {
  if (cairn_nvals >= 0) return;
  cairn_nvals = 0;
#ifdef CAIRN_FORKSERVER
  if (cairn_shared_in) {
    /* The current run's record: header word 7 (the run's data is restored between runs). */
    char *record = cairn_shared_in + CAIRN_RECORDS + ((unsigned *)cairn_shared_in)[7];
    cairn_nvals = (int)((unsigned *)record)[0];
    cairn_cursor = cairn_record = record + 8;
    /* The batch's tail (header words 9 and 10: its count; its end, where the records start),
     * read past the run's own values. */
    cairn_tail_n = (int)((unsigned *)cairn_shared_in)[9];
    cairn_tail = cairn_shared_in + CAIRN_RECORDS;
    return;
  }
#endif
  const char *path = cairn_setting("CAIRN_TEST");
  if (!path) return;
  int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
  long size = fd < 0 ? -1 : cairn_file_length(fd);
  if (size < 0) { perror(path); exit(2); }
  /* The whole file, and every value: a test may hold 100,000 of them (megabytes). */
  size_t cap = (size_t)size + 1, room = 1 << 16, n = 0;
  char *buf = malloc(cap);
  cairn_vals = malloc(room * sizeof *cairn_vals);
  cairn_links = malloc(room * sizeof *cairn_links);
  cairn_jpos = malloc(room * sizeof *cairn_jpos);
  if (!buf || !cairn_vals || !cairn_links || !cairn_jpos) { perror("cairn harness"); exit(2); }
  for (long r; n < cap - 1 && (r = syscall(SYS_read, fd, buf + n, cap - 1 - n)) > 0;) n += (size_t)r;
  syscall(SYS_close, fd);
  buf[n] = 0;
  /* The values are the "value" strings of the test's "inputs", in order: the array is
   * scanned string by string, so a file's name holding `]` or `"value"` is skipped whole.
   * A build from the program's source skips the values of locals read before they are set
   * (`"from":"__cairn_uninitialized...."`): only a build of Cairn's bitcode reads them. */
  char *p = strstr(buf, "\"inputs\"");
  p = p ? strchr(p, '[') : NULL;
  int depth = 0, is_value = 0, is_from = 0, is_link = 0, local = 0, first = 0, json = -1;
  char *link = NULL;
  for (; p && *p; p++) {
    if (*p == '[' || *p == '{') {
      if (++depth == 2) { local = 0; first = cairn_nvals; link = NULL; json++; }
    } else if (*p == ']' || *p == '}') {
#ifndef CAIRN_BITCODE_BUILD
      if (depth == 2 && local) cairn_nvals = first;
#endif
      if (depth == 2 && cairn_nvals > first) cairn_links[first] = link;
      if (--depth == 0) break;
    } else if (*p == '"') {
      char *s = p + 1, *q = s;
      while (*q && *q != '"') q += q[0] == '\\' && q[1] ? 2 : 1;
      if (!*q) break;
      if (is_from) {
        local = !strncmp(s, "__cairn_uninitialized.", 22);
        is_from = 0;
      } else if (is_link) {
        *q = 0;
        link = s;
        is_link = 0;
      } else if (is_value) {
        *q = 0;
        if ((size_t)cairn_nvals == room) {
          room *= 2;
          cairn_vals = realloc(cairn_vals, room * sizeof *cairn_vals);
          cairn_links = realloc(cairn_links, room * sizeof *cairn_links);
          cairn_jpos = realloc(cairn_jpos, room * sizeof *cairn_jpos);
          if (!cairn_vals || !cairn_links || !cairn_jpos) { perror("cairn harness"); exit(2); }
        }
        cairn_links[cairn_nvals] = NULL;
        cairn_jpos[cairn_nvals] = json;
        cairn_vals[cairn_nvals++] = s;
        is_value = 0;
      } else {
        char *c = q + 1;
        while (*c == ' ' || *c == '\n' || *c == '\r' || *c == '\t') c++;
        is_value = *c == ':' && q - s == 5 && !strncmp(s, "value", 5);
        is_from = *c == ':' && q - s == 4 && !strncmp(s, "from", 4);
        is_link = *c == ':' && q - s == 4 && !strncmp(s, "link", 4);
      }
      p = q;
    }
  }
}

#ifdef CAIRN_FORKSERVER
/* A fuzzing run that reads this many values past its own ends there, flagged (4): a program
 * that never ends (a reactive loop) would otherwise spend every run's time limit on zeros. */
#define CAIRN_MAX_MISSING 1000
void __cairn_exit(int);
#endif

/* A hex digit's value, -1 for another character. */
static int cairn_nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 32;
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* `n` bytes at `dst` from hex text, two digits each, 0 past its end: what sscanf's "%2x"
 * byte by byte read from the digits Cairn writes, at a fraction of its cost
 * (klee_make_symbolic's objects, buffers). */
static __attribute__((unused)) void cairn_unhex(const char *h, void *dst, unsigned long n) {
  for (unsigned long k = 0; k < n; k++) {
    int v = 0;
    if (h[0] && h[1]) {
      int hi = cairn_nibble(h[0]), lo = cairn_nibble(h[1]);
      v = hi < 0 ? 0 : lo < 0 ? hi : hi << 4 | lo;
      h += 2;
    }
    ((unsigned char *)dst)[k] = (unsigned char)v;
  }
}

/* Test text: a number, or (another tool's test in the common replay format, `replay
 * --tests-from`) `hex:` and its bytes, little-endian; the caller's cast keeps the scalar's own. */
static __attribute__((unused)) int cairn_is_hex(const char *s) { return !strncmp(s, "hex:", 4); }
static __attribute__((unused)) unsigned long long cairn_hex_word(const char *s) {
  unsigned long long w = 0;
  cairn_unhex(s + 4, &w, sizeof w);
  return w;
}

/* The next value's text (of a test file); linked pointers and their blocks are
 * `cairn_link_placed`'s. */
static const char *cairn_next(void) {
  cairn_load();
  while (cairn_pos < cairn_nvals && cairn_links && cairn_links[cairn_pos]) cairn_pos += 2;
  if (cairn_pos < cairn_nvals) return cairn_vals[cairn_pos++];
  cairn_pos++;
  return "0";
}

#ifdef CAIRN_FORKSERVER
/* In fuzzing, the next value's bytes (`*len` of them; none past the run's values), read as
 * `how` (1: an unsigned number, 2: a signed one, 3: a double, 4: bytes, 0: skipped; or'd
 * with `cairn_channel`): the reads map (header words 11, 12: where, how many values) tells
 * Cairn, which spells the value in the run's test as it was read (a number read as bytes is
 * its 8 bytes in binary, but its text would read as hex). */
static __attribute__((unused)) void cairn_mark_read(int i, unsigned char how) {
  unsigned reads_at = ((unsigned *)cairn_shared_in)[11];
  if (reads_at && (unsigned)i < ((unsigned *)cairn_shared_in)[12])
    ((unsigned char *)cairn_shared_in)[reads_at + i] = how;
}
static const unsigned char *cairn_take(unsigned *len, unsigned char how) {
  cairn_load();
  /* Linked pointers and their blocks are `cairn_link_placed`'s. */
  while (cairn_pos + 1 < cairn_nvals && (*(unsigned *)cairn_cursor & CAIRN_LINK_FLAG)) {
    for (int k = 0; k < 2; k++) {
      unsigned n = *(unsigned *)cairn_cursor & ~CAIRN_LINK_FLAG;
      cairn_cursor += 4 + ((n + 3) & ~3u);
    }
    cairn_pos += 2;
  }
  ++cairn_pos;
  ((unsigned *)cairn_shared_in)[1] = (unsigned)(cairn_pos > cairn_linked_upto ? cairn_pos : cairn_linked_upto);
  if (cairn_pos > cairn_nvals + cairn_tail_n + CAIRN_MAX_MISSING) {
    ((unsigned *)cairn_shared_in)[4] |= 4;
    __cairn_exit(0);
  }
  unsigned reads_at = ((unsigned *)cairn_shared_in)[11];
  if (reads_at && (unsigned)cairn_pos <= ((unsigned *)cairn_shared_in)[12])
    ((unsigned char *)cairn_shared_in)[reads_at + cairn_pos - 1] = how | cairn_channel;
  *len = 0;
  if (cairn_pos == cairn_nvals + 1) cairn_cursor = cairn_tail;
  if (cairn_pos > cairn_nvals + cairn_tail_n) return NULL;
  memcpy(len, cairn_cursor, 4);
  *len &= ~CAIRN_LINK_FLAG;
  const unsigned char *v = (const unsigned char *)cairn_cursor + 4;
  cairn_cursor += 4 + ((*len + 3) & ~3u);
  return v;
}
/* A number's 8 bytes (fewer: zero-extended). */
static unsigned long long cairn_word(unsigned char how) {
  unsigned len;
  const unsigned char *v = cairn_take(&len, how);
  unsigned long long w = 0;
  if (v) memcpy(&w, v, len < 8 ? len : 8);
  return w;
}
#define CAIRN_BINARY (cairn_shared_in != NULL)
#else
#define CAIRN_BINARY 0
static unsigned long long cairn_word(unsigned char how) { (void)how; return 0; }
static const unsigned char *cairn_take(unsigned *len, unsigned char how) {
  (void)how; *len = 0; return NULL;
}
#endif

/* Where each value's bytes were placed (by its index), and how many: the blocks linked
 * pointers go into (`cairn_link_placed`). */
static unsigned char **cairn_placed;
static unsigned long *cairn_placed_len;
static int cairn_placed_room;
static void cairn_place(int i, void *dst, unsigned long n) {
  if (i < 0) return;
  if (i >= cairn_placed_room) {
    int room = 2 * i + 16;
    cairn_placed = realloc(cairn_placed, room * sizeof *cairn_placed);
    cairn_placed_len = realloc(cairn_placed_len, room * sizeof *cairn_placed_len);
    if (!cairn_placed || !cairn_placed_len) { perror("cairn harness"); exit(2); }
    memset(cairn_placed + cairn_placed_room, 0, (room - cairn_placed_room) * sizeof *cairn_placed);
    cairn_placed_room = room;
  }
  cairn_placed[i] = dst;
  cairn_placed_len[i] = n;
}

/* `n` bytes at `dst` from the next value (0 past its end). */
static __attribute__((unused)) void cairn_bytes(void *dst, unsigned long n) {
  if (!CAIRN_BINARY) {
    const char *h = cairn_next();
    cairn_unhex(h + 4 * cairn_is_hex(h), dst, n);
    cairn_place(cairn_pos - 1, dst, n);
    return;
  }
  unsigned len;
  const unsigned char *v = cairn_take(&len, 4);
  unsigned long have = v ? (len < n ? len : n) : 0;
  if (have) memcpy(dst, v, have);
  memset((unsigned char *)dst + have, 0, n - have);
  cairn_place(cairn_pos - 1, dst, n);
}

/* The pointers the interpreter linked lazily when the run first loaded them (`exec::links`),
 * linked here once the block holding each is placed: before the call (a parameter's buffer,
 * a struct passed by value, a global), or when a made-up block is. Each link value says
 * whether the pointer is null and where it is (the value whose block holds it, an offset
 * there); the next value is the bytes of its block, as long as the one holding it and at
 * least `n`, the last one NUL. */
static unsigned char *cairn_linked;
/* Link values not linked yet (-1: not counted): most tests have none, and a program calling a
 * made-up function in a loop should not scan its values at every call. */
static int cairn_links_left = -1;
static __attribute__((unused)) void cairn_link_placed(unsigned long n) {
  if (cairn_links_left == 0) return;
  cairn_load();
  int left = 0;
  if (!cairn_linked) cairn_linked = calloc((size_t)cairn_nvals + 1, 1);
  if (!cairn_linked) { perror("cairn harness"); exit(2); }
#ifdef CAIRN_FORKSERVER
  const char *at = cairn_record;
#endif
  for (int i = 0; i < cairn_nvals; i++) {
    long parent = -1, off = -1;
    int nonnull = 0;
    const unsigned char *bytes = NULL;
    unsigned long len = 0;
    const char *hex = "";
    if (CAIRN_BINARY) {
#ifdef CAIRN_FORKSERVER
      unsigned word = *(const unsigned *)at;
      const char *value = at + 4;
      at += 4 + (((word & ~CAIRN_LINK_FLAG) + 3) & ~3u);
      if (!(word & CAIRN_LINK_FLAG) || i + 1 >= cairn_nvals) continue;
      unsigned long long w;
      memcpy(&w, value, 8);
      nonnull = (int)(w & 1);
      off = (long)((w >> 1) & 0x7fffffff);
      parent = (long)(w >> 32);
      len = *(const unsigned *)at & ~CAIRN_LINK_FLAG;
      bytes = (const unsigned char *)at + 4;
#endif
    } else {
      if (!cairn_links || !cairn_links[i]) continue;
      char *e;
      long json = strtol(cairn_links[i], &e, 10);
      if (*e == '+') off = strtol(e + 1, NULL, 10);
      /* The value at file index `json`: file indices ascend, so a binary search finds it. */
      for (int lo = 0, hi = i; lo < hi && parent < 0;) {
        int mid = lo + (hi - lo) / 2;
        if (cairn_jpos[mid] == json) parent = mid;
        else if (cairn_jpos[mid] < json) lo = mid + 1;
        else hi = mid;
      }
      nonnull = strtoll(cairn_vals[i], NULL, 10) != 0;
      if (i + 1 < cairn_nvals) hex = cairn_vals[i + 1];
    }
    if (cairn_linked[i]) continue;
    if (parent < 0 || parent >= i || parent >= cairn_placed_room || !cairn_placed[parent] ||
        off < 0 || (unsigned long)off + sizeof(void *) > cairn_placed_len[parent]) {
      left++;
      continue;
    }
    cairn_linked[i] = 1;
#ifdef CAIRN_FORKSERVER
    if (CAIRN_BINARY) {
      cairn_mark_read(i, 1);
      cairn_mark_read(i + 1, 4);
      if (i + 2 > cairn_linked_upto) cairn_linked_upto = i + 2;
    }
#endif
    unsigned long size = cairn_placed_len[parent] > n ? cairn_placed_len[parent] : n;
    unsigned char *block = NULL;
    if (nonnull) {
      block = malloc(size);
      if (!block) { perror("cairn harness"); exit(2); }
      if (bytes) {
        memcpy(block, bytes, len < size ? len : size);
        if (len < size) memset(block + len, 0, size - len);
      } else {
        cairn_unhex(hex + 4 * cairn_is_hex(hex), block, size);
      }
      block[size - 1] = 0;
      cairn_place(i + 1, block, size);
    }
    memcpy(cairn_placed[parent] + off, &block, sizeof block);
  }
  cairn_links_left = left;
#ifdef CAIRN_FORKSERVER
  /* The run read the values it linked (its test keeps them). */
  if (CAIRN_BINARY && (unsigned)cairn_linked_upto > ((unsigned *)cairn_shared_in)[1])
    ((unsigned *)cairn_shared_in)[1] = (unsigned)cairn_linked_upto;
#endif
}
/* Skips the next value (counting it read). */
static __attribute__((unused)) void cairn_skip(void) {
  unsigned len;
  if (CAIRN_BINARY) (void)cairn_take(&len, 0);
  else (void)cairn_next();
}

#ifdef CAIRN_FORKSERVER
/* Cairn's native fuzzing. `main` starts, after the program's constructors, a process that
 * runs the program up to 10,000 times (AFL's persistent mode): it waits for a request on fd 198,
 * runs the program on each record of a batch until one reaches a new hit-count bucket (or
 * aborts, or the batch ends), writes that run's status on fd 199, and restores the executable's
 * writable data (.data and .bss as they were before the first run) before each run; the
 * program's exit (renamed to __cairn_exit in the build) returns to the loop. `main` itself
 * waits for that process and, when it dies during a run (a crash, a kill at the time limit),
 * writes the run's status, then starts the next one. The maps (inputs, goal hit counts, the
 * buckets Cairn has seen) are set up once and inherited. The loops make their own system
 * calls: the program or the harness may define `read`, `write` or `kill`. Header of the inputs
 * map, in words: the batch's size, the number of values the run read, the running process's
 * pid, whether it waits between runs, how the run ended (1: at a failed assumption; 2: at
 * abort; 4: out of values, see CAIRN_MAX_MISSING), the index of the run (the one reported), the index to start at, the offset of the
 * run's record, whether a run that aborts ends the batch; word 13: the CPU time (ns) of the
 * batch's runs; word 14: the runner's CPU time (µs) when the batch started. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern void __cairn_probe_init(void);
/* The program's main or the harness's, by its symbol: their C types differ. */
#define CAIRN_STR2(x) #x
#define CAIRN_STR(x) CAIRN_STR2(x)
extern int cairn_entry(int, char **, char **) __asm__(CAIRN_STR(CAIRN_ENTRY));
extern char __data_start[], _end[];
static jmp_buf *cairn_run_end;
static volatile int cairn_exit_code;
void __cairn_exit(int code) {
  if (cairn_run_end) { cairn_exit_code = code; longjmp(*cairn_run_end, 1); }
  _exit(code);
}
/* abort and a failed assert end the run as a signal would, without ending the process. */
void __cairn_abort(void) {
  if (cairn_run_end) { ((unsigned *)cairn_shared_in)[4] |= 2; __cairn_exit(134); }
  raise(SIGABRT);
  _exit(134);
}
void __cairn_assert_fail(const char *a, const char *f, unsigned l, const char *fn) {
  (void)a; (void)f; (void)l; (void)fn;
  __cairn_abort();
}
/* Writable data up to this size is restored between runs; past it, a process per run. */
#define CAIRN_MAX_SNAPSHOT (8 << 20)
/* A process runs batches until this many runs (a fork and its page faults cost as much as a
 * thousand short runs), or until its runs leaked what the restore does not give back: heap
 * past this many bytes, or a descriptor (later runs would see allocations fail at the memory
 * limit, or descriptors run out, where a fresh process does not). */
#define CAIRN_RUNS_PER_PROCESS 10000
#define CAIRN_MAX_LEAKED_HEAP (16ul << 20)
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#include <malloc.h>
static unsigned long cairn_heap(void) {
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}
#else
static unsigned long cairn_heap(void) { return (unsigned long)syscall(SYS_brk, 0L); }
#endif
/* The lowest free descriptor (a run that leaked one moves it). */
static long cairn_free_descriptor(void) {
  long fd = syscall(SYS_fcntl, 198, F_DUPFD, 0L);
  if (fd >= 0) syscall(SYS_close, fd);
  return fd;
}
extern unsigned char *__cairn_probe_map(unsigned long *);
/* Per goal, the hit-count buckets some run reached (Cairn's, mapped read-only): a run that
 * reaches a new one ends its batch, so Cairn sees its hits. Without it every run is new. */
static const unsigned char *cairn_seen;
static unsigned char cairn_bucket(unsigned char n) {
  return n <= 2 ? n : n == 3 ? 4 : n <= 7 ? 8 : n <= 15 ? 16 : n <= 31 ? 32 : n <= 127 ? 64 : 128;
}
static int cairn_novel(const unsigned char *hits, unsigned long n) {
  if (!cairn_seen || !hits) return 1;
  unsigned long i = 0;
  /* Most goals are not hit in a run: skip them eight at a time. */
  for (; i + 8 <= n; i += 8) {
    unsigned long long w;
    memcpy(&w, hits + i, 8);
    if (!w) continue;
    for (unsigned long j = i; j < i + 8; j++)
      if (cairn_bucket(hits[j]) & ~cairn_seen[j]) return 1;
  }
  for (; i < n; i++)
    if (cairn_bucket(hits[i]) & ~cairn_seen[i]) return 1;
  return 0;
}
#ifdef CAIRN_RUN_DIR
/* Every run starts in an empty directory ("run" in the scratch directory), as each replay run
 * does in a fresh one: what a run created there would otherwise decide a later run's fopen,
 * and that run's claims would not replay. Built in only for programs that can create files. */
static int cairn_run_dir = -1;
struct cairn_dirent { unsigned long long ino; long long off; unsigned short reclen; unsigned char type; char name[]; };
static void cairn_clear_dir(int dir, int depth) {
  char buf[4096];
  long n;
  syscall(SYS_lseek, dir, 0L, SEEK_SET);
  while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0)
    for (long at = 0; at < n;) {
      struct cairn_dirent *d = (struct cairn_dirent *)(buf + at);
      at += d->reclen;
      if (d->name[0] == '.' && (!d->name[1] || (d->name[1] == '.' && !d->name[2]))) continue;
      if (syscall(SYS_unlinkat, dir, d->name, 0) == 0 || depth > 16) continue;
      int sub = (int)syscall(SYS_openat, dir, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      if (sub >= 0) { cairn_clear_dir(sub, depth + 1); close(sub); }
      syscall(SYS_unlinkat, dir, d->name, AT_REMOVEDIR);
    }
}
/* Opened by the server before it snapshots the program's data (where this variable lives):
 * opened by a run, it would be forgotten with the run's data, and the next run would make
 * "run" inside it — one level deeper per run, and a descriptor more. */
static void cairn_open_run_dir(void) {
  syscall(SYS_mkdirat, AT_FDCWD, "run", 0700);
  cairn_run_dir = (int)syscall(SYS_openat, AT_FDCWD, "run", O_RDONLY | O_DIRECTORY);
}
static void cairn_fresh_run_dir(void) {
  if (cairn_run_dir < 0) return;
  cairn_clear_dir(cairn_run_dir, 0);
  syscall(SYS_fchdir, cairn_run_dir);
}
#else
static void cairn_open_run_dir(void) {}
static void cairn_fresh_run_dir(void) {}
#endif
static unsigned cairn_record_size(unsigned at) {
  unsigned len = ((unsigned *)(cairn_shared_in + CAIRN_RECORDS + at))[1];
  return 8 + ((len + 3) & ~3u);
}
int cairn_fuzz_main(int argc, char **argv, char **envp) __asm__("main");
int cairn_fuzz_main(int argc, char **argv, char **envp) {
  const char *in = cairn_setting("CAIRN_INPUTS");
  if (!in) return cairn_entry(argc, argv, envp);
  int fd = (int)syscall(SYS_openat, AT_FDCWD, in, O_RDWR);
  long in_size = fd < 0 ? -1 : cairn_file_length(fd);
  if (in_size <= 0) _exit(70);
  void *m = (void *)syscall(CAIRN_SYS_MMAP, 0, (unsigned long)in_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
  if (m == MAP_FAILED) _exit(70);
  syscall(SYS_close, fd);
  cairn_shared_in = m;
  volatile unsigned *header = m;
  const char *seen = cairn_setting("CAIRN_SEEN");
  int sfd = seen ? (int)syscall(SYS_openat, AT_FDCWD, seen, O_RDONLY) : -1;
  long seen_size = sfd >= 0 ? cairn_file_length(sfd) : -1;
  if (seen_size > 0) {
    void *sm = (void *)syscall(CAIRN_SYS_MMAP, 0, (unsigned long)seen_size, PROT_READ, MAP_SHARED, sfd, 0L);
    if (sm != MAP_FAILED) cairn_seen = sm;
  }
  if (sfd >= 0) syscall(SYS_close, sfd);
  __cairn_probe_init();
  /* The program's stderr goes nowhere (Cairn gives the server /dev/null): buffered, a message
   * per run (reach_error's) is not a system call per run. */
  setvbuf(stderr, NULL, _IOFBF, 1 << 16);
  jmp_buf end;
  cairn_run_end = &end;
  cairn_open_run_dir();
  size_t size = (size_t)(_end - __data_start);
  int persistent = size <= CAIRN_MAX_SNAPSHOT && !cairn_setting("CAIRN_FORK_EACH_RUN");
  char *snapshot = persistent ? malloc(size) : NULL;
  if (!snapshot) persistent = 0;
  else memcpy(snapshot, __data_start, size);
  pid_t server = (pid_t)syscall(SYS_getpid); /* the harness may define getpid */
  for (;;) {
    header[3] = 1;
    pid_t child = fork();
    if (child < 0) _exit(71);
    if (child > 0) header[2] = (unsigned)child; /* whom a time-out kills */
    if (child == 0) {
      /* A run never outlives its server (nor the server Cairn: Cairn sets the same). */
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if ((pid_t)syscall(SYS_getppid) != server) _exit(0);
      break;
    }
    int status = 0;
    struct rusage used;
    if (syscall(SYS_wait4, child, &status, 0, &used) < 0) _exit(72);
    /* A run that dies (a crash, a kill) cannot time itself: its CPU time since its batch
     * started (word 14, microseconds of the runner's) is the dead runner's, from the kernel. */
    long long died_at = used.ru_utime.tv_sec * 1000000LL + used.ru_utime.tv_usec +
                        used.ru_stime.tv_sec * 1000000LL + used.ru_stime.tv_usec;
    long long cpu_ns = (died_at - (long long)header[14]) * 1000;
    if (WIFSIGNALED(status)) header[13] = cpu_ns < 1 ? 1 : cpu_ns > 0xffffffffLL ? 0xffffffffu : (unsigned)cpu_ns;
    header[2] = 0; /* no process runs the program until the next fork */
    /* Killed by a time-out before it took its run's word (a short limit on a loaded machine):
     * the word is still in the pipe, and Cairn waits for that run's end. The flag alone cannot
     * tell: the runner may die between reporting a run and raising it. */
    int pending = 0, report = !header[3];
    if (WIFSIGNALED(status) && syscall(SYS_ioctl, 198, FIONREAD, &pending) == 0 && pending >= 4) {
      unsigned go;
      if (syscall(SYS_read, 198, &go, 4) != 4) _exit(0);
      report = 1;
    }
    if (report && syscall(SYS_write, 199, &status, 4) != 4) _exit(0);
  }
  header[2] = (unsigned)syscall(SYS_getpid);
  unsigned long nhits;
  unsigned char *hits = __cairn_probe_map(&nhits);
  volatile int runs = 0;
  unsigned long heap = cairn_heap();
  long descriptor = cairn_free_descriptor();
  for (;;) {
    unsigned go;
    header[3] = 1;
    if (syscall(SYS_read, 198, &go, 4) != 4) _exit(0);
    header[3] = 0;
    /* Runs from header word 6 to the batch's end (word 0); the first new one, or one that
     * aborts if word 8 says so, ends the batch early (a crash or a kill ends it in the
     * server). */
    volatile unsigned k = header[6], at = header[10];
    for (unsigned j = 0; j < k; j++) at += cairn_record_size(at);
    /* The runs' CPU time (word 13): what decides whether Cairn interprets a new run, so the
     * machine's load does not. */
    struct timespec started, ended;
    syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &started);
    header[14] = (unsigned)(started.tv_sec * 1000000LL + started.tv_nsec / 1000);
    int status;
    for (;; k++) {
      header[5] = k;
      header[7] = at;
      header[4] = 0;
      header[1] = 0;
      if (runs > 0) {
        /* The harness's table of placed values is kept, emptied (restored with the data, it
         * would be made again by every run, and the heap would grow by it). */
        unsigned char **placed = cairn_placed;
        unsigned long *placed_len = cairn_placed_len;
        int room = cairn_placed_room;
        memcpy(__data_start, snapshot, size);
        /* The copy wrote these variables (the compiler cannot tell: it would drop the stores). */
        __asm__ volatile("" ::: "memory");
        cairn_placed = placed, cairn_placed_len = placed_len, cairn_placed_room = room;
        if (room) memset(placed, 0, room * sizeof *placed);
      }
      runs++;
      if (hits) memset(hits, 0, nhits);
      cairn_fresh_run_dir();
      int code;
      if (setjmp(end) == 0) code = cairn_entry(argc, argv, envp);
      else code = cairn_exit_code;
      if (!persistent) _exit(code);
      status = (code & 0xff) << 8;
      if (k + 1 >= header[0] || ((header[4] & 2) && header[8]) || cairn_novel(hits, nhits)) break;
      at += cairn_record_size(at);
    }
    syscall(SYS_clock_gettime, CLOCK_PROCESS_CPUTIME_ID, &ended);
    long long ns = (ended.tv_sec - started.tv_sec) * 1000000000LL + (ended.tv_nsec - started.tv_nsec);
    header[13] = ns < 1 ? 1 : ns > 0xffffffffLL ? 0xffffffffu : (unsigned)ns;
    /* Raised before the report: a runner that dies after it must not be reported again. */
    header[3] = 1;
    if (syscall(SYS_write, 199, &status, 4) != 4 || runs >= CAIRN_RUNS_PER_PROCESS ||
        cairn_heap() > heap + CAIRN_MAX_LEAKED_HEAP || cairn_free_descriptor() != descriptor)
      _exit(0);
  }
}
#endif

#ifdef CAIRN_GCOV
/* Native replay with coverage: write the counters even when the program crashes or aborts. */
#include <signal.h>
extern void __gcov_dump(void);
static void cairn_on_signal(int s) { __gcov_dump(); signal(s, SIG_DFL); raise(s); }
__attribute__((constructor)) static void cairn_install(void) {
  /* An alternate stack, so the counters are written after a stack overflow too. */
  static char alt[1 << 20];
  stack_t ss;
  ss.ss_sp = alt; ss.ss_size = sizeof alt; ss.ss_flags = 0;
  sigaltstack(&ss, NULL);
  int sigs[] = { SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGTERM };
  for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cairn_on_signal;
    sa.sa_flags = SA_ONSTACK;
    sigaction(sigs[i], &sa, NULL);
  }
}
#endif

/* A failed assumption ends the run (the inputs are outside the program's domain). */
static void cairn_assume_failed(void) {
#ifdef CAIRN_FORKSERVER
  if (cairn_shared_in) ((unsigned *)cairn_shared_in)[4] |= 1;
#endif
  exit(0);
}

#ifdef CAIRN_EMBEDDED
/* An exported suite (`cairn export`): each test hands its values over from its own code,
 * with each value's link (NULL for most). */
void cairn_use_values(const char *const *values, const char *const *links, int n) {
  cairn_vals = (char **)values;
  cairn_links = (char **)links;
  cairn_nvals = n;
  cairn_pos = 0;
  cairn_jpos = realloc(cairn_jpos, (n + 1) * sizeof *cairn_jpos);
  if (!cairn_jpos) { perror("cairn harness"); exit(2); }
  for (int i = 0; i < n; i++) cairn_jpos[i] = i;
  if (cairn_placed_room) memset(cairn_placed, 0, cairn_placed_room * sizeof *cairn_placed);
  free(cairn_linked);
  cairn_linked = NULL;
  cairn_links_left = -1;
}
#endif

static unsigned long long cairn_u(void) {
  if (CAIRN_BINARY) return cairn_word(1);
  const char *s = cairn_next();
  return cairn_is_hex(s) ? cairn_hex_word(s) : strtoull(s, NULL, 0);
}
static long long cairn_s(void) {
  if (CAIRN_BINARY) return (long long)cairn_word(2);
  const char *s = cairn_next();
  return cairn_is_hex(s) ? (long long)cairn_hex_word(s) : strtoll(s, NULL, 0);
}
/* What an external function without a model returns as a pointer, as the interpreter makes it
 * up (`exec::libc::made_up_pointer`): whether it is null, then the bytes of a fresh block, the
 * last one NUL; both read either way. The blocks stay reachable (no leak is the program's). */
static __attribute__((unused)) void *cairn_made_up_pointer(void) {
  static void *blocks[4096];
  static unsigned nblocks;
  int nonnull = cairn_u() != 0;
  unsigned char *b = malloc(CAIRN_MADE_UP_BLOCK);
  if (!b) { perror("cairn harness"); exit(2); }
  cairn_channel = 24;
  cairn_bytes(b, CAIRN_MADE_UP_BLOCK);
  cairn_channel = 0;
  b[CAIRN_MADE_UP_BLOCK - 1] = 0;
  cairn_link_placed(CAIRN_MADE_UP_BLOCK);
  if (nblocks < sizeof blocks / sizeof *blocks) blocks[nblocks++] = b;
  return nonnull ? b : NULL;
}
static double cairn_d(void) {
  if (!CAIRN_BINARY) {
    const char *s = cairn_next();
    if (!cairn_is_hex(s)) return strtod(s, NULL);
    unsigned long long w = cairn_hex_word(s);
    float f;
    double d;
    memcpy(&f, &w, sizeof f);
    memcpy(&d, &w, sizeof d);
    return strlen(s + 4) <= 2 * sizeof f ? (double)f : d; /* a float's 4 bytes, or a double's */
  }
  unsigned long long w = cairn_word(3);
  double d;
  memcpy(&d, &w, sizeof d);
  return d;
}
"#;

fn nondet_def(name: &str, kind: InputKind) -> String {
    let (ty, expr) = match kind {
        InputKind::Bool => ("_Bool", "cairn_u() != 0"),
        InputKind::Char => ("char", "(char)cairn_s()"),
        InputKind::UChar => ("unsigned char", "(unsigned char)cairn_u()"),
        InputKind::Short => ("short", "(short)cairn_s()"),
        InputKind::UShort => ("unsigned short", "(unsigned short)cairn_u()"),
        InputKind::Int => ("int", "(int)cairn_s()"),
        InputKind::UInt => ("unsigned int", "(unsigned int)cairn_u()"),
        InputKind::Long => ("long", "(long)cairn_s()"),
        InputKind::ULong => ("unsigned long", "(unsigned long)cairn_u()"),
        InputKind::LongLong => ("long long", "cairn_s()"),
        InputKind::ULongLong => ("unsigned long long", "cairn_u()"),
        InputKind::Float => ("float", "(float)cairn_d()"),
        InputKind::Double => ("double", "cairn_d()"),
        InputKind::Pointer => ("void *", "(void *)(unsigned long)cairn_u()"),
        InputKind::Bytes => ("void", ""),
    };
    format!("{ty} {name}(void) {{ return {expr}; }}\n")
}

/// An unmodelled external function: its result is the test's next value (as in the
/// interpreter); one returning nothing does nothing; pointers and structs end Cairn's run, so
/// they stay the system's.
fn unmodelled_def(e: &crate::ir::Extern) -> Option<String> {
    use crate::ir::Ty;
    let (ty, expr) = match e.ret {
        Ty::Void => ("void", ""),
        Ty::Int(1) => ("_Bool", "cairn_u() != 0"),
        Ty::Int(8) => ("signed char", "(signed char)cairn_s()"),
        Ty::Int(16) => ("short", "(short)cairn_s()"),
        Ty::Int(32) => ("int", "(int)cairn_s()"),
        Ty::Int(_) => ("long long", "cairn_s()"),
        Ty::F32 => ("float", "(float)cairn_d()"),
        Ty::F64 => ("double", "cairn_d()"),
        Ty::Ptr if !crate::exec::makes_up_pointers(&e.name) => return None,
        Ty::Ptr => ("void *", "cairn_made_up_pointer()"),
        Ty::Agg(_) => return None,
    };
    let c_name = format!("cairn_extern_{}", e.name.replace('.', "_"));
    let body = if expr.is_empty() {
        String::new()
    } else {
        format!(" return {expr}; ")
    };
    Some(format!(
        "{ty} {c_name}() __asm__(\"{}\");\n{ty} {c_name}() {{{body}}}\n",
        e.name
    ))
}

/// `getpid` returns the test's value, once read, for the whole run (as the interpreter does);
/// `kill` sends what the program addresses to that pid to the real process, and nothing it
/// could not have addressed to a real one.
const GETPID_DEF: &str = r#"#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
static int cairn_pid_read, cairn_pid;
int cairn_getpid(void) __asm__("getpid");
int cairn_getpid(void) {
  if (!cairn_pid_read) { cairn_pid = (int)cairn_s(); cairn_pid_read = 1; }
  return cairn_pid;
}
int cairn_kill(int pid, int sig) __asm__("kill");
int cairn_kill(int pid, int sig) {
  if (pid == 0 || pid == -1 || (cairn_pid_read && pid == cairn_pid)) pid = (int)syscall(SYS_getpid);
  else { errno = ESRCH; return -1; }
  return (int)syscall(SYS_kill, pid, sig);
}
"#;

/// The environment as the runtime models it (`runtime/environment.c`, the same text): the
/// clock from the test's values, the C locale alone. Weak, as in the runtime: a program's own
/// `time` (a function or a variable) stays its own.
const ENVIRONMENT_DEFS: &str = "#define CAIRN_ENV_UINT() ((unsigned)cairn_u())
#define CAIRN_ENV_FN(ret, name, params) \\
  ret cairn_h_##name params __asm__(#name) __attribute__((weak)); \\
  ret cairn_h_##name params
";

const GETENV_DEFS: &str = r#"static struct { char *name, *value; } cairn_env[16];
static int cairn_env_n;
static char *cairn_getenv(const char *name) {
  if (!strncmp(name, "GCOV_", 5) || !strncmp(name, "LLVM_PROFILE", 12) || !strncmp(name, "CAIRN_", 6))
    return (char *)cairn_setting(name);
  for (int i = 0; i < cairn_env_n; i++)
    if (!strcmp(cairn_env[i].name, name)) return cairn_env[i].value;
  long r = (long)cairn_s();
  char *v = NULL;
  if (r >= 0) {
    if (r > 16) r = 16;
    v = malloc(r + 1);
    for (long k = 0; k < r; k++) v[k] = (char)cairn_s();
    v[r] = 0;
  }
  if (cairn_env_n < 16) { cairn_env[cairn_env_n].name = strdup(name); cairn_env[cairn_env_n++].value = v; }
  return v;
}
char *cairn_h_getenv(const char *name) __asm__("getenv");
char *cairn_h_getenv(const char *name) { return cairn_getenv(name); }
char *cairn_h_secure_getenv(const char *name) __asm__("secure_getenv");
char *cairn_h_secure_getenv(const char *name) { return cairn_getenv(name); }
"#;

/// Library functions through which a program may create files in its current directory.
const CREATES_FILES: &[&str] = &[
    "fopen",
    "fopen64",
    "freopen",
    "open",
    "open64",
    "openat",
    "creat",
    "creat64",
    "mkdir",
    "mkdirat",
    "rename",
    "renameat",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "mkfifo",
    "mknod",
];

pub fn harness_c(m: &Module) -> String {
    let called = crate::analysis::defuse::library_calls(m);
    let mut s = String::new();
    if CREATES_FILES.iter().any(|f| called.contains(*f)) {
        s.push_str("#define CAIRN_RUN_DIR 1\n");
    }
    s.push_str(&format!(
        "#define CAIRN_MADE_UP_BLOCK {}\n",
        crate::exec::libc::MADE_UP_BLOCK
    ));
    s.push_str(PRELUDE);
    let exts = crate::exec::libc::resolve(m);
    if m.func_by_name.contains_key("kill") || m.externs.iter().any(|e| e.name == "getpid") {
        s.push_str(GETPID_DEF);
    }
    for (e, ext) in m.externs.iter().zip(&exts) {
        let name = e.name.as_str();
        // `main` is external only when the program has none (a library tested in unit mode):
        // the runtime's start refers to it, the unit harness defines it.
        if m.func_by_name.contains_key(name) || name == "main" {
            continue;
        }
        // A local's initial value (`--uninitialized-inputs`) is read as an unmodelled
        // function's result is: the test's next value.
        if let crate::exec::libc::Ext::Unknown(_) | crate::exec::libc::Ext::UninitializedInput = ext
        {
            if let Some(def) = unmodelled_def(e) {
                s.push_str(&def);
            }
            continue;
        }
        if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
            if let Some(k) = InputKind::from_nondet_suffix(suffix) {
                s.push_str(&nondet_def(name, k));
            }
            continue;
        }
        let crest = |ty: &str| format!("void {name}({ty} *x) {{ *x = ({ty})cairn_s(); }}\n");
        let def = match name {
            "__CrestInt" => crest("int"),
            "__CrestUInt" => crest("unsigned int"),
            "__CrestChar" => crest("char"),
            "__CrestUChar" => crest("unsigned char"),
            "__CrestShort" => crest("short"),
            "__CrestUShort" => crest("unsigned short"),
            "__CrestBool" => crest("_Bool"),
            "klee_make_symbolic" => "void klee_make_symbolic(void *p, unsigned long n, const char *name) {\n  (void)name; cairn_bytes(p, n);\n}\n".into(),
            "klee_assume" | "__VERIFIER_assume" | "assume_abort_if_not" => format!("void {name}(int c) {{ if (!c) cairn_assume_failed(); }}\n"),
            "reach_error" | "__VERIFIER_error" => format!("void {name}(void) {{ fprintf(stderr, \"reach_error\\n\"); abort(); }}\n"),
            _ => continue,
        };
        s.push_str(&def);
    }
    s.push_str(&stdio_defs(m));
    s
}

/// What the program's `main` is renamed to when the harness has the `main`.
pub use crate::ir::PROGRAM_MAIN;

/// stdin as the interpreter reads it (one test value per character, -1 for end of input, one
/// character of pushback), the symbolic files, and the `main` that builds argv and the files
/// from the test. Other streams are the host's (the files are `fmemopen` streams).
fn stdio_defs(m: &Module) -> String {
    let called = crate::analysis::defuse::library_calls(m);
    let env = SymEnv::of(m);
    let mut s = String::new();
    let def = |s: &mut String, name: &str, sig: &str, args: &str, body: &str| {
        s.push_str(&format!(
            "{sig} cairn_h_{name}({args}) __asm__(\"{name}\");\n{sig} cairn_h_{name}({args}) {{ {body} }}\n"
        ));
    };
    s.push_str(STDIN_DEF);
    for name in ["getchar", "getchar_unlocked"] {
        if called.contains(name) {
            def(&mut s, name, "int", "void", "return cairn_stdin_getc();");
        }
    }
    for name in [
        "fgetc",
        "getc",
        "_IO_getc",
        "getc_unlocked",
        "fgetc_unlocked",
    ] {
        if called.contains(name) {
            def(
                &mut s,
                name,
                "int",
                "FILE *f",
                "return f == stdin ? cairn_stdin_getc() : _IO_getc(f);",
            );
        }
    }
    if called.contains("fgets") {
        def(
            &mut s,
            "fgets",
            "char *",
            "char *b, int n, FILE *f",
            "if (f != stdin) return _IO_fgets(b, n, f);\n  if (n <= 0) return NULL; if (n == 1) { cairn_store(b, 0); return b; }\n  int i = 0; while (i < n - 1) { int c = cairn_stdin_getc(); if (c < 0) break; cairn_store(b + i++, (char)c); if (c == '\\n') break; }\n  if (i == 0) return NULL; cairn_store(b + i, 0); return b;",
        );
    }
    if called.contains("ungetc") {
        def(
            &mut s,
            "ungetc",
            "int",
            "int c, FILE *f",
            "if (f != stdin) return _IO_ungetc(c, f);\n  if (c == -1) return -1; cairn_unget = (unsigned char)c; cairn_eof = 0; return (unsigned char)c;",
        );
    }
    if called.contains("fread") {
        def(
            &mut s,
            "fread",
            "size_t",
            "void *p, size_t size, size_t n, FILE *f",
            "if (f != stdin) return _IO_fread(p, size, n, f);\n  size_t k = 0; for (; k < size * n; k++) { int c = cairn_stdin_getc(); if (c < 0) break; cairn_store((char *)p + k, (char)c); }\n  return size ? k / size : 0;",
        );
    }
    let scanf = ["scanf", "__isoc99_scanf", "fscanf", "__isoc99_fscanf"];
    if scanf.iter().any(|n| called.contains(n)) {
        s.push_str(VSCANF_DEF);
    }
    for name in ["scanf", "__isoc99_scanf"] {
        if called.contains(name) {
            def(
                &mut s,
                name,
                "int",
                "const char *fmt, ...",
                "va_list ap; va_start(ap, fmt); int n = cairn_vscanf(fmt, ap); va_end(ap); return n;",
            );
        }
    }
    for name in ["fscanf", "__isoc99_fscanf"] {
        if called.contains(name) {
            def(
                &mut s,
                name,
                "int",
                "FILE *f, const char *fmt, ...",
                "va_list ap; va_start(ap, fmt); int n = f == stdin ? cairn_vscanf(fmt, ap) : vfscanf(f, fmt, ap); va_end(ap); return n;",
            );
        }
    }
    // close as the runtime's: the standard streams stay open, and the fork server's pipes
    // (198, 199) are not the program's to close (a descriptor that an unmodelled `socket`
    // returned, closed natively, stalled every later run of the server until its time limit).
    if called.contains("close") {
        s.push_str("#include <sys/syscall.h>\n#include <unistd.h>\n");
        def(
            &mut s,
            "close",
            "int",
            "int fd",
            "if (fd >= 0 && fd <= 2) return 0;\n  if (fd == 198 || fd == 199) { errno = EBADF; return -1; }\n  return (int)syscall(SYS_close, fd);",
        );
    }
    // recv's values as the runtime reads them (`CAIRN_RECV_BODY`): no socket is used.
    let recv = "long r = (long)cairn_s();\n  if (r < 0) { errno = ECONNRESET; return -1; }\n  if ((unsigned long)r > n) r = (long)n;\n  for (long k = 0; k < r; k++) ((char *)buf)[k] = (char)cairn_s();\n  return r;";
    if called.contains("recv") {
        def(
            &mut s,
            "recv",
            "long",
            "int fd, void *buf, size_t n, int flags",
            recv,
        );
    }
    if called.contains("recvfrom") {
        def(
            &mut s,
            "recvfrom",
            "long",
            "int fd, void *buf, size_t n, int flags, void *from, void *fromlen",
            recv,
        );
    }
    // The environment as the runtime reads it (`getenv` there): absent, or up to 16 of the
    // test's characters, read at a name's first call in the run. The profiling runtimes' own
    // settings (gcov's `GCOV_PREFIX`, read at exit) come from the real environment.
    if called.contains("getenv") || called.contains("secure_getenv") {
        s.push_str(GETENV_DEFS);
    }
    if frontend::ENVIRONMENT_FNS.iter().any(|f| called.contains(f)) {
        s.push_str(ENVIRONMENT_DEFS);
        s.push_str(frontend::ENVIRONMENT_SRC);
    }
    if called.contains("feof") {
        def(
            &mut s,
            "feof",
            "int",
            "FILE *f",
            "return f == stdin ? cairn_eof : _IO_feof(f);",
        );
    }
    s.push_str(&file_defs(&called, &env));
    if env.is_empty() {
        return s;
    }
    s.push_str("extern int cairn_program_main(int, char **);\nint main(int argc, char **argv) {\n");
    if env.args_max > 0 {
        let (len, lo, range) = (env.arg_len, env.args_min, env.args_max - env.args_min + 1);
        s.push_str(&format!(
            "  int n = {lo} + (unsigned char)cairn_u() % {range};\n  char **av = calloc(n + 2, sizeof *av); av[0] = argv[0];\n  for (int i = 1; i <= n; i++) {{ av[i] = calloc({len} + 1, 1); cairn_bytes(av[i], {len}); }}\n  argc = n + 1; argv = av;\n"
        ));
    }
    for f in 0..env.files {
        s.push_str(&format!(
            "  cairn_file_size[{f}] = (unsigned)cairn_u() % ({size}u + 1);\n  cairn_bytes(cairn_file_data[{f}], {size});\n",
            size = env.file_size
        ));
    }
    s.push_str("  return cairn_program_main(argc, argv);\n}\n");
    s
}

/// The program's `fopen` and `open` of files to read as the runtime's: the symbolic files
/// "A", "B", ... (`--sym-files`), and files named relatively, whose existence and bytes are
/// read from the test at a name's first open (the runtime's `named_file`). A name that exists
/// in the run's directory, which starts empty, is one the run created: the host's.
fn file_defs(called: &std::collections::HashSet<&str>, env: &SymEnv) -> String {
    let files = env.files;
    let mut s = format!("#define CAIRN_SYM_FILES {files}\n");
    if files > 0 {
        s.push_str(&format!(
            "static unsigned char cairn_file_data[{files}][{}];\nstatic unsigned cairn_file_size[{files}];\n",
            env.file_size + 1
        ));
    }
    let opens_fd = called.contains("open") || called.contains("open64");
    if !called.contains("fopen") && !opens_fd {
        return s;
    }
    s.push_str(&format!(
        "#define CAIRN_NAMED_FILE_SIZE {}\n{INPUT_FILES_DEF}",
        env.named_file_size()
    ));
    let def = |s: &mut String, name: &str, sig: &str, args: &str, body: &str| {
        s.push_str(&format!(
            "{sig} cairn_h_{name}({args}) __asm__(\"{name}\");\n{sig} cairn_h_{name}({args}) {{ {body} }}\n"
        ));
    };
    if called.contains("fopen") {
        def(
            &mut s,
            "fopen",
            "FILE *",
            "const char *name, const char *mode",
            "if (mode[0] == 'r' && !strchr(mode, '+')) {\n    unsigned char *data; unsigned size;\n    int r = cairn_input_file(name, &data, &size);\n    if (r == 0) return NULL;\n    if (r > 0) return size ? fmemopen(data, size, \"r\") : _IO_fopen(\"/dev/null\", \"r\");\n  }\n  return _IO_fopen(name, mode);",
        );
    }
    if opens_fd {
        s.push_str(OPEN_DEF);
    }
    for name in ["open", "open64"] {
        if called.contains(name) {
            def(
                &mut s,
                name,
                "int",
                "const char *name, int flags, ...",
                "if ((flags & 3) == 0) {\n    unsigned char *data; unsigned size;\n    int r = cairn_input_file(name, &data, &size);\n    if (r == 0) return -1;\n    if (r > 0) return cairn_memfd(data, size);\n  }\n  va_list ap; va_start(ap, flags); int mode = va_arg(ap, int); va_end(ap);\n  return (int)syscall(SYS_openat, AT_FDCWD, name, flags, mode);",
            );
        }
    }
    s
}

/// The bytes an open to read finds (the runtime's `symbolic_file` and `named_file`): 1 with
/// `data` and `size` set, 0 absent (errno ENOENT), -1 the host's file (the run created it).
const INPUT_FILES_DEF: &str = r#"#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
static struct { char *name; int present; unsigned size; unsigned char *data; } cairn_named[26];
static int cairn_named_n;
static int cairn_input_name(const char *name) {
  if (!name[0] || name[0] == '/') return 0;
  for (const char *p = name; *p; p++)
    if (p[0] == '.' && p[1] == '.' && (p == name || p[-1] == '/') && (!p[2] || p[2] == '/')) return 0;
  size_t n = strlen(name);
  /* A directory: ".", "x/.", "x/". */
  return name[n - 1] != '/' && !(name[n - 1] == '.' && (n == 1 || name[n - 2] == '/'));
}
static int cairn_input_file(const char *name, unsigned char **data, unsigned *size) {
#if CAIRN_SYM_FILES > 0
  if (name[0] >= 'A' && name[0] < 'A' + CAIRN_SYM_FILES && !name[1]) {
    *data = cairn_file_data[name[0] - 'A'];
    *size = cairn_file_size[name[0] - 'A'];
    return 1;
  }
#endif
  if (!cairn_input_name(name)) return -1;
  int i = 0;
  while (i < cairn_named_n && strcmp(cairn_named[i].name, name)) i++;
  if (i == cairn_named_n) {
    if (syscall(SYS_faccessat, AT_FDCWD, name, F_OK, 0) == 0 || i == 26 - CAIRN_SYM_FILES) return -1;
    cairn_named_n++;
    cairn_named[i].name = strdup(name);
    cairn_named[i].present = (unsigned char)cairn_u() & 1;
    if (cairn_named[i].present) {
      cairn_named[i].size = (unsigned)cairn_u() % (CAIRN_NAMED_FILE_SIZE + 1u);
      cairn_named[i].data = calloc(CAIRN_NAMED_FILE_SIZE + 1, 1);
      cairn_bytes(cairn_named[i].data, CAIRN_NAMED_FILE_SIZE);
    }
  }
  if (!cairn_named[i].present) { errno = ENOENT; return 0; }
  *data = cairn_named[i].data;
  *size = cairn_named[i].size;
  return 1;
}
"#;

/// The harness's `open` of an input file: a memfd holding its bytes (other names go through
/// the system call, since `open` itself is the harness's).
const OPEN_DEF: &str = r#"#include <stdarg.h>
static int cairn_memfd(const unsigned char *data, unsigned size) {
  int fd = (int)syscall(SYS_memfd_create, "cairn", 0);
  if (fd >= 0 && (syscall(SYS_write, fd, data, (size_t)size) != (long)size || syscall(SYS_lseek, fd, 0L, 0) != 0)) { syscall(SYS_close, fd); return -1; }
  return fd;
}
"#;

/// stdin from the test: a character per value (-1 is end of input, as is the end of the
/// values), one character of pushback.
const STDIN_DEF: &str = r#"#include <errno.h>
extern int _IO_getc(FILE *);
extern char *_IO_fgets(char *, int, FILE *);
extern int _IO_ungetc(int, FILE *);
extern size_t _IO_fread(void *, size_t, size_t, FILE *);
extern int _IO_feof(FILE *);
extern FILE *_IO_fopen(const char *, const char *);
static int cairn_unget = -1, cairn_eof;
/* A byte stored into the program's memory, checked as the program's own stores are under
 * AddressSanitizer (the harness is built without it): an overflow is reported at the call. */
extern void __asan_store1(unsigned long) __attribute__((weak));
static void cairn_store(void *p, char c) {
  if (__asan_store1) __asan_store1((unsigned long)p);
  *(char *)p = c;
}
static int cairn_stdin_getc(void) {
  if (cairn_unget >= 0) { int c = cairn_unget; cairn_unget = -1; return c; }
  if (cairn_eof) return -1; /* end of input stays the end */
  cairn_load();
  if (cairn_pos >= cairn_nvals + cairn_tail_n) { cairn_skip(); cairn_eof = 1; return -1; } /* past the values */
  cairn_channel = 8;
  int c = (int)cairn_s();
  cairn_channel = 0;
  if (c == -1) { cairn_eof = 1; return -1; }
  return c & 0xff;
}
"#;

/// scanf on stdin as the runtime models it: first where the call stops (modulo k + 2; 0: every
/// conversion succeeds; j <= k: the j-th fails; k + 1: end of input), then a value per
/// conversion read.
const VSCANF_DEF: &str = r#"#include <stdarg.h>
static int cairn_in_scanset(const char *set, const char *end, int ch) {
  int negate = *set == '^', in = 0;
  if (negate) set++;
  for (const char *q = set; q < end; q++) {
    if (q[1] == '-' && q + 2 < end) { in |= ch >= (unsigned char)q[0] && ch <= (unsigned char)q[2]; q += 2; }
    else in |= ch == (unsigned char)*q;
  }
  return (in ^ negate) && ch != 0;
}
static int cairn_vscanf_on(const char *fmt, va_list ap);
static int cairn_vscanf(const char *fmt, va_list ap) {
  cairn_channel = 16;
  int n = cairn_vscanf_on(fmt, ap);
  cairn_channel = 0;
  return n;
}
static int cairn_vscanf_on(const char *fmt, va_list ap) {
  if (cairn_eof) return -1;
  int k = 0;
  for (const char *f = fmt; *f; f++) if (*f == '%') { if (f[1] == '%') f++; else k++; }
  int stop = (unsigned char)cairn_u() % (k + 2);
  if (stop == k + 1) { cairn_eof = 1; return -1; }
  int ok = stop == 0 ? k : stop - 1, count = 0, i = 0;
  for (const char *f = fmt; *f; ) {
    if (*f++ != '%') continue;
    if (*f == '%') { f++; continue; }
    if (i++ >= ok) break;
    int suppress = 0; if (*f == '*') { suppress = 1; f++; }
    unsigned width = 0;
    while (*f >= '0' && *f <= '9') width = width * 10 + (unsigned)(*f++ - '0');
    char len[4] = {0}; int n = 0;
    while (*f && strchr("hlLqjzt", *f)) { if (n < 2) len[n++] = *f; f++; }
    char c = *f; if (!c) break; f++;
    int wide = !strcmp(len, "ll") || len[0] == 'q' || len[0] == 'j';
    int lng = !wide && (len[0] == 'l' || len[0] == 'z' || len[0] == 't');
    if (strchr("diuxXo", c)) {
      int sg = c == 'd' || c == 'i';
      long long v = sg ? cairn_s() : (long long)cairn_u();
      if (!suppress) {
        void *p = va_arg(ap, void *);
        if (!strcmp(len, "hh")) *(char *)p = (char)v;
        else if (len[0] == 'h') *(short *)p = (short)v;
        else if (wide) *(long long *)p = v;
        else if (lng) *(long *)p = (long)v;
        else *(int *)p = (int)v;
      }
    } else if (strchr("feEgGaA", c)) {
      double v = cairn_d();
      if (!suppress) { void *p = va_arg(ap, void *); if (len[0] == 'l') *(double *)p = v; else *(float *)p = (float)v; }
    } else if (c == 'c') {
      long long v = cairn_s(); if (!suppress) *va_arg(ap, char *) = (char)v;
    } else if (c == 's' && !len[0]) {
      unsigned w = 1 + (unsigned char)cairn_u() % (width ? (width < 255 ? width : 255) : 32);
      char *p = suppress ? NULL : va_arg(ap, char *);
      for (unsigned j = 0; j < w; j++) {
        char ch = (char)cairn_s();
        if (!ch || ch == ' ' || (ch >= '\t' && ch <= '\r')) ch = '_';
        if (p) cairn_store(p + j, ch);
      }
      if (p) cairn_store(p + w, 0);
    } else if (c == '[' && !len[0]) {
      /* As the runtime: a length, then characters; one outside the set reads as its first
       * member from ' ' on. */
      const char *set = f;
      if (*f == '^') f++;
      if (*f == ']') f++;
      while (*f && *f != ']') f++;
      const char *end = f;
      if (*f) f++;
      int repl = -1;
      for (int t = 0; t < 256 && repl < 0; t++)
        if (cairn_in_scanset(set, end, (t + ' ') & 0xff)) repl = (t + ' ') & 0xff;
      if (repl < 0) exit(0);
      unsigned w = 1 + (unsigned char)cairn_u() % (width ? (width < 255 ? width : 255) : 32);
      char *p = suppress ? NULL : va_arg(ap, char *);
      for (unsigned j = 0; j < w; j++) {
        int ch = (unsigned char)cairn_s();
        if (!cairn_in_scanset(set, end, ch)) ch = repl;
        if (p) cairn_store(p + j, (char)ch);
      }
      if (p) cairn_store(p + w, 0);
    } else exit(0);
    if (!suppress) count++;
  }
  return count;
}
"#;

/// The C type the harness declares a scalar parameter or return value of IR type `t` with
/// (None: a first-class aggregate, which it cannot pass).
pub fn c_type(t: crate::ir::Ty) -> Option<&'static str> {
    use crate::ir::Ty;
    Some(match t {
        Ty::Void => "void",
        Ty::Int(1) => "_Bool",
        Ty::Int(8) => "signed char",
        Ty::Int(16) => "short",
        Ty::Int(32) => "int",
        Ty::Int(_) => "long long",
        Ty::F32 => "float",
        Ty::F64 => "double",
        Ty::Ptr => "void *",
        Ty::Agg(_) => return None,
    })
}

/// The harness of unit mode: `main` reads the entry function's parameters as the interpreter
/// does (scalars from the test; pointers to NUL-terminated byte buffers of `unit.buffer`
/// bytes; structs passed by value as their bytes), then the globals that start as inputs, and
/// calls it. The program's own `main`, if any, is renamed at compile time
/// (`-Dmain=cairn_program_main`).
pub fn harness_c_for(m: &Module, entry: &str, unit: &crate::exec::Unit) -> String {
    use crate::ir::Ty;
    if entry == "main" {
        return harness_c(m);
    }
    let Some(f) = m.function(entry) else {
        return harness_c(m);
    };
    let mut s = harness_c(m);
    let cty = c_type;
    let by_value = |i: usize| f.byval.iter().find(|b| b.0 == i).map(|b| (b.1, b.2));
    // A struct passed by value: a byte array of its size and alignment is passed the same way
    // (in memory: clang uses `byval` only for structs the ABI passes in memory).
    let mut decl: Vec<String> = vec![];
    for (i, p) in f.params.iter().enumerate() {
        if let Some((size, align)) = by_value(i) {
            s.push_str(&format!(
                "typedef struct {{ unsigned char b[{size}]; }} __attribute__((aligned({align}))) cairn_struct{i};\n"
            ));
            decl.push(format!("cairn_struct{i}"));
            continue;
        }
        match cty(p.ty()) {
            Some(t) => decl.push(t.to_string()),
            None => {
                s.push_str(&format!(
                    "#error \"unit mode: `{entry}` takes a first-class aggregate\"\n"
                ));
                return s;
            }
        }
    }
    let Some(ret) = cty(f.ret) else {
        s.push_str(&format!(
            "#error \"unit mode: `{entry}` returns a struct\"\n"
        ));
        return s;
    };
    s.push_str(&format!(
        "\nextern {ret} {entry}({});\n",
        if decl.is_empty() {
            "void".to_string()
        } else {
            decl.join(", ")
        }
    ));
    for &g in &unit.globals {
        let g = &m.globals[g as usize];
        s.push_str(&format!("extern unsigned char {}[{}];\n", g.name, g.size));
    }
    let n = unit.buffer.max(1);
    if f.param_callback.contains(&true) {
        // What a function-pointer parameter points to, as the interpreter's runtime has it.
        s.push_str("static int cairn_unit_callback() { return (int)cairn_s(); }\n");
    }
    // On the heap, fresh for each call, as a caller's would be: the function may free it
    // (`cJSON_Delete`), as it may in the interpreter.
    s.push_str(&format!(
        "static unsigned char *cairn_buf[{}];\n",
        f.params.len().max(1),
    ));
    // The call, apart from `main`: an exported suite (CAIRN_EMBEDDED) calls it per test, the
    // observer build (CAIRN_OBSERVE) records what it returns and leaves in the buffers.
    s.push_str(&format!(
        "#ifdef CAIRN_EMBEDDED\n#define CAIRN_CALL_LINKAGE\nunsigned char *cairn_param_buffer(int i) {{ return cairn_buf[i]; }}\n#else\n#define CAIRN_CALL_LINKAGE static\n#endif\nCAIRN_CALL_LINKAGE {ret} cairn_call_entry(void) {{\n"
    ));
    let mut call = vec![];
    for (i, p) in f.params.iter().enumerate() {
        if by_value(i).is_some() {
            s.push_str(&format!(
                "  cairn_struct{i} a{i}; cairn_bytes(&a{i}, sizeof a{i});\n"
            ));
            call.push(format!("a{i}"));
            continue;
        }
        let read = match p.ty() {
            Ty::Int(1) => "cairn_u() != 0".to_string(),
            Ty::Int(_) => format!("({})cairn_s()", decl[i]),
            Ty::F32 => "(float)cairn_d()".to_string(),
            Ty::F64 => "cairn_d()".to_string(),
            _ if f.param_callback.get(i) == Some(&true) => {
                call.push("(void *)cairn_unit_callback".to_string());
                continue;
            }
            _ => {
                // Whether the pointer is NULL (its buffer is read either way), read as the
                // interpreter's `Channel::Null` (32 in the fuzzer's reads map).
                s.push_str(&format!(
                    "  cairn_channel = 32; int null{i} = cairn_u() != 0; cairn_channel = 0;\n  cairn_buf[{i}] = malloc({n});\n  if (!cairn_buf[{i}]) {{ perror(\"cairn harness\"); exit(2); }}\n  cairn_bytes(cairn_buf[{i}], {n}); cairn_buf[{i}][{n} - 1] = 0;\n"
                ));
                call.push(format!("null{i} ? NULL : (void *)cairn_buf[{i}]"));
                continue;
            }
        };
        s.push_str(&format!("  {} a{i} = {read};\n", decl[i]));
        // A length parameter longer than its buffer: as in the interpreter, no run.
        if let Some(l) = unit.lengths.iter().find(|l| l.pos == i) {
            let (max, unsigned) = (l.max, l.unsigned);
            let value = match unsigned {
                true => format!(
                    "(unsigned long long)(unsigned {})a{i}",
                    decl[i].trim_start_matches("signed ")
                ),
                false => format!("(long long)a{i}"),
            };
            s.push_str(&format!(
                "  if ({value} > {max}{}) cairn_assume_failed();\n",
                if unsigned { "ULL" } else { "LL" }
            ));
        }
        call.push(format!("a{i}"));
    }
    for &g in &unit.globals {
        let g = &m.globals[g as usize];
        s.push_str(&format!("  cairn_bytes({0}, sizeof {0});\n", g.name));
    }
    s.push_str(&format!("  cairn_link_placed({n});\n"));
    let invoke = format!("{entry}({})", call.join(", "));
    let pointers: Vec<usize> = (0..f.params.len())
        .filter(|&i| by_value(i).is_none() && f.params[i].ty() == Ty::Ptr)
        .collect();
    s.push_str(&format!(
        "  {}{invoke};\n}}\n#ifdef CAIRN_OBSERVE\n{}#elif !defined(CAIRN_EMBEDDED)\nint main(void) {{\n  {}\n}}\n#endif\n",
        if f.ret == Ty::Void { "" } else { "return " },
        observer_main(f.ret, &pointers, n),
        match f.ret {
            Ty::Int(_) => "return (int)cairn_call_entry();",
            _ => "cairn_call_entry();\n  return 0;",
        }
    ));
    s
}

/// The `main` of the observer build of unit mode: one call, then what it returned, the pointer
/// parameters' buffers (`n` bytes each) and its stdout, written to `cairn_observed` in the
/// working directory for `cairn export` to turn into assertions.
fn observer_main(ret: crate::ir::Ty, pointers: &[usize], n: u64) -> String {
    use crate::ir::Ty;
    let print_ret = match ret {
        Ty::Void => String::new(),
        Ty::Int(1) => "  fprintf(obs, \"return %d\\n\", (int)r);\n".into(),
        Ty::Int(_) => "  fprintf(obs, \"return %lld\\n\", (long long)r);\n".into(),
        Ty::F32 | Ty::F64 => "  fprintf(obs, \"return %a\\n\", (double)r);\n".into(),
        _ => "  fprintf(obs, \"return-null %d\\n\", r == 0);\n".into(),
    };
    let mut s = String::from(
        "#include <fcntl.h>\n#include <unistd.h>\nint main(void) {\n  FILE *obs = fopen(\"cairn_observed\", \"w\");\n  if (!obs) return 2;\n  fflush(stdout);\n  int out = open(\"cairn_stdout\", O_CREAT | O_TRUNC | O_WRONLY, 0600);\n  if (out < 0 || dup2(out, 1) < 0) return 2;\n",
    );
    s.push_str(match ret {
        Ty::Void => "  cairn_call_entry();\n",
        _ => "  __typeof__(cairn_call_entry()) r = cairn_call_entry();\n",
    });
    s.push_str("  fflush(stdout);\n");
    s.push_str(&print_ret);
    for &i in pointers {
        s.push_str(&format!(
            "  fprintf(obs, \"buffer {i} \");\n  for (int k = 0; k < {n}; k++) fprintf(obs, \"%02x\", cairn_buf[{i}][k]);\n  fprintf(obs, \"\\n\");\n"
        ));
    }
    s.push_str("  fclose(obs);\n  return 0;\n}\n");
    s
}
