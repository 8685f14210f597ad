/* Multiplication, division, remainder and bit operations on inputs. */
/* infeasible: 0 */
extern unsigned __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  unsigned a = __VERIFIER_nondet_uint();
  unsigned b = __VERIFIER_nondet_uint();
  int c = __VERIFIER_nondet_int();
  int r = 0;
  if (a * 2654435761u == 0x9e3779b1u * 5u) r |= 1;    /* a == 5 (odd multiplier is invertible) */
  if (b != 0 && a / b == 1000 && a % b == 7) r |= 2;
  if (((a >> 24) & 0xff) == 0xab && (a & 0xff) == 0xcd) r |= 4;
  if ((b | 0x0f0f0000u) == 0xffff0f0fu) r |= 8;
  if ((c << 3) == -64) r |= 16;
  if (__builtin_popcount(b) == 31) r |= 32;
  return r;
}
