#include <stdio.h>
/* Pointers redefine variables: v = 1 (line 11) reaches the use at line 14 only when p points
   to w. The global total is defined at main's start and in add (interprocedural pairs); its
   initial definition never reaches main's uses at lines 15 and 16 (add always redefines it). */ extern int __VERIFIER_nondet_int(void);
int total;
void add(int k) { total = total + k; }
int main(void) {
    int v, w, sel;
    sel = __VERIFIER_nondet_int();
    /* input */
    v = 1;
    int *p = sel > 0 ? &v : &w;
    *p = 7;
    add(v);
    if (total > 5)
        printf("big %d\n", total);
    return 0;
}
