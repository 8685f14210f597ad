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
use crate::ir::cmplog::{Comparison, Switches};
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
    /// The build that logs comparisons, made once the fuzzer's own runs (`ir::cmplog`).
    cmplog: Cmplog,
    /// The build and the runs' scratch directories (removed with the executor).
    dir: TempDir,
    max_memory: u64,
}

/// The comparison-log build and its server.
enum Cmplog {
    Building(std::thread::JoinHandle<Result<ProbeBuild>>),
    /// The log's server, and its build's switches.
    Ready(Box<ForkServer>, Switches),
    /// It did not build or start (the fuzzer goes on without it).
    Failed,
}

/// What a native build of the session's program needs: kept to make the comparison log's
/// build after the fuzzer's own.
#[derive(Clone)]
struct Plan {
    source: crate::exec::Source,
    sites: Vec<crate::ir::probes::ProbeSite>,
    goals: usize,
    harness_text: String,
    /// The harness has the `main` (unit mode, argv or files as inputs).
    harness_main: bool,
}

impl Plan {
    fn build(&self, dir: &std::path::Path, cmplog: bool) -> Result<ProbeBuild> {
        // The comparison log's build may start as the session ends (and its directory goes).
        anyhow::ensure!(dir.exists(), "the native build's directory is gone");
        let harness = dir.join("harness.c");
        std::fs::write(&harness, &self.harness_text)?;
        let entry = match self.harness_main {
            true => HARNESS_MAIN,
            false => crate::ir::PROGRAM_MAIN,
        };
        ProbeBuild::new(
            &self.source.files,
            &self.source.opts,
            &self.sites,
            self.goals,
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
            cmplog,
            &dir.join(if cmplog { "cmplog" } else { "build" }),
        )
    }
}

/// The native build, made on a thread of its own while the other techniques run. Dropped
/// unfinished (the session over), it removes the build's directory: the process may end
/// before the thread does.
pub struct PendingBuild {
    /// When the build started.
    pub started: std::time::Instant,
    thread: Option<std::thread::JoinHandle<Result<(ProbeBuild, TempDir)>>>,
    dir: std::path::PathBuf,
    max_memory: u64,
    plan: Plan,
}

/// A finished build: the program, its directory, the memory a run may take, and how to build
/// it again with a comparison log.
pub struct Built {
    build: ProbeBuild,
    dir: TempDir,
    max_memory: u64,
    plan: Plan,
}

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
        Ok(Built {
            build,
            dir,
            max_memory: self.max_memory,
            plan: self.plan.clone(),
        })
    }
}

impl Drop for PendingBuild {
    fn drop(&mut self) {
        if !self.is_finished() {
            crate::ir::frontend::remove_scratch(&self.dir);
        }
    }
}

impl NativeExecutor {
    /// Starts building the session's program natively (probes, the fork-server harness); its
    /// runs may take `max_memory` bytes of address space (the interpreter's limit of a run).
    pub fn build(s: &Session, max_memory: u64) -> Result<PendingBuild> {
        let p = s.program;
        let harness_text = crate::output::harness::harness_c_for(&p.module, &p.entry, &p.unit);
        let plan = Plan {
            source: (p.source.clone()).context("the program was not loaded from sources")?,
            sites: crate::ir::probes::probe_sites(&p.module, |site| s.goals.error_goal(site)),
            goals: s.goals.len(),
            harness_main: p.entry != "main" || harness_text.contains(crate::ir::PROGRAM_MAIN),
            harness_text,
        };
        let dir = TempDir::new("native")?;
        let path = dir.path().to_path_buf();
        let building = plan.clone();
        let thread = std::thread::spawn(move || Ok((building.build(dir.path(), false)?, dir)));
        Ok(PendingBuild {
            started: std::time::Instant::now(),
            thread: Some(thread),
            dir: path,
            max_memory,
            plan,
        })
    }

    /// Starts the fork server of a finished build; its first run (the server must answer
    /// before it is trusted with the fuzzer's time) takes at most `limit`. The comparison
    /// log's build starts then.
    pub fn start(built: Built, limit: Duration) -> Result<NativeExecutor> {
        let Built {
            build,
            dir,
            max_memory,
            plan,
        } = built;
        let mut persistent = server(&build.exe, build.goals, &dir, Role::Persistent, max_memory)?;
        persistent
            .run(&Record::default(), limit.min(Duration::from_secs(5)))
            .context("the native fork server does not answer")?;
        let at = dir.path().to_path_buf();
        Ok(NativeExecutor {
            exe: build.exe,
            goals: build.goals,
            persistent,
            fresh: None,
            cmplog: Cmplog::Building(std::thread::spawn(move || plan.build(&at, true))),
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

    /// The comparisons a run of `values` makes (`ir::cmplog`), once the log's build is ready:
    /// None before, or if it cannot be had.
    pub fn comparisons(&mut self, values: &Record, limit: Duration) -> Option<Vec<Comparison>> {
        if let Cmplog::Building(thread) = &self.cmplog {
            if !thread.is_finished() {
                return None;
            }
            let Cmplog::Building(thread) = std::mem::replace(&mut self.cmplog, Cmplog::Failed)
            else {
                unreachable!()
            };
            let started = (thread.join().ok()?).and_then(|build| {
                let role = Role::Cmplog;
                let server = server(&build.exe, self.goals, &self.dir, role, self.max_memory);
                Ok((server?, build.switches))
            });
            match started {
                Ok((server, switches)) => self.cmplog = Cmplog::Ready(Box::new(server), switches),
                Err(e) => tracing::debug!("no comparison log: {e:#}"),
            }
        }
        let Cmplog::Ready(server, switches) = &mut self.cmplog else {
            return None;
        };
        match server.run(values, limit) {
            Ok(_) => Some(server.comparisons(switches)),
            Err(_) => {
                self.cmplog = Cmplog::Failed;
                None
            }
        }
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
                Role::Fresh,
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

/// What a fork server is for.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// The fuzzer's runs, persistent.
    Persistent,
    /// A process per run, as replay runs a test.
    Fresh,
    /// The comparison log's build, persistent.
    Cmplog,
}

/// A fork server of `exe` with a scratch directory of its own under `dir`.
fn server(
    exe: &std::path::Path,
    goals: usize,
    dir: &TempDir,
    role: Role,
    max_memory: u64,
) -> Result<ForkServer> {
    let scratch = dir.path().join(match role {
        Role::Persistent => "scratch",
        Role::Fresh => "fresh",
        Role::Cmplog => "cmplog-scratch",
    });
    crate::ir::frontend::scratch_subdir(&scratch)?;
    let (fresh, cmplog) = (role == Role::Fresh, role == Role::Cmplog);
    ForkServer::start(exe, goals, &scratch, fresh, max_memory, cmplog)
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
