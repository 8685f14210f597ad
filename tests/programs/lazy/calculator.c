/* Lazy expansion: a small calculator whose parser calls its lexer in a loop. An expression is a
 * number followed by at most OPS operations (`+ - * / %`, or the words `plus minus times over
 * mod`), each an operator and a number; numbers are decimal or 0x-hexadecimal. `calc` returns
 * 1 when the parser accepts its input (and prints the operations it parsed, one path of the
 * parser per line printed), 0 on a syntax error, -1 on a division by zero. Test `calc` in unit
 * mode (--buffer-size 24); compile with -DOPS=N for other bounds. */
#include <stdio.h>
#ifndef OPS
#define OPS 1
#endif

enum { T_END, T_NUM, T_ADD, T_SUB, T_MUL, T_DIV, T_MOD, T_ERROR };

const char *src;
int pos;
long value;

int is_digit(int c) { return c >= '0' && c <= '9'; }
int is_hex_digit(int c) { return is_digit(c) || (c >= 'a' && c <= 'f'); }
int is_letter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
int is_space(int c) { return c == ' ' || c == '\t' || c == '\n'; }

int digit_value(int c) { return is_digit(c) ? c - '0' : c - 'a' + 10; }

/* Whether the n characters at w spell the keyword k. */
int same_word(const char *w, int n, const char *k) {
  int i = 0;
  while (i < n && k[i] != '\0' && w[i] == k[i])
    i++;
  return i == n && k[i] == '\0';
}

int keyword(const char *w, int n) {
  if (same_word(w, n, "plus")) return T_ADD;
  if (same_word(w, n, "minus")) return T_SUB;
  if (same_word(w, n, "times")) return T_MUL;
  if (same_word(w, n, "over")) return T_DIV;
  if (same_word(w, n, "mod")) return T_MOD;
  return T_ERROR;
}

/* The next token of src from pos; a number's value goes to `value`. */
int next_token(void) {
  while (is_space(src[pos]))
    pos++;
  char c = src[pos];
  if (c == '\0')
    return T_END;
  if (is_digit(c)) {
    long v = 0;
    if (c == '0' && src[pos + 1] == 'x' && is_hex_digit(src[pos + 2])) {
      pos += 2;
      while (is_hex_digit(src[pos]))
        v = v * 16 + digit_value(src[pos++]);
    } else {
      while (is_digit(src[pos]))
        v = v * 10 + digit_value(src[pos++]);
    }
    if (is_letter(src[pos]))
      return T_ERROR; /* 12ab */
    value = v;
    return T_NUM;
  }
  if (is_letter(c)) {
    int start = pos;
    while (is_letter(src[pos]))
      pos++;
    return keyword(src + start, pos - start);
  }
  pos++;
  switch (c) {
  case '+': return T_ADD;
  case '-': return T_SUB;
  case '*': return T_MUL;
  case '/': return T_DIV;
  case '%': return T_MOD;
  }
  return T_ERROR;
}

int calc(const char *input) {
  src = input;
  pos = 0;
  if (next_token() != T_NUM)
    return 0;
  long acc = value;
  int ops = 0;
  char shape[OPS + 2];
  for (;;) {
    int op = next_token();
    if (op == T_END)
      break;
    if (ops == OPS)
      return 0;
    if (op < T_ADD || op > T_MOD)
      return 0;
    if (next_token() != T_NUM)
      return 0;
    shape[ops] = "  +-*/%"[op];
    switch (op) {
    case T_ADD: acc += value; break;
    case T_SUB: acc -= value; break;
    case T_MUL: acc *= value; break;
    default:
      if (value == 0)
        return -1;
      acc = op == T_DIV ? acc / value : acc % value;
    }
    ops++;
  }
  shape[ops] = '\0';
  printf("ok n%s\n", shape);
  return 1;
}

int main(void) { return calc("12 plus 0x1f") == 1 ? 0 : 1; }
