//! Native replay: compiles the program with coverage instrumentation plus `replay/harness.c`,
//! runs every test, and checks Cairn's claims against what the native program really did.
//! This is the independent measurement: Cairn's own ledger is never the final word.
//!
//! Every claim of a test is checked: the goals it covers (native line counts), and how it ends.
//! An exit status must match; a predicted fault must happen natively with the same kind at the
//! same line (an AddressSanitizer build names memory errors and where they happen; a stack
//! overflow shows as SIGSEGV under the native 8 MB stack); a predicted step limit must be
//! exceeded natively (the run outlasts the replay time limit, or executes at least that many
//! source lines). The program is built in the dialect `gen` accepts.

use crate::analysis::goals::{GoalKind, Goals};
use crate::exec::native::{self, NativeEnd, ProbeBuild, signal_of};
use crate::ir::Module;
use crate::ir::frontend::{CompileOptions, DIALECT_FLAGS, TempDir, target_flags};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The native build uses gcc's coverage: gcc adds "fake" exit edges at calls that may not
/// return (an assumption ending the run through `exit`), so line counts stay right when a run
/// ends inside a function; clang's gcov instrumentation derives counts by flow conservation
/// and loses the whole function then.
fn gcc() -> &'static str {
    "gcc"
}
fn clang() -> &'static str {
    crate::ir::toolchain::clang()
}
fn gcc_gcov() -> Vec<&'static str> {
    vec!["gcov"]
}
fn llvm_gcov() -> Vec<&'static str> {
    vec![&crate::ir::toolchain::toolchain().llvm_cov, "gcov"]
}
fn no_gcov() -> Vec<&'static str> {
    vec![]
}
/// gcc's names for clang's `DIALECT_FLAGS` (gcc rejects `-Wno-error=` of a warning it lacks).
const GCC_DIALECT_FLAGS: &[&str] = &[
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=return-type",
];

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct ReplayReport {
    pub tests: usize,
    /// Native branch outcomes (gcov) taken by at least one test / all.
    pub branches_taken: usize,
    pub branches_total: usize,
    pub lines_executed: usize,
    pub lines_total: usize,
    /// Claimed goals confirmed by the native probe of the goal itself (branch outcomes,
    /// switch cases, error calls), per goal kind.
    pub claims_probed: BTreeMap<String, usize>,
    /// Claimed goals without a probe (def-use pairs; a site the probe build did not find),
    /// checked against native line counts, and those that could not be checked at all (their
    /// line has no code of its own natively, or the native run timed out before them).
    pub claims_checked: usize,
    pub claims_unchecked: usize,
    /// How tests end: outcomes confirmed natively, and those that cannot be checked (an
    /// unsupported construct, a fault kind with no native counterpart).
    pub outcomes_confirmed: usize,
    pub outcomes_unchecked: usize,
    /// Predicted outcomes the native run neither confirms nor contradicts: a step limit the
    /// run did not provably exceed (it ended after fewer source lines than the limit's
    /// instructions), an out-of-bounds access or use after free AddressSanitizer did not see
    /// (it reached memory of another object).
    pub unconfirmed: Vec<String>,
    /// The native line and branch counts of the suite as an lcov tracefile (`--lcov`).
    #[serde(skip)]
    pub lcov: String,
    /// Tests whose path depended on addresses (`layout_dependent`): natively they may differ.
    pub layout_dependent: usize,
    /// Tests giving values to locals read before they are set (`--uninitialized-inputs`):
    /// the gcov builds, from source, run them with whatever the stack holds there.
    pub local_values: usize,
    /// Tests whose exit code from gcc's build differs from clang's (the probe build, Cairn's
    /// own compiler): the program's behaviour depends on the compiler (the order in which a
    /// call's arguments are evaluated, ...). Exit codes are checked in the probe build.
    pub compilers_differ: Vec<String>,
    /// Claims the native run contradicts, and exit-code mismatches.
    pub mismatches: Vec<String>,
    pub notes: Vec<String>,
}

impl ReplayReport {
    /// The human-readable report.
    pub fn text(&self) -> String {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let mut s = format!("replayed {} tests natively\n", self.tests);
        s += &format!(
            "native branch coverage (gcc gcov): {}/{} ({:.1}%)\n",
            self.branches_taken,
            self.branches_total,
            pct(self.branches_taken, self.branches_total)
        );
        s += &format!(
            "native line coverage: {}/{} ({:.1}%)\n",
            self.lines_executed,
            self.lines_total,
            pct(self.lines_executed, self.lines_total)
        );
        let probed: usize = self.claims_probed.values().sum();
        let kinds: Vec<String> = self
            .claims_probed
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        s += &format!(
            "claimed goals confirmed natively per goal: {probed} ({}); by line only: {}; not checkable: {}\n",
            if kinds.is_empty() {
                "none".to_string()
            } else {
                kinds.join(", ")
            },
            self.claims_checked,
            self.claims_unchecked
        );
        s += &format!(
            "predicted outcomes confirmed natively: {} (not checkable: {}, unconfirmed: {})\n",
            self.outcomes_confirmed,
            self.outcomes_unchecked,
            self.unconfirmed.len()
        );
        if self.layout_dependent > 0 {
            s += &format!(
                "tests whose path depends on the memory layout: {} (differences natively are not checkable)\n",
                self.layout_dependent
            );
        }
        if self.local_values > 0 {
            s += &format!(
                "tests giving values to uninitialized locals: {} (checked in the build of Cairn's bitcode; the gcov coverage above ran them with whatever the stack held)\n",
                self.local_values
            );
        }
        if !self.compilers_differ.is_empty() {
            s += &format!(
                "tests ending differently when gcc builds the program: {} (exit codes checked in clang's build, as Cairn compiles it; the program depends on what C leaves to the compiler, such as the order of a call's arguments)\n",
                self.compilers_differ.len()
            );
        }
        for n in (self.notes.iter())
            .chain(&self.unconfirmed)
            .chain(&self.compilers_differ)
        {
            s += &format!("note: {n}\n");
        }
        s
    }
}

#[derive(Default)]
struct FileCov {
    lines: BTreeMap<u32, u64>,
    /// (line, index within line) → taken count
    branches: BTreeMap<(u32, u32), u64>,
}

/// A build made on first need: the program and its objects, or why it failed.
type Built = Option<Result<(PathBuf, Vec<PathBuf>), String>>;

/// Adds `b`'s counts into `a` (the larger of the two per line and branch).
fn join_coverage(a: &mut BTreeMap<String, FileCov>, b: BTreeMap<String, FileCov>) {
    for (f, c) in b {
        // Compilers name a file differently (clang as given, gcc absolute).
        let f = a.keys().find(|k| same_file(k, &f)).cloned().unwrap_or(f);
        let e = a.entry(f).or_default();
        for (l, n) in c.lines {
            let x = e.lines.entry(l).or_insert(0);
            *x = (*x).max(n);
        }
        for (k, n) in c.branches {
            let x = e.branches.entry(k).or_insert(0);
            *x = (*x).max(n);
        }
    }
}

fn same_file(a: &str, b: &str) -> bool {
    let pa = Path::new(a);
    let pb = Path::new(b);
    if let (Ok(x), Ok(y)) = (pa.canonicalize(), pb.canonicalize()) {
        return x == y;
    }
    pa.file_name() == pb.file_name()
}

fn parse_gcov(text: &str) -> BTreeMap<String, FileCov> {
    let mut out: BTreeMap<String, FileCov> = BTreeMap::new();
    let mut cur: Option<String> = None;
    let mut last_line = 0u32;
    let mut bidx = 0u32;
    for l in text.lines() {
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("branch") {
            if let Some(f) = &cur {
                let fc = out.get_mut(f).unwrap();
                let taken = rest
                    .split_whitespace()
                    .nth(2)
                    .and_then(|x| x.parse::<u64>().ok())
                    .unwrap_or(0);
                fc.branches.insert((last_line, bidx), taken);
                bidx += 1;
            }
            continue;
        }
        let mut parts = l.splitn(3, ':');
        let (Some(count), Some(lineno), rest) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let count = count.trim();
        let Ok(lineno) = lineno.trim().parse::<u32>() else {
            continue;
        };
        if lineno == 0 {
            if let Some(src) = rest.and_then(|r| r.strip_prefix("Source:")) {
                cur = Some(src.to_string());
                out.entry(src.to_string()).or_default();
            }
            continue;
        }
        let Some(f) = &cur else { continue };
        last_line = lineno;
        bidx = 0;
        let fc = out.get_mut(f).unwrap();
        if count == "-" {
            continue;
        }
        let c = if count.starts_with('#') || count.starts_with('=') {
            0
        } else {
            count.trim_end_matches('*').parse::<u64>().unwrap_or(0)
        };
        let e = fc.lines.entry(lineno).or_insert(0);
        *e = (*e).max(c);
    }
    out
}

/// Time a replayed test may take; a test predicted to hit the step limit gets less (it is
/// expected to run on: a native second is a hundred times the interpreter's 10M-step limit,
/// and each such test runs in up to three builds — a menu program's ten predicted hangs held
/// its replay for a minute at 2 s).
const TEST_TIME: Duration = Duration::from_secs(10);
const STEP_LIMIT_TIME: Duration = Duration::from_secs(1);

/// An empty working directory for a native run: what one test writes there must not reach
/// the next (the interpreter starts every run without it).
fn fresh_scratch(tmp: &Path) -> Result<PathBuf> {
    let d = tmp.join("run");
    let _ = std::fs::remove_dir_all(&d);
    crate::ir::frontend::scratch_subdir(&d)?;
    Ok(d)
}

/// Runs `cmd` natively in a fresh scratch directory of `tmp`, sandboxed to `tmp` (where its
/// build writes its coverage counters; `exec::native::run`).
fn run_native(
    cmd: &mut Command,
    tmp: &Path,
    limit: Duration,
    capture_stderr: bool,
) -> Result<NativeEnd> {
    cmd.current_dir(fresh_scratch(tmp)?);
    native::run(cmd, tmp, limit, capture_stderr)
}

/// What a native build compiles, with which flags.
struct Build<'a> {
    sources: &'a [PathBuf],
    harness: &'a Path,
    /// Flags of every compile and the link.
    common: &'a [String],
    /// The user's flags, for the program's files only.
    program: &'a [String],
    harness_main: bool,
}

/// One kind of build: its compiler, and flags for the program's files, the harness, the link.
struct Variant<'a> {
    cc: fn() -> &'static str,
    /// The gcov reader of its coverage data (coverage builds).
    gcov: fn() -> Vec<&'static str>,
    /// The old C `gen` accepts, in this compiler's words.
    dialect: &'a [&'a str],
    instrument: &'a [&'a str],
    harness: &'a [&'a str],
    link: &'a [&'a str],
}

const COVERAGE: Variant = Variant {
    cc: gcc,
    gcov: gcc_gcov,
    dialect: GCC_DIALECT_FLAGS,
    instrument: &["--coverage"],
    harness: &["-DCAIRN_GCOV"],
    link: &["--coverage"],
};

/// Coverage for runs that crash or are killed: gcc's counters lose the blocks a run dies in
/// (their counts are derived from the arcs leaving them), clang's keep them; clang's in turn
/// lose a function left through `exit` in a callee, which gcc's fake exit arcs keep. Each run
/// is read where its end is counted right.
const CRASH_COVERAGE: Variant = Variant {
    cc: clang,
    gcov: llvm_gcov,
    dialect: DIALECT_FLAGS,
    instrument: &["--coverage"],
    harness: &["-DCAIRN_GCOV"],
    link: &["--coverage"],
};

/// Coverage counters under AddressSanitizer (both compilers of `FAULT_COVERAGE`).
const ASAN_COVERAGE: &[&str] = &[
    "--coverage",
    "-fsanitize=address",
    "-fno-omit-frame-pointer",
];

/// Coverage for runs that end in a memory fault: AddressSanitizer stops them at the faulting
/// access, as Cairn's interpreter does. Unchecked, an overflowing write runs on and can
/// overwrite the harness's state and gcov's own (print_tokens2's token buffer), and the run's
/// coverage is lost or is that of a different run. Their counts are joined with
/// `CRASH_COVERAGE`'s: each build loses some lines of a function a crash leaves (clang's with
/// AddressSanitizer lose the block of a null dereference, which the plain build keeps).
const FAULT_COVERAGE: [Variant; 2] = [
    Variant {
        cc: clang,
        gcov: llvm_gcov,
        dialect: DIALECT_FLAGS,
        instrument: ASAN_COVERAGE,
        harness: &["-DCAIRN_GCOV"],
        link: &["--coverage", "-fsanitize=address"],
    },
    Variant {
        cc: gcc,
        gcov: gcc_gcov,
        dialect: GCC_DIALECT_FLAGS,
        instrument: ASAN_COVERAGE,
        harness: &["-DCAIRN_GCOV"],
        link: &["--coverage", "-fsanitize=address"],
    },
];

const ASAN: Variant = Variant {
    cc: clang,
    gcov: no_gcov,
    dialect: DIALECT_FLAGS,
    instrument: &["-fsanitize=address", "-fno-omit-frame-pointer"],
    harness: &[],
    link: &["-fsanitize=address"],
};

/// A plain native build of the program with `harness` (compiled with `harness_flags`) into
/// `dir/prog`: `cairn export`'s observer.
pub fn build_plain(
    sources: &[PathBuf],
    opts: &CompileOptions,
    harness: &Path,
    harness_main: bool,
    harness_flags: &[&str],
    dir: &Path,
) -> Result<PathBuf> {
    let mut common: Vec<String> = vec!["-O0".into(), "-g".into(), "-w".into()];
    common.extend(target_flags(opts));
    let plan = Build {
        sources,
        harness,
        common: &common,
        program: &opts.flags,
        harness_main,
    };
    let plain = Variant {
        cc: clang,
        gcov: no_gcov,
        dialect: DIALECT_FLAGS,
        instrument: &[],
        harness: harness_flags,
        link: &[],
    };
    Ok(build(&plan, &plain, dir)?.0)
}

/// Compiles the program and the harness into `dir/prog`; returns it and the program's object
/// files.
fn build(b: &Build, v: &Variant, dir: &Path) -> Result<(PathBuf, Vec<PathBuf>)> {
    let Build {
        sources,
        harness,
        common,
        program,
        harness_main,
    } = *b;
    let (instrument, harness_flags, link) = (v.instrument, v.harness, v.link);
    crate::ir::frontend::scratch_subdir(dir)?;
    let mut objs = vec![];
    for (i, s) in sources.iter().enumerate() {
        let o = dir.join(format!("src{i}.o"));
        let mut cmd = Command::new((v.cc)());
        cmd.args(common)
            .args(program)
            .args(v.dialect)
            .args(instrument)
            .args(["-c", "-o"])
            .arg(&o)
            .arg(s);
        if harness_main {
            // Unit mode, argv or files as inputs: the harness has the `main`.
            cmd.arg("-Dmain=cairn_program_main");
        }
        let out = cmd
            .output()
            .with_context(|| format!("running {}", (v.cc)()))?;
        if !out.status.success() {
            bail!(
                "native compile of {} failed:\n{}",
                s.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        objs.push(o);
    }
    let ho = dir.join("harness.o");
    let out = Command::new((v.cc)())
        .args(common)
        .args(v.dialect)
        .args(harness_flags)
        .args(["-c", "-o"])
        .arg(&ho)
        .arg(harness)
        .output()?;
    if !out.status.success() {
        bail!(
            "compiling the harness failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let exe = dir.join("prog");
    let out = Command::new((v.cc)())
        .args(common)
        .args(link)
        .args(&objs)
        .arg(&ho)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()?;
    if !out.status.success() {
        bail!(
            "linking the native replay binary failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok((exe, objs))
}

/// Line and branch counts of the program's files after a run of a coverage build.
fn read_coverage(
    v: &Variant,
    objs: &[PathBuf],
    sources: &[PathBuf],
) -> Result<BTreeMap<String, FileCov>> {
    let mut cov: BTreeMap<String, FileCov> = BTreeMap::new();
    for (i, o) in objs.iter().enumerate() {
        let gcov = (v.gcov)();
        let out = Command::new(gcov[0])
            .args(&gcov[1..])
            .args(["-b", "-c", "-t", "-o"])
            .arg(o)
            .arg(&sources[i])
            .output()
            .with_context(|| format!("running {}", gcov.join(" ")))?;
        if crate::debug_on!("replay") {
            crate::debug_log!(
                "replay",
                "gcov: {}\n{}",
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        for (f, c) in parse_gcov(&String::from_utf8_lossy(&out.stdout)) {
            cov.insert(f, c);
        }
    }
    Ok(cov)
}

/// What AddressSanitizer reported: the error's kind, the faulting address when given, and the
/// innermost stack frame in one of the program's files (file, line).
struct AsanReport {
    kind: String,
    addr: Option<u64>,
    frame: Option<(String, u32)>,
}

fn parse_asan(stderr: &str, sources: &[PathBuf]) -> Option<AsanReport> {
    let line = stderr
        .lines()
        .find(|l| l.contains("ERROR: AddressSanitizer: "))?;
    let rest = line.split("ERROR: AddressSanitizer: ").nth(1)?;
    let kind = rest.split(" on ").next().unwrap_or(rest).trim().to_string();
    let addr = rest
        .split("address ")
        .nth(1)
        .and_then(|a| a.split_whitespace().next())
        .and_then(|a| u64::from_str_radix(a.trim_start_matches("0x"), 16).ok());
    let frame = program_frame(stderr.lines(), sources);
    Some(AsanReport { kind, addr, frame })
}

/// The innermost stack frame of a sanitizer's trace in one of the program's `sources`.
fn program_frame<'a>(
    trace: impl Iterator<Item = &'a str>,
    sources: &[PathBuf],
) -> Option<(String, u32)> {
    trace
        .filter(|l| l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let loc = l.split(" in ").nth(1)?.split_whitespace().nth(1)?;
            let mut parts = loc.rsplitn(3, ':');
            let (a, b, c) = (parts.next()?, parts.next(), parts.next());
            // file:line:col or file:line
            let (file, line) = match (b, c) {
                (Some(l), Some(f)) if l.parse::<u32>().is_ok() => (f, l),
                (Some(f), None) => (f, a),
                _ => return None,
            };
            Some((file.to_string(), line.parse().ok()?))
        })
        .find(|(f, _)| {
            sources
                .iter()
                .any(|s| same_file(&s.display().to_string(), f))
        })
}

/// The allocation sites in the program of the leaks LeakSanitizer reports (None: it reports
/// none). Each leak's report ends at a blank line.
fn leak_sites(stderr: &str, sources: &[PathBuf]) -> Option<Vec<(String, u32)>> {
    let (_, report) = stderr.split_once("ERROR: LeakSanitizer: detected memory leaks")?;
    Some(
        report
            .split("\n\n")
            .filter(|block| block.contains("allocated from:"))
            .filter_map(|block| program_frame(block.lines(), sources))
            .collect(),
    )
}

/// Checks a test's predicted leaks (`allocated_at`, `file:line:col` each) against
/// LeakSanitizer's report of the same test in the AddressSanitizer build `asan`.
fn check_leak(
    asan: &Path,
    test: &Path,
    tmp: &Path,
    (name, allocated_at): (&str, &[&str]),
    sources: &[PathBuf],
    rep: &mut ReplayReport,
) -> Result<()> {
    let r = run_native(
        Command::new(asan)
            .env("CAIRN_TEST", test)
            .env(
                "ASAN_OPTIONS",
                "detect_leaks=1:allocator_may_return_null=1:detect_stack_use_after_return=0:symbolize=1",
            )
            .env("LSAN_OPTIONS", "use_stacks=0:use_registers=0")
            .env("ASAN_SYMBOLIZER_PATH", "/usr/bin/llvm-symbolizer-19"),
        tmp,
        TEST_TIME,
        true,
    )?;
    // LeakSanitizer scans memory conservatively: a stale copy of a pointer anywhere it scans
    // (a dead stack slot, a register) hides a leak. Without stacks and registers as roots it
    // reports at least the leaks Cairn predicts (and blocks live frames hold when `exit` is
    // called deep, which Cairn does not); one it does not report is unconfirmed.
    if r.stderr
        .contains("LeakSanitizer has encountered a fatal error")
    {
        rep.outcomes_unchecked += 1;
        let note = "LeakSanitizer cannot run here: leaks not checked natively".to_string();
        if !rep.notes.contains(&note) {
            rep.notes.push(note);
        }
        return Ok(());
    }
    let Some(sites) = leak_sites(&r.stderr, sources) else {
        rep.unconfirmed.push(format!(
            "{name}: a memory leak allocated at {}; natively LeakSanitizer reports none (a stale copy of the pointer hides it), the run {}",
            allocated_at.join(", "),
            describe_end(r.code)
        ));
        return Ok(());
    };
    // A site inside a library function is not compared: that there is a leak is.
    let in_program = |f: &str| {
        sources
            .iter()
            .any(|s| same_file(&s.display().to_string(), f))
    };
    let missed: Vec<&str> = allocated_at
        .iter()
        .copied()
        .filter(|at| {
            split_location(at).is_some_and(|(pf, pl)| {
                in_program(&pf) && !sites.iter().any(|(f, l)| same_file(&pf, f) && *l == pl)
            })
        })
        .collect();
    if missed.is_empty() {
        rep.outcomes_confirmed += 1;
    } else {
        let native: Vec<String> = sites.iter().map(|(f, l)| format!("{f}:{l}")).collect();
        rep.unconfirmed.push(format!(
            "{name}: memory leaks allocated at {}; natively LeakSanitizer reports leaks allocated at {}",
            missed.join(", "),
            match native.is_empty() {
                true => "library functions only".to_string(),
                false => native.join(", "),
            }
        ));
    }
    Ok(())
}

/// Does an AddressSanitizer report show the fault Cairn predicted?
fn same_fault_kind(cairn: &str, asan: &AsanReport) -> bool {
    let k = asan.kind.as_str();
    let segv = k.starts_with("SEGV");
    if cairn.contains("null pointer") {
        segv && asan.addr.is_none_or(|a| a < 4096)
    } else if cairn.contains("out-of-bounds") {
        // A wild access far below a local lands under the stack pointer, in memory no object
        // holds: AddressSanitizer calls that SEGV a stack overflow.
        // A copy past its objects' ends (`memcpy(a, b, n)` with `n` too large) makes its two
        // ranges overlap: AddressSanitizer checks that first (at the same line, checked next).
        k.contains("buffer-overflow")
            || k.contains("buffer-underflow")
            || k == "unknown-crash"
            || k == "stack-overflow"
            || k.contains("-param-overlap")
            || segv
    } else if cairn.contains("use after free") {
        k.contains("use-after-free")
            || k.contains("use-after-return")
            || k.contains("use-after-scope")
    } else if cairn.contains("read-only") || cairn.contains("function pointer") {
        segv
    } else if cairn.contains("double free") {
        k.contains("double-free")
    } else if cairn.contains("malloc did not return") {
        // A wild pointer (not a canonical address, say) crashes AddressSanitizer's `free`
        // before it can tell: a SEGV away from null, at the same place (checked next).
        k.contains("not malloc()-ed")
            || k.contains("bad-free")
            || k.contains("invalid-free")
            || segv && asan.addr.is_none_or(|a| a >= 4096)
    } else if cairn.contains("division") {
        k.starts_with("FPE")
    } else {
        false
    }
}

/// Fault kinds that have a native counterpart AddressSanitizer reports.
fn asan_checkable(kind: &str) -> bool {
    [
        "null pointer",
        "out-of-bounds",
        "use after free",
        "read-only",
        "function pointer",
        "double free",
        "malloc did not return",
        "division",
    ]
    .iter()
    .any(|k| kind.contains(k))
}

/// `file:line:col` → (file, line).
fn split_location(at: &str) -> Option<(String, u32)> {
    let mut parts = at.rsplitn(3, ':');
    let _col = parts.next()?;
    let line = parts.next()?.parse().ok()?;
    Some((parts.next()?.to_string(), line))
}

/// Replays the tests in `tests` (`dir`'s own, or others) against the run in `dir`.
pub fn replay(
    sources: &[PathBuf],
    opts: &CompileOptions,
    dir: &Path,
    tests: &Path,
    module: &Module,
    goals: &Goals,
    entry: &str,
) -> Result<ReplayReport> {
    let tmp = TempDir::new("replay")?;
    let sources: Vec<PathBuf> = sources
        .iter()
        .map(|s| s.canonicalize().unwrap_or_else(|_| s.clone()))
        .collect();
    let sources = &sources[..];
    let dir = &dir.canonicalize()?;
    // Absolute: the program runs in a scratch directory and reads its test by this path.
    let tests = &tests.canonicalize().unwrap_or_else(|_| tests.to_path_buf());
    let mut tests: Vec<PathBuf> = match std::fs::read_dir(tests) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .collect(),
        Err(_) => vec![],
    };
    tests.sort();
    let harness = dir.join("replay/harness.c");
    let cairns = dir.join("tests").is_dir() || dir.join(crate::output::suite::MANIFEST).is_file();
    if tests.is_empty() && cairns {
        // No test (or stopped before it wrote one, even before its directories): nothing to
        // build or check.
        return Ok(ReplayReport::default());
    }
    if !harness.exists() {
        bail!(
            "{} not found: is {} a Cairn output directory?",
            harness.display(),
            dir.display()
        );
    }
    let tests: Vec<(PathBuf, serde_json::Value)> = tests
        .into_iter()
        .map(|t| crate::output::suite::read_test(&t).map(|j| (t, j)))
        .collect::<Result<_>>()?;

    // Goals the run proved unreachable: a native run taking one contradicts the proof.
    let proven: BTreeMap<u64, String> = std::fs::read_to_string(dir.join("goals.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter(|g| g["status"] == "unreachable")
        .filter_map(|g| {
            let how = g["proof"].as_str().or(g["how"].as_str()).unwrap_or("proof");
            Some((g["id"].as_u64()?, how.to_string()))
        })
        .collect();
    let mut common: Vec<String> = vec!["-O0".into(), "-g".into(), "-w".into()];
    common.extend(target_flags(opts));
    let plan = Build {
        sources,
        harness: &harness,
        common: &common,
        program: &opts.flags,
        // Unit mode, argv or files as inputs: the harness that was written has the `main`.
        harness_main: entry != "main"
            || std::fs::read_to_string(&harness)?.contains(crate::output::harness::PROGRAM_MAIN),
    };
    let mut rep = ReplayReport {
        tests: tests.len(),
        ..Default::default()
    };
    let (exe, objs) = build(&plan, &COVERAGE, tmp.path())?;
    // The probe build: every claimed branch outcome and error call checked as such.
    let probe_dir = tmp.path().join("probes");
    let sites = crate::ir::probes::probe_sites(module, |site| goals.error_goal(site));
    // Def-use claims: a probe at each definition and use (the module has its locals in memory).
    let def_use = goals.def_use_base.map(|base| {
        crate::analysis::defuse::DefUse::compute(module, entry).native_probes(module, base)
    });
    let probes = match ProbeBuild::new(
        sources,
        opts,
        &sites,
        goals.len(),
        &harness,
        match plan.harness_main {
            true => &[("main", crate::ir::PROGRAM_MAIN)],
            false => &[],
        },
        &[],
        def_use.as_ref(),
        false,
        &probe_dir,
    ) {
        Ok(p) => Some(p),
        Err(e) => {
            rep.notes.push(format!(
                "no native probe build, claims checked by line only: {e:#}"
            ));
            None
        }
    };
    // The sanitizer and crash-coverage builds are made only if some test is predicted to fault.
    let mut asan: Option<Result<PathBuf, String>> = None;
    let mut crash_build: Built = None;
    let mut fault_builds: [Built; 2] = [None, None];

    let mut all_lines: BTreeMap<(String, u32), u64> = BTreeMap::new();
    let mut all_branches: BTreeMap<(String, u32, u32), u64> = BTreeMap::new();
    // Native coverage counts the program's files and the headers its goals are in (the code
    // of a header-only library such as jsmn.h).
    let mut counted: Vec<String> = sources.iter().map(|s| s.display().to_string()).collect();
    for g in &module.branch_goals {
        if let Some(f) = module.files.get(g.loc.file as usize)
            && !counted.contains(f)
        {
            counted.push(f.clone());
        }
    }
    for (t, json) in &tests {
        let mismatches_before = rep.mismatches.len();
        for o in &objs {
            let _ = std::fs::remove_file(o.with_extension("gcda"));
        }
        let outcome = json["outcome"].as_str().unwrap_or("");
        let fault = json["fault"].as_str().unwrap_or("");
        let limit = match outcome {
            "step-limit" => STEP_LIMIT_TIME,
            "fault" => STEP_LIMIT_TIME,
            _ => TEST_TIME,
        };
        let native = run_native(
            Command::new(&exe).env("CAIRN_TEST", t),
            tmp.path(),
            limit,
            false,
        )?;
        let name = t.file_name().unwrap().to_string_lossy().to_string();
        let cov = read_coverage(&COVERAGE, &objs, sources)?;
        let mut lines_run = 0u64;
        for (f, c) in &cov {
            if !counted.iter().any(|s| same_file(s, f)) {
                continue;
            }
            for (l, n) in &c.lines {
                *all_lines.entry((f.clone(), *l)).or_insert(0) += n;
                lines_run += n;
            }
            for ((l, b), n) in &c.branches {
                *all_branches.entry((f.clone(), *l, *b)).or_insert(0) += n;
            }
        }

        let probe_run = match &probes {
            Some(p) => {
                let (end, taken) = p.run_test(t, &fresh_scratch(tmp.path())?, limit)?;
                for g in &taken {
                    if let Some(how) = proven.get(&(*g as u64)) {
                        let goal = &goals.goals[*g as usize];
                        rep.mismatches.push(format!(
                            "{name}: natively takes goal {g} ({} {} at {}), which Cairn proved unreachable ({how}): a wrong proof",
                            goal.function,
                            goal.outcome,
                            module.loc_string(goal.loc),
                        ));
                    }
                }
                Some((end, taken))
            }
            None => None,
        };
        // A test that gives locals read before they are set values (`--uninitialized-inputs`)
        // runs as Cairn ran it only in the probe build, a build of Cairn's bitcode: the builds
        // from source skip those values and read whatever the stack holds.
        let local_values = json["inputs"].as_array().is_some_and(|a| {
            a.iter().any(|v| {
                v["from"]
                    .as_str()
                    .is_some_and(|f| f.starts_with(crate::ir::normalize::UNINITIALIZED_INPUT))
            })
        });
        if local_values {
            rep.local_values += 1;
        }
        // How the test ends.
        let confirmed = |ok: bool, why: String, rep: &mut ReplayReport| {
            if ok {
                rep.outcomes_confirmed += 1;
            } else {
                rep.mismatches.push(format!("{name}: {why}"));
            }
        };
        // The probe build compiles Cairn's own bitcode, so it runs the program as Cairn did;
        // gcc may order what C leaves unspecified (a call's arguments) otherwise.
        let native_code = match &probe_run {
            Some((end, _)) => {
                if let (Some(c), Some(g)) = (end.code, native.code)
                    && c != g
                    && !local_values
                {
                    rep.compilers_differ.push(format!(
                        "{name}: exit code {g} from gcc's build, {c} from clang's"
                    ));
                }
                end.code
            }
            None if local_values => None,
            None => native.code,
        };
        // Past a decision on uninitialized memory the native run goes its own way; a test
        // without an outcome (another tool's, `--tests-from`) predicts none; the probe build
        // tells how a test with locals' values exits, not where it faults.
        let predicted = if json["uninitialized_decision_at"].is_string()
            || json["outcome"].is_null()
            || local_values
                && (probe_run.is_none() || !matches!(outcome, "exit" | "abort" | "assume-failed"))
        {
            "not predicted"
        } else {
            outcome
        };
        match predicted {
            "not predicted" => rep.outcomes_unchecked += 1,
            "exit" | "abort" | "assume-failed" | "" => {
                // A failed assumption ends the harness with exit(0).
                let expect = match outcome {
                    "abort" => Some(134),
                    "assume-failed" => Some(0),
                    _ => json["exit_code"].as_i64().map(|e| e & 0xff),
                };
                match (native_code, expect) {
                    (None, _) => rep.mismatches.push(format!("{name}: native run timed out")),
                    (Some(c), Some(e)) => confirmed(
                        c as i64 == e,
                        format!("native exit code {c}, Cairn predicted {e} ({outcome})"),
                        &mut rep,
                    ),
                    (Some(_), None) => rep.outcomes_unchecked += 1,
                }
            }
            "step-limit" => {
                let steps = json["steps"].as_u64().unwrap_or(u64::MAX);
                match native_code {
                    None => rep.outcomes_confirmed += 1,
                    Some(_) if lines_run >= steps => rep.outcomes_confirmed += 1,
                    Some(c) if signal_of(c).is_some() => rep.mismatches.push(format!(
                        "{name}: Cairn predicted the step limit ({steps} instructions), the native run {} after {lines_run} source lines",
                        describe_end(Some(c))
                    )),
                    Some(c) => rep.unconfirmed.push(format!(
                        "{name}: predicted to exceed {steps} instructions; natively it exited ({c}) after {lines_run} source lines"
                    )),
                }
            }
            "fault" if fault.contains("stack overflow") => confirmed(
                matches!(native_code, Some(139) | Some(135)),
                format!(
                    "Cairn predicted a stack overflow, the native run {}",
                    describe_end(native_code)
                ),
                &mut rep,
            ),
            "fault" if asan_checkable(fault) => {
                let asan_exe = asan.get_or_insert_with(|| {
                    build(&plan, &ASAN, &tmp.path().join("asan"))
                        .map(|(exe, _)| exe)
                        .map_err(|e| format!("{e:#}"))
                });
                match asan_exe {
                    Ok(exe) => {
                        let r = run_native(
                            Command::new(&*exe)
                                .env("CAIRN_TEST", t)
                                .env(
                                    "ASAN_OPTIONS",
                                    "detect_leaks=0:allocator_may_return_null=1:detect_stack_use_after_return=0:handle_abort=1:symbolize=1",
                                )
                                .env("ASAN_SYMBOLIZER_PATH", "/usr/bin/llvm-symbolizer-19"),
                            tmp.path(),
                            TEST_TIME,
                            true,
                        )?;
                        match parse_asan(&r.stderr, sources) {
                            // Past the red zones, into another object: undetectable natively.
                            None if r.code.is_some_and(|c| signal_of(c).is_none())
                                && (fault.contains("out-of-bounds") || fault.contains("use after free")) =>
                            {
                                rep.unconfirmed.push(format!(
                                    "{name}: `{fault}` not seen by AddressSanitizer (the access reached another object's memory); the run exited with {}",
                                    r.code.unwrap_or(0)
                                ))
                            }
                            None => rep.mismatches.push(format!(
                                "{name}: Cairn predicted `{fault}`; natively (AddressSanitizer) no memory error, the run {}",
                                describe_end(r.code)
                            )),
                            Some(a) if !same_fault_kind(fault, &a) => rep.mismatches.push(format!(
                                "{name}: Cairn predicted `{fault}`; natively AddressSanitizer reports {}",
                                a.kind
                            )),
                            Some(a) => {
                                let predicted = json["fault_location"].as_str().and_then(split_location);
                                let in_program = predicted.as_ref().is_some_and(|(f, _)| {
                                    sources.iter().any(|s| same_file(&s.display().to_string(), f))
                                });
                                match (predicted, &a.frame) {
                                    (Some((pf, pl)), Some((nf, nl))) if in_program => confirmed(
                                        same_file(&pf, nf) && pl == *nl,
                                        format!(
                                            "Cairn predicted `{fault}` at {pf}:{pl}; natively at {nf}:{nl}"
                                        ),
                                        &mut rep,
                                    ),
                                    // Inside a library function: the kind is what can be compared.
                                    _ => rep.outcomes_confirmed += 1,
                                }
                            }
                        }
                    }
                    Err(e) => {
                        rep.outcomes_unchecked += 1;
                        let note = format!(
                            "no AddressSanitizer build, faults checked by signal only: {e}"
                        );
                        if !rep.notes.contains(&note) {
                            rep.notes.push(note);
                        }
                    }
                }
            }
            "fault" if fault.contains("unreachable") => confirmed(
                native_code.is_some_and(|c| signal_of(c).is_some()),
                format!(
                    "Cairn predicted `{fault}`, the native run {}",
                    describe_end(native_code)
                ),
                &mut rep,
            ),
            _ => rep.outcomes_unchecked += 1,
        }

        if let Some(at) = json["leak"]["allocated_at"].as_array() {
            let at: Vec<&str> = at.iter().filter_map(|a| a.as_str()).collect();
            let asan_exe = asan.get_or_insert_with(|| {
                build(&plan, &ASAN, &tmp.path().join("asan"))
                    .map(|(exe, _)| exe)
                    .map_err(|e| format!("{e:#}"))
            });
            match asan_exe {
                Ok(exe) => check_leak(exe, t, tmp.path(), (&name, &at), sources, &mut rep)?,
                Err(e) => {
                    rep.outcomes_unchecked += 1;
                    let note = format!("no AddressSanitizer build, leaks not checked: {e}");
                    if !rep.notes.contains(&note) {
                        rep.notes.push(note);
                    }
                }
            }
        }

        // The claims of a run that crashed or was killed are read from the build that counts
        // such ends right.
        let crash_cov = if matches!(outcome, "fault" | "abort" | "step-limit") {
            let memory_fault = outcome == "fault" && asan_checkable(fault);
            let mut runs: Vec<(&Variant, String, &mut Built)> =
                vec![(&CRASH_COVERAGE, "crash".to_string(), &mut crash_build)];
            if memory_fault {
                runs.extend(
                    FAULT_COVERAGE
                        .iter()
                        .zip(fault_builds.iter_mut())
                        .enumerate()
                        .map(|(k, (v, slot))| (v, format!("fault{k}"), slot)),
                );
            }
            let (mut joined, mut counted) = (BTreeMap::new(), false);
            for (variant, dir, slot) in runs {
                let build = slot.get_or_insert_with(|| {
                    build(&plan, variant, &tmp.path().join(&dir)).map_err(|e| format!("{e:#}"))
                });
                let Ok((exe, objs)) = build else { continue };
                for o in objs.iter() {
                    let _ = std::fs::remove_file(o.with_extension("gcda"));
                }
                run_native(
                    Command::new(&*exe)
                        .env("CAIRN_TEST", t)
                        // The report ends in abort(): the harness writes the counters.
                        .env(
                            "ASAN_OPTIONS",
                            "detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:symbolize=0",
                        ),
                    tmp.path(),
                    limit,
                    false,
                )?;
                join_coverage(&mut joined, read_coverage(variant, objs, sources)?);
                counted = true;
            }
            counted.then_some(joined)
        } else {
            None
        };
        let cov = crash_cov.as_ref().unwrap_or(&cov);
        for g in json["covers"].as_array().cloned().unwrap_or_default() {
            let Some(g) = g.as_u64().map(|g| g as usize) else {
                continue;
            };
            let Some(goal) = goals.goals.get(g) else {
                rep.mismatches
                    .push(format!("{name}: claims unknown goal {g}"));
                continue;
            };
            if let (Some(p), Some((end, taken))) = (&probes, &probe_run)
                && p.probed.contains(&(g as u32))
            {
                if taken.contains(&(g as u32)) {
                    let kind = match goal.kind {
                        GoalKind::Branch => "branch outcomes",
                        GoalKind::Error => "error calls",
                        GoalKind::DefUse => "def-use pairs",
                    };
                    *rep.claims_probed.entry(kind.into()).or_insert(0) += 1;
                } else if end.code.is_none() {
                    // Cut by the time limit: what it would have reached is not known.
                    rep.claims_unchecked += 1;
                } else {
                    rep.mismatches.push(format!(
                            "{name}: claims goal {g} ({} {} at {}), but natively the test does not take it",
                            goal.function,
                            goal.outcome,
                            module.loc_string(goal.loc),
                        ));
                }
                continue;
            }
            if local_values {
                rep.claims_unchecked += 1;
                continue;
            }
            // The first instruction executed at the branch target; for targets that are bare
            // jumps, the branch itself (a weaker check).
            let loc = if goal.kind == GoalKind::Error || goal.target_loc.line == 0 {
                goal.loc
            } else {
                goal.target_loc
            };
            let file = module
                .files
                .get(loc.file as usize)
                .cloned()
                .unwrap_or_default();
            let count = cov
                .iter()
                .find(|(f, _)| same_file(f, &file))
                .and_then(|(_, c)| c.lines.get(&loc.line).copied());
            match count {
                Some(0) => rep.mismatches.push(format!(
                    "{name}: claims goal {g} ({} {} at {}), but line {} never ran natively",
                    goal.function,
                    goal.outcome,
                    module.loc_string(goal.loc),
                    loc.line
                )),
                Some(_) => rep.claims_checked += 1,
                None => rep.claims_unchecked += 1,
            }
        }
        // A path that depended on addresses may go otherwise natively: what differs is not
        // checkable (a wrong proof stays one).
        if json["layout_dependent"].as_bool() == Some(true) {
            rep.layout_dependent += 1;
            let (kept, moved): (Vec<String>, Vec<String>) = rep
                .mismatches
                .drain(mismatches_before..)
                .partition(|m| m.contains("a wrong proof"));
            rep.mismatches.extend(kept);
            rep.unconfirmed.extend(
                moved
                    .into_iter()
                    .map(|m| format!("{m} (the test's path depends on the memory layout)")),
            );
        }
    }
    rep.lines_total = all_lines.len();
    rep.lines_executed = all_lines.values().filter(|n| **n > 0).count();
    rep.branches_total = all_branches.len();
    rep.branches_taken = all_branches.values().filter(|n| **n > 0).count();
    rep.lcov = lcov(&all_lines, &all_branches);
    Ok(rep)
}

/// An lcov tracefile (what `genhtml` and code-scanning services read) of native counts per
/// source line and per gcov branch, summed over the suite's runs.
fn lcov(
    lines: &BTreeMap<(String, u32), u64>,
    branches: &BTreeMap<(String, u32, u32), u64>,
) -> String {
    use std::fmt::Write as _;
    let mut files: Vec<&String> = lines.keys().map(|(f, _)| f).collect();
    files.dedup();
    let mut s = String::from("TN:cairn\n");
    for f in files {
        let path = std::path::absolute(f).unwrap_or_else(|_| PathBuf::from(f));
        let _ = writeln!(s, "SF:{}", path.display());
        let (mut found, mut hit) = (0, 0);
        for ((_, line, b), n) in branches.range((f.clone(), 0, 0)..=(f.clone(), u32::MAX, u32::MAX))
        {
            let ran = lines.get(&(f.clone(), *line)).is_some_and(|&c| c > 0);
            let taken = if ran { n.to_string() } else { "-".into() };
            let _ = writeln!(s, "BRDA:{line},0,{b},{taken}");
            found += 1;
            hit += (*n > 0) as usize;
        }
        let _ = writeln!(s, "BRF:{found}\nBRH:{hit}");
        let (mut lf, mut lh) = (0, 0);
        for ((_, line), n) in lines.range((f.clone(), 0)..=(f.clone(), u32::MAX)) {
            let _ = writeln!(s, "DA:{line},{n}");
            lf += 1;
            lh += (*n > 0) as usize;
        }
        let _ = writeln!(s, "LF:{lf}\nLH:{lh}\nend_of_record");
    }
    s
}

fn describe_end(code: Option<i32>) -> String {
    match code {
        None => "did not end in time".into(),
        Some(c) => match signal_of(c) {
            Some(sig) => format!("was killed by signal {sig}"),
            None => format!("exited with {c}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cov(file: &str, lines: &[(u32, u64)]) -> BTreeMap<String, FileCov> {
        let mut m = BTreeMap::new();
        m.insert(
            file.to_string(),
            FileCov {
                lines: lines.iter().copied().collect(),
                branches: BTreeMap::new(),
            },
        );
        m
    }

    /// A memory fault's run is counted by three builds: a line any of them counted ran, in
    /// whichever spelling of the file's name each compiler reports (clang keeps the path it was
    /// given, gcc makes it absolute).
    #[test]
    fn coverage_of_builds_is_joined_per_file_whatever_its_spelling() {
        let abs = std::env::current_dir().unwrap().join("prog.c");
        let mut a = cov("prog.c", &[(37, 1), (40, 0)]);
        join_coverage(
            &mut a,
            cov(abs.to_str().unwrap(), &[(37, 0), (40, 2), (41, 1)]),
        );
        assert_eq!(a.len(), 1, "{:?}", a.keys().collect::<Vec<_>>());
        let lines = &a.values().next().unwrap().lines;
        assert_eq!(lines.get(&37), Some(&1));
        assert_eq!(lines.get(&40), Some(&2));
        assert_eq!(lines.get(&41), Some(&1));
    }
}
