/* Reliability: old C as real-world code has it: K&R definitions, implicit int, implicit
 * declarations, CBMC-style nondet_*() externs the program only declares, and an unmodelled libc
 * call (getpid) whose result is an input read before the others. Native replay must build it in
 * the same dialect and feed every value to the same call. */
extern int nondet_int();
extern unsigned int nondet_uint();
extern char nondet_char();

static count;

scale(x, k)
  int x;
  int k;
{
  return x * k;
}

main()
{
  int pid = getpid();
  int a = nondet_int();
  unsigned b = nondet_uint();
  char c = nondet_char();
  count = scale(a, 3);
  if (pid == 4242)
    count++;
  if (count == 123)
    printf("exact\n");
  else if (b > 1000u && c == 'x')
    puts("big");
  if (a < 0)
    return 1;
  return 0;
}
