//! A generation session: the program, its goals, the ledger and the output, shared by all
//! techniques. Techniques report runs here; the session decides what becomes a test.

use crate::analysis::goals::{GoalKind, Goals};
use crate::driver::ledger::Ledger;
use crate::exec::{Outcome, Program, RunResult};
use crate::output::suite::{SuiteWriter, Test};
use anyhow::Result;
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
    on_run: Option<Box<dyn FnMut(&RunResult) + 'p>>,
}

impl<'p> Session<'p> {
    pub fn new(
        program: &'p Program,
        out: SuiteWriter,
        budget: Budget,
        interrupted: Arc<AtomicBool>,
    ) -> Session<'p> {
        let goals = Goals::of(&program.module);
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

    /// Test-Comp's coverage-error property: branch goals do not count, only error calls.
    pub fn only_error_goals(&mut self) {
        for g in 0..self.goals.num_branches {
            self.ledger.ignore(g);
        }
    }

    /// True when the budget is spent, the user interrupted, or nothing is left to decide.
    pub fn should_stop(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
            || self.start.elapsed() >= self.budget.time
            || self.budget.max_tests.is_some_and(|m| self.out.tests >= m)
            || self
                .budget
                .max_iterations
                .is_some_and(|m| self.iterations >= m)
            || self.ledger.all_decided()
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
