#!/usr/bin/env python3
"""Rebuilds CREST-style drivers for the Siemens programs the uncovered-branch expectation paper
measured (replace, schedule, schedule2, tcas). The paper drove its subjects through CREST with
symbolic inputs; its text does not give the drivers. Each driver keeps the program and
replaces only how `main` gets its input: command-line numbers and input lines become symbolic
values of fixed count, then `main` does what the original does with them.

- replace: the pattern, the substitution and one input line are arrays of symbolic characters
  (a 0 among them ends the string early); `main` is the original's `argc == 3` case.
- tcas: the twelve command-line integers are symbolic ints.
- schedule, schedule2: the three process counts are symbolic chars modulo 4 (-3..3), then
  NCMD commands, each a symbolic int with a symbolic int priority and a ratio of a symbolic
  char / 100 (-1.28..1.27, so both the valid range 0..1 and the invalid one occur).

usage: crest_driver.py PROGRAM.c OUT.c [SIZES...]   (the program is known by its file name;
       replace: PAT_LEN SUB_LEN LINE_LEN, default 4 4 8; schedule, schedule2: NCMD, default 6)
"""
import os
import sys

NONDET = """extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
"""


def replace(s, sizes):
    pat_len, sub_len, line_len = (sizes + ["4", "4", "8"][len(sizes):])[:3]
    get_line = s[s.index("bool\nget_line(s, maxsize)"):s.index("int\naddstr(")]
    s = s.replace(get_line, NONDET + f"""#define PAT_LEN {pat_len}
#define SUB_LEN {sub_len}
#define LINE_LEN {line_len}
static char line_in[LINE_LEN + 2];
static int lines_read = 0;

bool
get_line(s, maxsize)
char	*s;
int	maxsize;
{{
    int i;
    if (lines_read++ > 0)
	return false;
    for (i = 0; line_in[i] != '\\0'; i++)
	s[i] = line_in[i];
    s[i] = '\\0';
    return true;
}}
""")
    start, end = s.index("main(argc, argv)"), s.index("void\nCaseerror")
    return s[:start] + """int main()
{
   string pat, sub;
   char from[PAT_LEN + 1], to[SUB_LEN + 1];
   bool result;
   int i;

   for (i = 0; i < PAT_LEN; i++)
       from[i] = __VERIFIER_nondet_char();
   from[PAT_LEN] = '\\0';
   for (i = 0; i < SUB_LEN; i++)
       to[i] = __VERIFIER_nondet_char();
   to[SUB_LEN] = '\\0';
   for (i = 0; i < LINE_LEN; i++)
       line_in[i] = __VERIFIER_nondet_char();
   line_in[LINE_LEN] = '\\n';
   line_in[LINE_LEN + 1] = '\\0';

   result = getpat(from, pat);
   if (!result)
   {
       (void)fprintf(stdout, "change: illegal \\"from\\" pattern\\n");
       exit(2);
   }
   result = getsub(to, sub);
   if (!result)
   {
       (void)fprintf(stdout, "change: illegal \\"to\\" string\\n");
       exit(3);
   }
   change(pat, sub);
   return 0;
}

""" + s[end:]


def tcas(s, sizes):
    start = s.index("main(argc, argv)")
    reads = s[s.index("Cur_Vertical_Sep = atoi", start):s.index("fprintf(stdout, \"%d\\n\"", start)]
    names = [line.split("=")[0].strip() for line in reads.strip().splitlines()]
    body = "".join(f"    {n} = __VERIFIER_nondet_int();\n" for n in names)
    return s[:start] + NONDET + f"""int main()
{{
    initialize();
{body}    fprintf(stdout, "%d\\n", alt_sep_test());
    return 0;
}}
"""


def schedule(s, sizes):
    ncmd = (sizes + ["6"])[0]
    s = s.replace("fscanf(stdin, \"%d\", &command)", "next_int(&command)")
    s = s.replace("fscanf(stdin, \"%d\", &prio)", "next_int(&prio)")
    s = s.replace("fscanf(stdin, \"%f\", &ratio)", "next_ratio(&ratio)")
    s = s.replace("atoi(argv[prio])", "process_count()")
    s = s.replace("if (argc < (MAXPRIO+1))", "if (0)")
    start = s.index("main(argc, argv)")
    return s[:start] + NONDET + f"""#define NCMD {ncmd}
static int commands_read = 0;
static int process_count(void) {{ return __VERIFIER_nondet_char() % 4; }}
/* The n-th command: EOF after NCMD of them, as fscanf at the end of the input. */
static int next_int(int *v) {{
    if (commands_read >= 3 * NCMD) return EOF;
    commands_read++;
    *v = __VERIFIER_nondet_int();
    return 1;
}}
static int next_ratio(float *r) {{ *r = __VERIFIER_nondet_char() / 100.0f; return 1; }}

int main(argc, argv)
""" + s[start + len("main(argc, argv)\n"):]


def schedule2(s, sizes, header):
    ncmd = (sizes + ["6"])[0]
    s = s.replace("#include \"schedule2.h\"", header)
    s = s.replace("if(argc != MAXPRIO + 1) exit_here(BADNOARGS);", "")
    s = s.replace("atoi(argv[MAXPRIO + 1 - prio])", "__VERIFIER_nondet_char() % 4")
    start = s.index("int \nget_command(command, prio, ratio)")
    end = s.index("exit_here(status)\n")
    return s[:s.index("static struct process * current_job;")] + NONDET + f"""#define NCMD {ncmd}
static int commands_read = 0;
""" + s[s.index("static struct process * current_job;"):start] + """int
get_command(command, prio, ratio)
    int *command, *prio;
    float *ratio;
{
    if (commands_read++ >= NCMD)
        return FALSE;
    *command = __VERIFIER_nondet_int();
    *prio = __VERIFIER_nondet_int();
    *ratio = __VERIFIER_nondet_char() / 100.0f;
    return TRUE;
}

""" + s[end:]


def main():
    src, out, sizes = sys.argv[1], sys.argv[2], sys.argv[3:]
    s = open(src).read()
    name = os.path.basename(src).split(".")[0]
    if name == "replace":
        s = replace(s, sizes)
    elif name == "tcas":
        s = tcas(s, sizes)
    elif name == "schedule":
        s = schedule(s, sizes)
    elif name == "schedule2":
        header = open(os.path.join(os.path.dirname(src), "schedule2.h")).read()
        s = schedule2(s, sizes, header)
    else:
        sys.exit(f"crest_driver.py: no driver for {src} (replace, schedule, schedule2, tcas)")
    open(out, "w").write(s)


main()
