extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __asm__ volatile("pushf\n\tpop %%rax" ::: "rax");
  return x > 0;
}
