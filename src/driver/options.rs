//! What a run of Cairn is given: the program's files and front-end options (`Front`, which
//! `run.json` records), the goals, the limits, and the parsers of option values. The command
//! line flattens these; `replay`, `export` and `run --test` read them back from `run.json`.

use crate::exec::Config;
use crate::exec::Program;
use crate::ir::DataModel;
use crate::ir::frontend::{CompileOptions, load};
use crate::output::run_record::RunRecord;
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

pub use crate::units::{MAX_BUDGET_S, parse_duration, parse_size, parse_steps};

/// The program's front end and inputs: what `run.json` keeps for `replay`.
#[derive(Args, Clone, serde::Serialize, serde::Deserialize)]
#[command(next_help_heading = "Program")]
pub struct Front {
    /// Add a directory to the include path (passed to clang).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a macro (passed to clang).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Data model of the target: LP64 (x86-64, the default) or ILP32 (clang -m32); a task
    /// definition's `data_model` sets it.
    #[arg(long, value_enum)]
    pub data_model: Option<Dm>,
    /// Test one function (unit mode): its parameters are inputs, pointers point to fresh
    /// input buffers (--buffer-size bytes), structs passed by value are input bytes; a pointer
    /// it loads from them is null or another such buffer, as a test value says.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Unit mode: bytes behind each pointer parameter (the last one is NUL).
    #[arg(long, default_value_t = crate::exec::machine::UNIT_BUFFER, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    pub buffer_size: u64,
    /// Unit mode: the globals the entry function refers to start as inputs (those a harness
    /// can set: non-static, writable, without pointers).
    #[arg(long)]
    pub symbolic_globals: bool,
    /// A local the program may read before it sets it (a number whose address is not taken)
    /// starts with an input of the test, as SV-COMP's verifiers read such locals, instead of
    /// whatever its stack slot held. Runs deciding on it are then claimed and confirmed:
    /// native builds of the program take the value from the test too. The Test-Comp format and
    /// `cairn export` cannot give a local a value.
    #[arg(long)]
    #[serde(default)]
    pub uninitialized_inputs: bool,
    /// Command-line arguments as inputs (as KLEE's --sym-args): MIN to MAX arguments after the
    /// program name, each LEN bytes then a NUL. The Test-Comp format cannot carry them: the
    /// JSON tests and replay/harness.c can.
    #[arg(long, num_args = 3, value_names = ["MIN", "MAX", "LEN"])]
    pub sym_args: Option<Vec<u32>>,
    /// Files "A", "B", ... as inputs: N files of at most SIZE bytes each (the size is an input
    /// too), which fopen opens for reading; other names without a directory do not exist.
    #[arg(long, num_args = 2, value_names = ["N", "SIZE"])]
    pub sym_files: Option<Vec<u32>>,
    /// Take the program's C files and compiler flags from a compilation database (CMake's
    /// CMAKE_EXPORT_COMPILE_COMMANDS, Bear): every C file it lists, or the FILES given (by
    /// path or file name).
    #[arg(long, value_name = "compile_commands.json")]
    #[serde(skip)]
    pub compile_commands: Option<PathBuf>,
    /// The clang 19 to compile with (default: clang-19 on the PATH, or clang if it is version
    /// 19); llvm-link, opt and llvm-cov are taken from its directory.
    #[arg(long, env = "CAIRN_CLANG", value_name = "PATH")]
    pub clang: Option<PathBuf>,
    /// The program's own compiler flags, after `--` (anything clang accepts: -std=c99,
    /// -include FILE, -isystem DIR, -fno-strict-aliasing...). Optimization, debug, output and
    /// instrumentation flags are dropped; -m32 means --data-model ilp32.
    #[arg(last = true, value_name = "CLANG FLAGS")]
    pub flags: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Dm {
    #[value(name = "lp64", alias = "LP64")]
    Lp64,
    #[value(name = "ilp32", alias = "ILP32")]
    Ilp32,
}

/// What the goals are: branch outcomes (and error calls), or def-use pairs of variables.
#[derive(Clone, Copy, ValueEnum, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    Branches,
    DefUse,
}

impl Front {
    /// Makes the options ready to compile `files`: names the clang, takes the files and flags
    /// of `--compile-commands`, keeps the flags Cairn can pass on. Returns the files.
    pub fn prepare(&mut self, files: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
        if let Some(clang) = &self.clang {
            crate::ir::toolchain::name_clang(clang);
            crate::ir::toolchain::check_clang().map_err(anyhow::Error::msg)?;
        }
        let mut files = files;
        self.flags = crate::ir::compile_commands::absolute_paths(&self.flags, Path::new("."));
        if let Some(db) = self.compile_commands.take() {
            let project = crate::ir::compile_commands::read(&db, &files)?;
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
        let (kept, dropped) = crate::ir::frontend::user_flags(&self.flags);
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
    pub fn entries(&self) -> Vec<String> {
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

    pub fn sym_env(&self) -> crate::exec::env::SymEnv {
        let a = self.sym_args.clone().unwrap_or_default();
        let f = self.sym_files.clone().unwrap_or_default();
        let at = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
        crate::exec::env::SymEnv {
            args_min: at(&a, 0),
            args_max: at(&a, 1),
            arg_len: at(&a, 2),
            files: at(&f, 0),
            file_size: at(&f, 1),
        }
    }

    pub fn opts_for(&self, criterion: Criterion) -> CompileOptions {
        CompileOptions {
            locals_in_memory: criterion == Criterion::DefUse,
            ..self.opts()
        }
    }

    pub fn opts(&self) -> CompileOptions {
        CompileOptions {
            locals_in_memory: false,
            uninitialized_inputs: self.uninitialized_inputs,
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

/// Instruction limit per run of test generation.
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

#[derive(Args, Clone, Copy)]
pub struct Limits {
    /// Memory limit of the whole run (e.g. 4G, 512M): the interpreter's heap and stack get half,
    /// Cairn's own data the rest. A program run that reaches it ends there; the search stops
    /// cleanly when Cairn's own data reaches it.
    #[arg(long, value_name = "SIZE", default_value_t = default_max_memory(), value_parser = parse_size)]
    pub max_memory: u64,
}

/// 4 GiB, or half the machine's memory if that is less.
pub fn default_max_memory() -> u64 {
    let ram = crate::exec::memory::physical_memory().unwrap_or(u64::MAX);
    (4u64 << 30).min(ram / 2)
}

impl Limits {
    /// A run's configuration: the interpreter gets half the memory limit.
    pub fn config(&self, max_steps: u64) -> Config {
        Config {
            max_steps,
            mem_limit: self.max_memory / 2,
            ..Config::default()
        }
    }

    /// Resident memory at which the search stops: the other half.
    pub fn own_memory(&self) -> u64 {
        self.max_memory / 2
    }
}

#[derive(Clone, Copy, ValueEnum, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GoalSet {
    Branches,
    Error,
}

/// The program's C files: those given, or the input files of a task definition (`TASK.yml`),
/// which also sets the data model and, with `goals`, the goals its coverage property states.
/// A property file (`--property`, as BenchExec passes it) states the goals too.
pub fn resolve_inputs(
    files: Vec<PathBuf>,
    front: &mut Front,
    goals: Option<&mut Option<GoalSet>>,
    property: Option<&std::path::Path>,
) -> Result<Vec<PathBuf>> {
    use crate::task::{Coverage, Task, is_task_file, property_kind};
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
    if let (Some(c), Some(g)) = (from_property, explicit)
        && to_set(c) != g
    {
        bail!("--goals contradicts the property file given with --property");
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
pub fn split_replay_args(mut args: Vec<PathBuf>) -> Result<(Vec<PathBuf>, PathBuf)> {
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
pub fn recorded_run(
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
    take!(uninitialized_inputs, "--uninitialized-inputs");
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
pub fn recorded_front(dir: &Path) -> Result<(Front, Criterion, Vec<PathBuf>)> {
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

/// How an output directory is made, for `run.json`: what `replay` reads back.
pub fn run_record(
    files: &[PathBuf],
    front: &Front,
    criterion: Criterion,
    goals: GoalSet,
) -> RunRecord {
    RunRecord::new(
        files,
        serde_json::json!({ "front": front, "criterion": criterion, "goals": goals }),
    )
}

/// libFuzzer's entry point, `int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)`.
const FUZZ_TARGET: &str = "LLVMFuzzerTestOneInput";

/// The program as `front` asks for it: compiled, its entry set (unit mode), argv and files
/// made inputs, def-use pairs tracked for that criterion; warnings about what runs differently.
/// A program without `main` that defines libFuzzer's entry is tested through it (`front.entry`
/// becomes it, so the output records it for replay and export).
pub fn load_program(files: &[PathBuf], front: &mut Front, criterion: Criterion) -> Result<Program> {
    let opts = front.opts_for(criterion);
    let m = load(files, &opts)?;
    let mut p = Program::new(m);
    p.source = Some(crate::exec::Source {
        files: files.to_vec(),
        opts,
    });
    let has_body = |name: &str| {
        p.module
            .function(name)
            .is_some_and(|f| !f.blocks.is_empty())
    };
    if front.entry == "main" && !has_body("main") && has_body(FUZZ_TARGET) {
        eprintln!(
            "cairn: note: no `main`: testing the libFuzzer target `{FUZZ_TARGET}` (as with --entry {FUZZ_TARGET})"
        );
        front.entry = FUZZ_TARGET.to_string();
    }
    if !has_body(&front.entry) {
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
    if crate::analysis::escape::escapes(&p.module).uses_threads {
        eprintln!(
            "cairn: warning: threads run one after the other, each inside pthread_create: interleavings are not explored"
        );
    }
    for w in p.extern_warnings() {
        eprintln!("cairn: warning: {w}");
    }
    for w in &p.module.not_interpreted {
        eprintln!(
            "cairn: warning: {w}: not interpreted; a run reaching it stops there, and native runs (the fuzzer's) execute it"
        );
    }
    if front.uninitialized_inputs {
        let locals: Vec<&str> = (p.module.externs.iter())
            .filter_map(|e| {
                e.name
                    .strip_prefix(crate::ir::normalize::UNINITIALIZED_INPUT)
            })
            .collect();
        eprintln!(
            "cairn: note: --uninitialized-inputs: {} local(s) a run may read before they are set start with a test value{}{}",
            locals.len(),
            if locals.is_empty() { "" } else { ": " },
            locals.join(", ")
        );
    } else {
        for w in &p.module.uninitialized_reads {
            eprintln!(
                "cairn: warning: {w}: Cairn reads 0 there, a native run whatever memory held, so no input steers decisions on it (--uninitialized-inputs makes such locals inputs)"
            );
        }
    }
    Ok(p)
}
