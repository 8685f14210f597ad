//! Def-use pairs proven infeasible through the branch outcomes no run takes. The model checker
//! decides the program's branch goals in one abstract reachability graph (every open branch at
//! once, where a pair's cover flag needs a model checking run of its own, `DefUseProving`); a
//! pair whose definition or use lies in code only those outcomes lead to, or whose p-use
//! outcome is one of them, is infeasible (`analysis::dead::dead_pairs`). The checker's runs
//! are recorded in the session too: they may cover pairs.

use crate::analysis::dead::dead_pairs;
use crate::analysis::ledger::Status;
use crate::driver::prove::{ModelChecking, static_check};
use crate::driver::session::{Budget, Session};
use crate::driver::technique::Technique;
use crate::exec::input::Replay;
use crate::exec::{Config, RunResult};
use crate::ir::GoalId;
use crate::ir::frontend::TempDir;
use crate::mc::arg::McConfig;
use crate::output::suite::SuiteWriter;
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub struct DeadCodePairs<'p> {
    /// A session of the same program whose goals are its branch outcomes only.
    branches: Session<'p>,
    mc: ModelChecking<'p>,
    /// The checker's runs (of the same program) not yet recorded in the session.
    runs: Rc<RefCell<Vec<RunResult>>>,
    cfg: Config,
    /// The longest turn it asks for: a pair's slice in the per-pair prover's first pass.
    longest_turn: Duration,
    /// Corpus entries (the session's tests) run in `branches` so far.
    seeds_seen: usize,
    /// Branch outcomes proven unreachable when pairs were last derived from them.
    derived_from: usize,
    proved: usize,
    covered: usize,
    _dir: TempDir,
}

impl<'p> DeadCodePairs<'p> {
    /// `longest_turn`: the per-pair prover's first slice; a longer least turn for the branch
    /// graph would starve that prover on short budgets (factor.c at 10 s: 0 of its 6 proofs).
    pub fn new(
        s: &Session<'p>,
        cfg: &Config,
        checker: McConfig,
        longest_turn: Duration,
    ) -> anyhow::Result<Self> {
        let dir = TempDir::new("dead-pairs")?;
        let w = SuiteWriter::create(dir.path(), dir.path(), &s.program.module, false)?;
        let budget = Budget {
            time: s.budget_end().saturating_duration_since(Instant::now()),
            max_tests: None,
            max_iterations: None,
        };
        let mut branches = Session::new(s.program, w, budget, Arc::new(AtomicBool::new(false)));
        branches.ignore_goals(branches.goals.num_branches..branches.goals.len());
        static_check(&mut branches)?;
        let runs: Rc<RefCell<Vec<RunResult>>> = Rc::default();
        let keep = runs.clone();
        branches.on_run(move |r, _| keep.borrow_mut().push(r.clone()));
        let mc = ModelChecking::with_config(&branches, checker)?;
        Ok(DeadCodePairs {
            branches,
            mc,
            runs,
            cfg: cfg.clone(),
            longest_turn,
            seeds_seen: 0,
            derived_from: 0,
            proved: 0,
            covered: 0,
            _dir: dir,
        })
    }

    /// Every pair the branch proofs so far make infeasible, into the session's ledger (a pair a
    /// test covers is passed too: the ledger reports the contradiction).
    fn derive(&mut self, s: &mut Session) -> anyhow::Result<()> {
        let (Some(du), Some(base)) = (&s.program.def_use, s.goals.def_use_base) else {
            return Ok(());
        };
        let never: HashSet<GoalId> = (0..self.branches.goals.num_branches)
            .filter(|&g| matches!(self.branches.ledger.status[g], Status::Unreachable(_)))
            .map(|g| g as GoalId)
            .collect();
        if never.len() <= self.derived_from {
            return Ok(());
        }
        self.derived_from = never.len();
        let pairs: Vec<usize> = dead_pairs(&s.program.module, &s.program.entry, du, &never)
            .into_iter()
            .map(|p| base + p as usize)
            .filter(|&g| !matches!(s.ledger.status[g], Status::Unreachable(_) | Status::Ignored))
            .collect();
        self.proved += pairs.len();
        let how = "model checker: the pair's code is unreachable";
        s.prove_all_unreachable(pairs.into_iter().map(|g| (g, how)))
    }
}

impl Technique for DeadCodePairs<'_> {
    fn name(&self) -> &'static str {
        "dead-code pairs"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        // The branch outcomes the other techniques' tests cover are no goals for the checker
        // (on a program they cover completely, it has nothing left to do).
        for seed in s.seeds_since(self.seeds_seen) {
            self.seeds_seen += 1;
            let values = seed.inputs.iter().map(|v| v.to_text()).collect();
            let r = s.program.run(&mut Replay::new(values), &self.cfg);
            self.branches.record(&r, &seed.found_by)?;
        }
        self.runs.borrow_mut().clear();
        if self.finished() {
            return Ok(());
        }
        self.mc.run(&mut self.branches, until.min(s.deadline()))?;
        for r in self.runs.take() {
            let before = s.ledger.covered;
            s.record(&r, "model checker")?;
            self.covered += s.ledger.covered - before;
        }
        self.derive(s)
    }

    fn finished(&self) -> bool {
        self.mc.finished()
            || (0..self.branches.goals.num_branches)
                .all(|g| self.branches.ledger.status[g] != Status::Unknown)
    }

    fn learning(&self) -> bool {
        self.mc.learning()
    }

    fn min_turn(&self) -> Duration {
        self.mc.min_turn().min(self.longest_turn)
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert(
            "dead_code_pairs".into(),
            serde_json::json!({
                "branch_outcomes_unreachable": self.derived_from,
                "pairs_proved_infeasible": self.proved,
                "pairs_covered": self.covered,
            }),
        );
        m
    }
}
