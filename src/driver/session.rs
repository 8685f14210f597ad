//! A generation session: the program, its goals, a view of the ledger and the way to the
//! shared results, used by the techniques of one worker. Techniques report runs here; the
//! shared results (`driver::shared`) decide what becomes a test.

use crate::analysis::goals::{GoalKind, Goals};
use crate::analysis::ledger::Ledger;
pub use crate::driver::shared::Milestone;
use crate::driver::shared::{Seed, Shared};
use crate::exec::{Config, InputValue, Outcome, Program, RunResult};
use crate::output::suite::{SuiteWriter, Test};
use anyhow::Result;
use std::cell::Cell;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Budget {
    pub time: Duration,
    pub max_tests: Option<usize>,
    pub max_iterations: Option<u64>,
}

/// Called with every run recorded and what found it.
type RunHook<'p> = Box<dyn FnMut(&RunResult, &str) + 'p>;

/// Shows progress: called with the ledger, the number of tests and what the technique is doing.
type ProgressHook<'p> = Box<dyn FnMut(&Ledger, usize, &str) + 'p>;

/// Called at every change of the coverage figures.
type MilestoneHook<'p> = Box<dyn FnMut(&Milestone) + 'p>;

pub struct Session<'p> {
    pub program: &'p Program,
    pub goals: Goals,
    /// This worker's view of the shared ledger, refreshed whenever this worker reports and
    /// whenever another worker changed the ledger since.
    pub ledger: Ledger,
    shared: Arc<Shared>,
    /// This session's number among the generation's workers.
    pub id: u32,
    /// The shared ledger's version the view was taken at.
    seen: u64,
    pub budget: Budget,
    pub start: Instant,
    /// Program runs of this worker.
    pub iterations: u64,
    pub interrupted: Arc<AtomicBool>,
    /// Crash places this worker already offered (the shared results decide).
    crash_sites: HashSet<String>,
    /// Shown what techniques are doing (a progress bar), at most every 100 ms.
    progress: Option<ProgressHook<'p>>,
    last_tick: Instant,
    on_milestone: Option<MilestoneHook<'p>>,
    /// Resident memory at which the search stops (Cairn's own data; runs have their own limit).
    pub memory_limit: Option<u64>,
    memory_checked: Cell<Option<Instant>>,
    /// Set when the search stopped because Cairn's memory reached `memory_limit`.
    pub memory_exceeded: Cell<bool>,
    /// What the runs did that no test shows: cut short by a limit of Cairn's, or stopped at an
    /// unsupported construct (the first one described).
    pub runs: RunCounts,
    on_run: Option<RunHook<'p>>,
    /// Stop once every goal is decided (benchmarks that count what techniques find beyond
    /// the goals, e.g. accepted inputs, turn this off).
    pub stop_when_decided: bool,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RunCounts {
    pub cut_by_deadline: u64,
    pub cut_by_interrupt: u64,
    pub cut_by_memory_limit: u64,
    pub cut_by_link_limit: u64,
    pub unsupported: u64,
    pub first_unsupported: Option<String>,
    /// Runs with a decision on uninitialized memory (their claims end there), and the first
    /// such decision's place.
    pub uninitialized: u64,
    pub first_uninitialized: Option<String>,
}

impl<'p> Session<'p> {
    pub fn new(
        program: &'p Program,
        mut out: SuiteWriter,
        budget: Budget,
        interrupted: Arc<AtomicBool>,
    ) -> Session<'p> {
        let mut goals = Goals::of(&program.module);
        if let Some(du) = &program.def_use {
            goals.add_def_use(&program.module, du);
        }
        let ledger = Ledger::new(&goals);
        // goals.json from the start: a run killed at any moment can be reported and merged.
        if let Err(e) = out.set_goals(&program.module, &goals, &ledger) {
            eprintln!("cairn: warning: {e:#}");
        }
        let start = Instant::now();
        let shared = Arc::new(Shared::new(ledger.clone(), out, start));
        Session {
            program,
            goals,
            ledger,
            id: shared.new_session(),
            shared,
            seen: 0,
            budget,
            start,
            iterations: 0,
            interrupted,
            crash_sites: HashSet::new(),
            progress: None,
            last_tick: Instant::now(),
            on_milestone: None,
            memory_limit: None,
            memory_checked: Cell::new(None),
            memory_exceeded: Cell::new(false),
            runs: RunCounts::default(),
            on_run: None,
            stop_when_decided: true,
        }
    }

    /// What a worker thread needs to join this session's generation with a session of its own.
    pub fn fork(&self) -> Fork<'p> {
        Fork {
            program: self.program,
            goals: self.goals.clone(),
            shared: self.shared.clone(),
            budget: self.budget.clone(),
            start: self.start,
            interrupted: self.interrupted.clone(),
            memory_limit: self.memory_limit,
            stop_when_decided: self.stop_when_decided,
        }
    }

    /// The results all workers share.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// Tests written so far (all workers).
    pub fn tests(&self) -> usize {
        self.shared.tests()
    }

    /// Every change of the coverage figures so far, in order.
    pub fn history(&self) -> Vec<Milestone> {
        self.shared.lock().history.clone()
    }

    /// Refreshes the ledger view if another worker changed the shared ledger.
    pub fn sync(&mut self) {
        self.seen = self.shared.refresh(&mut self.ledger, self.seen);
    }

    fn milestone(&mut self, m: Option<Milestone>) {
        self.sync();
        if let (Some(m), Some(f)) = (m, &mut self.on_milestone) {
            f(&m);
        }
    }

    /// Writes goals.json, summary.json (the figures plus `extra`) and the zip.
    pub fn write_results(&mut self, extra: serde_json::Value) -> Result<serde_json::Value> {
        let mut r = self.shared.lock();
        let r = &mut *r;
        r.out
            .finish(&self.program.module, &self.goals, &r.ledger, extra)
    }

    /// Writes `t` as a test even if it covers nothing new (a fault's minimized reproducer).
    pub fn add_test_directly(&mut self, t: &Test) -> Result<usize> {
        self.shared.add_test(t)
    }

    /// A suite is not empty when a run of the program can end: if the search decided every
    /// goal without a test (an entry without branches, or whose goals all lie elsewhere), the
    /// run of zero inputs becomes one, so its outcome, faults and lines are shown and
    /// replayed. `cfg`: the search's (`run_config`'s) limits. Returns the test's number, if
    /// one was written.
    pub fn write_a_test_if_none(&mut self, cfg: &Config) -> Result<Option<usize>> {
        if self.shared.tests() > 0
            || self.budget.max_tests == Some(0)
            || !self.shared.all_decided()
            || self.interrupted.load(Ordering::Relaxed)
            || Instant::now() >= self.budget_end()
        {
            return Ok(None);
        }
        let r = self
            .program
            .run(&mut crate::exec::input::Replay::new(vec![]), cfg);
        self.iterations += 1;
        self.shared.count_run();
        if matches!(r.outcome, Outcome::Cut(_)) {
            return Ok(None);
        }
        let r = self.watched(&r);
        let uninitialized_at = self.count_uninitialized(&r);
        let covers = self.goals.covered_by(&r);
        let test = self.test_of(&r, "first path", covers, uninitialized_at);
        let n = self.shared.add_test(&test)?;
        self.note_progress()?;
        Ok(Some(n))
    }

    /// Calls `f` at every change of the coverage figures (benchmarks follow coverage with it).
    pub fn on_milestone(&mut self, f: impl FnMut(&Milestone) + 'p) {
        self.on_milestone = Some(Box::new(f));
    }

    /// Records the figures if they changed since the last milestone (and appends coverage.csv).
    pub fn note_progress(&mut self) -> Result<()> {
        let m = {
            let shared = self.shared.clone();
            let mut r = shared.lock();
            shared.note_progress(&mut r)?
        };
        self.milestone(m);
        Ok(())
    }

    /// Marks `goal` proven unreachable (`how`: the proof's kind), for every worker.
    pub fn prove_unreachable(&mut self, goal: usize, how: &str) -> Result<()> {
        let m = self.shared.prove_unreachable(goal, how)?;
        self.milestone(m);
        Ok(())
    }

    /// Marks `goals` proven unreachable at once (each with its proof's kind).
    pub fn prove_all_unreachable<'h>(
        &mut self,
        goals: impl IntoIterator<Item = (usize, &'h str)>,
    ) -> Result<()> {
        let m = self.shared.prove_all_unreachable(goals)?;
        self.milestone(m);
        Ok(())
    }

    /// Shows progress with `show(ledger, tests, what the current technique is doing)`.
    pub fn on_progress(&mut self, show: impl FnMut(&Ledger, usize, &str) + 'p) {
        self.progress = Some(Box::new(show));
    }

    /// Stops showing progress (the display's owner clears it when dropped).
    pub fn end_progress(&mut self) {
        self.progress = None;
    }

    /// A technique's heartbeat: `what` is only formatted when progress is shown.
    pub fn tick(&mut self, what: impl FnOnce() -> String) {
        if let Some(show) = &mut self.progress
            && self.last_tick.elapsed() >= Duration::from_millis(100)
        {
            self.last_tick = Instant::now();
            show(&self.ledger, self.shared.tests(), &what());
        }
    }

    /// When the search ends: the budget's end, or a little before once a fault is found, so
    /// that its reproducer can be minimized within the budget (`minimize`).
    pub fn deadline(&self) -> Instant {
        self.start + self.search_time()
    }

    /// The search's share of the budget.
    fn search_time(&self) -> Duration {
        match self.shared.faults_found() {
            true => self.budget.time - crate::driver::minimize::reserve(self.budget.time),
            false => self.budget.time,
        }
    }

    /// When the whole budget ends.
    pub fn budget_end(&self) -> Instant {
        self.start + self.budget.time
    }

    /// Bounds Cairn's own memory: the search stops when the process holds more than `bytes`
    /// (measured between runs and queries; Z3's `memory_max_size` would bound a query too, but
    /// Z3 4.8.12 was seen to fail an internal assertion when it hits it).
    pub fn limit_memory(&mut self, bytes: u64) {
        self.memory_limit = Some(bytes);
    }

    /// `cfg` bounded by this session: a run still going at the deadline or on Ctrl-C ends.
    pub fn run_config(&self, cfg: &Config) -> Config {
        Config {
            deadline: Some(self.start + self.budget.time),
            interrupt: Some(self.interrupted.clone()),
            ..cfg.clone()
        }
    }

    /// Resident memory above the limit (measured at most every 50 ms)?
    fn over_memory(&self) -> bool {
        let Some(limit) = self.memory_limit else {
            return false;
        };
        if self.memory_exceeded.get() {
            return true;
        }
        if self
            .memory_checked
            .get()
            .is_some_and(|t| t.elapsed() < Duration::from_millis(50))
        {
            return false;
        }
        self.memory_checked.set(Some(Instant::now()));
        let over = crate::exec::memory::resident_memory().is_some_and(|r| r > limit) && {
            // Freed memory may still be counted: hand it back before deciding.
            crate::exec::memory::release_free_memory();
            crate::exec::memory::resident_memory().is_some_and(|r| r > limit)
        };
        self.memory_exceeded.set(over);
        over
    }

    /// Test-Comp's coverage-error property: branch goals do not count, only error calls.
    pub fn only_error_goals(&mut self) {
        self.ignore_goals(0..self.goals.num_branches);
    }

    /// Takes goals out of this generation (for every worker).
    pub fn ignore_goals(&mut self, goals: impl IntoIterator<Item = usize>) {
        self.shared.ignore(goals);
        self.sync();
    }

    /// Leaves goals to other shards (`--shard`), for every worker.
    pub fn leave_goals_to_other_shards(&mut self, goals: impl IntoIterator<Item = usize>) {
        self.shared.leave_to_other_shards(goals);
        self.sync();
    }

    /// Data-flow testing: only the def-use pairs count (branch and error goals are ignored).
    pub fn only_def_use_goals(&mut self) {
        let base = self.goals.def_use_base.unwrap_or(self.goals.len());
        // In the shared ledger: a view's change would not survive its next refresh.
        self.ignore_goals(0..base);
    }

    /// True when the budget is spent, the user interrupted, Cairn's memory reached its limit,
    /// or nothing is left to decide.
    pub fn should_stop(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
            || self.start.elapsed() >= self.search_time()
            || self
                .budget
                .max_tests
                .is_some_and(|m| self.shared.tests() >= m)
            || self
                .budget
                .max_iterations
                .is_some_and(|m| self.shared.runs() >= m)
            || (self.stop_when_decided && self.shared.all_decided())
            || self.over_memory()
    }

    /// Counts a run that cannot become a test (a run of an abstraction of the program).
    pub fn count_run(&mut self) {
        self.iterations += 1;
        self.shared.count_run();
    }

    /// Offers inputs worth exploring from to the other techniques and workers (tests are
    /// offered when kept).
    pub fn add_seed(&self, inputs: Vec<InputValue>, found_by: &str) {
        self.shared.add_seed(Seed {
            inputs,
            session: self.id,
            found_by: found_by.to_string(),
        });
    }

    /// The shared corpus from entry `from` on.
    pub fn seeds_since(&self, from: usize) -> Vec<Seed> {
        self.shared.seeds_since(from)
    }

    /// Calls `f` with every run recorded and what found it (benchmarks count valid inputs
    /// with it).
    pub fn on_run(&mut self, f: impl FnMut(&RunResult, &str) + 'p) {
        self.on_run = Some(Box::new(f));
    }

    /// Records a run; keeps it as a test if it covers a new goal or crashes in a new way.
    /// Returns the goals it newly covered.
    pub fn record(&mut self, r: &RunResult, found_by: &str) -> Result<Vec<usize>> {
        self.iterations += 1;
        self.shared.count_run();
        if r.layout_dependent {
            self.shared.note_layout_dependence();
        }
        if let Some(f) = &mut self.on_run {
            f(r, found_by);
        }
        match &r.outcome {
            // Its end is not the program's: no test can claim it.
            Outcome::Cut(limit) => {
                use crate::exec::machine::Limit;
                *match limit {
                    Limit::Deadline => &mut self.runs.cut_by_deadline,
                    Limit::Interrupt => &mut self.runs.cut_by_interrupt,
                    Limit::Memory => &mut self.runs.cut_by_memory_limit,
                    Limit::Links => &mut self.runs.cut_by_link_limit,
                } += 1;
                return Ok(vec![]);
            }
            // Stopped at a decision on uninitialized memory: counted as such below.
            Outcome::Unsupported { .. } if r.uninitialized_at.is_some() => {}
            Outcome::Unsupported { what, loc, .. } => {
                self.runs.unsupported += 1;
                if self.runs.first_unsupported.is_none() {
                    let at = self.program.module.loc_string(*loc);
                    self.runs.first_unsupported = Some(format!("{what} at {at}"));
                }
            }
            _ => {}
        }
        if self
            .budget
            .max_tests
            .is_some_and(|m| self.shared.tests() >= m)
        {
            return Ok(vec![]);
        }
        if !r.uninitialized_checked && self.is_new(r) {
            let watched = self.watched(r);
            return self.keep(&watched, found_by);
        }
        self.keep(r, found_by)
    }

    /// Whether `r` covers a goal the ledger does not have, or crashes in a new way.
    pub fn is_new(&self, r: &RunResult) -> bool {
        !self.ledger.new_goals(&self.goals.covered_by(r)).is_empty()
            || crash_sites(r).iter().any(|c| !self.crash_sites.contains(c))
    }

    /// `r` run again with a symbolic shadow, which tells where a decision rests on
    /// uninitialized memory (see `RunResult::uninitialized_at`): that run ends there. `r`
    /// itself when the shadowed run is not the same run (a deadline) or, past
    /// `MAX_WATCHED_STEPS`, cannot tell (only a long run's start is watched).
    pub fn watched(&self, r: &RunResult) -> RunResult {
        let max_steps = match r.outcome {
            Outcome::Exit(_) | Outcome::Abort | Outcome::AssumeFailed | Outcome::Fault { .. } => {
                r.steps + 1_000
            }
            // Stopped at the first block that took it past the limit: the same block again.
            Outcome::StepLimit => r.steps - 1,
            _ => return r.clone(),
        };
        let mut cfg = self.run_config(&Config {
            max_steps: max_steps.min(MAX_WATCHED_STEPS),
            ..Default::default()
        });
        if let Some(m) = self.memory_limit {
            cfg.mem_limit = m;
        }
        let texts = r.inputs.iter().map(InputValue::to_text).collect();
        let mut pool = crate::smt::expr::Pool::new();
        let mut shadow = crate::exec::shadow::Shadow::new(&mut pool);
        shadow.stop_at_claims_end = true;
        let mut watched = self.program.run_observed(
            &mut crate::exec::input::Replay::new(texts),
            &cfg,
            &mut shadow,
        );
        shadow.annotate(&mut watched);
        if watched.uninitialized_at.is_none() && watched.outcome != r.outcome {
            return r.clone(); // the watch's own limit or a deadline: no better knowledge
        }
        watched
    }

    /// Keeps `r` as a test if it covers a new goal or crashes in a new way.
    fn keep(&mut self, r: &RunResult, found_by: &str) -> Result<Vec<usize>> {
        let uninitialized_at = self.count_uninitialized(r);
        let covers = self.goals.covered_by(r);
        let crash = crash_sites(r);
        // Most runs cover nothing new: they need no lock (a stale view only costs one).
        let new_crash = crash.iter().any(|c| !self.crash_sites.contains(c));
        if self.ledger.new_goals(&covers).is_empty() && !new_crash {
            self.sync();
            return Ok(vec![]);
        }
        self.crash_sites.extend(crash.iter().cloned());
        let test = || self.test_of(r, found_by, covers.clone(), uninitialized_at.clone());
        let kept = self
            .shared
            .offer(&covers, crash, self.budget.max_tests, self.id, test)?;
        self.milestone(kept.milestone);
        Ok(kept.fresh)
    }

    /// Keeps `r`, whose claims end at a decision on uninitialized memory, if it claims a goal
    /// first or if `native` (its input run natively in a fresh process) took a goal no test
    /// has (see `Shared::offer_reached_natively`): a program whose every path decides on such
    /// memory (a struct from malloc read before it is written) otherwise gets no test at all.
    pub fn record_reached_natively(
        &mut self,
        r: &RunResult,
        native: &RunResult,
        found_by: &str,
    ) -> Result<Vec<usize>> {
        let Some(at) = self.count_uninitialized(r) else {
            return self.record(r, found_by);
        };
        let covers = self.goals.covered_by(r);
        let mut test = self.test_of(r, found_by, covers, Some(at));
        // The interpreter's run stopped at the decision: the values are those read natively.
        test.inputs.clone_from(&native.inputs);
        let claimed: HashSet<usize> = test.covers.iter().copied().collect();
        test.reached_natively = self
            .goals
            .covered_by(native)
            .into_iter()
            .filter(|g| !claimed.contains(g))
            .collect();
        let kept = self
            .shared
            .offer_reached_natively(self.budget.max_tests, self.id, test)?;
        self.milestone(kept.milestone);
        Ok(kept.fresh)
    }

    /// Where `r` first decided on uninitialized memory, if it did (counted for the warning).
    fn count_uninitialized(&mut self, r: &RunResult) -> Option<String> {
        let at = self.program.module.loc_string(r.uninitialized_at?);
        self.runs.uninitialized += 1;
        self.runs
            .first_uninitialized
            .get_or_insert_with(|| at.clone());
        Some(at)
    }

    fn test_of(
        &self,
        r: &RunResult,
        found_by: &str,
        covers: Vec<usize>,
        uninitialized_at: Option<String>,
    ) -> Test {
        Test {
            inputs: r.inputs.clone(),
            error: covers
                .iter()
                .any(|&g| self.goals.goals[g].kind == GoalKind::Error),
            covers,
            found_by: found_by.to_string(),
            time_s: self.start.elapsed().as_secs_f64(),
            outcome: r.outcome.clone(),
            fault_location: match (&r.outcome, &r.abort_loc) {
                (Outcome::Fault { loc, .. }, _) | (Outcome::Abort, Some(loc)) => {
                    Some(self.program.module.loc_string(*loc))
                }
                _ => None,
            },
            fault_detail: r.fault_detail.clone(),
            steps: r.steps,
            iteration: self.shared.runs(),
            exit_indeterminate: r.exit_indeterminate,
            layout_dependent: r.layout_dependent || self.shared.layout_dependent(),
            uninitialized_at,
            reached_natively: vec![],
            returned: r.returned.clone(),
            freed_params: r.freed_params.clone(),
            leak: crate::output::suite::LeakReport::of(&self.program.module, r),
        }
    }
}

/// Runs are watched for decisions on uninitialized memory up to this many steps (a shadowed
/// step costs several plain ones).
const MAX_WATCHED_STEPS: u64 = 5_000_000;

/// How a run crashes, as tests tell crashes apart (kind and place): its fault, or each site
/// it leaks memory at (a run leaking at one site not seen yet is new).
fn crash_sites(r: &RunResult) -> Vec<String> {
    match (&r.outcome, r.abort_loc) {
        (Outcome::Fault { kind, loc }, _) => vec![format!("{kind}@{}:{}", loc.line, loc.col)],
        (Outcome::Abort, Some(loc)) => vec![format!("abort@{}:{}", loc.line, loc.col)],
        _ => r
            .leak
            .iter()
            .flat_map(|l| &l.sites)
            .map(|s| format!("leak@{}:{}:{}", s.file, s.line, s.col))
            .collect(),
    }
}

/// A session's share of a generation, sent to a worker thread: `session` there makes the
/// worker's own session (techniques are built per thread: Z3 contexts are per thread).
pub struct Fork<'p> {
    program: &'p Program,
    goals: Goals,
    shared: Arc<Shared>,
    budget: Budget,
    start: Instant,
    interrupted: Arc<AtomicBool>,
    memory_limit: Option<u64>,
    stop_when_decided: bool,
}

impl<'p> Fork<'p> {
    pub fn session(self) -> Session<'p> {
        let mut ledger = Ledger::new(&self.goals);
        let seen = self.shared.refresh(&mut ledger, u64::MAX);
        Session {
            program: self.program,
            goals: self.goals,
            ledger,
            id: self.shared.new_session(),
            shared: self.shared,
            seen,
            budget: self.budget,
            start: self.start,
            iterations: 0,
            interrupted: self.interrupted,
            crash_sites: HashSet::new(),
            progress: None,
            last_tick: Instant::now(),
            on_milestone: None,
            memory_limit: self.memory_limit,
            memory_checked: Cell::new(None),
            memory_exceeded: Cell::new(false),
            runs: RunCounts::default(),
            on_run: None,
            stop_when_decided: self.stop_when_decided,
        }
    }
}

/// The model checker works for a session through `McHost`: it tries the inputs of the paths it
/// finds here, as the interpreter runs them, and reports its proofs to the shared ledger.
impl crate::mc::host::McHost for Session<'_> {
    fn module(&self) -> &crate::ir::Module {
        &self.program.module
    }

    fn goals(&self) -> &Goals {
        &self.goals
    }

    fn status(&self) -> &[crate::analysis::ledger::Status] {
        &self.ledger.status
    }

    fn budget_end(&self) -> Instant {
        Session::budget_end(self)
    }

    fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }

    fn prove_unreachable(&mut self, goal: usize, how: &str) -> Result<()> {
        Session::prove_unreachable(self, goal, how)
    }

    fn note_progress(&mut self) -> Result<()> {
        Session::note_progress(self)
    }

    fn tick(&mut self, what: &dyn Fn() -> String) {
        Session::tick(self, what)
    }

    fn try_inputs(&mut self, values: &[(crate::exec::InputKind, u32, u64)]) -> Result<Vec<usize>> {
        let mut src = crate::exec::input::Seeded {
            values: values
                .iter()
                .map(|&(kind, width, bits)| InputValue::int(kind, width, bits))
                .collect(),
            pos: 0,
            fallback: crate::exec::input::RandomInputs {
                rng: <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(0),
            },
        };
        let mut cfg = self.run_config(&crate::exec::Config {
            max_steps: 10_000_000,
            ..Default::default()
        });
        if let Some(m) = self.memory_limit {
            cfg.mem_limit = m;
        }
        let r = self.program.run(&mut src, &cfg);
        let covers = self.goals.covered_by(&r);
        self.record(&r, "mc")?;
        Ok(covers)
    }
}
