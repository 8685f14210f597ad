/* Globals: initialisers, pointers to other globals, arrays of strings, static locals persisting across calls. */
#include <stdio.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

int counter = 5;
int *counter_ptr = &counter;
static int table[6] = { 10, 20, 30, 40, 50, 60 };
static int *table_mid = &table[3];
static const char *names[] = { "zero", "one", "two", "three", "four", "five", "six", "seven" };
static const char *const *names_ptr = names;
static char greeting[32] = "hello";
static const char letters[] = "abcdefghijklmnopqrstuvwxyz";
struct config { const char *label; int limit; int *target; };
static struct config cfg = { "cfg", 42, &table[1] };
static struct config cfgs[2] = { { "first", 1, &counter }, { "second", 2, &table[5] } };
double scale = 2.5;
unsigned long long big_global = 0xFFFFFFFFFFFFFFFFULL;
static char matrix[2][4] = { "abc", "xyz" };

static int next_id(void) {
    static int id = 100;          /* persists across calls */
    return id++;
}

static int running_sum(int v) {
    static int total;             /* zero-initialised */
    total += v;
    return total;
}

static const char *cycle_name(void) {
    static unsigned pos = 3;
    pos = (pos + 3u) % 8u;
    return names_ptr[pos];
}

int main(void) {
    int x = __VERIFIER_nondet_int();
    unsigned char k = __VERIFIER_nondet_uchar();

    printf("counter=%d via ptr=%d\n", counter, *counter_ptr);
    *counter_ptr += (k & 15);
    printf("counter now=%d\n", counter);
    printf("table_mid=%d table_mid[-1]=%d table_mid[2]=%d\n", *table_mid, table_mid[-1], table_mid[2]);
    table_mid[(k >> 4) % 3] = x % 1000;
    int s = 0;
    for (int i = 0; i < 6; i++) s += table[i];
    printf("table sum=%d\n", s);

    printf("name=%s len=%zu\n", names[k & 7], strlen(names[k & 7]));
    strcat(greeting, ", ");
    strcat(greeting, names[(k >> 3) & 7]);
    printf("greeting=%s\n", greeting);
    printf("letter=%c sizeof letters=%zu\n", letters[k % 26], sizeof letters);

    printf("cfg=%s limit=%d target=%d\n", cfg.label, cfg.limit, *cfg.target);
    *cfgs[k & 1].target += 1;
    printf("cfgs[0].target=%d cfgs[1].target=%d counter=%d table5=%d\n",
           *cfgs[0].target, *cfgs[1].target, counter, table[5]);

    int n = (k % 6) + 1;
    int last = 0;
    for (int i = 0; i < n; i++) last = next_id();
    printf("last id=%d next=%d\n", last, next_id());
    for (int i = 0; i < n; i++) running_sum(i * (x & 7));
    printf("running=%d\n", running_sum(0));
    for (int i = 0; i < 3; i++) printf("cycle=%s\n", cycle_name());

    scale *= (double)(k % 4);
    big_global >>= (k & 63);
    printf("scale=%.2f big=%llu\n", scale, big_global);
    matrix[k & 1][k % 3] = 'Q';
    printf("matrix=%s,%s\n", matrix[0], matrix[1]);
    return counter & 31;
}
