//! The model checker as a technique of a session: proofs and tests into the shared ledger.

use crate::driver::concolic::{Concolic, SolverOptions};

/// The model checker's options of `gen`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Model checking")]
pub struct ProverArgs {
    /// Accepted for compatibility: deciding goals with the model checker is the default.
    #[arg(long, hide = true)]
    pub prove: bool,
    /// Only generate tests: no model checking of the goals testing leaves undecided.
    #[arg(long)]
    pub tests_only: bool,
    /// The model checker's share of the time when testing and model checking alternate.
    #[arg(long, default_value_t = 0.3, value_parser = parse_share)]
    pub mc_share: f64,
    #[command(flatten)]
    pub checker: McConfig,
}

fn parse_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("`{s}` is not a share strictly between 0 and 1")),
    }
}
use crate::driver::session::Session;
use crate::driver::technique::{Alternate, Technique};
use crate::mc::arg::{Arg, McConfig, ModelChecker};
use crate::mc::model::Model;
use std::time::{Duration, Instant};

/// Marks the goals a cheap static check proves unreachable; returns how many.
pub fn static_check(s: &mut Session) -> anyhow::Result<usize> {
    use crate::analysis::ledger::Status;
    let dead = crate::analysis::dead::dead_goals(&s.program.module, &s.program.entry);
    let mut proven: Vec<(usize, &str)> =
        dead.into_iter().map(|(g, why)| (g as usize, why)).collect();
    if let (Some(du), Some(base)) = (&s.program.def_use, s.goals.def_use_base) {
        let pairs = crate::analysis::constdef::infeasible_pairs_why(&s.program.module, du);
        proven.extend(
            pairs
                .into_iter()
                .map(|(pair, why)| (base + pair as usize, why)),
        );
    }
    proven.retain(|&(g, _)| s.ledger.status[g] == Status::Unknown);
    proven.dedup_by_key(|p| p.0);
    let n = proven.len();
    if n > 0 {
        s.prove_all_unreachable(proven)?;
    }
    Ok(n)
}

/// What `cairn prove` runs: the model checker, in turns with exhaustive path exploration — the
/// concolic engine, whose execution tree, once exhausted and exact, proves every goal no test
/// covered. Exploration decides bounded programs (constant loop bounds, fixed-size arrays) that
/// the checker's memory abstraction cannot, and goes first (it is done with them at once)
/// unless the caller wants the checker's graph (`checker_first`).
pub fn provers<'a>(
    s: &Session,
    mc: &'a mut ModelChecking<'_>,
    cfg: &crate::exec::Config,
    checker_first: bool,
) -> anyhow::Result<Alternate<'a>> {
    let strategy = crate::search::by_name("expectation").expect("the default strategy");
    let explore = Concolic::new(s, strategy, 0, cfg, &SolverOptions::default())?;
    let first = (s.budget.time / 16).max(Duration::from_millis(500));
    let explore: (Box<dyn Technique + 'a>, f64) = (Box::new(explore), 0.25);
    let check: (Box<dyn Technique + 'a>, f64) = (Box::new(mc), 0.75);
    let parts = if checker_first {
        vec![check, explore]
    } else {
        vec![explore, check]
    };
    Ok(Alternate::new(parts, first))
}

/// Coverage-driven CEGAR model checking. Predicates found in one run are kept for the next.
pub struct ModelChecking<'p> {
    mc: ModelChecker<'p>,
    arg: Option<Arg>,
    /// Predicates after the last run, and whether that run added any.
    predicates: usize,
    learned: bool,
    /// The last ARG is complete and its certificate was accepted.
    certified: bool,
}

impl<'p> ModelChecking<'p> {
    pub fn new(s: &Session<'p>) -> anyhow::Result<ModelChecking<'p>> {
        Self::with_config(s, McConfig::default())
    }

    pub fn with_config(s: &Session<'p>, cfg: McConfig) -> anyhow::Result<ModelChecking<'p>> {
        let p = s.program;
        // `main` runs through the runtime's start routine: constructors, main, exit, destructors.
        let entry = crate::analysis::expectation::start_function(&p.module, &p.entry)
            .ok_or_else(|| anyhow::anyhow!("no function `{}`", p.entry))?;
        let mut model = Model::new(&p.module, &p.exts, p.entry != "main");
        // Data-flow runs know which reads the start-up code settles.
        if let Some(du) = &p.def_use {
            model.settled =
                crate::analysis::settled::Settled::compute(&p.module, du).reads(&p.module);
        }
        // Globals that start as inputs have no initial value to rely on.
        for &g in &p.unit.globals {
            let g = &p.module.globals[g as usize];
            model
                .tracked
                .retain(|a, _| *a < g.addr || *a >= g.addr + g.size);
        }
        Ok(ModelChecking {
            mc: ModelChecker::new(model, entry, cfg),
            arg: None,
            predicates: 0,
            learned: false,
            certified: false,
        })
    }

    /// CEGAR before the Horn-clause prover in each run, and every complete ARG certified (the
    /// ARG is what the caller wants).
    pub fn cegar_first(&mut self) {
        self.mc.cfg.chc_first = false;
        self.mc.cfg.certify_always = true;
        // A monitor needs a complete ARG: loop templates multiply the predicates on loop
        // paths until no turn completes one (mixed.c: 700+ predicates, never a monitor; 130
        // without). Loop facts are left to the Horn-clause prover.
        self.mc.cfg.loop_templates = false;
    }

    /// Adds the guards of the open branch goals (and their preconditions) to the abstraction,
    /// at most `cap` predicates; returns how many were added.
    pub fn seed_goal_guards(&mut self, s: &Session, cap: usize) -> usize {
        let open: Vec<crate::ir::GoalId> = (0..s.goals.num_branches)
            .filter(|g| s.ledger.status[*g] == crate::analysis::ledger::Status::Unknown)
            .map(|g| g as crate::ir::GoalId)
            .collect();
        self.mc.seed_goal_guards(&open, cap)
    }

    /// Adds relations between each loop's counters (`mc::loops`), unless the options turn
    /// them off; returns how many predicates were added.
    pub fn seed_loop_relations(&mut self) -> usize {
        if !self.mc.cfg.loop_relations {
            return 0;
        }
        self.mc.seed_loop_relations()
    }

    /// Predicates the abstraction holds now.
    pub fn predicate_count(&self) -> usize {
        self.mc.preds.values().map(Vec::len).sum()
    }

    /// Drops every predicate: the next run refines from the start (see `Crabs::run`).
    pub fn forget_predicates(&mut self) {
        self.mc.forget_predicates();
        self.predicates = 0;
    }

    /// The last abstract reachability graph, when it is complete and certified (a monitor can
    /// then rely on it).
    pub fn certified_arg(&self) -> Option<&Arg> {
        self.arg
            .as_ref()
            .filter(|a| self.certified && !a.nodes.is_empty())
    }

    /// The last run completed its abstract reachability graph (certified or not).
    pub fn arg_complete(&self) -> bool {
        self.arg.as_ref().is_some_and(|a| a.complete)
    }

    /// The last abstract reachability graph, as Graphviz DOT.
    pub fn arg_dot(&self, s: &Session) -> Option<String> {
        let arg = self.arg.as_ref()?;
        Some(arg.to_dot(&s.program.module, &self.mc.model.pool))
    }
}

impl Technique for ModelChecking<'_> {
    fn name(&self) -> &'static str {
        "mc"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        let left = until
            .min(s.deadline())
            .saturating_duration_since(Instant::now());
        if left.is_zero() || s.should_stop() {
            return Ok(());
        }
        // The checker refines for its time and may take half as long again to complete its
        // graph (proofs need a complete one): two thirds of what is left keeps the deadline.
        self.mc.cfg.time = left.mul_f64(2.0 / 3.0);
        let t0 = Instant::now();
        let arg = self.mc.run(s)?;
        self.certified = arg.complete && self.mc.last_certified;
        self.arg = Some(arg);
        if crate::debug_on!("turns") {
            crate::debug_log!(
                "turns",
                "mc turn {:.2}s of {:.2}s: builds {} refinements {} deferred {} cert {:.2}s chc {:.2}s",
                t0.elapsed().as_secs_f64(),
                left.as_secs_f64(),
                self.mc.stats.arg_builds,
                self.mc.stats.refinements,
                self.mc.deferred,
                self.mc.stats.certificate_time_s,
                self.mc.stats.chc_time_s
            );
        }
        self.learned = self.mc.stats.predicates > self.predicates;
        self.predicates = self.mc.stats.predicates;
        s.note_progress()
    }

    /// CEGAR refines between graph builds, in the first 40% of a turn: a turn holds a few.
    fn min_turn(&self) -> Duration {
        Duration::from_secs(2).max(self.mc.last_build * 8)
    }

    fn learning(&self) -> bool {
        self.learned
    }

    /// A complete ARG with no goal path left unrefined for lack of time, and a Horn-clause
    /// prover that was not cut short, have decided everything this checker can.
    fn finished(&self) -> bool {
        self.arg_complete() && self.mc.deferred == 0 && !self.mc.chc_cut
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("mc".into(), serde_json::to_value(&self.mc.stats).unwrap());
        m
    }
}
