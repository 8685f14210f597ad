/* Pointers: arithmetic, comparisons within one array, pointer-to-pointer, uintptr_t round trip, string walking. */
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);

static int sum_range(const int *begin, const int *end) {
    int s = 0;
    while (begin < end) s += *begin++;
    return s;
}

static void swap_ptrs(int **a, int **b) {
    int *t = *a; *a = *b; *b = t;
}

static void set_via_pp(int **pp, int v) {
    **pp = v;
}

static size_t my_strlen(const char *s) {
    const char *p = s;
    while (*p) p++;
    return (size_t)(p - s);
}

static const char *find_char(const char *s, char c) {
    for (; *s; s++) if (*s == c) return s;
    return NULL;
}

int main(void) {
    int arr[16];
    int seed = __VERIFIER_nondet_int();
    unsigned char k = __VERIFIER_nondet_uchar();
    for (int i = 0; i < 16; i++) arr[i] = (int)(((unsigned)seed * (unsigned)(i + 1)) % 1000u);

    unsigned lo = k & 15u, hi = (k >> 4) & 15u;
    if (lo > hi) { unsigned t = lo; lo = hi; hi = t; }
    int *plo = arr + lo;
    int *phi = &arr[hi];
    printf("range[%u,%u) sum=%d dist=%td\n", lo, hi, sum_range(plo, phi), phi - plo);
    printf("plo<phi:%d plo==phi:%d plo<=phi:%d\n", plo < phi, plo == phi, plo <= phi);
    printf("*plo=%d phi[-0]=%d *(arr+5)=%d 5[arr]=%d\n", *plo, phi[0], *(arr + 5), 5[arr]);

    int *p1 = &arr[0], *p2 = &arr[15];
    swap_ptrs(&p1, &p2);
    printf("after swap: *p1=%d *p2=%d diff=%td\n", *p1, *p2, p1 - p2);
    int *pp_target = &arr[lo];
    set_via_pp(&pp_target, -7);
    printf("arr[lo]=%d\n", arr[lo]);

    int **ptrs[3];
    int *row[3] = { &arr[1], &arr[2], &arr[3] };
    for (int i = 0; i < 3; i++) ptrs[i] = &row[i];
    int tot = 0;
    for (int i = 0; i < 3; i++) tot += **ptrs[i];
    printf("tot=%d\n", tot);

    /* uintptr_t round trip: value not printed, only its properties */
    uintptr_t up = (uintptr_t)(void *)&arr[hi];
    int *back = (int *)(void *)up;
    printf("roundtrip_ok=%d aligned=%d\n", back == &arr[hi], (int)(up % _Alignof(int) == 0));
    uintptr_t up0 = (uintptr_t)(void *)&arr[0];
    printf("byte_offset=%lu\n", (unsigned long)(up - up0));

    /* char pointer walking over an int */
    unsigned char *bytes = (unsigned char *)&arr[hi];
    unsigned bsum = 0;
    for (size_t i = 0; i < sizeof(int); i++) bsum += bytes[i];
    printf("bsum=%u\n", bsum);

    const char *msg = "pointer walking test string";
    printf("len=%zu\n", my_strlen(msg));
    char target = (char)('a' + k % 26);
    const char *hit = find_char(msg, target);
    if (hit) printf("found '%c' at %td rest=\"%s\"\n", target, hit - msg, hit);
    else printf("'%c' not found\n", target);
    const char *words[] = { "alpha", "beta", "gamma", "delta" };
    const char **wp = words;
    const char *w = *(wp + (k & 3));
    printf("word=%s second=%c\n", w, *(w + 1));

    /* void pointer and NULL */
    void *vp = arr;
    int *ip = (int *)vp + 2;
    int *np = NULL;
    printf("*ip=%d null=%d\n", *ip, np == NULL);
    ptrdiff_t d = &arr[15] - &arr[0];
    return (int)((unsigned)d + (unsigned)(arr[hi] & 3) + lo) & 0x1f;
}
