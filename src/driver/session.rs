//! A generation session: the program, its goals, the ledger and the output, shared by all
//! techniques. Techniques report runs here; the session decides what becomes a test.

use crate::analysis::goals::{GoalKind, Goals};
use crate::driver::ledger::Ledger;
use crate::exec::{Config, Outcome, Program, RunResult};
use crate::output::suite::{SuiteWriter, Test};
use anyhow::Result;
use std::cell::Cell;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The session's figures at a moment when one of them changed (coverage over time).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Milestone {
    pub time_s: f64,
    pub covered: usize,
    pub unreachable: usize,
    pub tests: usize,
    /// Program runs so far.
    pub iterations: u64,
}

#[derive(Clone, Debug)]
pub struct Budget {
    pub time: Duration,
    pub max_tests: Option<usize>,
    pub max_iterations: Option<u64>,
}

pub struct Session<'p> {
    pub program: &'p Program,
    pub goals: Goals,
    pub ledger: Ledger,
    pub out: SuiteWriter,
    pub budget: Budget,
    pub start: Instant,
    pub iterations: u64,
    pub interrupted: Arc<AtomicBool>,
    crash_sites: HashSet<String>,
    pub quiet: bool,
    /// Shown what techniques are doing (a progress bar), at most every 100 ms.
    progress: Option<Box<dyn FnMut(&Ledger, usize, &str) + 'p>>,
    last_tick: Instant,
    /// Every change of the coverage figures, in order.
    pub history: Vec<Milestone>,
    on_milestone: Option<Box<dyn FnMut(&Milestone) + 'p>>,
    /// Resident memory at which the search stops (Cairn's own data; runs have their own limit).
    pub memory_limit: Option<u64>,
    memory_checked: Cell<Option<Instant>>,
    /// Set when the search stopped because Cairn's memory reached `memory_limit`.
    pub memory_exceeded: Cell<bool>,
    /// What the runs did that no test shows: cut short by a limit of Cairn's, or stopped at an
    /// unsupported construct (the first one described).
    pub runs: RunCounts,
    on_run: Option<Box<dyn FnMut(&RunResult) + 'p>>,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RunCounts {
    pub cut_by_deadline: u64,
    pub cut_by_interrupt: u64,
    pub cut_by_memory_limit: u64,
    pub unsupported: u64,
    pub first_unsupported: Option<String>,
}

impl<'p> Session<'p> {
    pub fn new(
        program: &'p Program,
        out: SuiteWriter,
        budget: Budget,
        interrupted: Arc<AtomicBool>,
    ) -> Session<'p> {
        let mut goals = Goals::of(&program.module);
        if let Some(du) = &program.def_use {
            goals.add_def_use(&program.module, du);
        }
        let ledger = Ledger::new(&goals);
        Session {
            program,
            goals,
            ledger,
            out,
            budget,
            start: Instant::now(),
            iterations: 0,
            interrupted,
            crash_sites: HashSet::new(),
            quiet: false,
            progress: None,
            last_tick: Instant::now(),
            history: vec![],
            on_milestone: None,
            memory_limit: None,
            memory_checked: Cell::new(None),
            memory_exceeded: Cell::new(false),
            runs: RunCounts::default(),
            on_run: None,
        }
    }

    /// Calls `f` at every change of the coverage figures (benchmarks follow coverage with it).
    pub fn on_milestone(&mut self, f: impl FnMut(&Milestone) + 'p) {
        self.on_milestone = Some(Box::new(f));
    }

    /// Records the figures if they changed since the last milestone (and appends coverage.csv).
    pub fn note_progress(&mut self) -> Result<()> {
        let (covered, unreachable, tests) =
            (self.ledger.covered, self.ledger.unreachable, self.out.tests);
        if self
            .history
            .last()
            .is_some_and(|m| (m.covered, m.unreachable, m.tests) == (covered, unreachable, tests))
        {
            return Ok(());
        }
        let m = Milestone {
            time_s: self.start.elapsed().as_secs_f64(),
            covered,
            unreachable,
            tests,
            iterations: self.iterations,
        };
        self.history.push(m);
        if let Some(f) = &mut self.on_milestone {
            f(&m);
        }
        self.out.progress(&self.ledger, self.iterations)
    }

    /// Marks `goal` proven unreachable (`how`: the proof's kind).
    pub fn prove_unreachable(&mut self, goal: usize, how: &str) -> Result<()> {
        self.ledger.prove_unreachable(goal, how);
        self.note_progress()
    }

    /// Shows progress with `show(ledger, tests, what the current technique is doing)`.
    pub fn on_progress(&mut self, show: impl FnMut(&Ledger, usize, &str) + 'p) {
        self.progress = Some(Box::new(show));
    }

    /// A technique's heartbeat: `what` is only formatted when progress is shown.
    pub fn tick(&mut self, what: impl FnOnce() -> String) {
        if let Some(show) = &mut self.progress {
            if self.last_tick.elapsed() >= Duration::from_millis(100) {
                self.last_tick = Instant::now();
                show(&self.ledger, self.out.tests, &what());
            }
        }
    }

    /// When the budget ends.
    pub fn deadline(&self) -> Instant {
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
        for g in 0..self.goals.num_branches {
            self.ledger.ignore(g);
        }
    }

    /// Data-flow testing: only the def-use pairs count (branch and error goals are ignored).
    pub fn only_def_use_goals(&mut self) {
        let base = self.goals.def_use_base.unwrap_or(self.goals.len());
        for g in 0..base {
            self.ledger.ignore(g);
        }
    }

    /// True when the budget is spent, the user interrupted, Cairn's memory reached its limit,
    /// or nothing is left to decide.
    pub fn should_stop(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
            || self.start.elapsed() >= self.budget.time
            || self.budget.max_tests.is_some_and(|m| self.out.tests >= m)
            || self
                .budget
                .max_iterations
                .is_some_and(|m| self.iterations >= m)
            || self.ledger.all_decided()
            || self.over_memory()
    }

    /// Counts a run that cannot become a test (a run of an abstraction of the program).
    pub fn count_run(&mut self) {
        self.iterations += 1;
    }

    /// Calls `f` with every run recorded (benchmarks count valid inputs with it).
    pub fn on_run(&mut self, f: impl FnMut(&RunResult) + 'p) {
        self.on_run = Some(Box::new(f));
    }

    /// Records a run; keeps it as a test if it covers a new goal or crashes in a new way.
    /// Returns the goals it newly covered.
    pub fn record(&mut self, r: &RunResult, found_by: &str) -> Result<Vec<usize>> {
        self.iterations += 1;
        if let Some(f) = &mut self.on_run {
            f(r);
        }
        match &r.outcome {
            // Its end is not the program's: no test can claim it.
            Outcome::Cut(limit) => {
                use crate::exec::machine::Limit;
                *match limit {
                    Limit::Deadline => &mut self.runs.cut_by_deadline,
                    Limit::Interrupt => &mut self.runs.cut_by_interrupt,
                    Limit::Memory => &mut self.runs.cut_by_memory_limit,
                } += 1;
                return Ok(vec![]);
            }
            Outcome::Unsupported { what, loc } => {
                self.runs.unsupported += 1;
                if self.runs.first_unsupported.is_none() {
                    let at = self.program.module.loc_string(*loc);
                    self.runs.first_unsupported = Some(format!("{what} at {at}"));
                }
            }
            _ => {}
        }
        if self.budget.max_tests.is_some_and(|m| self.out.tests >= m) {
            return Ok(vec![]);
        }
        let covers = self.goals.covered_by(r);
        let fresh = self.ledger.new_goals(&covers);
        let new_crash = match &r.outcome {
            Outcome::Fault { kind, loc } => self
                .crash_sites
                .insert(format!("{kind}@{}:{}", loc.line, loc.col)),
            _ => false,
        };
        if fresh.is_empty() && !new_crash {
            return Ok(fresh);
        }
        let error = covers
            .iter()
            .any(|&g| self.goals.goals[g].kind == GoalKind::Error);
        let t = Test {
            inputs: r.inputs.clone(),
            covers: covers.clone(),
            error,
            found_by: found_by.to_string(),
            time_s: self.start.elapsed().as_secs_f64(),
            outcome: r.outcome.clone(),
            fault_location: match &r.outcome {
                Outcome::Fault { loc, .. } => Some(self.program.module.loc_string(*loc)),
                _ => None,
            },
            steps: r.steps,
            iteration: self.iterations,
        };
        let n = self.out.add(&t)?;
        for g in &fresh {
            self.ledger.cover(*g, n);
        }
        self.note_progress()?;
        Ok(fresh)
    }
}
