//! `cairn export`: a generated suite as C tests a project keeps in its own test suite.
//!
//! Each kept test becomes a C function that hands the test's values to the harness (compiled
//! with `CAIRN_EMBEDDED`, so the values live in the code, not in a JSON file), calls the entry
//! function (unit mode) or the program's `main`, and asserts what the program did when Cairn
//! exported it: the return value, the bytes left in pointer parameters' buffers, the output,
//! the exit status, or that it crashes. What the program did is observed natively, in a build
//! of the program made for it, so the suite is a regression suite of the code as it is.
//! Every test runs in a child process of its own: a crash or a static variable of one test
//! cannot touch the next. `ctest` format: a C runner with one CTest test per test; `gtest`:
//! the same tests as GoogleTest cases.

use crate::exec::native::{self, signal_of};
use crate::ir::frontend::{CompileOptions, TempDir};
use anyhow::{Context, Result, bail};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum)]
pub enum Format {
    /// A C test runner and CMake glue: one CTest test per Cairn test.
    Ctest,
    /// GoogleTest cases (linked with GTest::gtest_main), discovered by CTest.
    Gtest,
}

/// What to export: the program as the run recorded it.
pub struct Export<'a> {
    pub dir: &'a Path,
    pub sources: &'a [PathBuf],
    pub opts: &'a CompileOptions,
    pub module: &'a crate::ir::Module,
    pub entry: &'a str,
    pub unit: &'a crate::exec::Unit,
}

/// How a test ended natively, and what it left behind.
#[derive(Debug, Default)]
struct Observed {
    /// Exit status (128 + signal for a crash); None: it ran past the time limit.
    code: Option<i32>,
    ret: Option<String>,
    buffers: Vec<(usize, String)>,
    stdout: Vec<u8>,
}

const OBSERVE_TIME: Duration = Duration::from_secs(10);
/// The exit status of a test whose output differs from the one observed.
const OUTPUT_MISMATCH: i32 = 86;

/// Writes the suite into `out`; returns the number of tests exported and notes on tests (left
/// out, or whose native return value differs from the interpreter's).
pub fn export(e: &Export, format: Format, out: &Path) -> Result<(usize, Vec<String>)> {
    let unit = e.entry != "main";
    if e.opts.uninitialized_inputs {
        bail!(
            "export of a run made with --uninitialized-inputs is not supported: the exported tests compile the program's own source, where a local cannot be given a test's value"
        );
    }
    let harness = crate::output::harness::harness_c_for(e.module, e.entry, e.unit);
    if harness.contains(crate::output::harness::PROGRAM_MAIN) && !unit {
        bail!(
            "export of programs with command-line or file inputs (--sym-args, --sym-files) is not supported yet"
        );
    }
    if harness.contains("#error") {
        bail!(
            "the entry function `{}` takes or returns a first-class aggregate, which the harness cannot call",
            e.entry
        );
    }
    let mut tests: Vec<PathBuf> = std::fs::read_dir(e.dir.join("tests"))
        .with_context(|| format!("{} has no tests/ directory", e.dir.display()))?
        .filter_map(|d| d.ok().map(|d| d.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    tests.sort();

    // The observer: the program as the exported suite builds it, recording what each test does.
    let tmp = TempDir::new("export")?;
    let harness_path = tmp.path().join("harness.c");
    std::fs::write(&harness_path, &harness)?;
    let observer_flags: &[&str] = if unit { &["-DCAIRN_OBSERVE"] } else { &[] };
    let exe = crate::output::replay::build_plain(
        e.sources,
        e.opts,
        &harness_path,
        unit,
        observer_flags,
        &tmp.path().join("observer"),
    )
    .context("building the program to observe its tests")?;
    let params: Vec<Option<String>> = e.module.function(e.entry).map_or(vec![], |f| {
        (0..f.params.len())
            .map(|i| f.param_name(i).map(str::to_string))
            .collect()
    });
    let mut cases = String::new();
    let mut names = vec![];
    let mut left_out = vec![];
    for t in &tests {
        let name = t
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let inputs = crate::output::suite::read_test(t)?["inputs"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let text = |i: &serde_json::Value, key: &str| i[key].as_str().map(str::to_string);
        let values: Vec<String> = inputs
            .iter()
            .map(|i| text(i, "value").unwrap_or_default())
            .collect();
        let links: Vec<Option<String>> = inputs.iter().map(|i| text(i, "link")).collect();
        // The bytes of pointers linked into a parameter's buffer are addresses: not checked.
        let mut linked: Vec<(String, usize)> = vec![];
        for l in links.iter().flatten() {
            if let Some((parent, off)) = l.split_once('+')
                && let (Ok(parent), Ok(off)) = (parent.parse::<usize>(), off.parse::<usize>())
                && let Some(name) = inputs.get(parent).and_then(|i| text(i, "name"))
            {
                linked.push((name, off));
            }
        }
        let obs = observe(&exe, t, unit, tmp.path())?;
        // The interpreter's prediction of the return value, checked against the native one.
        let predicted = crate::output::suite::read_test(t)?["returned"]
            .as_str()
            .map(str::to_string);
        let native = obs.ret.as_deref().map(|r| match r {
            "null 1" => "null".to_string(),
            "null 0" => "non-null".to_string(),
            r => r.to_string(),
        });
        if let (Some(p), Some(n)) = (&predicted, &native) {
            let integer = p.parse::<i64>().is_ok() || p.contains("null");
            if integer && p != n {
                left_out.push(format!(
                    "{name}: Cairn's interpreter predicted the return value {p}, natively it is {n} (the export asserts the native one)"
                ));
            }
        }
        let Some(code) = obs.code else {
            left_out.push(format!(
                "{name}: runs past {} s natively",
                OBSERVE_TIME.as_secs()
            ));
            continue;
        };
        let mut obs = obs;
        // A buffer the function freed holds the allocator's bytes: not checked.
        let test = crate::output::suite::read_test(t)?;
        let freed: Vec<&str> = test["freed_params"]
            .as_array()
            .map_or(vec![], |a| a.iter().filter_map(|v| v.as_str()).collect());
        obs.buffers.retain(
            |(i, _)| !matches!(params.get(*i), Some(Some(n)) if freed.contains(&n.as_str())),
        );
        let ptr_hex = 2 * e.module.data_model.ptr_bytes() as usize;
        for (i, hex) in obs.buffers.iter_mut() {
            for (_, off) in linked
                .iter()
                .filter(|l| params.get(*i) == Some(&Some(l.0.clone())))
            {
                let end = (2 * off + ptr_hex).min(hex.len());
                if 2 * off < end {
                    hex.replace_range(2 * off..end, &".".repeat(end - 2 * off));
                }
            }
        }
        cases.push_str(&case_c(&name, (&values, &links), &obs, code, unit, &params));
        names.push((name, code));
    }
    prepare_out(out)?;
    let support = format!(
        "/* Cairn's input harness for the exported tests: generated, do not edit. */\n#define CAIRN_EMBEDDED 1\n{harness}"
    );
    write(out, "cairn_support.c", &support)?;
    write(out, "cairn_tests.c", &runner_c(e, unit, &cases, &names))?;
    if format == Format::Gtest {
        write(out, "cairn_gtest.cc", &gtest_cc(&names))?;
    }
    write(out, "CMakeLists.txt", &cmake(e, format, &names))?;
    Ok((names.len(), left_out))
}

/// Creates `out`, or reuses it if it is empty or an earlier export: a directory holding the
/// user's own CMakeLists.txt is refused.
pub fn prepare_out(out: &Path) -> Result<()> {
    let cm = out.join("CMakeLists.txt");
    if let Ok(text) = std::fs::read_to_string(&cm)
        && !text.starts_with(CMAKE_HEAD)
    {
        bail!(
            "{} is not one Cairn wrote: choose another directory with --out",
            cm.display()
        );
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))
}

/// The first line of every CMakeLists.txt `cairn export` writes.
pub const CMAKE_HEAD: &str = "# Tests exported by Cairn";

/// The CMakeLists.txt of an export of several entry functions: one subdirectory each.
pub fn write_parent_cmake(out: &Path, subdirs: &[String], format: Format) -> Result<()> {
    let langs = if format == Format::Gtest {
        "C CXX"
    } else {
        "C"
    };
    let mut s = format!(
        "{CMAKE_HEAD} (`cairn export`): generated, do not edit.\ncmake_minimum_required(VERSION 3.13)\nproject(cairn_exported_tests {langs})\nenable_testing()\n"
    );
    for d in subdirs {
        let _ = writeln!(s, "add_subdirectory({d})");
    }
    write(out, "CMakeLists.txt", &s)
}

fn write(out: &Path, name: &str, text: &str) -> Result<()> {
    std::fs::write(out.join(name), text)
        .with_context(|| format!("cannot write {}", out.join(name).display()))
}

/// Runs test `t` on the observer build.
fn observe(exe: &Path, t: &Path, unit: bool, tmp: &Path) -> Result<Observed> {
    let scratch = tmp.join("run");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)?;
    let test = std::path::absolute(t)?;
    let stdout = std::fs::File::create(scratch.join("cairn_main_stdout"))?;
    let end = native::run_with_stdout(
        std::process::Command::new(exe).env("CAIRN_TEST", &test),
        &scratch,
        OBSERVE_TIME,
        false,
        Stdio::from(stdout),
    )?;
    let mut o = Observed {
        code: end.code,
        ..Default::default()
    };
    let read = |n: &str| std::fs::read(scratch.join(n)).unwrap_or_default();
    if unit {
        o.stdout = read("cairn_stdout");
        for line in String::from_utf8_lossy(&read("cairn_observed")).lines() {
            if let Some(v) = line.strip_prefix("return ") {
                o.ret = Some(v.to_string());
            } else if let Some(v) = line.strip_prefix("return-null ") {
                o.ret = Some(format!("null {v}"));
            } else if let Some(rest) = line.strip_prefix("buffer ")
                && let Some((i, hex)) = rest.split_once(' ')
            {
                o.buffers.push((i.parse().unwrap_or(0), hex.to_string()));
            }
        }
    } else {
        o.stdout = read("cairn_main_stdout");
    }
    Ok(o)
}

/// `bytes` as a C string literal (printable ASCII as is, the rest escaped).
fn c_string(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            0x20..=0x7e if b != b'?' => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

/// A test's function: hands over the values, runs, asserts in the child it runs in.
fn case_c(
    name: &str,
    (values, links): (&[String], &[Option<String>]),
    obs: &Observed,
    code: i32,
    unit: bool,
    params: &[Option<String>],
) -> String {
    let mut s = format!("static void cairn_test_{name}(void) {{\n");
    let vals: Vec<String> = values.iter().map(|v| c_string(v.as_bytes())).collect();
    let _ = writeln!(
        s,
        "  static const char *const values[] = {{{}}};",
        if vals.is_empty() {
            "0".into()
        } else {
            vals.join(", ")
        }
    );
    if links.iter().all(Option::is_none) {
        let _ = writeln!(s, "  cairn_use_values(values, 0, {});", values.len());
    } else {
        let links: Vec<String> = links
            .iter()
            .map(|l| l.as_ref().map_or("0".into(), |l| c_string(l.as_bytes())))
            .collect();
        let _ = writeln!(
            s,
            "  static const char *const links[] = {{{}}};",
            links.join(", ")
        );
        let _ = writeln!(s, "  cairn_use_values(values, links, {});", values.len());
    }
    if signal_of(code).is_some() {
        // The observed run crashed (or aborted): the test checks that it still does.
        s.push_str(if unit {
            "  cairn_call_entry();\n"
        } else {
            "  cairn_run_main();\n"
        });
        s.push_str("  exit(0);\n}\n\n");
        return s;
    }
    let _ = writeln!(
        s,
        "  cairn_expect_output({}, {});",
        c_string(&obs.stdout),
        obs.stdout.len()
    );
    if !unit {
        s.push_str("  exit(cairn_run_main());\n}\n\n");
        return s;
    }
    match obs.ret.as_deref() {
        None => s.push_str("  cairn_call_entry();\n"),
        Some(r) => {
            s.push_str("  __typeof__(cairn_call_entry()) r = cairn_call_entry();\n");
            if let Some(null) = r.strip_prefix("null ") {
                let _ = writeln!(
                    s,
                    "  cairn_check_int(\"returned a null pointer\", r == 0, {null});"
                );
            } else if r.contains("nan") {
                s.push_str("  cairn_check_int(\"returned NaN\", r != r, 1);\n");
            } else if r.contains("0x") || r.contains("inf") {
                let lit = r.replace("inf", "(1.0/0.0)");
                let _ = writeln!(s, "  cairn_check_double(\"return value\", r, {lit});");
            } else {
                let _ = writeln!(
                    s,
                    "  cairn_check_int(\"return value\", (long long)r, {r}LL);"
                );
            }
        }
    }
    for (i, hex) in &obs.buffers {
        let param = match params.get(*i) {
            Some(Some(name)) => format!("`{name}`"),
            _ => format!("parameter {}", i + 1),
        };
        let _ = writeln!(
            s,
            "  cairn_check_bytes(\"the buffer of {param}\", cairn_param_buffer({i}), {});",
            c_string(hex.as_bytes())
        );
    }
    s.push_str("  cairn_finish_checks();\n}\n\n");
    s
}

const RUNNER_PRELUDE: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>

void cairn_use_values(const char *const *values, const char *const *links, int n);
static int cairn_failures;
static const char *cairn_current;

static void cairn_fail(const char *what, const char *detail) {
  fprintf(stderr, "cairn test %s %s: %s %s\n", CAIRN_SUITE, cairn_current, what, detail);
  cairn_failures++;
}
static void cairn_check_int(const char *what, long long got, long long want) {
  if (got != want) {
    char d[96];
    snprintf(d, sizeof d, "is %lld, expected %lld", got, want);
    cairn_fail(what, d);
  }
}
static void cairn_check_double(const char *what, double got, double want) {
  if (!(got == want)) {
    char d[96];
    snprintf(d, sizeof d, "is %a, expected %a", got, want);
    cairn_fail(what, d);
  }
}
static void cairn_check_bytes(const char *what, const unsigned char *got, const char *want_hex) {
  size_t n = strlen(want_hex) / 2;
  for (size_t i = 0; i < n; i++) {
    unsigned w;
    /* `..`: a byte of a linked pointer (an address, another in every run). */
    if (sscanf(want_hex + 2 * i, "%2x", &w) != 1) continue;
    if (got[i] != w) {
      char d[96];
      snprintf(d, sizeof d, "differs at byte %zu: 0x%02x, expected 0x%02x", i, got[i], w);
      cairn_fail(what, d);
      return;
    }
  }
}

/* The program's output goes to a temporary file, compared at the end of the test (also when
 * the program calls exit). */
static FILE *cairn_out_file;
static const char *cairn_want_out;
static size_t cairn_want_len;
static void cairn_compare_output(void) {
  fflush(stdout);
  size_t cap = cairn_want_len + 2, n;
  char *got = malloc(cap);
  rewind(cairn_out_file);
  n = fread(got, 1, cap, cairn_out_file);
  if (n != cairn_want_len || memcmp(got, cairn_want_out, n) != 0) {
    fprintf(stderr, "cairn test %s %s: the output differs from the one observed (%zu bytes, expected %zu)\n",
            CAIRN_SUITE, cairn_current, n, cairn_want_len);
    _exit(CAIRN_OUTPUT_MISMATCH);
  }
  free(got);
}
static void cairn_expect_output(const char *want, size_t n) {
  cairn_want_out = want;
  cairn_want_len = n;
  fflush(stdout);
  cairn_out_file = tmpfile();
  if (!cairn_out_file || dup2(fileno(cairn_out_file), 1) < 0) { perror("cairn"); _exit(2); }
  atexit(cairn_compare_output);
}
static void cairn_finish_checks(void) { exit(cairn_failures ? 1 : 0); }
"#;

fn runner_c(e: &Export, unit: bool, cases: &str, names: &[(String, i32)]) -> String {
    let mut s = format!(
        "/* Tests exported by Cairn from {}: generated, do not edit.\n * Each test runs in a child process; `cairn_tests NAME` runs one, `cairn_tests` all. */\n#define CAIRN_OUTPUT_MISMATCH {OUTPUT_MISMATCH}\n#define CAIRN_SUITE \"{}\"\n",
        e.dir.display(),
        e.entry
    );
    s.push_str(RUNNER_PRELUDE);
    if unit {
        let ret = e
            .module
            .function(e.entry)
            .and_then(|f| crate::output::harness::c_type(f.ret))
            .unwrap_or("void *");
        let _ = writeln!(
            s,
            "/* Calls {}() with the parameters the test's values give. */\n{ret} cairn_call_entry(void);\nunsigned char *cairn_param_buffer(int i);\n",
            e.entry
        );
    } else {
        s.push_str("int cairn_program_main(int argc, char **argv);\nstatic int cairn_run_main(void) {\n  static char name[] = \"program\", *argv[] = {name, 0};\n  return cairn_program_main(1, argv);\n}\n\n");
    }
    s.push_str(cases);
    s.push_str("struct cairn_test { const char *name; void (*run)(void); int crashes; int status; };\nstatic const struct cairn_test cairn_tests[] = {\n");
    for (name, code) in names {
        let _ = writeln!(
            s,
            "  {{\"{name}\", cairn_test_{name}, {}, {code}}},",
            signal_of(*code).is_some() as i32
        );
    }
    s.push_str(
        r#"};

/* Runs test `name` in a child process; 0 when it behaves as observed. */
int cairn_run_test(const char *name) {
  for (size_t i = 0; i < sizeof cairn_tests / sizeof *cairn_tests; i++) {
    const struct cairn_test *t = &cairn_tests[i];
    if (strcmp(t->name, name) != 0) continue;
    fflush(stdout);
    fflush(stderr);
    pid_t child = fork();
    if (child < 0) { perror("fork"); return 2; }
    if (child == 0) {
      cairn_current = t->name;
      alarm(10);
      t->run();
      exit(0);
    }
    int st = 0;
    waitpid(child, &st, 0);
    int crashed = WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) == 134);
    if (t->crashes) {
      if (crashed && !(WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)) return 0;
      fprintf(stderr, "cairn test %s %s: expected a crash, but it %s %d\n", CAIRN_SUITE, name,
              WIFEXITED(st) ? "exited with status" : "was killed by signal",
              WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
      return 1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == t->status) return 0;
    if (WIFEXITED(st))
      fprintf(stderr, "cairn test %s %s: exit status %d, expected %d\n", CAIRN_SUITE, name, WEXITSTATUS(st), t->status);
    else
      fprintf(stderr, "cairn test %s %s: killed by signal %d (%s)\n", CAIRN_SUITE, name, WTERMSIG(st),
              WTERMSIG(st) == SIGALRM ? "ran past 10 s" : "a crash");
    return 1;
  }
  fprintf(stderr, "cairn: no test %s\n", name);
  return 2;
}

#ifndef CAIRN_GTEST
int main(int argc, char **argv) {
  if (argc > 1) return cairn_run_test(argv[1]);
  int failed = 0;
  size_t n = sizeof cairn_tests / sizeof *cairn_tests;
  for (size_t i = 0; i < n; i++) failed += cairn_run_test(cairn_tests[i].name) != 0;
  printf("%zu tests, %d failed\n", n, failed);
  return failed != 0;
}
#endif
"#,
    );
    s
}

fn gtest_cc(names: &[(String, i32)]) -> String {
    let mut s = String::from(
        "// GoogleTest cases of the tests Cairn exported (cairn_tests.c runs each in a child\n// process and reports what differs on stderr): generated, do not edit.\n#include <gtest/gtest.h>\n\nextern \"C\" int cairn_run_test(const char *name);\n\n",
    );
    for (name, _) in names {
        let _ = writeln!(
            s,
            "TEST(Cairn, Test{name}) {{ EXPECT_EQ(0, cairn_run_test(\"{name}\")); }}"
        );
    }
    s
}

/// CMake glue: builds the program's files with its flags (or links CAIRN_PROGRAM_TARGET, a
/// library target of the project, when set) with the tests.
fn cmake(e: &Export, format: Format, names: &[(String, i32)]) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let sources: Vec<String> = e
        .sources
        .iter()
        .map(|p| quote(&p.display().to_string()))
        .collect();
    let mut flags: Vec<String> = crate::ir::frontend::program_flags(e.opts)
        .iter()
        .filter(|f| *f != "-m32")
        .map(|f| quote(f))
        .collect();
    flags.push(quote("-w"));
    let m32 = e.opts.data_model == crate::ir::DataModel::ILP32;
    let gtest = format == Format::Gtest;
    // Unique names, so that the suites of several entry functions live in one project.
    let id = if e.entry == "main" {
        String::new()
    } else {
        format!("_{}", e.entry)
    };
    let mut s = format!(
        "{CMAKE_HEAD} (`cairn export`): generated, do not edit.\n# Standalone: cmake -S . -B build && cmake --build build && ctest --test-dir build\n# In a project: add_subdirectory() this directory; set CAIRN_PROGRAM_TARGET to a library\n# target holding the code under test to link it instead of compiling the files below.\ncmake_minimum_required(VERSION 3.13)\nproject(cairn_exported_tests{} {})\nenable_testing()\n",
        id,
        if gtest { "C CXX" } else { "C" }
    );
    let _ = writeln!(
        s,
        "set(CAIRN_PROGRAM_TARGET \"\" CACHE STRING \"A target with the code under test (default: compile its files)\")\nset(CAIRN_PROGRAM_SOURCES {})\nset(CAIRN_PROGRAM_FLAGS {})",
        sources.join(" "),
        flags.join(" ")
    );
    let extra = if gtest { " cairn_gtest.cc" } else { "" };
    let _ = writeln!(
        s,
        "if(CAIRN_PROGRAM_TARGET)\n  add_executable(cairn_tests{id} cairn_tests.c cairn_support.c{extra})\n  target_link_libraries(cairn_tests{id} PRIVATE ${{CAIRN_PROGRAM_TARGET}})\nelse()\n  add_library(cairn_program{id} OBJECT ${{CAIRN_PROGRAM_SOURCES}})\n  target_compile_options(cairn_program{id} PRIVATE ${{CAIRN_PROGRAM_FLAGS}} -Dmain=cairn_program_main)\n  add_executable(cairn_tests{id} cairn_tests.c cairn_support.c{extra} $<TARGET_OBJECTS:cairn_program{id}>)\nendif()\ntarget_compile_options(cairn_tests{id} PRIVATE -w)\ntarget_link_libraries(cairn_tests{id} PRIVATE m)"
    );
    if m32 {
        let _ = writeln!(
            s,
            "foreach(t cairn_tests{id} cairn_program{id})\n  if(TARGET ${{t}})\n    target_compile_options(${{t}} PRIVATE -m32)\n  endif()\nendforeach()\ntarget_link_options(cairn_tests{id} PRIVATE -m32)"
        );
    }
    if gtest {
        let _ = writeln!(
            s,
            "find_package(GTest REQUIRED)\ntarget_compile_definitions(cairn_tests{id} PRIVATE CAIRN_GTEST)\ntarget_link_libraries(cairn_tests{id} PRIVATE GTest::gtest_main)\ninclude(GoogleTest)\ngtest_discover_tests(cairn_tests{id} TEST_PREFIX cairn{id}.)"
        );
    } else {
        for (name, _) in names {
            let _ = writeln!(
                s,
                "add_test(NAME cairn{id}_{name} COMMAND cairn_tests{id} {name})"
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn c_strings_escape_what_c_needs() {
        assert_eq!(
            super::c_string(b"a\"b\\\n\x01??"),
            "\"a\\\"b\\\\\\n\\001\\077\\077\""
        );
    }
}
