/* CREST-style inputs through the CREST_int(x) macros. */
extern void __CrestInt(int *x);
extern void __CrestChar(char *x);
#define CREST_int(x) __CrestInt(&x)
#define CREST_char(x) __CrestChar(&x)
int main(void) {
  int a; char c;
  CREST_int(a);
  CREST_char(c);
  if (a == 3) { if (c == 'z') return 2; return 1; }
  return 0;
}
