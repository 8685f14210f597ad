//! The fuzzer's native executor: the program built natively with a probe per goal and a fork
//! server (`exec::forkserver`), fed the same input values as the interpreter. A run costs a
//! function call in a persistent process and reports each goal's hit count. A run worth a
//! test is run again in a fresh process (as replay will run it), and what that run took can
//! become the test itself (`native_result`) where the interpreter would take too long or
//! cannot run the program.

use crate::analysis::goals::Goals;
use crate::driver::session::Session;
use crate::exec::InputValue;
use crate::exec::forkserver::{ForkServer, NativeRun, NativeStatus, Record, as_read};
use crate::exec::machine::{Outcome, RunResult};
use crate::exec::native::ProbeBuild;
use crate::ir::frontend::TempDir;
use anyhow::{Context, Result};
use std::path::PathBuf;
use std::time::Duration;

/// What the program's and the harness's exits become (the run loop's `__cairn_exit`).
const EXIT: &str = "__cairn_exit";
/// What aborts become (ends the run, not the process).
const ABORT: &str = "__cairn_abort";
/// The replay harness's `main`, when it has one (argv, files, unit mode).
const HARNESS_MAIN: &str = "cairn_harness_main";

pub struct NativeExecutor {
    exe: PathBuf,
    goals: usize,
    persistent: ForkServer,
    /// Started at the first run worth a test.
    fresh: Option<ForkServer>,
    /// The build and the runs' scratch directories (removed with the executor).
    dir: TempDir,
    max_memory: u64,
}

/// The native build, made on a thread of its own while the other techniques run. Dropped
/// unfinished (the session over), it removes the build's directory: the process may end
/// before the thread does.
pub struct PendingBuild {
    thread: Option<std::thread::JoinHandle<Result<(ProbeBuild, TempDir)>>>,
    dir: std::path::PathBuf,
    max_memory: u64,
}

/// A finished build: the program, its directory, the memory a run may take.
pub type Built = (ProbeBuild, TempDir, u64);

impl PendingBuild {
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Waits for the build.
    pub fn join(mut self) -> Result<Built> {
        let thread = self
            .thread
            .take()
            .context("the native build was already taken")?;
        let (build, dir) = thread
            .join()
            .map_err(|_| anyhow::anyhow!("the native build panicked"))??;
        Ok((build, dir, self.max_memory))
    }
}

impl Drop for PendingBuild {
    fn drop(&mut self) {
        if !self.is_finished() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl NativeExecutor {
    /// Starts building the session's program natively (probes, the fork-server harness); its
    /// runs may take `max_memory` bytes of address space (the interpreter's limit of a run).
    pub fn build(s: &Session, max_memory: u64) -> Result<PendingBuild> {
        let p = s.program;
        let source = p
            .source
            .clone()
            .context("the program was not loaded from sources")?;
        let harness_text = crate::output::harness::harness_c_for(&p.module, &p.entry, &p.unit);
        // Unit mode, argv or files as inputs: the harness has the `main`.
        let harness_main = p.entry != "main" || harness_text.contains(crate::ir::PROGRAM_MAIN);
        let sites = crate::ir::probes::probe_sites(&p.module, |site| s.goals.error_goal(site));
        let goals = s.goals.len();
        let dir = TempDir::new("native")?;
        let path = dir.path().to_path_buf();
        let thread = std::thread::spawn(move || {
            let harness = dir.path().join("harness.c");
            std::fs::write(&harness, &harness_text)?;
            let entry = match harness_main {
                true => HARNESS_MAIN,
                false => crate::ir::PROGRAM_MAIN,
            };
            let build = ProbeBuild::new(
                &source.files,
                &source.opts,
                &sites,
                goals,
                &harness,
                // The harness's `main` runs the program's; exits return to the run loop.
                &[
                    ("main", crate::ir::PROGRAM_MAIN),
                    ("exit", EXIT),
                    ("_exit", EXIT),
                    ("_Exit", EXIT),
                    ("abort", ABORT),
                    ("__assert_fail", "__cairn_assert_fail"),
                ],
                &[
                    "-DCAIRN_FORKSERVER",
                    &format!("-Dexit={EXIT}"),
                    &format!("-Dabort={ABORT}"),
                    &format!("-DCAIRN_ENTRY={entry}"),
                    &format!("-Dmain={HARNESS_MAIN}"),
                ],
                None,
                &dir.path().join("build"),
            )?;
            Ok((build, dir))
        });
        Ok(PendingBuild {
            thread: Some(thread),
            dir: path,
            max_memory,
        })
    }

    /// Starts the fork server of a finished build; its first run (the server must answer
    /// before it is trusted with the fuzzer's time) takes at most `limit`.
    pub fn start((build, dir, max_memory): Built, limit: Duration) -> Result<NativeExecutor> {
        let mut persistent = server(&build.exe, build.goals, &dir, false, max_memory)?;
        persistent
            .run(&Record::default(), limit.min(Duration::from_secs(5)))
            .context("the native fork server does not answer")?;
        Ok(NativeExecutor {
            exe: build.exe,
            goals: build.goals,
            persistent,
            fresh: None,
            dir,
            max_memory,
        })
    }

    /// Builds the session's program natively and starts its fork server (waits for the build).
    pub fn build_and_start(s: &Session, max_memory: u64) -> Result<NativeExecutor> {
        Self::start(Self::build(s, max_memory)?.join()?, Duration::from_secs(5))
    }

    /// Runs `values` (0 past their end) for at most `limit`.
    pub fn run(&mut self, values: &Record, limit: Duration) -> Result<NativeRun> {
        self.persistent.run(values, limit)
    }

    /// Lays out a batch of runs, each reading `tail` past its own values (see
    /// `ForkServer::load`); returns how many fit.
    pub fn load(&mut self, batch: &[&Record], tail: &Record) -> usize {
        self.persistent.load(batch, tail)
    }

    /// Runs the batch from run `from` up to the first new one (see `ForkServer::resume`).
    pub fn resume(&mut self, from: usize, limit: Duration) -> Result<(usize, NativeRun)> {
        self.persistent.resume(from, limit)
    }

    /// Whether a run of a batch that aborts ends it (see `ForkServer::stop_at_abort`).
    pub fn stop_at_abort(&mut self, on: bool) {
        self.persistent.stop_at_abort(on);
    }

    /// The buckets seen per goal, which end a batch at a run that reaches another.
    pub fn seen_mut(&mut self) -> &mut [u8] {
        self.persistent.seen_mut()
    }

    /// The process serving persistent runs (see `ForkServer::runner`).
    pub fn runner(&self) -> Option<i32> {
        self.persistent.runner()
    }

    /// Each goal's hit count in the last `run` (saturating at 255).
    pub fn hits(&self) -> &[u8] {
        self.persistent.hits()
    }

    /// Each goal's hit count in the last `run_fresh`.
    pub fn fresh_hits(&self) -> &[u8] {
        self.fresh.as_ref().map_or(&[], |f| f.hits())
    }

    /// Runs `values` in a process of their own, as replay runs a test; returns the run and
    /// its result as the ledger records runs (see `native_result`).
    pub fn run_fresh(
        &mut self,
        goals: &Goals,
        values: &[InputValue],
        limit: Duration,
    ) -> Result<(NativeRun, RunResult)> {
        if self.fresh.is_none() {
            self.fresh = Some(server(
                &self.exe,
                self.goals,
                &self.dir,
                true,
                self.max_memory,
            )?);
        }
        let fresh = self.fresh.as_mut().unwrap();
        let run = fresh.run(&Record::of(values), limit)?;
        // Past `values` a run reads zeros (and stdin's end), natively and in the interpreter.
        let read = values.len().min(run.consumed as usize);
        let inputs = (values.iter().zip(fresh.reads(read)))
            .map(|(v, how)| as_read(v, how))
            .collect();
        Ok((run, native_result(goals, inputs, &run, fresh.hits())))
    }
}

/// A fork server of `exe` with a scratch directory of its own under `dir`.
fn server(
    exe: &std::path::Path,
    goals: usize,
    dir: &TempDir,
    fresh: bool,
    max_memory: u64,
) -> Result<ForkServer> {
    let scratch = dir.path().join(if fresh { "fresh" } else { "scratch" });
    std::fs::create_dir_all(&scratch)?;
    ForkServer::start(exe, goals, &scratch, fresh, max_memory)
}

/// A native run as the ledger records runs: the goals its probes counted, how it ended, and
/// the values it read (`inputs`).
fn native_result(
    goals: &Goals,
    inputs: Vec<InputValue>,
    run: &NativeRun,
    hits: &[u8],
) -> RunResult {
    let branches = (0..goals.num_branches)
        .map(|g| hits.get(g).copied().unwrap_or(0) as u32)
        .collect();
    let errors_hit = goals
        .error_sites
        .iter()
        .enumerate()
        .filter(|(k, _)| hits.get(goals.num_branches + k).is_some_and(|&n| n > 0))
        .map(|(_, site)| *site)
        .collect();
    let outcome = match run.status {
        _ if run.assume_failed => Outcome::AssumeFailed,
        _ if run.aborted => Outcome::Abort,
        NativeStatus::Exit(code) => Outcome::Exit(code),
        NativeStatus::Signal(libc::SIGABRT) => Outcome::Abort,
        NativeStatus::Signal(sig) => Outcome::Fault {
            kind: format!("native crash (signal {sig})"),
            loc: Default::default(),
        },
        NativeStatus::Timeout => Outcome::StepLimit,
    };
    RunResult {
        branches,
        errors_hit,
        // What the native run took is what it took; the interpreter may not even run it.
        uninitialized_checked: true,
        ..RunResult::new(outcome, inputs)
    }
}
