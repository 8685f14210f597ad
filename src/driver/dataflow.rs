//! Def-use pairs decided by the model checker: each undecided pair in turn is reduced to a
//! branch goal of an instrumented copy (`analysis::coverflag`) and model checked with a time
//! slice; unreachable proves the pair infeasible, reached gives inputs that are run on the real
//! program (the pair counts as covered only if that run covers it). Each pass over the pairs left
//! takes the next slice of a ladder (the paper's is 10, 30, 90, 300 s). Reads the start-up
//! code settles (`analysis::settled`) are constants in the copy.

use crate::analysis::coverflag::{recursive_functions, reduce};
use crate::analysis::defuse::InstAt;
use crate::analysis::settled::{Settled, fold};
use crate::ir::FuncId;
use std::collections::{BTreeSet, HashMap};

/// Data-flow testing's options of `gen` (with `--criterion def-use`).
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Data flow (--criterion def-use)")]
pub struct PairArgs {
    /// Def-use pairs: the model checker's time per pair in each pass over the pairs left,
    /// in seconds (the paper's ladder is 10,30,90,300; the last repeats). Default: an
    /// eighth of the budget, at most 3 s, tripling up to 300 s.
    #[arg(long, value_name = "S,S,...", value_parser = parse_slices)]
    pub pair_slices: Option<Slices>,
}

/// A ladder of time slices (`--pair-slices`).
#[derive(Clone, Debug)]
pub struct Slices(pub Vec<Duration>);

fn parse_slices(s: &str) -> Result<Slices, String> {
    let ladder: Result<Vec<Duration>, String> = s
        .split(',')
        .map(|x| match x.trim().parse::<f64>() {
            Ok(v) if v > 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v)),
            _ => Err(format!("`{x}` is not a positive number of seconds")),
        })
        .collect();
    Ok(Slices(ladder?))
}

impl PairArgs {
    /// The ladder given; empty: from the budget (`DefUseProving::ladder`).
    pub fn ladder(&self) -> Vec<Duration> {
        self.pair_slices.clone().map(|l| l.0).unwrap_or_default()
    }
}
use crate::analysis::ledger::Status;
use crate::driver::prove::ModelChecking;
use crate::driver::session::{Budget, Session};
use crate::driver::technique::Technique;
use crate::exec::input::Replay;
use crate::exec::{Config, InputValue, Program};
use crate::ir::frontend::TempDir;
use crate::mc::arg::McConfig;
use crate::output::suite::SuiteWriter;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

pub struct DefUseProving {
    cfg: Config,
    /// The model checker's limits, for each pair's checker.
    checker: McConfig,
    /// Slice per pair, pass by pass; the last one repeats.
    ladder: Vec<Duration>,
    pass: usize,
    /// Next pair to try in the current pass.
    next: usize,
    pub proved: usize,
    pub covered: usize,
    pub attempts: usize,
    /// Pairs that cannot be reduced (recursive functions).
    pub not_reducible: usize,
    skip: BTreeSet<usize>,
    done: bool,
    /// What every pair's copy shares, computed at the first pair: the reads the start-up code
    /// settles, and the recursive functions.
    shared: Option<(HashMap<InstAt, u64>, BTreeSet<FuncId>)>,
}

impl DefUseProving {
    /// The default ladder for a budget: an eighth of it, at most 3 s, tripling up to the
    /// paper's 300 s. The paper starts at 10 s; here proofs take from a tenth of a second (a
    /// Spacer probe) to about 3 s (sampling and bounds), and a longer first pass spends the
    /// budget on the pairs the checker cannot decide before it reaches the ones it can
    /// (textfmt.c at 300 s: 3 proofs with 10 s first slices; 14 at 60 s with 3 s ones, and
    /// none with 1 s).
    pub fn ladder(budget: Duration) -> Vec<Duration> {
        let mut slice = (budget / 8).clamp(Duration::from_millis(250), Duration::from_secs(3));
        let mut ladder = vec![slice];
        while slice < Duration::from_secs(300) {
            slice = (slice * 3).min(Duration::from_secs(300));
            ladder.push(slice);
        }
        ladder
    }

    pub fn new(cfg: &Config, ladder: Vec<Duration>, checker: McConfig) -> Self {
        assert!(!ladder.is_empty());
        DefUseProving {
            cfg: cfg.clone(),
            checker,
            ladder,
            pass: 0,
            next: 0,
            proved: 0,
            covered: 0,
            attempts: 0,
            not_reducible: 0,
            skip: Default::default(),
            done: false,
            shared: None,
        }
    }

    fn slice(&self) -> Duration {
        self.ladder[self.pass.min(self.ladder.len() - 1)]
    }

    /// Model checks pair `pair` until `until`.
    fn decide(&mut self, s: &mut Session, pair: usize, until: Instant) -> anyhow::Result<()> {
        let Some(du) = s.program.def_use.clone() else {
            return Ok(());
        };
        let base = s.goals.def_use_base.unwrap_or(0);
        let m = &s.program.module;
        let (reads, recursive) = self.shared.get_or_insert_with(|| {
            let reads = Settled::compute(m, &du).reads(m);
            (reads, recursive_functions(m))
        });
        // Reads the start-up code settles are constants in the copy (the pair's own variable
        // keeps its reads, which the copy instruments).
        let var = du.uses[du.pairs[pair].use_ as usize].var;
        let folded = fold(m, reads, &du, var);
        let Some(red) = reduce(folded.as_ref().unwrap_or(m), &du, pair as u32, recursive) else {
            self.not_reducible += 1;
            self.skip.insert(pair);
            return Ok(());
        };
        self.attempts += 1;
        let mut copy = Program::new(red.module);
        copy.entry = s.program.entry.clone();
        copy.unit = s.program.unit.clone();
        let tmp = TempDir::new("defuse-mc")?;
        let w = SuiteWriter::create(tmp.path(), tmp.path(), &copy.module, false)?;
        // The copy's session ends with the generation's (what the checker must never
        // outlast); the pair's slice ends its turn (`until`). A slice's end as the session's
        // would cut the invariant check the checker may finish past its turn.
        let time = s.budget_end().saturating_duration_since(Instant::now());
        let budget = Budget {
            time,
            max_tests: None,
            max_iterations: None,
        };
        let goal = red.goal as usize;
        let mut aux = Session::new(&copy, w, budget, Arc::new(AtomicBool::new(false)));
        // Only the pair's goal: in the shared ledger (a view's change would not survive its
        // next refresh, and the checker would spend the slice on the copy's branches).
        aux.ignore_goals((0..aux.goals.len()).filter(|&g| g != goal));
        let found: Rc<RefCell<Option<Vec<InputValue>>>> = Rc::default();
        let keep = found.clone();
        aux.on_run(move |r, _| {
            if r.branches.get(goal).is_some_and(|&n| n > 0) && keep.borrow().is_none() {
                *keep.borrow_mut() = Some(r.inputs.clone());
            }
        });
        let mut mc = ModelChecking::with_config(&aux, self.checker.clone())?;
        let start = Instant::now();
        mc.run(&mut aux, until)?;
        if crate::debug_on!("defuse") {
            crate::debug_log!(
                "defuse",
                "def-use mc: pair {pair} ({}) {:?} in {:.2}s of {:.2}s",
                du.describe(pair as u32),
                aux.ledger.status[goal],
                start.elapsed().as_secs_f64(),
                time.as_secs_f64()
            );
        }
        match &aux.ledger.status[goal] {
            Status::Unreachable(_) if s.ledger.status[base + pair] == Status::Unknown => {
                s.prove_unreachable(base + pair, "model checker (def-use)")?;
                self.proved += 1;
            }
            Status::Covered(_) => {
                if let Some(inputs) = found.borrow().clone() {
                    let values = inputs.iter().map(|v| v.to_text()).collect();
                    let r = s.program.run(&mut Replay::new(values), &self.cfg);
                    let before = s.ledger.covered;
                    s.record(&r, "model checker")?;
                    self.covered += s.ledger.covered - before;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

impl Technique for DefUseProving {
    fn name(&self) -> &'static str {
        "def-use model checking"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        let Some(base) = s.goals.def_use_base else {
            self.done = true;
            return Ok(());
        };
        let n = s.goals.len() - base;
        while !s.should_stop() && Instant::now() < until {
            let open: Vec<usize> = (0..n)
                .filter(|&p| {
                    s.ledger.status[base + p] == Status::Unknown && !self.skip.contains(&p)
                })
                .collect();
            if open.is_empty() {
                self.done = true;
                return Ok(());
            }
            let Some(&pair) = open.iter().find(|&&p| p >= self.next) else {
                // A pass is over: the next one gets longer slices.
                self.next = 0;
                self.pass += 1;
                continue;
            };
            self.next = pair + 1;
            let end = (Instant::now() + self.slice()).min(until).min(s.deadline());
            self.decide(s, pair, end)?;
        }
        Ok(())
    }

    fn finished(&self) -> bool {
        self.done
    }

    /// A pair's whole slice: a turn that ended inside it would skip the pair for the pass
    /// (and a checker that only reaches its proof late in the slice would prove nothing).
    fn min_turn(&self) -> Duration {
        self.slice()
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert(
            "def_use_mc".into(),
            serde_json::json!({
                "attempts": self.attempts,
                "proved_infeasible": self.proved,
                "covered": self.covered,
                "not_reducible": self.not_reducible,
                "slice_s": self.slice().as_secs_f64(),
            }),
        );
        m
    }
}
