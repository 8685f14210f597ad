//! Generators of C programs of the shapes the techniques are for, drawn at random from a seed:
//! test beds written by no one, so a technique cannot be tuned to them. Shared by the tests
//! (a few seeds, budgets in iterations) and the benches (`#[path]`-included; 50 seeds).
#![allow(dead_code)]

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::fmt::Write;

/// A generated program and what its generator knows of it.
pub struct Generated {
    pub name: String,
    pub source: String,
    /// Branch outcomes the generator made infeasible (a check no input can pass), when it
    /// knows every one (then a proof beyond them is unsound).
    pub infeasible_checks: Option<usize>,
    /// Options `cairn gen` needs for it (unit mode: the entry and the buffers' size).
    pub args: Vec<String>,
}

impl Generated {
    /// Writes the program into `dir` under its name; its path.
    pub fn write_in(&self, dir: &std::path::Path) -> std::path::PathBuf {
        let path = dir.join(&self.name);
        std::fs::write(&path, &self.source).unwrap();
        path
    }
}

/// How a loop-and-flag program's flag is set from the input read in each iteration.
#[derive(Clone, Copy)]
enum Flag {
    /// `if (lo < x && x < hi) f = v;`: some input in a range.
    Range { lo: i32, hi: i32, v: i32 },
    /// `if (x == c) f = v;`: some input equal to a constant.
    Equal { c: i32, v: i32 },
    /// `f = v` before the loop, `if (x != c) f = 0;`: every input equal to a constant.
    All { c: i32, v: i32 },
    /// `if (x < c) f++;`: how many inputs lie below a constant (at most the iterations).
    Count { c: i32 },
}

/// Crabs' shape (abstraction-driven concolic testing, and `tests/programs/crabs/mixed.c`): a
/// loop reading one input per iteration, flags set by range and equality tests on the inputs,
/// checks after the loop of which some have an infeasible outcome that only an invariant of the
/// loop proves (a flag takes only its two values; a count never exceeds the iterations).
pub fn loop_flags(seed: u64) -> Generated {
    let mut r = SmallRng::seed_from_u64(seed);
    let n = r.gen_range(10..=40);
    let flags: Vec<Flag> = (0..r.gen_range(2..=4))
        .map(|_| {
            let c = r.gen_range(-500..500);
            let v = r.gen_range(1..=9);
            match r.gen_range(0..4) {
                0 => Flag::Range {
                    lo: c,
                    hi: c + r.gen_range(2..50),
                    v,
                },
                1 => Flag::Equal { c, v },
                2 => Flag::All { c, v },
                _ => Flag::Count { c },
            }
        })
        .collect();
    let mut s = header("loop_flags", seed);
    let _ = writeln!(s, "extern int __VERIFIER_nondet_int(void);");
    let _ = writeln!(s, "int main(void) {{");
    for (i, f) in flags.iter().enumerate() {
        let init = match f {
            Flag::All { v, .. } => *v,
            _ => 0,
        };
        let _ = writeln!(s, "  int f{i} = {init};");
    }
    let _ = writeln!(s, "  for (int i = 0; i < {n}; i++) {{");
    let _ = writeln!(s, "    int x = __VERIFIER_nondet_int();");
    for (i, f) in flags.iter().enumerate() {
        let _ = match f {
            Flag::Range { lo, hi, v } => {
                writeln!(s, "    if ({lo} < x && x < {hi}) f{i} = {v};")
            }
            Flag::Equal { c, v } => writeln!(s, "    if (x == {c}) f{i} = {v};"),
            Flag::All { c, .. } => writeln!(s, "    if (x != {c}) f{i} = 0;"),
            Flag::Count { c } => writeln!(s, "    if (x < {c}) f{i}++;"),
        };
    }
    let _ = writeln!(s, "  }}");
    let _ = writeln!(s, "  int r = 0;");
    let mut infeasible = 0;
    for (i, f) in flags.iter().enumerate() {
        let bit = 1 << i;
        // A feasible check of the flag's set value, and, for most flags, one no input passes.
        let (feasible, impossible) = match f {
            Flag::Range { v, .. } | Flag::Equal { v, .. } | Flag::All { v, .. } => {
                let wrong = match r.gen_range(0..3) {
                    0 => format!("f{i} == {}", v + r.gen_range(1..5)),
                    1 => format!("f{i} > {v}"),
                    _ => format!("f{i} < 0"),
                };
                (format!("f{i} == {v}"), wrong)
            }
            Flag::Count { .. } => (format!("f{i} == {n}"), format!("f{i} > {n}")),
        };
        let _ = writeln!(s, "  if ({feasible}) r += {bit};");
        if r.gen_bool(0.7) {
            let _ = writeln!(
                s,
                "  if ({impossible}) r += {};  /* infeasible */",
                bit * 16
            );
            infeasible += 1;
        }
    }
    let _ = writeln!(s, "  return r;");
    let _ = writeln!(s, "}}");
    Generated {
        name: format!("loop_flags_{seed}.c"),
        source: s,
        infeasible_checks: Some(infeasible),
        args: vec![],
    }
}

/// A hand-written string helper the parsing shape calls on its input words.
#[derive(Clone, Copy)]
enum Helper {
    /// `compare(a, b)`: strcmp, a loop over both words.
    Compare,
    /// `starts(a, p)`: 1 when the word begins with `p`.
    Starts,
    /// `length(a)`: the word's length, a loop to its end.
    Length,
}

/// Lazy expansion's shape (LATEST's Figure 1, and `tests/programs/lazy/compare_words.c`): a
/// unit that calls small hand-written string functions on its input words and branches on
/// their results, nested; every branch of the unit needs its helper's loop to agree with a
/// constant word. Unit mode: `--entry testme`.
pub fn parsing(seed: u64) -> Generated {
    let mut r = SmallRng::seed_from_u64(seed);
    let words = r.gen_range(2..=3);
    let mut longest = 0;
    let word = |r: &mut SmallRng, longest: &mut usize| {
        let n = r.gen_range(3..=10);
        *longest = (*longest).max(n);
        (0..n)
            .map(|_| (b'a' + r.gen_range(0..26u8)) as char)
            .collect::<String>()
    };
    // Per input word: the helper's call, and the comparison of its result that passes.
    let tests: Vec<(String, String)> = (0..words)
        .map(
            |i| match [Helper::Compare, Helper::Starts, Helper::Length][r.gen_range(0..3)] {
                Helper::Compare => (
                    format!("compare(w{i}, \"{}\")", word(&mut r, &mut longest)),
                    " == 0".into(),
                ),
                Helper::Starts => (
                    format!("starts(w{i}, \"{}\")", word(&mut r, &mut longest)),
                    String::new(),
                ),
                Helper::Length => {
                    let n = r.gen_range(2..=8);
                    longest = longest.max(n);
                    (format!("length(w{i})"), format!(" == {n}"))
                }
            },
        )
        .collect();
    // Figure 1's order (every call first, then the branches on the results), or each call in
    // the branch of the one before.
    let upfront = r.gen_bool(0.5);
    let mut s = header("parsing", seed);
    s.push_str(
        "int compare(const char *a, const char *b) {
  while (*a != '\\0' && *b != '\\0' && *a == *b) {
    a++;
    b++;
  }
  return *a - *b;
}

int starts(const char *a, const char *p) {
  while (*p != '\\0') {
    if (*a != *p)
      return 0;
    a++;
    p++;
  }
  return 1;
}

int length(const char *a) {
  int n = 0;
  while (a[n] != '\\0')
    n++;
  return n;
}

",
    );
    let params: Vec<String> = (0..words).map(|i| format!("const char *w{i}")).collect();
    let _ = writeln!(s, "int testme({}) {{", params.join(", "));
    let _ = writeln!(s, "  int r = 0;");
    if upfront {
        for (i, (call, _)) in tests.iter().enumerate() {
            let _ = writeln!(s, "  int t{i} = {call};");
        }
    }
    // Nested: each word's test inside the previous one's, with an else at a random level.
    for (i, (call, pass)) in tests.iter().enumerate() {
        let pad = "  ".repeat(i + 1);
        let result = if upfront {
            format!("t{i}")
        } else {
            call.clone()
        };
        let _ = writeln!(s, "{pad}if ({result}{pass}) {{");
        let _ = writeln!(s, "{pad}  r += {};", 1 << i);
    }
    for i in (0..words).rev() {
        let pad = "  ".repeat(i + 1);
        if r.gen_bool(0.5) {
            let _ = writeln!(s, "{pad}}} else {{");
            let _ = writeln!(s, "{pad}  r -= {};", 1 << i);
        }
        let _ = writeln!(s, "{pad}}}");
    }
    let _ = writeln!(s, "  return r;");
    let _ = writeln!(s, "}}");
    let args: Vec<&str> = (0..words).map(|_| "\"x\"").collect();
    let _ = writeln!(
        s,
        "\nint main(void) {{ return testme({}); }}",
        args.join(", ")
    );
    Generated {
        name: format!("parsing_{seed}.c"),
        source: s,
        // Helpers it does not call are unreachable too.
        infeasible_checks: None,
        args: vec![
            "--entry".into(),
            "testme".into(),
            "--buffer-size".into(),
            (longest + 4).to_string(),
        ],
    }
}

/// A condition the walk's shape tests, with the witness the generator drew it from.
enum Target {
    /// Integers: `x*y == c`, `x*x - k*y == c`, `x*x + y*y == c`, `x*x*x + y == c`.
    Poly(String),
    /// A math-library call on a double in a window around the witness.
    Library(String),
}

/// The concolic walk's shape (non-linear and library-call conditions): a `main` whose checks
/// each read their own inputs and pass only for values the generator drew (a product, a
/// polynomial, a window of `sin`, `sqrt`, `log`, `exp` or `pow` around a point). Every check
/// is feasible: a proof of any outcome unreachable is unsound.
pub fn nonlinear(seed: u64) -> Generated {
    let mut r = SmallRng::seed_from_u64(seed);
    let checks = r.gen_range(3..=6);
    let mut s = header("nonlinear", seed);
    let _ = writeln!(s, "#include <math.h>");
    let _ = writeln!(s, "extern int __VERIFIER_nondet_int(void);");
    let _ = writeln!(s, "extern double __VERIFIER_nondet_double(void);");
    let _ = writeln!(s, "int main(void) {{");
    let _ = writeln!(s, "  int r = 0;");
    for i in 0..checks {
        let (a, b): (i64, i64) = (r.gen_range(-90..=90), r.gen_range(-90..=90));
        let d: f64 = r.gen_range(1.5..60.0);
        let target = match r.gen_range(0..9) {
            0 => Target::Poly(format!("x * y == {}", a * b)),
            1 => {
                let k = r.gen_range(2..9);
                Target::Poly(format!("x * x - {k} * y == {}", a * a - k * b))
            }
            2 => Target::Poly(format!("x * x + y * y == {} && x > y", a * a + b * b)),
            3 => Target::Poly(format!("x * x * x + y == {}", a * a * a + b)),
            k => {
                // (the C call, its value at the witness, the window's half-width relative to it)
                let (call, v, rel) = match k {
                    4 => ("sin(d)", d.sin(), None),
                    5 => ("sqrt(d)", d.sqrt(), None),
                    6 => ("log(d)", d.ln(), None),
                    7 => ("exp(d / 8)", (d / 8.0).exp(), Some(1e-5)),
                    _ => ("pow(d, 1.5)", d.powf(1.5), Some(1e-5)),
                };
                let half = rel.map_or(if k == 4 { 2e-4 } else { 1e-4 }, |r| v * r);
                Target::Library(format!(
                    "{call} > {:.6} && {call} < {:.6}",
                    v - half,
                    v + half
                ))
            }
        };
        let bit = 1 << i;
        let _ = writeln!(s, "  {{");
        match target {
            Target::Poly(cond) => {
                let _ = writeln!(s, "    int x = __VERIFIER_nondet_int();");
                let _ = writeln!(s, "    int y = __VERIFIER_nondet_int();");
                // Small inputs keep the products exact in 32 bits.
                let _ = writeln!(s, "    if (x > -100 && x < 100 && y > -100 && y < 100)");
                let _ = writeln!(s, "      if ({cond}) r += {bit};");
            }
            Target::Library(cond) => {
                let _ = writeln!(s, "    double d = __VERIFIER_nondet_double();");
                let _ = writeln!(s, "    if (d > 1.0 && d < 64.0)");
                let _ = writeln!(s, "      if ({cond}) r += {bit};");
            }
        }
        let _ = writeln!(s, "  }}");
    }
    let _ = writeln!(s, "  return r;");
    let _ = writeln!(s, "}}");
    Generated {
        name: format!("nonlinear_{seed}.c"),
        source: s,
        infeasible_checks: Some(0),
        args: vec![],
    }
}

/// Data-flow testing's shape (def-use chains through loops and pointers): variables defined
/// in a loop under conditions on inputs, through a pointer chosen by an input and through a
/// setter function, then used in later iterations and in checks after the loop.
/// Criterion def-use.
pub fn def_use_chains(seed: u64) -> Generated {
    let mut r = SmallRng::seed_from_u64(seed);
    let vars = r.gen_range(2..=4);
    // Long enough that exploring every path of the loop is out of reach.
    let n = r.gen_range(8..=40);
    let v = |i: usize| format!("v{i}");
    let mut s = header("def_use_chains", seed);
    let _ = writeln!(s, "extern int __VERIFIER_nondet_int(void);");
    let _ = writeln!(s, "int g;");
    let _ = writeln!(s, "void set(int *p, int x) {{ *p = x; }}");
    let _ = writeln!(s, "int main(void) {{");
    for i in 0..vars {
        let _ = writeln!(s, "  int {} = {};", v(i), r.gen_range(-3..4));
    }
    let _ = writeln!(s, "  int sel = __VERIFIER_nondet_int();");
    // Two different variables (vars >= 2), and two different ones in each comparison below.
    let other = |r: &mut SmallRng, a: usize| (a + r.gen_range(1..vars)) % vars;
    let p = r.gen_range(0..vars);
    let q = other(&mut r, p);
    let _ = writeln!(
        s,
        "  int *p = sel > {} ? &{} : &{};",
        r.gen_range(-5..5),
        v(p),
        v(q)
    );
    let _ = writeln!(s, "  for (int i = 0; i < {n}; i++) {{");
    let _ = writeln!(s, "    int x = __VERIFIER_nondet_int();");
    for _ in 0..r.gen_range(2..=4) {
        let a = r.gen_range(0..vars);
        let b = r.gen_range(0..vars);
        let c = r.gen_range(-20..20);
        let _ = match r.gen_range(0..5) {
            0 => writeln!(s, "    if (x > {c}) {} = x;", v(a)),
            1 => writeln!(s, "    if (x == {c}) *p = i;"),
            2 => writeln!(s, "    {} += {};", v(a), v(b)),
            3 => writeln!(s, "    if ({} < {c}) {} = {} - x;", v(b), v(a), v(b)),
            _ => writeln!(s, "    if (x < {c}) set(&{}, {} + 1);", v(a), v(b)),
        };
    }
    let _ = writeln!(s, "  }}");
    let _ = writeln!(s, "  int r = 0;");
    for _ in 0..r.gen_range(2..=4) {
        let a = r.gen_range(0..vars);
        let b = other(&mut r, a);
        let c = r.gen_range(-10..30);
        let _ = match r.gen_range(0..3) {
            0 => writeln!(s, "  if ({} > {c}) r += {};", v(a), v(b)),
            1 => writeln!(s, "  if ({} == {}) g = {};", v(a), v(b), v(a)),
            _ => writeln!(s, "  set(&g, {} - {});", v(a), v(b)),
        };
    }
    let _ = writeln!(s, "  if (g > {}) r++;", r.gen_range(-5..10));
    let _ = writeln!(s, "  return r + *p;");
    let _ = writeln!(s, "}}");
    Generated {
        name: format!("def_use_chains_{seed}.c"),
        source: s,
        infeasible_checks: None,
        args: vec!["--criterion".into(), "def-use".into()],
    }
}

/// Where a stray-reads program keeps its table and the objects beside it.
#[derive(Clone, Copy, Debug)]
enum Storage {
    Global,
    Stack,
    Heap,
}

/// Trust's shape (`tests/programs/engine/table_index.c`, tcas' `ALIM()`): a table read at an
/// input index with no range check, beside objects the inputs fill. Past the table's end the
/// read lands in whatever the layout put there; natively that is not Cairn's layout, so no
/// branch on the value read may be proven unreachable or claimed from a neighbour's value.
/// The table and its neighbours are globals, locals or heap blocks, of random element types,
/// sizes and order; the index is a byte, a short or an int, sometimes offset; the program
/// reads the element itself or has `memcpy` copy it.
pub fn stray_reads(seed: u64) -> Generated {
    let mut r = SmallRng::seed_from_u64(seed);
    let storage = [Storage::Global, Storage::Stack, Storage::Heap][r.gen_range(0..3)];
    let elem = ["char", "short", "int", "long"][r.gen_range(0..4)];
    let n = r.gen_range(1..=6);
    let m = r.gen_range(1..=12);
    let values: Vec<i32> = (0..n).map(|_| r.gen_range(1..100)).collect();
    let (index_ty, nondet) = [
        ("unsigned char", "uchar"),
        ("unsigned short", "ushort"),
        ("int", "int"),
    ][r.gen_range(0..3)];
    let offset = if r.gen_bool(0.3) {
        r.gen_range(-3..=3)
    } else {
        0
    };
    let neighbour_first = r.gen_bool(0.3);
    let mut s = header("stray_reads", seed);
    let _ = writeln!(s, "#include <stdlib.h>\n#include <string.h>");
    let _ = writeln!(s, "extern int __VERIFIER_nondet_int(void);");
    if nondet != "int" {
        let _ = writeln!(s, "extern {index_ty} __VERIFIER_nondet_{nondet}(void);");
    }
    let init: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    let table = format!("{elem} table[{n}] = {{{}}};", init.join(", "));
    let neighbour = format!("int neighbour[{m}];");
    let declare = |s: &mut String, indent: &str| {
        let (a, b) = if neighbour_first {
            (&neighbour, &table)
        } else {
            (&table, &neighbour)
        };
        let _ = writeln!(s, "{indent}{a}\n{indent}{b}");
    };
    if let Storage::Global = storage {
        declare(&mut s, "");
    }
    let _ = writeln!(s, "int main(void) {{");
    match storage {
        Storage::Global => {}
        Storage::Stack => declare(&mut s, "  "),
        Storage::Heap => {
            let _ = writeln!(s, "  {elem} *table = malloc({n} * sizeof({elem}));");
            let _ = writeln!(s, "  int *neighbour = malloc({m} * sizeof(int));");
            let _ = writeln!(s, "  if (!table || !neighbour) return 9;");
            for (k, v) in values.iter().enumerate() {
                let _ = writeln!(s, "  table[{k}] = {v};");
            }
        }
    }
    let _ = writeln!(s, "  for (int k = 0; k < {m}; k++)");
    let _ = writeln!(s, "    neighbour[k] = __VERIFIER_nondet_int();");
    let _ = writeln!(s, "  {index_ty} i = __VERIFIER_nondet_{nondet}();");
    // Read by the program, or copied out by the library.
    if r.gen_bool(0.3) {
        let _ = writeln!(s, "  {elem} t;");
        let _ = writeln!(s, "  memcpy(&t, &table[i + ({offset})], sizeof t);");
    } else {
        let _ = writeln!(s, "  {elem} t = table[i + ({offset})];");
    }
    for v in values.iter().take(2) {
        let _ = writeln!(s, "  if (t == {v}) return 1;");
    }
    // Values no element of the table holds: only a read past it could give them.
    let _ = writeln!(s, "  if (t == {}) return 2;", r.gen_range(100..127));
    let _ = writeln!(s, "  if (t < 0) return 3;");
    let _ = writeln!(s, "  return 0;");
    let _ = writeln!(s, "}}");
    Generated {
        name: format!("stray_reads_{seed}.c"),
        source: s,
        infeasible_checks: Some(0),
        args: vec![],
    }
}

/// A generated program's first line: which shape and seed it is.
fn header(shape: &str, seed: u64) -> String {
    format!("// {shape}({seed}): generated by tests/common/shapes.rs\n")
}

/// A rule's test of one state variable.
#[derive(Clone, Copy)]
enum Test {
    Equal(i32),
    /// `lo < a && a <= hi`
    Within(i32, i32),
}

/// The shape of event-condition-action systems (the RERS problems, issue 34's reactive loss):
/// state variables, one input symbol read per step in an endless loop, rules that test the
/// symbol and the state and set state variables, error calls on some states. Most rules
/// follow a random walk through the states from the initial one, so the deep rules are
/// reached only through long input sequences; the others test values the walk did not
/// produce (reachable or not: the generator does not know).
pub fn reactive(seed: u64) -> Generated {
    reactive_system(seed, false, false)
}

/// The same system with its loop in a function `main` calls twice (the second call goes on
/// from the state the first left): states at the loop's head repeat across the calls, where
/// `main`'s frame differs.
pub fn reactive_called(seed: u64) -> Generated {
    reactive_system(seed, true, false)
}

/// The same system holding an input across steps, as a token ring holds its token: some
/// rules draw a fresh token (`token = local = input`), some pass it on (`token = local + 1`),
/// some test it against a threshold; an error call where the token and its copy disagree
/// (never), others on a passed token in a state of the walk. States at the loop's head hold
/// the token's expression and the conditions on it, and repeat only up to which input it was.
pub fn reactive_held(seed: u64) -> Generated {
    reactive_system(seed, false, true)
}

fn reactive_system(seed: u64, called: bool, held: bool) -> Generated {
    let mut r = SmallRng::seed_from_u64(seed);
    // The token's choices from their own generator: the system is the same one as without.
    let mut t = SmallRng::seed_from_u64(seed ^ 0x70c3);
    let thresholds: Vec<i32> = (0..t.gen_range(1..=2))
        .map(|_| t.gen_range(-50..=50))
        .collect();
    let vars = r.gen_range(4..=10);
    let mut symbols: Vec<i32> = (1..=26).collect();
    for i in 0..symbols.len() {
        let j = r.gen_range(i..symbols.len());
        symbols.swap(i, j);
    }
    symbols.truncate(r.gen_range(4..=8));
    // Each variable's values (the first is its initial one).
    let domains: Vec<Vec<i32>> = (0..vars)
        .map(|_| {
            let mut d: Vec<i32> = Vec::new();
            while d.len() < r.gen_range(3..=6) {
                let v = r.gen_range(-20..=40);
                if !d.contains(&v) {
                    d.push(v);
                }
            }
            d
        })
        .collect();
    let mut state: Vec<i32> = domains.iter().map(|d| d[0]).collect();
    let mut visited = vec![state.clone()];
    let name = format!(
        "reactive{}{}",
        if called { "_called" } else { "" },
        if held { "_held" } else { "" }
    );
    let mut s = header(&name, seed);
    let _ = writeln!(s, "extern int __VERIFIER_nondet_int(void);");
    let _ = writeln!(s, "extern void __VERIFIER_error(void);");
    for (v, d) in domains.iter().enumerate() {
        let _ = writeln!(s, "static int a{v} = {};", d[0]);
    }
    if held {
        let _ = writeln!(s, "static int token, local;");
    }
    let mut rules = String::new();
    for k in 0..r.gen_range(40..=250) {
        let walk = r.gen_bool(0.8);
        let mut tested: Vec<usize> = Vec::new();
        while tested.len() < r.gen_range(1..=3).min(vars) {
            let v = r.gen_range(0..vars);
            if !tested.contains(&v) {
                tested.push(v);
            }
        }
        let symbol = symbols[r.gen_range(0..symbols.len())];
        let mut guard = format!("input == {symbol}");
        for &v in &tested {
            let value = match walk {
                true => state[v],
                false => domains[v][r.gen_range(0..domains[v].len())],
            };
            let test = match r.gen_bool(0.25) {
                true => Test::Within(value - r.gen_range(1..6), value + r.gen_range(0..6)),
                false => Test::Equal(value),
            };
            let _ = match test {
                Test::Equal(c) => write!(guard, " && a{v} == {c}"),
                Test::Within(lo, hi) => write!(guard, " && ({lo} < a{v} && a{v} <= {hi})"),
            };
        }
        if held && t.gen_bool(0.15) {
            let c = thresholds[t.gen_range(0..thresholds.len())];
            let _ = write!(guard, " && token > {c}");
        }
        let mut effects = String::new();
        if held {
            match t.gen_range(0..10) {
                0 => effects.push_str("token = __VERIFIER_nondet_int(); local = token; "),
                1 => effects.push_str("token = local + 1; "),
                _ => {}
            }
        }
        for _ in 0..r.gen_range(1..=2) {
            let v = r.gen_range(0..vars);
            let value = domains[v][r.gen_range(0..domains[v].len())];
            let _ = write!(effects, "a{v} = {value}; ");
            if walk {
                state[v] = value;
            }
        }
        if walk && !visited.contains(&state) {
            visited.push(state.clone());
        }
        let _ = writeln!(
            rules,
            "  if ({guard}) {{ {effects}return {}; }}",
            18 + k % 9
        );
    }
    // Errors on states of the walk (deep ones more often) and on states it may not reach;
    // never on the initial state (as in RERS: an error there would end every run at once).
    let init: Vec<i32> = domains.iter().map(|d| d[0]).collect();
    let _ = writeln!(s, "static void check_errors(void) {{");
    for _ in 0..r.gen_range(3..=8) {
        let at: Vec<i32> = match r.gen_bool(0.6) {
            true => visited[r.gen_range(visited.len() / 2..visited.len())].clone(),
            false => domains.iter().map(|d| d[r.gen_range(0..d.len())]).collect(),
        };
        // A variable where the state differs from the initial one first, then one or two more.
        let differing: Vec<usize> = (0..vars).filter(|&v| at[v] != init[v]).collect();
        if differing.is_empty() {
            continue;
        }
        let mut tested = vec![differing[r.gen_range(0..differing.len())]];
        while tested.len() < r.gen_range(2..=3).min(vars) {
            let v = r.gen_range(0..vars);
            if !tested.contains(&v) {
                tested.push(v);
            }
        }
        let cond: Vec<String> = tested
            .iter()
            .map(|&v| format!("a{v} == {}", at[v]))
            .collect();
        let _ = writeln!(s, "  if ({}) __VERIFIER_error();", cond.join(" && "));
    }
    if held {
        let _ = writeln!(
            s,
            "  if (token != local && token != local + 1) __VERIFIER_error();"
        );
        let at = &visited[t.gen_range(visited.len() / 2..visited.len())];
        let v = t.gen_range(0..vars);
        let _ = writeln!(
            s,
            "  if (token == local + 1 && a{v} == {}) __VERIFIER_error();",
            at[v]
        );
    }
    let _ = writeln!(s, "}}");
    let _ = writeln!(s, "static int step(int input) {{");
    let _ = writeln!(s, "  check_errors();");
    s.push_str(&rules);
    let _ = writeln!(s, "  return -2;");
    let _ = writeln!(s, "}}");
    let valid: Vec<String> = symbols.iter().map(|c| format!("input != {c}")).collect();
    match called {
        false => s.push_str("int main(void) {\n"),
        true => s.push_str("__attribute__((noinline)) int run(void) {\n"),
    }
    let _ = writeln!(s, "  for (;;) {{");
    let _ = writeln!(s, "    int input = __VERIFIER_nondet_int();");
    let _ = writeln!(s, "    if ({}) return 0;", valid.join(" && "));
    let _ = writeln!(s, "    step(input);");
    let _ = writeln!(s, "  }}");
    let _ = writeln!(s, "}}");
    if called {
        s.push_str("int main(void) {\n  for (int round = 0; round < 2; round++)\n    run();\n  return 0;\n}\n");
    }
    Generated {
        name: format!("{name}_{seed}.c"),
        source: s,
        infeasible_checks: None,
        args: vec![],
    }
}
