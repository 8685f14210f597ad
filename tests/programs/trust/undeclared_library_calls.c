/* Library functions called without their headers (old C, a forgotten include): gcc, and clang
 * without -fno-builtin, give them the library's prototypes, so `malloc` returns a pointer and
 * `sqrt` a double. Compiled as `int malloc()`, natively the pointer lost its upper half (a
 * crash where the interpreter went on). (`atof` is no builtin of either compiler: undeclared,
 * it is `int atof()` to both, and stays so.) C89 too (`-std=gnu89`: Cairn's runtime stays C11). */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int(), i;
  char *p = malloc(16);
  if (!p)
    return 4;
  for (i = 0; i < 3; i++)
    p[i] = 'a' + ((n >> (4 * i)) & 7);
  p[3] = 0;
  if (strlen(p) == 3 && toupper(p[1]) == 'C')
    return 3;
  double r = sqrt((double)(n & 0xff));
  if (r > 15.0)
    return 1;
  if (r > 3.0 && p[0] == 'b')
    return 2;
  return 0;
}
