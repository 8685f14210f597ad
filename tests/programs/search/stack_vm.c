/* A small stack machine: 10 input instructions (opcode, operand), nested calls for arithmetic
   and checks, errors that end the run, and a result check at the end. */
/* infeasible: 1 (binary is only called with opcodes 2..5: its default) */
extern int __VERIFIER_nondet_int(void);

#define DEPTH 4
static int stack[DEPTH];
static int sp, faults;

static int push(int v) {
  if (sp >= DEPTH) { faults++; return 0; }
  stack[sp++] = v;
  return 1;
}

static int pop(int *v) {
  if (sp <= 0) { faults++; return 0; }
  *v = stack[--sp];
  return 1;
}

static int binary(int op) {
  int a, b;
  if (!pop(&b) || !pop(&a)) return 0;
  int r;
  switch (op) {
  case 2: r = a + b; break;
  case 3: r = a - b; break;
  case 4: r = a * b; break;
  case 5:
    if (b == 0) { faults++; return 0; }
    r = a / b;
    break;
  default: r = 0;
  }
  if (r < -10000 || r > 10000) { faults++; return 0; } /* keeps every operand small */
  return push(r);
}

static int compare(int op) {
  int a, b;
  if (!pop(&b) || !pop(&a)) return 0;
  if (op == 6) return push(a == b);
  return push(a < b);
}

int main(void) {
  int halted = 0;
  for (int pc = 0; pc < 10 && !halted; pc++) {
    int op = __VERIFIER_nondet_int();
    int arg = __VERIFIER_nondet_int();
    switch (op) {
    case 0: halted = 1; break;
    case 1:
      if (arg < -100 || arg > 100) faults++;
      else push(arg);
      break;
    case 2: case 3: case 4: case 5: binary(op); break;
    case 6: case 7: compare(op); break;
    case 8: { int v; if (pop(&v)) { push(v); push(v); } break; }
    default: faults++;
    }
    if (faults > 2) return 9;
  }
  int top;
  if (!halted || !pop(&top)) return 0;
  if (top == 42) return 1;
  if (top < 0) return 2;
  return 3;
}
