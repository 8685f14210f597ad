/* The fuzzers' driver for programs with their own main that read argv, files and stdin (the
 * Siemens programs), shaped as Cairn's --sym-args MIN MAX LEN --sym-files N SIZE:
 *
 *   byte 0            argc - 1 = MIN + byte % (MAX - MIN + 1)
 *   LEN bytes per argument (a string ends at its first NUL, or after LEN bytes)
 *   per file "A", "B"...: one size byte (size = byte % (SIZE + 1)), then SIZE bytes
 *   the rest          stdin
 *
 * Bytes past the end of the input read as zero. Files are fmemopen streams: fopen of "A"...
 * opens one, any other name fails with ENOENT (Cairn's model of --sym-files). stdin is an
 * fmemopen stream over the rest, read by glibc's own getc, fgets and scanf.
 *
 * The program is compiled as the peer harness's fuzzer runners compile it
 * (../shared/eval: -Dmain=__eval_program_main -Dexit=__eval_exit -Dabort=__eval_abort, its
 * .data/.bss renamed to eval_prog_data/eval_prog_bss, so every run starts from the program's
 * initial globals), with -Dfopen=cmdline_fopen; benches/peers/cmdline.sh hands this file to
 * those runners as their driver. Built with -DCMDLINE_REPLAY it is instead the native replay of one input file per
 * process (argv[1]), writing gcov counters on a crash or SIGTERM. SHAPE: -DMIN_ARGS=...
 * -DMAX_ARGS -DARG_LEN -DFILES -DFILE_SIZE. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MIN_ARGS
#define MIN_ARGS 0
#endif
#ifndef MAX_ARGS
#define MAX_ARGS 0
#endif
#ifndef ARG_LEN
#define ARG_LEN 1
#endif
#ifndef FILES
#define FILES 0
#endif
#ifndef FILE_SIZE
#define FILE_SIZE 1
#endif

extern int __eval_program_main(int, char **);

static const uint8_t *in_data;
static size_t in_size, in_pos;
static jmp_buf run_end;
static int running;

static uint8_t next_byte(void) { return in_pos < in_size ? in_data[in_pos++] : (in_pos++, 0); }

static void take(uint8_t *dst, size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] = next_byte();
}

static char args[MAX_ARGS + 1][ARG_LEN + 1];
static uint8_t file_data[FILES + 1][FILE_SIZE + 1];
static size_t file_len[FILES + 1];

FILE *cmdline_fopen(const char *name, const char *mode) {
  for (int i = 0; i < FILES; i++)
    if (name[0] == 'A' + i && name[1] == 0 && mode[0] == 'r') {
      if (file_len[i] == 0) return fopen("/dev/null", "r");
      return fmemopen(file_data[i], file_len[i], "r");
    }
  errno = ENOENT;
  return NULL;
}

/* exit and abort end the run, not the fuzzer; an assert failure still aborts (a crash). */
void __eval_exit(int status) {
  fflush(stdout);
  if (running) longjmp(run_end, 1);
  _exit(status);
}

void __eval_abort(void) {
  if (running) longjmp(run_end, 1);
  _exit(134);
}

/* The program's writable globals, captured once and restored before each run. */
extern char __start_eval_prog_data[] __attribute__((weak));
extern char __stop_eval_prog_data[] __attribute__((weak));
extern char __start_eval_prog_bss[] __attribute__((weak));
extern char __stop_eval_prog_bss[] __attribute__((weak));
static char *data_snapshot;

static void restore_globals(void) {
  size_t n = __start_eval_prog_data ? (size_t)(__stop_eval_prog_data - __start_eval_prog_data) : 0;
  if (n && !data_snapshot) {
    data_snapshot = malloc(n);
    memcpy(data_snapshot, __start_eval_prog_data, n);
  } else if (n) {
    memcpy(__start_eval_prog_data, data_snapshot, n);
  }
  if (__start_eval_prog_bss)
    memset(__start_eval_prog_bss, 0, (size_t)(__stop_eval_prog_bss - __start_eval_prog_bss));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FILE *original_stdin;
  if (!original_stdin) original_stdin = stdin;
  restore_globals();
  in_data = data; in_size = size; in_pos = 0;
  int n = MIN_ARGS + (MAX_ARGS > MIN_ARGS ? next_byte() % (MAX_ARGS - MIN_ARGS + 1) : 0);
  char *argv[MAX_ARGS + 2];
  argv[0] = "program";
  for (int i = 1; i <= n; i++) {
    take((uint8_t *)args[i], ARG_LEN);
    args[i][ARG_LEN] = 0;
    argv[i] = args[i];
  }
  argv[n + 1] = NULL;
  for (int i = 0; i < FILES; i++) {
    file_len[i] = next_byte() % (FILE_SIZE + 1);
    take(file_data[i], FILE_SIZE);
  }
  size_t rest = in_pos < size ? size - in_pos : 0;
  stdin = rest ? fmemopen((void *)(data + in_pos), rest, "r") : fopen("/dev/null", "r");
  running = 1;
  if (setjmp(run_end) == 0) __eval_program_main(n + 1, argv);
  running = 0;
  fflush(stdout);
  fclose(stdin);
  stdin = original_stdin;
  return 0;
}

#ifdef CMDLINE_REPLAY
extern void __gcov_dump(void);
static void dump_and_die(int s) { __gcov_dump(); signal(s, SIG_DFL); raise(s); }

int main(int argc, char **argv) {
  static char alt[1 << 20];
  stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
  sigaltstack(&ss, NULL);
  int sigs[] = { SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGTERM };
  for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = dump_and_die;
    sa.sa_flags = SA_ONSTACK;
    sigaction(sigs[i], &sa, NULL);
  }
  if (argc != 2) { fprintf(stderr, "usage: %s INPUT\n", argv[0]); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  static uint8_t buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  return 0;
}
#endif
