//! The `cairn` command line: parses and dispatches (`driver::cli` holds the commands).

use anyhow::Result;
use cairn::driver::cli::{export, generation, goals, proving, replay, single_run};
use cairn::driver::options::Front;
use cairn::ir::frontend::load;
use cairn::ir::print_module;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "cairn",
    version,
    about = "Cairn: test generation for C programs"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
    /// Debug output on stderr, by topic: concretize, monitor, paths, lazy, defuse, turns,
    /// replay, chc, mc, solver, queries, walk, or all (also `RUST_LOG=cairn::mc=debug`).
    #[arg(long, global = true, value_name = "TOPIC,...")]
    log: Option<String>,
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
    Goals(goals::GoalsArgs),
    /// Run a program once on given input values, or on a test's (`--test DIR/tests/N.json`
    /// alone: the program and its options are those DIR/run.json records).
    Run(single_run::RunArgs),
    /// Generate a test suite.
    Gen(Box<generation::GenArgs>), // Boxed: its many options would make every `Cmd` as large.
    /// Decide goals with the model checker and exhaustive path exploration: covered (with a
    /// test), unreachable, or unknown.
    Prove(proving::ProveArgs),
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
    Export(export::ExportArgs),
    /// Print shell completions (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page of cairn (roff) to stdout: `cairn man > cairn.1`.
    Man,
    /// Replay a generated suite natively with coverage instrumentation and check Cairn's claims.
    Replay(replay::ReplayArgs),
}

fn main() {
    // Launcher mode (a native process Cairn starts without forking itself) never returns.
    cairn::exec::launcher::run_if_asked();
    // `cairn ... | head`: end quietly when the reader goes away, as other command-line tools do.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let matches = cli_command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    cairn::debug::init(cli.log.as_deref());
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
            // Interrupted while loading: the shell's code for an interrupt, not bad input's.
            match e.downcast_ref::<cairn::ir::frontend::FrontendError>() {
                Some(cairn::ir::frontend::FrontendError::Interrupted { .. }) => 130,
                _ => 2,
            }
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
            let files = cairn::driver::options::resolve_inputs(files, &mut front, None, None)?;
            let m = load(&files, &front.opts())?;
            print!("{}", print_module(&m));
            Ok(0)
        }
        Cmd::Goals(a) => goals::run(a),
        Cmd::Run(a) => single_run::run(a, given),
        Cmd::Gen(a) => generation::run(*a),
        Cmd::Prove(a) => proving::run(a),
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
        Cmd::Export(a) => export::run(a),
        Cmd::Completions { shell } => {
            clap_complete::generate(shell, &mut cli_command(), "cairn", &mut std::io::stdout());
            Ok(0)
        }
        Cmd::Man => {
            clap_mangen::Man::new(cli_command()).render(&mut std::io::stdout())?;
            Ok(0)
        }
        Cmd::Replay(a) => replay::run(a, given),
    }
}
