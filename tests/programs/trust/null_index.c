/* A table read through a null pointer at an input index (parson's `object->cells[ix]` with
 * `cells` null and `ix` from a hash): the address lands on a global of Cairn's layout, where
 * natively nothing lies. The run must end there, claiming nothing past it. */
extern long __VERIFIER_nondet_long(void);
int table[4] = {1, 2, 3, 4};
int main(void) {
  int *cells = 0;
  long ix = __VERIFIER_nondet_long();
  if (cells[ix] == 3)
    return 1;
  return 0;
}
