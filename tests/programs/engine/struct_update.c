// A store through a pointer into an array of structs chosen by an input, then a branch on the
// stored field (read back through a different index).
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

struct item {
    int key;
    unsigned char flag;
    int count;
};

int main(void) {
    struct item table[6] = {{10, 0, 0}, {20, 0, 1}, {30, 1, 2}, {40, 0, 3}, {50, 1, 4}, {60, 0, 5}};
    int i = __VERIFIER_nondet_int();
    int j = __VERIFIER_nondet_int();
    int v = __VERIFIER_nondet_int();
    if (i < 0 || i >= 6 || j < 0 || j >= 6)
        return 0;
    struct item *p = &table[i];
    p->count = v;
    p->flag = (unsigned char)(v & 1);
    if (table[j].count == 1000) {
        if (table[j].flag)
            return 9; // impossible: 1000 is even, and only the written entry can hold 1000
        if (j == 3)
            return 1;
        return 2;
    }
    if (table[j].flag && table[j].count > 100)
        return 3;
    if (table[2].count != 2)
        return 4;
    return 5;
}
