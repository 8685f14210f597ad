#!/usr/bin/env python3
"""Rebuilds a CREST-style driver for the Siemens `replace` (the uncovered-branch expectation
paper drove its subjects through CREST with symbolic inputs; its text does not give the
drivers). The pattern, the substitution and one input line become arrays of symbolic
characters of fixed length (a 0 among them ends the string early); `main` then does what the
original `main` does with `argc == 3`.

usage: crest_driver.py replace.c OUT.c [PAT_LEN SUB_LEN LINE_LEN]   (default 4 4 8)
"""
import sys

src, out = sys.argv[1], sys.argv[2]
pat_len, sub_len, line_len = (sys.argv[3:6] + ["4", "4", "8"][len(sys.argv[3:6]):])
s = open(src).read()
get_line = s[s.index("bool\nget_line(s, maxsize)"):s.index("int\naddstr(")]
s = s.replace(get_line, f"""extern char __VERIFIER_nondet_char(void);
#define PAT_LEN {pat_len}
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
s = s[:start] + """int main()
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
open(out, "w").write(s)
