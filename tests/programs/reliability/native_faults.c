/* Reliability: every kind of fault Cairn predicts must happen natively, of the same kind at the
 * same line; deep but legal recursion is no fault, endless recursion overflows the native 8 MB
 * stack, and a 100 MB local array ends the run with no outcome predicted (natively it faults
 * where it is touched, if ever). */
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned long __VERIFIER_nondet_ulong(void);

int depth(int n) {
  if (n <= 0)
    return 0;
  return depth(n - 1) + 1;
}

int big_local(int k) {
  char buf[100 << 20];
  memset(buf, k, sizeof buf);
  return buf[k & 0xfff];
}

/* Reads the byte before a stack buffer (an empty line's "last character"): out of bounds, as
 * AddressSanitizer's stack-buffer-underflow, not a use after free of whatever died below it. */
int last_char(void) {
  int status = 0;
  char buf[20];
  memset(buf, 'a', sizeof buf);
  buf[0] = 0;
  return buf[strlen(buf) - 1] + status;
}

int main(void) {
  int k = __VERIFIER_nondet_int();
  int *p = 0;
  int a[4] = {0, 1, 2, 3};
  int *h;
  switch (k) {
  case 1:
    return *p;
  case 2:
    h = malloc(4 * sizeof(int));
    h[4] = 1;
    free(h);
    return 0;
  case 3:
    h = malloc(8);
    free(h);
    return *h;
  case 4:
    h = malloc(8);
    free(h);
    free(h);
    return 0;
  case 5:
    return 10 / (k - 5);
  case 6:
    return depth(100000) - 99994; /* 6: deep but legal recursion */
  case 7:
    return big_local(k);
  case 8:
    return depth(10000000);
  case 9:
    return a[k - 5];
  case 10:
    return last_char();
  case 11: {
    /* An address from the input at the very top of the address space: the access's last
     * byte lies past 2^64 (this panicked Cairn while a symbolic value was in memory). */
    unsigned long addr = __VERIFIER_nondet_ulong();
    int copy[1] = {k};
    if (addr >= 0xfffffffffffffffdUL)
      return *(int *)addr + copy[0];
    return 0;
  }
  }
  return 0;
}
