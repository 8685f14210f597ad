extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __asm__ volatile("rdtsc" ::: "eax", "edx");
  return x > 0;
}
