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
        }
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

    /// Records a run; keeps it as a test if it covers a new goal or crashes in a new way.
    /// Returns the goals it newly covered.
    pub fn record(&mut self, r: &RunResult, found_by: &str) -> Result<Vec<usize>> {
        self.iterations += 1;
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
        };
        let n = self.out.add(&t)?;
        for g in &fresh {
            self.ledger.cover(*g, n);
        }
        self.out.progress(&self.ledger)?;
        Ok(fresh)
    }
}
