/* A tokenizer over 12 input characters: character classes by helpers called from several
   places, numbers (decimal and hex), identifiers and keywords, operators, string literals with
   escapes, comments. */
/* infeasible: 0 */
extern char __VERIFIER_nondet_char(void);

#define N 12
static char buf[N + 1];
static int counts[8];

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

static int keyword(int start, int len) {
  if (len == 2 && buf[start] == 'i' && buf[start + 1] == 'f') return 1;
  if (len == 3 && buf[start] == 'f' && buf[start + 1] == 'o' && buf[start + 2] == 'r') return 2;
  return 0;
}

static int number(int i) {
  if (buf[i] == '0' && buf[i + 1] == 'x') {
    int j = i + 2;
    while (j < N && is_hex(buf[j])) j++;
    if (j == i + 2) counts[7]++; /* "0x" without digits */
    else counts[1]++;
    return j;
  }
  while (i < N && is_digit(buf[i])) i++;
  counts[0]++;
  return i;
}

static int string(int i) {
  i++;
  while (i < N && buf[i] != '"') {
    if (buf[i] == '\\') {
      i++;
      if (i < N && (buf[i] == 'n' || buf[i] == '"')) counts[6]++;
      else counts[7]++;
    }
    i++;
  }
  if (i >= N) { counts[7]++; return N; } /* unterminated */
  counts[5]++;
  return i + 1;
}

static int op(int i) {
  char c = buf[i];
  if ((c == '=' || c == '<' || c == '>' || c == '!') && buf[i + 1] == '=') { counts[4] += 2; return i + 2; }
  if (c == '+' || c == '-' || c == '*' || c == '/' || c == '=' || c == '<' || c == '>') { counts[4]++; return i + 1; }
  counts[7]++;
  return i + 1;
}

int main(void) {
  for (int i = 0; i < N; i++) buf[i] = __VERIFIER_nondet_char();
  buf[N] = 0;
  int i = 0;
  while (i < N && buf[i]) {
    char c = buf[i];
    if (is_space(c)) { i++; continue; }
    if (c == '/' && buf[i + 1] == '/') break; /* comment to end of input */
    if (is_digit(c)) { i = number(i); continue; }
    if (is_alpha(c)) {
      int s = i;
      while (i < N && (is_alpha(buf[i]) || is_digit(buf[i]))) i++;
      if (keyword(s, i - s)) counts[3]++;
      else counts[2]++;
      continue;
    }
    if (c == '"') { i = string(i); continue; }
    i = op(i);
  }
  int kinds = 0;
  for (int k = 0; k < 7; k++)
    if (counts[k]) kinds++;
  if (kinds >= 4) return 2;
  return counts[7] ? 1 : 0;
}
