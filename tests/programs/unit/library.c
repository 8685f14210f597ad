/* A small library: three functions to test one by one (unit mode, several entry functions).
   No `main`: the replay harness of unit mode provides one. */

int clamp(int x, int lo, int hi) {
  if (lo > hi)
    return -1;
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}

int classify(char c) {
  if (c >= '0' && c <= '9')
    return 1;
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
    return 2;
  if (c == ' ' || c == '\t')
    return 3;
  return 0;
}

int checksum(const char *s, int n) {
  int sum = 0;
  for (int i = 0; i < n && s[i]; i++) {
    if (classify(s[i]) == 1)
      sum += s[i] - '0';
    else
      sum ^= s[i];
  }
  if (sum == 0x5a)
    return -2;
  return sum;
}

