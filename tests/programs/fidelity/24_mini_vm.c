/* A tiny stack-machine interpreter whose bytecode comes from inputs; bounded steps, checked stack, no UB. */
#include <stdio.h>
#include <stdint.h>

extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

enum op { PUSH, POP, ADD, SUB, MUL, DIV, MOD, DUP, SWAP, JZ, JMP, PRINT, NEG, LT, HALT, INC };
static const char *opnames[16] = { "PUSH", "POP", "ADD", "SUB", "MUL", "DIV", "MOD", "DUP",
                                   "SWAP", "JZ", "JMP", "PRINT", "NEG", "LT", "HALT", "INC" };

#define CODE 32
#define STACK 16
#define MAXSTEPS 200

struct vm { unsigned char code[CODE]; int32_t stack[STACK]; int sp; int pc; int steps; int printed; };

static int pop(struct vm *m, int32_t *out) {
    if (m->sp == 0) return 0;
    *out = m->stack[--m->sp];
    return 1;
}
static int push(struct vm *m, int32_t v) {
    if (m->sp == STACK) return 0;
    m->stack[m->sp++] = v;
    return 1;
}
static int32_t wrap(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* returns: 0 halted, 1 step limit, 2 stack error, 3 ran off end */
static int run(struct vm *m, int trace) {
    int32_t a, b;
    while (m->steps < MAXSTEPS) {
        if (m->pc < 0 || m->pc >= CODE) return 3;
        unsigned char ins = m->code[m->pc];
        unsigned op = ins & 15u, arg = ins >> 4;
        if (trace) printf("  %2d: %-5s %u sp=%d\n", m->pc, opnames[op], arg, m->sp);
        m->pc++;
        m->steps++;
        switch ((enum op)op) {
        case PUSH: if (!push(m, (int32_t)arg)) return 2; break;
        case POP: if (!pop(m, &a)) return 2; break;
        case ADD: if (!pop(m, &b) || !pop(m, &a)) return 2; push(m, wrap((int64_t)a + b)); break;
        case SUB: if (!pop(m, &b) || !pop(m, &a)) return 2; push(m, wrap((int64_t)a - b)); break;
        case MUL: if (!pop(m, &b) || !pop(m, &a)) return 2; push(m, wrap((int64_t)a * b)); break;
        case DIV:
            if (!pop(m, &b) || !pop(m, &a)) return 2;
            push(m, (b == 0 || (a == INT32_MIN && b == -1)) ? 0 : a / b);
            break;
        case MOD:
            if (!pop(m, &b) || !pop(m, &a)) return 2;
            push(m, (b == 0 || (a == INT32_MIN && b == -1)) ? 0 : a % b);
            break;
        case DUP: if (!pop(m, &a)) return 2; push(m, a); if (!push(m, a)) return 2; break;
        case SWAP: if (!pop(m, &b) || !pop(m, &a)) return 2; push(m, b); push(m, a); break;
        case JZ: if (!pop(m, &a)) return 2; if (a == 0) m->pc = (int)(arg * 2u); break;
        case JMP: m->pc = (int)(arg * 2u); break;
        case PRINT: if (!pop(m, &a)) return 2; printf("out %d\n", a); m->printed++; break;
        case NEG: if (!pop(m, &a)) return 2; push(m, wrap(-(int64_t)a)); break;
        case LT: if (!pop(m, &b) || !pop(m, &a)) return 2; push(m, a < b); break;
        case HALT: return 0;
        case INC: if (!pop(m, &a)) return 2; push(m, wrap((int64_t)a + (int64_t)arg + 1)); break;
        }
    }
    return 1;
}

int main(void) {
    struct vm m = { .sp = 0, .pc = 0, .steps = 0, .printed = 0 };
    for (int i = 0; i < CODE; i++) m.code[i] = __VERIFIER_nondet_uchar();
    int trace = __VERIFIER_nondet_int() & 1;
    for (int i = 0; i < 4; i++) m.stack[i] = __VERIFIER_nondet_int();   /* seed values on the stack */
    m.sp = 4;
    int status = run(&m, trace);
    static const char *why[] = { "halt", "step limit", "stack error", "pc out of range" };
    printf("status=%s steps=%d pc=%d sp=%d printed=%d\n", why[status], m.steps, m.pc, m.sp, m.printed);
    int64_t sum = 0;
    for (int i = 0; i < m.sp; i++) sum += m.stack[i];
    printf("stack sum=%lld top=%d\n", (long long)sum, m.sp ? m.stack[m.sp - 1] : 0);

    /* a fixed program: count down from 5, printing each value (jump targets are arg*2) */
    struct vm f = { .code = { 0x50 | PUSH, 0x10 | JMP, DUP, PRINT, 0x10 | PUSH, SUB, DUP, 0x50 | JZ,
                              0x10 | JMP, HALT, HALT },
                    .sp = 0, .pc = 0, .steps = 0, .printed = 0 };
    int st2 = run(&f, 0);
    printf("fixed status=%s printed=%d\n", why[st2], f.printed);
    return status * 4 + (m.printed & 3);
}
