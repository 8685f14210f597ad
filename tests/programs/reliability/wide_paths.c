/* A wide path space: every one of the 40 characters doubles the paths, and each run leaves
   dozens of pending branches, so a search's tree grows by megabytes a second. */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void abort(void);

int main(void) {
    int upper = 0, digits = 0, spaces = 0;
    for (int i = 0; i < 40; i++) {
        unsigned char c = __VERIFIER_nondet_uchar();
        if (c >= 'A' && c <= 'Z')
            upper++;
        else if (c >= '0' && c <= '9')
            digits++;
        else if (c == ' ')
            spaces++;
    }
    if (upper > 30 && digits > 5)
        return 3;
    if (spaces == 40)
        return 2;
    return upper > digits;
}
