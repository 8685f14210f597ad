//! The `cairn` command line.

use anyhow::{Context, Result, bail};
use cairn::analysis::defuse::DefUse;
use cairn::analysis::goals::Goals;
use cairn::driver::session::{Budget, Session};
use cairn::driver::shard::Shard;
use cairn::exec::input::Replay;
use cairn::exec::{Config, Outcome, Program};
use cairn::ir::frontend::{CompileOptions, load};
use cairn::ir::{DataModel, print_module};
use cairn::output::run_record::RunRecord;
use cairn::output::suite::SuiteWriter;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "cairn",
    version,
    about = "Cairn: test generation for C programs"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

/// The program's front end and inputs: what `run.json` keeps for `replay`.
#[derive(Args, Clone, serde::Serialize, serde::Deserialize)]
struct Front {
    /// Add a directory to the include path (passed to clang).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a macro (passed to clang).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Data model of the target: LP64 (x86-64, the default) or ILP32 (clang -m32); a task
    /// definition's `data_model` sets it.
    #[arg(long, value_enum)]
    data_model: Option<Dm>,
    /// Test one function (unit mode): its parameters are inputs, pointers point to fresh
    /// input buffers (--buffer-size bytes), structs passed by value are input bytes.
    #[arg(long, default_value = "main")]
    entry: String,
    /// Unit mode: bytes behind each pointer parameter (the last one is NUL).
    #[arg(long, default_value_t = cairn::exec::machine::UNIT_BUFFER, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    buffer_size: u64,
    /// Unit mode: the globals the entry function refers to start as inputs (those a harness
    /// can set: non-static, writable, without pointers).
    #[arg(long)]
    symbolic_globals: bool,
    /// Command-line arguments as inputs (as KLEE's --sym-args): MIN to MAX arguments after the
    /// program name, each LEN bytes then a NUL. The Test-Comp format cannot carry them: the
    /// JSON tests and replay/harness.c can.
    #[arg(long, num_args = 3, value_names = ["MIN", "MAX", "LEN"])]
    sym_args: Option<Vec<u32>>,
    /// Files "A", "B", ... as inputs: N files of at most SIZE bytes each (the size is an input
    /// too), which fopen opens for reading; other names without a directory do not exist.
    #[arg(long, num_args = 2, value_names = ["N", "SIZE"])]
    sym_files: Option<Vec<u32>>,
    /// Take the program's C files and compiler flags from a compilation database (CMake's
    /// CMAKE_EXPORT_COMPILE_COMMANDS, Bear): every C file it lists, or the FILES given (by
    /// path or file name).
    #[arg(long, value_name = "compile_commands.json")]
    #[serde(skip)]
    compile_commands: Option<PathBuf>,
    /// The clang 19 to compile with (default: clang-19 on the PATH, or clang if it is version
    /// 19); llvm-link, opt and llvm-cov are taken from its directory.
    #[arg(long, env = "CAIRN_CLANG", value_name = "PATH")]
    clang: Option<PathBuf>,
    /// The program's own compiler flags, after `--` (anything clang accepts: -std=c99,
    /// -include FILE, -isystem DIR, -fno-strict-aliasing...). Optimization, debug, output and
    /// instrumentation flags are dropped; -m32 means --data-model ilp32.
    #[arg(last = true, value_name = "CLANG FLAGS")]
    flags: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, serde::Serialize, serde::Deserialize)]
enum Dm {
    #[value(name = "lp64", alias = "LP64")]
    Lp64,
    #[value(name = "ilp32", alias = "ILP32")]
    Ilp32,
}

/// What the goals are: branch outcomes (and error calls), or def-use pairs of variables.
#[derive(Clone, Copy, ValueEnum, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Criterion {
    Branches,
    DefUse,
}

impl Front {
    /// Makes the options ready to compile `files`: names the clang, takes the files and flags
    /// of `--compile-commands`, keeps the flags Cairn can pass on. Returns the files.
    fn prepare(&mut self, files: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
        if let Some(clang) = &self.clang {
            cairn::ir::toolchain::name_clang(clang);
            cairn::ir::toolchain::check_clang().map_err(anyhow::Error::msg)?;
        }
        let mut files = files;
        self.flags = cairn::ir::compile_commands::absolute_paths(&self.flags, Path::new("."));
        if let Some(db) = self.compile_commands.take() {
            let project = cairn::ir::compile_commands::read(&db, &files)?;
            if !project.conflicts.is_empty() {
                eprintln!(
                    "cairn: note: the files of {} are compiled with different flags; these of some files are left out: {}",
                    db.display(),
                    project.conflicts.join(" ")
                );
            }
            let mut flags = project.flags;
            flags.append(&mut self.flags);
            self.flags = flags;
            files = project.files;
        }
        if self.flags.iter().any(|f| f == "-m32") {
            if self.data_model == Some(Dm::Lp64) {
                bail!("-m32 contradicts --data-model lp64");
            }
            self.data_model = Some(Dm::Ilp32);
        }
        let (kept, dropped) = cairn::ir::frontend::user_flags(&self.flags);
        let dropped: Vec<&String> = dropped.iter().filter(|f| *f != "-m32").collect();
        if !dropped.is_empty() {
            eprintln!(
                "cairn: note: left out compiler flags Cairn sets itself: {}",
                dropped
                    .iter()
                    .map(|f| f.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        self.flags = kept;
        Ok(files)
    }

    /// The entry functions `--entry` names (`f,g,...`: a multi-function target), sorted so
    /// that every shard splits them alike.
    fn entries(&self) -> Vec<String> {
        let mut e: Vec<String> = self
            .entry
            .split(',')
            .map(|f| f.trim().to_string())
            .filter(|f| !f.is_empty())
            .collect();
        e.sort();
        e.dedup();
        e
    }

    fn sym_env(&self) -> cairn::exec::env::SymEnv {
        let a = self.sym_args.clone().unwrap_or_default();
        let f = self.sym_files.clone().unwrap_or_default();
        let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
        cairn::exec::env::SymEnv {
            args_min: at(&a, 0),
            args_max: at(&a, 1),
            arg_len: at(&a, 2),
            files: at(&f, 0),
            file_size: at(&f, 1),
        }
    }

    fn opts_for(&self, criterion: Criterion) -> CompileOptions {
        CompileOptions {
            locals_in_memory: criterion == Criterion::DefUse,
            ..self.opts()
        }
    }

    fn opts(&self) -> CompileOptions {
        CompileOptions {
            locals_in_memory: false,
            includes: self.include.clone(),
            defines: self.define.clone(),
            flags: self.flags.clone(),
            data_model: match self.data_model {
                None | Some(Dm::Lp64) => DataModel::LP64,
                Some(Dm::Ilp32) => DataModel::ILP32,
            },
        }
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Debug)]
enum Strategy {
    /// Pure random testing (baseline, no solver).
    Random,
    /// Concolic, bounded depth-first.
    Dfs,
    /// Concolic, negate a random branch of the latest path (CREST).
    RandomBranch,
    /// Concolic, any pending branch equally likely.
    UniformRandom,
    /// Concolic, the pending branch closest to an uncovered goal in the ICFG.
    Cfg,
    /// Concolic, SAGE's generational search.
    Generational,
    /// Concolic, the pending branch with the largest expectation of uncovered branches behind it.
    Expectation,
    /// Abstraction-driven concolic testing: concolic search (`--under`) over the product of the
    /// program and monitors from the model checker's ARGs, in turns with the model checker.
    Crabs,
    /// Data flow (--criterion def-use): one pair at a time, the branch furthest along its cut
    /// points, then closest to the next one.
    CutPoint,
    /// Data flow (--criterion def-use): the branch closest to the pair's definition, then to its use.
    ShortestDistance,
}

impl Strategy {
    fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::Dfs => "dfs",
            Strategy::RandomBranch => "random-branch",
            Strategy::UniformRandom => "uniform-random",
            Strategy::Cfg => "cfg",
            Strategy::Generational => "generational",
            Strategy::Expectation => "expectation",
            Strategy::Crabs => "crabs",
            Strategy::CutPoint => "cut-point",
            Strategy::ShortestDistance => "shortest-distance",
        }
    }
}

/// Instruction limit per run of test generation.
const DEFAULT_MAX_STEPS: u64 = 10_000_000;

#[derive(Subcommand)]
enum Cmd {
    /// Print Cairn IR of a program.
    Ir {
        /// The program's C files (or a task definition, TASK.yml).
        #[arg(required_unless_present = "compile_commands")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        front: Front,
    },
    /// List the coverage goals of a program (branch outcomes, or def-use pairs).
    Goals {
        /// The program's C files (or a task definition, TASK.yml).
        #[arg(required_unless_present = "compile_commands")]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "branches")]
        criterion: Criterion,
        /// Print JSON (the goals.json entries) instead of one line per goal.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        front: Front,
    },
    /// Run a program once on given input values, or on a test's (`--test DIR/tests/N.json`
    /// alone: the program and its options are those DIR/run.json records).
    Run {
        /// The program's C files (not needed with --test of an output directory).
        #[arg(required_unless_present_any = ["compile_commands", "test"])]
        files: Vec<PathBuf>,
        /// Input values, in the order the program asks for them (comma-separated).
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        inputs: Vec<String>,
        /// Read the inputs of a test file (tests/NNNNNN.json) instead.
        #[arg(long, conflicts_with = "inputs")]
        test: Option<PathBuf>,
        /// Print a JSON result instead of the program's output.
        #[arg(long)]
        json: bool,
        /// Instruction limit.
        #[arg(long, default_value_t = 1_000_000_000, value_parser = parse_steps)]
        max_steps: u64,
        #[command(flatten)]
        limits: Limits,
        #[command(flatten)]
        front: Front,
    },
    /// Generate a test suite.
    Gen {
        /// The program's C files, or one Test-Comp/SV-COMP task definition (TASK.yml), or
        /// (with --compile-commands) the files of the database to test.
        #[arg(required_unless_present = "compile_commands")]
        files: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, short)]
        out: PathBuf,
        /// Time budget (e.g. 30, 30s, 2m).
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        time: Duration,
        /// Seed of every random choice (fuzzing, random strategies): the same seed and budget
        /// in iterations give the same suite.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Search strategy (all but `random` are concolic) [default: expectation].
        #[arg(long, value_enum)]
        strategy: Option<Strategy>,
        /// With `--strategy crabs`: the concolic strategy that searches the product of the
        /// program and the monitors (default `expectation`; `cfg` takes its distances in the
        /// product).
        #[arg(long, value_enum, value_name = "STRATEGY")]
        under: Option<Strategy>,
        /// Stop after writing this many tests.
        #[arg(long)]
        max_tests: Option<usize>,
        /// Stop after this many program runs (a budget that does not depend on the machine's
        /// speed).
        #[arg(long)]
        max_iterations: Option<u64>,
        /// Instruction limit per run.
        #[arg(long, default_value_t = DEFAULT_MAX_STEPS, value_parser = parse_steps)]
        max_steps: u64,
        #[command(flatten)]
        limits: Limits,
        /// Goals: all branches and error calls (the default), or only the error calls
        /// (Test-Comp coverage-error).
        #[arg(long, value_enum)]
        goals: Option<GoalSet>,
        /// A Test-Comp property file (coverage-branches.prp, coverage-error-call.prp): the
        /// goals it states.
        #[arg(long, value_name = "FILE.prp")]
        property: Option<PathBuf>,
        /// Coverage criterion: branch outcomes, or def-use pairs of source variables (data-flow
        /// testing: the model checker decides pairs one at a time through cover flags).
        #[arg(long, value_enum, default_value = "branches")]
        criterion: Criterion,
        /// Accepted for compatibility: deciding goals with the model checker is the default.
        #[arg(long, hide = true)]
        prove: bool,
        /// Only generate tests: no model checking of the goals testing leaves undecided.
        #[arg(long)]
        tests_only: bool,
        /// The model checker's share of the time when testing and model checking alternate.
        #[arg(long, default_value_t = 0.3, value_parser = parse_share)]
        mc_share: f64,
        /// Mutational fuzzing's share of the testing worker's time, in turns with concolic
        /// search (0: none). Default: 0.5, but 0 when `--jobs 1` and `--strategy` are given
        /// (one worker runs the strategy asked for, alone).
        #[arg(long, value_parser = parse_fuzz_share)]
        fuzz_share: Option<f64>,
        /// Fuzz in the interpreter even when the program builds natively (by default the
        /// fuzzer runs the program natively, through a fork server, and interprets only the
        /// runs that are new).
        #[arg(long)]
        interpreted_fuzzing: bool,
        /// Def-use pairs: the model checker's time per pair in each pass over the pairs left,
        /// in seconds (the paper's ladder is 10,30,90,300; the last repeats). Default: an
        /// eighth of the budget, at most 3 s, tripling up to 300 s.
        #[arg(long, value_name = "S,S,...", value_parser = parse_slices)]
        pair_slices: Option<Slices>,
        /// Workers in parallel (a portfolio of strategies and the model checker sharing one
        /// ledger and output directory); default: the number of cores.
        #[arg(long, value_parser = parse_jobs)]
        jobs: Option<usize>,
        /// Exit with status 1 when a test ends in a fault (a crash, a failed assertion): for CI.
        /// The faults are listed in the summary, summary.json and faults.sarif either way.
        #[arg(long)]
        fail_on_fault: bool,
        /// Decide only shard K of N of the goals (K/N, 1 <= K <= N); `cairn merge` joins the
        /// shards' output directories.
        #[arg(long, value_name = "K/N")]
        shard: Option<cairn::driver::shard::Shard>,
        /// Path-condition solver: z3, walk (concolic walk), portfolio (z3, then the walk), or
        /// concretize (non-linear and opaque terms replaced by their values; the baseline).
        #[arg(long, default_value = "portfolio", value_parser = parse_solver)]
        solver: cairn::smt::solver::SolverKind,
        /// Concolic-walk parameters, `key=value,...` (steps, neighbours, tabu, samples, step,
        /// levels, bisection, restarts, time).
        #[arg(long, default_value = "", value_parser = cairn::smt::walk::WalkConfig::parse)]
        walk: cairn::smt::walk::WalkConfig,
        /// Functions of the program whose calls stay opaque in path conditions (evaluated
        /// concretely by the solver; they must be pure).
        #[arg(long, value_delimiter = ',')]
        opaque: Vec<String>,
        /// Lazy expansion: abstract calls of these functions (comma-separated), or of every
        /// input-dependent function (`auto`), and expand them on demand.
        #[arg(long, value_name = "auto|F,G")]
        lazy: Option<String>,
        #[command(flatten)]
        front: Front,
    },
    /// Decide goals with the model checker and exhaustive path exploration: covered (with a
    /// test), unreachable, or unknown.
    Prove {
        /// The program's C files, or one task definition (TASK.yml).
        #[arg(required_unless_present = "compile_commands")]
        files: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, short)]
        out: PathBuf,
        /// Time budget (e.g. 30, 30s, 2m).
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        time: Duration,
        /// Goals: all branches and error calls (the default), or only the error calls.
        #[arg(long, value_enum)]
        goals: Option<GoalSet>,
        /// A Test-Comp property file: the goals it states.
        #[arg(long, value_name = "FILE.prp")]
        property: Option<PathBuf>,
        /// Write the final abstract reachability graph as Graphviz DOT (the model checker then
        /// takes the first turn).
        #[arg(long)]
        arg: Option<PathBuf>,
        /// The model checker alone, without exhaustive path exploration.
        #[arg(long)]
        mc_only: bool,
        #[command(flatten)]
        limits: Limits,
        #[command(flatten)]
        front: Front,
    },
    /// Write DIR/report/index.html: the source with every goal marked, a summary, coverage over
    /// time, the techniques' statistics (one self-contained page).
    Report {
        /// An output directory of `cairn gen`, `prove` or `merge`.
        dir: PathBuf,
    },
    /// Merge output directories of runs on the same program (e.g. `--shard` runs) by goal.
    Merge {
        /// The merged output directory (new, empty, or Cairn's own).
        out: PathBuf,
        /// The directories to merge.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Export a generated suite as C tests for a project's own test suite (CTest or
    /// GoogleTest, with CMake glue): each test asserts what the program did natively.
    Export {
        /// The output directory of `cairn gen` (of a multi-entry run: each entry's is exported).
        dir: PathBuf,
        /// The kind of test suite.
        #[arg(long, value_enum, default_value = "ctest")]
        format: cairn::output::export::Format,
        /// Where to write it (default: DIR/export).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Print shell completions (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page of cairn (roff) to stdout: `cairn man > cairn.1`.
    Man,
    /// Replay a generated suite natively with coverage instrumentation and check Cairn's claims.
    Replay {
        /// The output directory of `cairn gen` (its run.json gives the program's files and
        /// options); or the program's C files, then the directory. Options typed here override
        /// the recorded ones.
        #[arg(required = true, num_args = 1..)]
        args: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Write the suite's native line and branch coverage as an lcov tracefile (for
        /// genhtml, IDEs and coverage services).
        #[arg(long, value_name = "FILE")]
        lcov: Option<PathBuf>,
        /// The criterion the suite was generated for (default: as recorded in run.json).
        #[arg(long, value_enum, default_value = "branches")]
        criterion: Criterion,
        #[command(flatten)]
        front: Front,
    },
}

#[derive(Args, Clone, Copy)]
struct Limits {
    /// Memory limit of the whole run (e.g. 4G, 512M): the interpreter's heap and stack get half,
    /// Cairn's own data the rest. A program run that reaches it ends there; the search stops
    /// cleanly when Cairn's own data reaches it.
    #[arg(long, value_name = "SIZE", default_value_t = default_max_memory(), value_parser = parse_size)]
    max_memory: u64,
}

/// 4 GiB, or half the machine's memory if that is less.
fn default_max_memory() -> u64 {
    let ram = cairn::exec::memory::physical_memory().unwrap_or(u64::MAX);
    (4u64 << 30).min(ram / 2)
}

impl Limits {
    /// A run's configuration: the interpreter gets half the memory limit.
    fn config(&self, max_steps: u64) -> Config {
        Config {
            max_steps,
            mem_limit: self.max_memory / 2,
            ..Config::default()
        }
    }

    /// Resident memory at which the search stops: the other half.
    fn own_memory(&self) -> u64 {
        self.max_memory / 2
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
enum GoalSet {
    Branches,
    Error,
}

/// The longest time budget accepted (a year): beyond it a budget is surely a typo.
const MAX_BUDGET_S: f64 = 366.0 * 24.0 * 3600.0;

/// A time budget: a positive, finite number with an optional `ms`, `s`, `m` or `h` suffix.
fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("invalid duration `{s}` (examples: 30, 30s, 500ms, 2m, 1h)"))?;
    let secs = v * mult;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "invalid duration `{s}`: it must be a positive number of seconds"
        ));
    }
    if secs > MAX_BUDGET_S {
        return Err(format!("invalid duration `{s}`: at most a year"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A ladder of time slices (`--pair-slices`).
#[derive(Clone, Debug)]
struct Slices(Vec<Duration>);

fn parse_slices(s: &str) -> Result<Slices, String> {
    let ladder: Result<Vec<Duration>, String> = s
        .split(',')
        .map(|x| match x.trim().parse::<f64>() {
            Ok(v) if v > 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v)),
            _ => Err(format!("`{x}` is not a positive number of seconds")),
        })
        .collect();
    Ok(Slices(ladder?))
}

fn parse_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("`{s}` is not a share strictly between 0 and 1")),
    }
}

fn parse_fuzz_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "`{s}` is not a share from 0 up to (not including) 1"
        )),
    }
}

/// The number of cores this process may use.
fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!(
            "invalid number of jobs `{s}`: a whole number from 1 to 256"
        )),
    }
}

/// An instruction limit: a whole number, at least 1.
fn parse_steps(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("the instruction limit must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "invalid instruction limit `{s}`: a whole number, at least 1"
        )),
    }
}

/// A memory size: bytes, or a number with a `K`, `M`, `G` or `T` suffix (powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim().trim_end_matches(['b', 'B']);
    let (num, shift) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("invalid size `{s}` (examples: 4G, 512M)"))?;
    let bytes = v * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < (16u64 << 20) as f64 || bytes > (1u64 << 50) as f64 {
        return Err(format!("invalid size `{s}`: between 16M and 1024T"));
    }
    Ok(bytes as u64)
}

/// The program's C files: those given, or the input files of a task definition (`TASK.yml`),
/// which also sets the data model and, with `goals`, the goals its coverage property states.
/// A property file (`--property`, as BenchExec passes it) states the goals too.
fn resolve_inputs(
    files: Vec<PathBuf>,
    front: &mut Front,
    goals: Option<&mut Option<GoalSet>>,
    property: Option<&std::path::Path>,
) -> Result<Vec<PathBuf>> {
    use cairn::task::{Coverage, Task, is_task_file, property_kind};
    let files = front.prepare(files)?;
    let to_set = |c: Coverage| match c {
        Coverage::Branches => GoalSet::Branches,
        Coverage::ErrorCall => GoalSet::Error,
    };
    let from_property = match property {
        Some(p) => Some(property_kind(p).ok_or_else(|| {
            anyhow::anyhow!(
                "{} is not a Test-Comp coverage property (coverage-branches.prp, coverage-error-call.prp)",
                p.display()
            )
        })?),
        None => None,
    };
    let explicit = goals.as_ref().and_then(|g| **g);
    if let (Some(c), Some(g)) = (from_property, explicit) {
        if to_set(c) != g {
            bail!("--goals contradicts the property file given with --property");
        }
    }
    let wanted = from_property.or(explicit.map(|g| match g {
        GoalSet::Branches => Coverage::Branches,
        GoalSet::Error => Coverage::ErrorCall,
    }));
    if !files.iter().any(|f| is_task_file(f)) {
        if let (Some(g), Some(c)) = (goals, wanted) {
            *g = Some(to_set(c));
        }
        return Ok(files);
    }
    if files.len() != 1 {
        bail!("give one task definition (TASK.yml) or the program's C files, not both");
    }
    let task = Task::read(&files[0])?;
    if let Some(dm) = task.data_model {
        let dm = match dm {
            DataModel::LP64 => Dm::Lp64,
            DataModel::ILP32 => Dm::Ilp32,
        };
        if front.data_model.is_some_and(|d| d != dm) {
            bail!("--data-model contradicts the task's data_model");
        }
        front.data_model = Some(dm);
    }
    if let Some(g) = goals {
        *g = Some(to_set(task.choose(wanted)?));
    }
    Ok(task.input_files)
}

/// `cairn replay FILE.c... DIR`: the last path is the output directory.
fn split_replay_args(mut args: Vec<PathBuf>) -> Result<(Vec<PathBuf>, PathBuf)> {
    let Some(dir) = args.pop() else {
        bail!("usage: cairn replay [FILE.c...] DIR (gen's output directory)");
    };
    if !dir.is_dir() {
        bail!(
            "{} is not a directory (usage: cairn replay [FILE.c...] DIR)",
            dir.display()
        );
    }
    Ok((args, dir))
}

/// The files and options of the run that made `dir` (its `run.json`): options typed again
/// override the recorded ones, with a note; files typed replace the recorded ones.
fn recorded_run(
    files: Vec<PathBuf>,
    dir: &Path,
    front: &mut Front,
    criterion: Criterion,
    given: &dyn Fn(&str) -> bool,
) -> Result<(Vec<PathBuf>, Criterion)> {
    let Some(rec) = RunRecord::read(dir)? else {
        if files.is_empty() {
            bail!(
                "{} has no run.json (made by an older Cairn): give the program's files and its options, as `cairn replay FILE.c... DIR`",
                dir.display()
            );
        }
        return Ok((files, criterion));
    };
    let recorded: Front = serde_json::from_value(rec.options["front"].clone())
        .with_context(|| format!("the options in {}/run.json", dir.display()))?;
    let rec_criterion: Criterion = serde_json::from_value(rec.options["criterion"].clone())
        .with_context(|| format!("the criterion in {}/run.json", dir.display()))?;
    let mut notes = vec![];
    macro_rules! take {
        ($field:ident, $flag:literal) => {
            if !given(stringify!($field)) {
                front.$field = recorded.$field.clone();
            } else if serde_json::to_value(&front.$field).ok()
                != serde_json::to_value(&recorded.$field).ok()
            {
                notes.push($flag);
            }
        };
    }
    take!(include, "-I");
    take!(define, "-D");
    take!(data_model, "--data-model");
    take!(entry, "--entry");
    take!(buffer_size, "--buffer-size");
    take!(symbolic_globals, "--symbolic-globals");
    take!(sym_args, "--sym-args");
    take!(sym_files, "--sym-files");
    take!(flags, "--");
    if front.clang.is_none() {
        front.clang = recorded.clang.clone();
    }
    let criterion = match given("criterion") {
        true => {
            if criterion != rec_criterion {
                notes.push("--criterion");
            }
            criterion
        }
        false => rec_criterion,
    };
    if !notes.is_empty() {
        eprintln!(
            "cairn: note: {} given here override{} what {}/run.json recorded",
            notes.join(", "),
            if notes.len() == 1 { "s" } else { "" },
            dir.display()
        );
    }
    Ok((if files.is_empty() { rec.files } else { files }, criterion))
}

/// The options, criterion and files `dir/run.json` records.
fn recorded_front(dir: &Path) -> Result<(Front, Criterion, Vec<PathBuf>)> {
    let Some(rec) = RunRecord::read(dir)? else {
        bail!("{} has no run.json", dir.display());
    };
    let mut front: Front = serde_json::from_value(rec.options["front"].clone())
        .with_context(|| format!("the options in {}/run.json", dir.display()))?;
    let criterion: Criterion = serde_json::from_value(rec.options["criterion"].clone())
        .with_context(|| format!("the criterion in {}/run.json", dir.display()))?;
    let files = front.prepare(rec.files)?;
    Ok((front, criterion, files))
}

fn parse_solver(s: &str) -> Result<cairn::smt::solver::SolverKind, String> {
    cairn::smt::solver::SolverKind::by_name(s)
        .ok_or_else(|| format!("unknown solver `{s}` (z3, walk, portfolio, concretize)"))
}

/// Ctrl-C and SIGTERM set the flag and interrupt the solver queries in flight, so the run
/// stops within moments with its outputs complete; a second one exits at once.
fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let i = interrupted.clone();
    let _ = ctrlc::set_handler(move || {
        if i.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
        // Again and again for a while: Z3 forgets an interrupt that comes just before a query
        // starts (with several workers, one of them is often there).
        std::thread::spawn(|| {
            for _ in 0..250 {
                cairn::smt::solver::interrupt_solvers();
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
    });
    interrupted
}

/// How an output directory is made, for `run.json`: what `replay` reads back.
fn run_record(files: &[PathBuf], front: &Front, criterion: Criterion, goals: GoalSet) -> RunRecord {
    RunRecord::new(
        files,
        serde_json::json!({ "front": front, "criterion": criterion, "goals": goals }),
    )
}

/// A session writing to `out`, over the goals asked for.
#[allow(clippy::too_many_arguments)]
fn session<'p>(
    p: &'p Program,
    files: &[PathBuf],
    out: &std::path::Path,
    time: Duration,
    goals: GoalSet,
    limits: &Limits,
    max_tests: Option<usize>,
    max_iterations: Option<u64>,
    run: &RunRecord,
) -> Result<Session<'p>> {
    let mut writer = SuiteWriter::create(out, &files[0], &p.module, goals == GoalSet::Error)?;
    writer.set_run(run)?;
    writer.set_entry(&p.module, &p.entry, &p.unit)?;
    let budget = Budget {
        time,
        max_tests,
        max_iterations,
    };
    let mut s = Session::new(p, writer, budget, interrupt_flag());
    s.limit_memory(limits.own_memory());
    if goals == GoalSet::Error {
        s.only_error_goals();
    }
    Ok(s)
}

/// Writes goals.json, summary.json and the zip; prints the one-line summary.
fn finish(
    s: &mut Session,
    out: &std::path::Path,
    mut stats: serde_json::Map<String, serde_json::Value>,
    fail_on_fault: bool,
    cfg: &Config,
) -> Result<i32> {
    s.sync();
    let minimized = cairn::driver::minimize::minimize_faults(s, cfg)?;
    if minimized > 0 {
        stats.insert("minimized_reproducers".into(), minimized.into());
    }
    let proofs = s.ledger.proofs_by_kind();
    stats.insert("proofs".into(), serde_json::to_value(&proofs)?);
    stats.insert("runs".into(), serde_json::to_value(&s.runs)?);
    let summary = s.write_results(serde_json::Value::Object(stats))?;
    let faults: Vec<cairn::output::faults::Fault> =
        serde_json::from_value(summary["faults"].clone()).unwrap_or_default();
    println!(
        "cairn: {} goals ({} branch outcomes, {} error calls{}): {} covered, {} unreachable{}, {} unknown; {} tests{} in {:.1}s -> {}",
        s.ledger.total(),
        s.goals.num_branches,
        s.goals.num_errors(),
        if s.ledger.ignored > 0 {
            format!(", {} ignored", s.ledger.ignored)
        } else {
            String::new()
        },
        s.ledger.covered,
        s.ledger.unreachable,
        if proofs.is_empty() {
            String::new()
        } else {
            let kinds: Vec<String> = proofs.iter().map(|(k, n)| format!("{k} {n}")).collect();
            format!(" ({})", kinds.join(", "))
        },
        s.ledger.unknown(),
        s.tests(),
        match faults.len() {
            0 => String::new(),
            1 => ", 1 fault".into(),
            n => format!(", {n} distinct faults"),
        },
        summary["time_s"].as_f64().unwrap_or(0.0),
        out.display()
    );
    for f in cairn::output::faults::lines(&faults, out) {
        println!("cairn: fault: {f}");
    }
    let code = limit_report(s).unwrap_or(if s.ledger.violations.is_empty() { 0 } else { 4 });
    Ok(match code {
        0 if fail_on_fault && !faults.is_empty() => 1,
        c => c,
    })
}

/// Says what ended runs or the search early; exit code 3 when no test could be made because
/// every run stopped at something Cairn cannot execute.
fn limit_report(s: &Session) -> Option<i32> {
    if s.memory_exceeded.get() {
        eprintln!(
            "cairn: warning: Cairn's memory reached the limit (--max-memory): the search stopped early"
        );
    }
    if s.runs.cut_by_memory_limit > 0 {
        eprintln!(
            "cairn: warning: {} runs reached the memory limit of a run (--max-memory) and were cut short (no test)",
            s.runs.cut_by_memory_limit
        );
    }
    if s.runs.unsupported > 0 {
        eprintln!(
            "cairn: warning: {} of {} runs stopped at something Cairn cannot execute; the first: {}",
            s.runs.unsupported,
            s.iterations,
            s.runs.first_unsupported.as_deref().unwrap_or("?")
        );
        if s.tests() == 0 {
            eprintln!("cairn: error: no test could be generated");
            return Some(3);
        }
    }
    None
}

/// A progress bar on stderr when it is a terminal; nothing otherwise (CI logs stay clean).
/// The bar fills as goals are decided (covered or proven unreachable).
fn progress_bar(s: &mut Session) {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return;
    }
    let b = indicatif::ProgressBar::new(s.ledger.total() as u64)
        .with_finish(indicatif::ProgressFinish::AndClear);
    b.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {msg}")
            .unwrap()
            .progress_chars("=> "),
    );
    s.on_progress(move |ledger, tests, what| {
        b.set_length(ledger.total() as u64);
        b.set_position((ledger.covered + ledger.unreachable) as u64);
        b.set_message(progress_line(ledger, tests, what));
    });
}

/// `goals 40 covered of 45, 97% of reachable | 4 proven unreachable | 1 unknown | tests 12 |`
/// and what the techniques are doing.
fn progress_line(l: &cairn::driver::ledger::Ledger, tests: usize, what: &str) -> String {
    let reachable = l.total() - l.unreachable;
    let pct = if reachable == 0 {
        100.0
    } else {
        100.0 * l.covered as f64 / reachable as f64
    };
    format!(
        "goals {} covered of {}, {pct:.0}% of reachable | {} proven unreachable | {} unknown | tests {tests} | {what}",
        l.covered,
        l.total(),
        l.unreachable,
        l.unknown()
    )
}

fn load_program(files: &[PathBuf], front: &Front, criterion: Criterion) -> Result<Program> {
    let opts = front.opts_for(criterion);
    let m = load(files, &opts)?;
    let mut p = Program::new(m);
    p.source = Some(cairn::exec::Source {
        files: files.to_vec(),
        opts,
    });
    if p.module
        .function(&front.entry)
        .is_none_or(|f| f.blocks.is_empty())
    {
        bail!("no function `{}` with a body in the program", front.entry);
    }
    p.set_entry(&front.entry, front.buffer_size, front.symbolic_globals);
    let env = front.sym_env();
    if !env.is_empty() {
        if front.entry != "main" {
            bail!(
                "--sym-args and --sym-files give `main` its arguments and files: not with --entry"
            );
        }
        p.set_env(&env).map_err(anyhow::Error::msg)?;
    }
    if criterion == Criterion::DefUse {
        p.track_def_use();
    }
    if cairn::analysis::escape::escapes(&p.module).uses_threads {
        eprintln!(
            "cairn: warning: threads run one after the other, each inside pthread_create: interleavings are not explored"
        );
    }
    for w in p.extern_warnings() {
        eprintln!("cairn: warning: {w}");
    }
    Ok(p)
}

fn main() {
    // Launcher mode (a native process Cairn starts without forking itself) never returns.
    cairn::exec::launcher::run_if_asked();
    // `cairn ... | head`: end quietly when the reader goes away, as other command-line tools do.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let matches = cli_command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // Which options were typed (not defaults): a replayed directory's record gives the rest.
    let given = |id: &str| {
        matches.subcommand().is_some_and(|(_, m)| {
            m.try_contains_id(id).unwrap_or(false)
                && m.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
        })
    };
    let code = match real_main(cli, &given) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cairn: error: {e:#}");
            2
        }
    };
    // Not `exit`: a native build may still run on a thread of its own, inside LLVM, whose
    // static destructors `exit` would run under it (heap corruption at the end of short runs).
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    unsafe { libc::_exit(code) }
}

/// The command line, with `--version` telling the build and the toolchain.
fn cli_command() -> clap::Command {
    // Asking clang and Z3 costs a process: only for `--version`.
    if !std::env::args().any(|a| a == "--version" || a == "-V") {
        return Cli::command();
    }
    let long = format!(
        "{} (commit {})\nclang: {}\nZ3: {}",
        env!("CARGO_PKG_VERSION"),
        env!("CAIRN_COMMIT"),
        cairn::ir::toolchain::check_clang().unwrap_or_else(|e| format!("not usable: {e}")),
        z3::full_version()
    );
    let long: &'static str = Box::leak(long.into_boxed_str());
    Cli::command().version(long).long_version(long)
}

fn real_main(cli: Cli, given: &dyn Fn(&str) -> bool) -> Result<i32> {
    match cli.cmd {
        Cmd::Ir { files, mut front } => {
            let files = resolve_inputs(files, &mut front, None, None)?;
            let m = load(&files, &front.opts())?;
            print!("{}", print_module(&m));
            Ok(0)
        }
        Cmd::Goals {
            files,
            criterion,
            json,
            mut front,
        } => {
            let files = resolve_inputs(files, &mut front, None, None)?;
            let p = load_program(&files, &front, criterion)?;
            let mut goals = Goals::of(&p.module);
            if let Some(du) = &p.def_use {
                goals.add_def_use(&p.module, du);
            }
            let first = goals.def_use_base.unwrap_or(0);
            let list = &goals.goals[first..];
            if json {
                let v: Vec<serde_json::Value> = list
                    .iter()
                    .map(|g| {
                        let mut o = serde_json::json!({"id": g.id, "kind": g.kind,
                            "function": g.function, "outcome": g.outcome, "line": g.loc.line});
                        if let Some(du) = &g.def_use {
                            o["variable"] = du.variable.clone().into();
                            o["def_line"] = du.def_line.into();
                            o["def_column"] = du.def_column.into();
                            o["use_line"] = du.use_line.into();
                            o["use_column"] = g.loc.col.into();
                            o["use_kind"] = du.use_kind.into();
                        }
                        o
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                for g in list {
                    match &g.def_use {
                        Some(du) => println!("{:4} {}: {}", g.id, g.function, du.label),
                        None => println!(
                            "{:4} {} {} {}",
                            g.id,
                            g.function,
                            p.module.loc_string(g.loc),
                            g.outcome
                        ),
                    }
                }
            }
            Ok(0)
        }
        Cmd::Run {
            files,
            inputs,
            test,
            json,
            max_steps,
            limits,
            mut front,
        } => {
            let files = match (&test, files.is_empty()) {
                // A test of an output directory: the run that made it names the program.
                (Some(t), true) => {
                    let dir = t.parent().and_then(Path::parent).unwrap_or(Path::new("."));
                    recorded_run(files, dir, &mut front, Criterion::Branches, given)?.0
                }
                _ => files,
            };
            let files = resolve_inputs(files, &mut front, None, None)?;
            let p = load_program(&files, &front, Criterion::Branches)?;
            let values = match test {
                Some(t) => cairn::output::suite::read_test_values(&t)?
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect(),
                None => inputs,
            };
            let mut src = Replay::new(values);
            let cfg = limits.config(max_steps);
            let r = p.run(&mut src, &cfg);
            for e in &src.errors {
                eprintln!("cairn: warning: {e}");
            }
            let goals = Goals::of(&p.module);
            if json {
                let mut o = serde_json::json!({
                    "outcome": r.outcome.label(),
                    "exit_code": r.outcome.exit_code(),
                    "covered": goals.covered_by(&r),
                    "inputs": r.inputs.iter().map(cairn::output::suite::input_json).collect::<Vec<_>>(),
                    "steps": r.steps,
                    "stdout": String::from_utf8_lossy(&r.stdout),
                });
                if let Some(v) = &r.returned {
                    o["returned"] = serde_json::json!(v);
                }
                if let Outcome::Fault { kind, loc }
                | Outcome::Unsupported {
                    what: kind, loc, ..
                } = &r.outcome
                {
                    o["fault"] = serde_json::json!(kind);
                    o["location"] = serde_json::json!(p.module.loc_string(*loc));
                }
                println!("{}", serde_json::to_string_pretty(&o)?);
            } else {
                std::io::stdout().write_all(&r.stdout)?;
                std::io::stderr().write_all(&r.stderr)?;
                if let Some(v) = &r.returned {
                    eprintln!("cairn: {} returned {v}", p.entry);
                }
                match &r.outcome {
                    Outcome::Fault { kind, loc } => eprintln!(
                        "cairn: the program failed: {kind} at {}",
                        p.module.loc_string(*loc)
                    ),
                    Outcome::Unsupported { what, loc, .. } => eprintln!(
                        "cairn: unsupported: {what} at {}",
                        p.module.loc_string(*loc)
                    ),
                    Outcome::StepLimit => eprintln!("cairn: instruction limit reached"),
                    Outcome::AssumeFailed => {
                        eprintln!("cairn: an assumption does not hold on these inputs")
                    }
                    Outcome::Cut(_) => eprintln!(
                        "cairn: the run reached the memory limit (--max-memory) and was stopped"
                    ),
                    _ => {}
                }
            }
            if r.stdout.len() >= cairn::exec::libc::OUTPUT_CAP {
                eprintln!(
                    "cairn: warning: only the first {} MiB of the program's output were kept",
                    cairn::exec::libc::OUTPUT_CAP >> 20
                );
            }
            Ok(match r.outcome {
                Outcome::StepLimit | Outcome::Unsupported { .. } | Outcome::Cut(_) => 3,
                Outcome::AssumeFailed => 0,
                o => o.exit_code(),
            })
        }
        Cmd::Prove {
            files,
            out,
            time,
            mut goals,
            property,
            arg,
            mc_only,
            limits,
            mut front,
        } => {
            let files = resolve_inputs(files, &mut front, Some(&mut goals), property.as_deref())?;
            let goals = goals.unwrap_or(GoalSet::Branches);
            let loading = std::time::Instant::now();
            cairn::ir::frontend::set_deadline(Some(loading + time));
            let p = load_program(&files, &front, Criterion::Branches)?;
            let time = time.saturating_sub(loading.elapsed());
            let run = run_record(&files, &front, Criterion::Branches, goals);
            let mut s = session(&p, &files, &out, time, goals, &limits, None, None, &run)?;
            let mut mc = cairn::driver::prove::ModelChecking::new(&s)?;
            progress_bar(&mut s);
            let stats = if mc_only {
                cairn::driver::generate::run(&mut s, &mut mc)?
            } else {
                let cfg = s.run_config(&limits.config(DEFAULT_MAX_STEPS));
                let mut provers = cairn::driver::prove::provers(&s, &mut mc, &cfg, arg.is_some())?;
                cairn::driver::generate::run(&mut s, &mut provers)?
            };
            s.end_progress();
            if let (Some(path), Some(dot)) = (arg, mc.arg_dot(&s)) {
                std::fs::write(&path, dot)?;
            }
            let cfg = s.run_config(&limits.config(DEFAULT_MAX_STEPS));
            finish(&mut s, &out, stats, false, &cfg)
        }
        Cmd::Gen {
            files,
            out,
            time,
            seed,
            strategy,
            under,
            max_tests,
            max_iterations,
            max_steps,
            limits,
            mut goals,
            property,
            criterion,
            prove: _,
            tests_only,
            mc_share,
            fuzz_share,
            interpreted_fuzzing,
            pair_slices,
            jobs,
            fail_on_fault,
            shard,
            solver,
            walk,
            opaque,
            lazy,
            mut front,
        } => {
            let files = resolve_inputs(files, &mut front, Some(&mut goals), property.as_deref())?;
            let goals = goals.unwrap_or(GoalSet::Branches);
            let (jobs_given, jobs) = (jobs, jobs.unwrap_or_else(default_jobs));
            // One entry function's generation into `out` (its goals' `shard`, if any).
            let gen_entry = |front: &Front, out: &Path, time: Duration, shard: Option<Shard>| {
                // `--time` includes loading: the search gets what compiling and lowering left.
                let loading = std::time::Instant::now();
                cairn::ir::frontend::set_deadline(Some(loading + time));
                let p = load_program(&files, front, criterion)?;
                let time = time.saturating_sub(loading.elapsed());
                let mut s = session(
                    &p,
                    &files,
                    out,
                    time,
                    goals,
                    &limits,
                    max_tests,
                    max_iterations,
                    &run_record(&files, front, criterion, goals),
                )?;
                if criterion == Criterion::DefUse {
                    s.only_def_use_goals();
                }
                let strategy_given = strategy.is_some();
                let strategy = match (strategy.unwrap_or(Strategy::Expectation), under) {
                    (Strategy::Crabs, Some(u)) => format!("crabs:{}", u.name()),
                    (_, Some(_)) => anyhow::bail!("--under needs --strategy crabs"),
                    (s, None) => s.name().into(),
                };
                let plan = cairn::driver::generate::Plan {
                    strategy,
                    seed,
                    cfg: s.run_config(&limits.config(max_steps)),
                    tests_only,
                    mc_share,
                    pair_slices: pair_slices.clone().map(|l| l.0).unwrap_or_default(),
                    jobs,
                    solver: cairn::driver::concolic::SolverOptions {
                        kind: solver,
                        walk: walk.clone(),
                        opaque: opaque.clone(),
                        ..Default::default()
                    },
                    lazy: lazy.clone(),
                    // One worker asked to run one strategy runs it alone.
                    fuzz_share: fuzz_share.unwrap_or(
                        match jobs_given == Some(1) && strategy_given {
                            true => 0.0,
                            false => 0.5,
                        },
                    ),
                    fuzz_native: !interpreted_fuzzing,
                };
                if let Some(shard) = shard {
                    let others = shard.others(&s.goals);
                    s.leave_goals_to_other_shards(others);
                    let _ = s.shared().path_shard.set(shard);
                }
                let mut t = cairn::driver::generate::technique(&s, &plan)?;
                progress_bar(&mut s);
                let mut stats = cairn::driver::generate::run(&mut s, t.as_mut())?;
                s.end_progress();
                stats.insert("seed".into(), seed.into());
                if let Some(shard) = shard {
                    stats.insert("shard".into(), shard.to_string().into());
                    // Other shards' goals this shard's tests covered or its proofs decided.
                    let others = shard.others(&s.goals).into_iter();
                    let decided = others.filter(|&g| {
                        use cairn::driver::ledger::Status;
                        matches!(
                            s.ledger.status[g],
                            Status::Covered(_) | Status::Unreachable(_)
                        )
                    });
                    stats.insert("other_shards_goals_decided".into(), decided.count().into());
                    // What the merge needs to prove goals from every shard's exhausted share:
                    // the same split, of the same path space (program options).
                    let paths = serde_json::json!({
                        "split_depth": shard.split_depth(),
                        "exhausted": s.shared().paths_exhausted(),
                        "options": format!("{:?} {:?} {} {} {:?} {}", front.opts_for(criterion), front.entry,
                            front.buffer_size, front.symbolic_globals, front.sym_env(),
                            if criterion == Criterion::DefUse { "def-use" } else { "branches" }),
                    });
                    stats.insert("paths".into(), paths);
                }
                stats.insert("solver_kind".into(), solver.name().into());
                finish(&mut s, out, stats, fail_on_fault, &plan.cfg)
            };
            // A multi-function target (`--entry f,g,...`): each entry function's generation
            // goes to OUT/<entry>; shards share out the entry functions (`Shard::entries`).
            let entries = front.entries();
            if entries.len() <= 1 {
                front.entry = entries.first().cloned().unwrap_or_default();
                return gen_entry(&front, &out, time, shard);
            }
            let mine = match shard {
                Some(shard) => shard.entries(&entries),
                None => entries
                    .iter()
                    .map(|e| (e.as_str(), Shard { index: 1, count: 1 }))
                    .collect(),
            };
            let time = time / mine.len() as u32;
            let mut code = 0;
            for (entry, share) in mine {
                let mut front = front.clone();
                front.entry = entry.to_string();
                let share = (share.count > 1).then_some(share);
                code = code.max(gen_entry(&front, &out.join(entry), time, share)?);
            }
            Ok(code)
        }
        Cmd::Report { dir } => {
            let path = cairn::output::report::write_report(&dir)?;
            println!("cairn: report -> {}", path.display());
            Ok(0)
        }
        Cmd::Merge { out, dirs } => {
            let m = cairn::output::merge::merge(&out, &dirs)?;
            for v in &m.violations {
                eprintln!(
                    "cairn: SOUNDNESS VIOLATION: goal {} was proven unreachable ({}) in {} but {} covers it",
                    v.goal, v.proof, v.proved_in, v.test
                );
            }
            println!(
                "cairn: merged {} directories: {} goals: {} covered, {} unreachable, {} unknown; {} tests -> {}",
                dirs.len(),
                m.total,
                m.covered,
                m.unreachable,
                m.unknown,
                m.tests,
                out.display()
            );
            Ok(if m.violations.is_empty() { 0 } else { 4 })
        }
        Cmd::Completions { shell } => {
            clap_complete::generate(shell, &mut cli_command(), "cairn", &mut std::io::stdout());
            Ok(0)
        }
        Cmd::Man => {
            clap_mangen::Man::new(cli_command()).render(&mut std::io::stdout())?;
            Ok(0)
        }
        Cmd::Export { dir, format, out } => {
            use cairn::output::export;
            let out = out.unwrap_or_else(|| dir.join("export"));
            // A multi-entry run: DIR/<entry> per entry function.
            let single = dir.join(cairn::output::run_record::RUN_RECORD).is_file();
            let mut runs: Vec<(PathBuf, PathBuf)> = vec![];
            if single {
                runs.push((dir.clone(), out.clone()));
            } else {
                let mut subs: Vec<PathBuf> = std::fs::read_dir(&dir)
                    .with_context(|| format!("cannot read {}", dir.display()))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.join(cairn::output::run_record::RUN_RECORD).is_file())
                    .collect();
                subs.sort();
                for s in subs {
                    let name = s.file_name().unwrap_or_default().to_owned();
                    runs.push((s, out.join(name)));
                }
            }
            if runs.is_empty() {
                bail!(
                    "{} has no run.json: export needs a directory of `cairn gen`",
                    dir.display()
                );
            }
            export::prepare_out(&out)?;
            for (run_dir, run_out) in &runs {
                let (front, criterion, files) = recorded_front(run_dir)?;
                let p = load_program(&files, &front, criterion)?;
                let e = export::Export {
                    dir: run_dir,
                    sources: &files,
                    opts: &front.opts(),
                    module: &p.module,
                    entry: &p.entry,
                    unit: &p.unit,
                };
                let (n, left_out) = export::export(&e, format, run_out)?;
                for l in &left_out {
                    eprintln!("cairn: note: test {l}");
                }
                println!(
                    "cairn: exported {n} tests of {} -> {}",
                    run_dir.display(),
                    run_out.display()
                );
            }
            if !single {
                let subdirs: Vec<String> = runs
                    .iter()
                    .filter_map(|(_, o)| o.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .collect();
                export::write_parent_cmake(&out, &subdirs, format)?;
            }
            Ok(0)
        }
        Cmd::Replay {
            args,
            json,
            lcov,
            criterion,
            mut front,
        } => {
            let (args, dir) = split_replay_args(args)?;
            let (args, criterion) = recorded_run(args, &dir, &mut front, criterion, given)?;
            let args = resolve_inputs(args, &mut front, None, None)?;
            let p = load(&args, &front.opts_for(criterion)).context("loading the program")?;
            let mut goals = Goals::of(&p);
            if criterion == Criterion::DefUse {
                goals.add_def_use(&p, &DefUse::compute(&p, &front.entry));
            }
            // The program as the goals were computed (def-use: its locals in memory).
            let rep = cairn::output::replay::replay(
                &args,
                &front.opts_for(criterion),
                &dir,
                &p,
                &goals,
                &front.entry,
            )?;
            if let Some(path) = &lcov {
                std::fs::write(path, &rep.lcov)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&rep)?);
            } else {
                print!("{}", rep.text());
            }
            if !rep.mismatches.is_empty() {
                for m in &rep.mismatches {
                    eprintln!("cairn: REPLAY MISMATCH: {m}");
                }
                return Ok(1);
            }
            Ok(0)
        }
    }
}
