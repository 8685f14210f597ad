//! The `cairn` command line.

use anyhow::{Context, Result, bail};
use cairn::analysis::goals::Goals;
use cairn::driver::session::{Budget, Session};
use cairn::exec::input::Replay;
use cairn::exec::{Config, Outcome, Program};
use cairn::ir::frontend::{CompileOptions, load};
use cairn::ir::{DataModel, print_module};
use cairn::output::suite::SuiteWriter;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
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

#[derive(Args, Clone)]
struct Front {
    /// Add a directory to the include path (passed to clang).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Define a macro (passed to clang).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Data model of the target: LP64 (x86-64) or ILP32 (clang -m32).
    #[arg(long, value_enum, default_value = "lp64")]
    data_model: Dm,
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
}

#[derive(Clone, Copy, ValueEnum)]
enum Dm {
    #[value(name = "lp64", alias = "LP64")]
    Lp64,
    #[value(name = "ilp32", alias = "ILP32")]
    Ilp32,
}

impl Front {
    fn opts(&self) -> CompileOptions {
        CompileOptions {
            includes: self.include.clone(),
            defines: self.define.clone(),
            data_model: match self.data_model {
                Dm::Lp64 => DataModel::LP64,
                Dm::Ilp32 => DataModel::ILP32,
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
        }
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Print Cairn IR of a program.
    Ir {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        front: Front,
    },
    /// Run a program once on given input values.
    Run {
        #[arg(required = true)]
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
        #[arg(long, default_value_t = 1_000_000_000)]
        max_steps: u64,
        #[command(flatten)]
        front: Front,
    },
    /// Generate a test suite.
    Gen {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output directory.
        #[arg(long, short)]
        out: PathBuf,
        /// Time budget (e.g. 30, 30s, 2m).
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        time: Duration,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Search strategy (all but `random` are concolic).
        #[arg(long, value_enum, default_value = "expectation")]
        strategy: Strategy,
        #[arg(long)]
        max_tests: Option<usize>,
        #[arg(long)]
        max_iterations: Option<u64>,
        /// Instruction limit per run.
        #[arg(long, default_value_t = 10_000_000)]
        max_steps: u64,
        /// Goals: all branches and error calls, or only the error calls (Test-Comp coverage-error).
        #[arg(long, value_enum, default_value = "branches")]
        goals: GoalSet,
        /// Accepted for compatibility: deciding goals with the model checker is the default.
        #[arg(long, hide = true)]
        prove: bool,
        /// Only generate tests: no model checking of the goals testing leaves undecided.
        #[arg(long)]
        tests_only: bool,
        /// The model checker's share of the time when testing and model checking alternate.
        #[arg(long, default_value_t = 0.3, value_parser = parse_share)]
        mc_share: f64,
        /// Lazy expansion: abstract calls of these functions (comma-separated), or of every
        /// input-dependent function (`auto`), and expand them on demand.
        #[arg(long, value_name = "auto|F,G")]
        lazy: Option<String>,
        #[command(flatten)]
        front: Front,
    },
    /// Decide goals with the model checker: covered (with a test), unreachable, or unknown.
    Prove {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, short)]
        out: PathBuf,
        #[arg(long, default_value = "60s", value_parser = parse_duration)]
        time: Duration,
        #[arg(long, value_enum, default_value = "branches")]
        goals: GoalSet,
        /// Write the final abstract reachability graph as Graphviz DOT.
        #[arg(long)]
        arg: Option<PathBuf>,
        #[command(flatten)]
        front: Front,
    },
    /// Replay a generated suite natively with coverage instrumentation and check Cairn's claims.
    Replay {
        /// The program's C files, then the output directory of `cairn gen`.
        #[arg(required = true, num_args = 2..)]
        args: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        front: Front,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum GoalSet {
    Branches,
    Error,
}

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
        .map_err(|_| format!("invalid duration `{s}`"))?;
    Ok(Duration::from_secs_f64(v * mult))
}

fn parse_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("`{s}` is not a share strictly between 0 and 1")),
    }
}

fn interrupt_flag() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let i = interrupted.clone();
    let _ = ctrlc::set_handler(move || i.store(true, std::sync::atomic::Ordering::SeqCst));
    interrupted
}

/// A session writing to `out`, over the goals asked for.
fn session<'p>(
    p: &'p Program,
    files: &[PathBuf],
    out: &std::path::Path,
    time: Duration,
    goals: GoalSet,
    max_tests: Option<usize>,
    max_iterations: Option<u64>,
) -> Result<Session<'p>> {
    let mut writer = SuiteWriter::create(out, &files[0], &p.module, goals == GoalSet::Error)?;
    writer.set_entry(&p.module, &p.entry, &p.unit)?;
    let budget = Budget {
        time,
        max_tests,
        max_iterations,
    };
    let mut s = Session::new(p, writer, budget, interrupt_flag());
    if goals == GoalSet::Error {
        s.only_error_goals();
    }
    Ok(s)
}

/// Writes goals.json, summary.json and the zip; prints the one-line summary.
fn finish(
    s: &mut Session,
    p: &Program,
    out: &std::path::Path,
    mut stats: serde_json::Map<String, serde_json::Value>,
) -> Result<i32> {
    let proofs = s.ledger.proofs_by_kind();
    stats.insert("proofs".into(), serde_json::to_value(&proofs)?);
    let summary = s.out.finish(
        &p.module,
        &s.goals,
        &s.ledger,
        serde_json::Value::Object(stats),
    )?;
    println!(
        "cairn: {} goals ({} branch outcomes, {} error calls{}): {} covered, {} unreachable{}, {} unknown; {} tests in {:.1}s -> {}",
        s.ledger.total(),
        s.goals.num_branches,
        s.goals.len() - s.goals.num_branches,
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
        s.out.tests,
        summary["time_s"].as_f64().unwrap_or(0.0),
        out.display()
    );
    Ok(if s.ledger.violations.is_empty() { 0 } else { 4 })
}

/// A progress bar on stderr when it is a terminal; nothing otherwise (CI logs stay clean).
fn progress_bar() -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::new(0);
    b.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} goals {pos}/{len} {msg}")
            .unwrap(),
    );
    Some(b)
}

fn load_program(files: &[PathBuf], front: &Front) -> Result<Program> {
    let m = load(files, &front.opts())?;
    let mut p = Program::new(m);
    if p.module
        .function(&front.entry)
        .is_none_or(|f| f.blocks.is_empty())
    {
        bail!("no function `{}` with a body in the program", front.entry);
    }
    p.set_entry(&front.entry, front.buffer_size, front.symbolic_globals);
    for name in p.unknown_externs() {
        eprintln!(
            "cairn: warning: no model of external function `{name}`: its results are treated as inputs"
        );
    }
    Ok(p)
}

fn main() {
    let cli = Cli::parse();
    match real_main(cli) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("cairn: error: {e:#}");
            std::process::exit(2);
        }
    }
}

fn real_main(cli: Cli) -> Result<i32> {
    match cli.cmd {
        Cmd::Ir { files, front } => {
            let m = load(&files, &front.opts())?;
            print!("{}", print_module(&m));
            Ok(0)
        }
        Cmd::Run {
            files,
            inputs,
            test,
            json,
            max_steps,
            front,
        } => {
            let p = load_program(&files, &front)?;
            let values = match test {
                Some(t) => cairn::output::suite::read_test_values(&t)?
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect(),
                None => inputs,
            };
            let mut src = Replay::new(values);
            let cfg = Config {
                max_steps,
                ..Config::default()
            };
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
                if let Outcome::Fault { kind, loc } | Outcome::Unsupported { what: kind, loc } =
                    &r.outcome
                {
                    o["fault"] = serde_json::json!(kind);
                    o["location"] = serde_json::json!(p.module.loc_string(*loc));
                }
                println!("{}", serde_json::to_string_pretty(&o)?);
            } else {
                std::io::stdout().write_all(&r.stdout)?;
                std::io::stderr().write_all(&r.stderr)?;
                match &r.outcome {
                    Outcome::Fault { kind, loc } => eprintln!(
                        "cairn: the program failed: {kind} at {}",
                        p.module.loc_string(*loc)
                    ),
                    Outcome::Unsupported { what, loc } => eprintln!(
                        "cairn: unsupported: {what} at {}",
                        p.module.loc_string(*loc)
                    ),
                    Outcome::StepLimit => eprintln!("cairn: instruction limit reached"),
                    Outcome::AssumeFailed => {
                        eprintln!("cairn: an assumption does not hold on these inputs")
                    }
                    _ => {}
                }
            }
            Ok(match r.outcome {
                Outcome::StepLimit | Outcome::Unsupported { .. } => 3,
                Outcome::AssumeFailed => 0,
                o => o.exit_code(),
            })
        }
        Cmd::Prove {
            files,
            out,
            time,
            goals,
            arg,
            front,
        } => {
            let p = load_program(&files, &front)?;
            let mut s = session(&p, &files, &out, time, goals, None, None)?;
            let mut mc = cairn::driver::prove::ModelChecking::new(&s)?;
            let stats = cairn::driver::generate::run(&mut s, &mut mc)?;
            if let (Some(path), Some(dot)) = (arg, mc.arg_dot(&s)) {
                std::fs::write(&path, dot)?;
            }
            finish(&mut s, &p, &out, stats)
        }
        Cmd::Gen {
            files,
            out,
            time,
            seed,
            strategy,
            max_tests,
            max_iterations,
            max_steps,
            goals,
            prove: _,
            tests_only,
            mc_share,
            lazy,
            front,
        } => {
            let p = load_program(&files, &front)?;
            let mut s = session(&p, &files, &out, time, goals, max_tests, max_iterations)?;
            let plan = cairn::driver::generate::Plan {
                strategy: strategy.name().into(),
                seed,
                cfg: Config {
                    max_steps,
                    ..Config::default()
                },
                tests_only,
                mc_share,
                lazy,
            };
            let mut t = cairn::driver::generate::technique(&s, &plan)?;
            let bar = progress_bar();
            if let Some(b) = bar.clone() {
                s.on_progress(move |ledger, tests, what| {
                    b.set_length(ledger.total() as u64);
                    b.set_position(ledger.covered as u64);
                    b.set_message(format!(
                        "unreachable {} | tests {tests} | {what}",
                        ledger.unreachable
                    ));
                });
            }
            let mut stats = cairn::driver::generate::run(&mut s, t.as_mut())?;
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            stats.insert("seed".into(), seed.into());
            finish(&mut s, &p, &out, stats)
        }
        Cmd::Replay {
            mut args,
            json,
            front,
        } => {
            let dir = args.pop().unwrap();
            if !dir.is_dir() {
                bail!(
                    "{} is not a directory (usage: cairn replay FILE.c... DIR)",
                    dir.display()
                );
            }
            let p = load(&args, &front.opts()).context("loading the program")?;
            let goals = Goals::of(&p);
            let rep = cairn::output::replay::replay(
                &args,
                &front.opts(),
                &dir,
                &p,
                &goals,
                &front.entry,
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&rep)?);
            } else {
                let pct = |a: usize, b: usize| {
                    if b == 0 {
                        100.0
                    } else {
                        100.0 * a as f64 / b as f64
                    }
                };
                println!("replayed {} tests natively", rep.tests);
                println!(
                    "native branch coverage (gcc gcov): {}/{} ({:.1}%)",
                    rep.branches_taken,
                    rep.branches_total,
                    pct(rep.branches_taken, rep.branches_total)
                );
                println!(
                    "native line coverage: {}/{} ({:.1}%)",
                    rep.lines_executed,
                    rep.lines_total,
                    pct(rep.lines_executed, rep.lines_total)
                );
                println!(
                    "claimed goals confirmed natively: {} (not checkable at line level: {})",
                    rep.claims_checked, rep.claims_unchecked
                );
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
