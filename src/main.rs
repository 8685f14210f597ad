//! The `cairn` command line.

use anyhow::{Context, Result, bail};
use cairn::analysis::defuse::DefUse;
use cairn::analysis::goals::Goals;
use cairn::driver::command::*;
use cairn::driver::options::*;
use cairn::driver::shard::Shard;
use cairn::exec::Outcome;
use cairn::exec::input::Replay;
use cairn::ir::frontend::load;
use cairn::ir::print_module;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
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
        #[arg(long, value_parser = strategy_values())]
        strategy: Option<String>,
        /// With `--strategy crabs`: the concolic strategy that searches the product of the
        /// program and the monitors (default `expectation`; `cfg` takes its distances in the
        /// product).
        #[arg(long, value_name = "STRATEGY", value_parser = strategy_values())]
        under: Option<String>,
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
                let strategy = match (strategy.as_deref().unwrap_or("expectation"), &under) {
                    ("crabs", Some(u)) => format!("crabs:{u}"),
                    (_, Some(_)) => anyhow::bail!("--under needs --strategy crabs"),
                    (s, None) => s.to_string(),
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
