/* Uses whose block defines their variable again before its branch decides (`switch
   (calls++)`, `while (n--)`): a p-use's pair is of the definition its load read, so the
   increment at the `switch` never reaches its `case 0`. */
extern int __VERIFIER_nondet_int(void);

int calls;

int step(int x) {
  switch (calls++) {
  case 0:
    return x + 1;
  case 1:
    return x * 2;
  default:
    return x - 1;
  }
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int total = 0;
  if (n < 0 || n > 5) {
    return 0;
  }
  while (n--) {
    total = step(total);
  }
  return total;
}
