/* string.h: strlen/strcpy/strncpy/strcat/strcmp/strncmp/strchr/strrchr/strstr/mem* and strdup on input-built buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned int __VERIFIER_nondet_uint(void);

static int sign(int v) { return (v > 0) - (v < 0); }

int main(void) {
    char a[24], b[24];
    unsigned la = __VERIFIER_nondet_uint() % 16u, lb = __VERIFIER_nondet_uint() % 16u;
    for (unsigned i = 0; i < la; i++) a[i] = (char)('a' + __VERIFIER_nondet_uchar() % 4u);
    a[la] = '\0';
    for (unsigned i = 0; i < lb; i++) b[i] = (char)('a' + __VERIFIER_nondet_uchar() % 4u);
    b[lb] = '\0';
    printf("a=\"%s\" b=\"%s\" lens=%zu,%zu\n", a, b, strlen(a), strlen(b));
    printf("strcmp=%d strncmp3=%d memcmp=%d\n", sign(strcmp(a, b)), sign(strncmp(a, b, 3)),
           sign(memcmp(a, b, 1)));

    char cat[64];
    strcpy(cat, a);
    strcat(cat, "-");
    strcat(cat, b);
    printf("cat=%s len=%zu\n", cat, strlen(cat));

    char nc[8];
    strncpy(nc, cat, sizeof nc - 1);
    nc[sizeof nc - 1] = '\0';
    char padded[10];
    memset(padded, 'Z', sizeof padded);
    size_t ncpy = 3u + la % 4u;     /* 3..6 bytes */
    strncpy(padded, b, ncpy);       /* pads with NULs if b is shorter than ncpy */
    padded[ncpy] = '\0';
    int nuls = 0;
    for (size_t i = 0; i < ncpy; i++) nuls += padded[i] == '\0';
    printf("nc=%s nuls=%d padded[9]=%c\n", nc, nuls, padded[9]);

    char needle = (char)('a' + __VERIFIER_nondet_uchar() % 4u);
    const char *f = strchr(cat, needle), *l = strrchr(cat, needle);
    printf("strchr(%c)=%td strrchr=%td\n", needle, f ? f - cat : -1, l ? l - cat : -1);
    printf("strchr nul=%td\n", strchr(cat, '\0') - cat);
    const char *ss = strstr(cat, "ab");
    printf("strstr(ab)=%td strstr(empty)=%td\n", ss ? ss - cat : -1, strstr(cat, "") - cat);
    if (lb > 0) {
        const char *sb = strstr(cat, b);
        printf("strstr(b)=%td\n", sb ? sb - cat : -1);
    }

    /* memmove with overlap in both directions */
    char mv[32] = "0123456789abcdefghij";
    unsigned shift = __VERIFIER_nondet_uint() % 8u;
    memmove(mv + shift, mv, 10);
    printf("memmove fwd=%s\n", mv);
    memmove(mv, mv + shift, 10);
    printf("memmove back=%s\n", mv);

    unsigned char block[16];
    memset(block, 0xA5, sizeof block);
    memset(block + 4, __VERIFIER_nondet_uchar(), 8);
    unsigned char copy[16];
    memcpy(copy, block, sizeof block);
    copy[15] ^= 1;
    unsigned s = 0;
    for (int i = 0; i < 16; i++) s = s * 7u + block[i];
    printf("block hash=%u memcmp=%d memchr=%d\n", s, sign(memcmp(block, copy, 16)),
           memchr(block, 0xA5, 16) != NULL);

    char *dup = strdup(cat);
    if (!dup) return 98;
    for (char *p = dup; *p; p++) if (*p == 'a') *p = 'A';
    printf("dup=%s orig=%s cmp=%d\n", dup, cat, sign(strcmp(dup, cat)));
    size_t span = strspn(dup, "Ab"), cspan = strcspn(dup, "-");
    printf("strspn=%zu strcspn=%zu\n", span, cspan);
    free(dup);

    int r = strcmp(a, b);
    return r == 0 ? 0 : r < 0 ? 1 : 2;
}
