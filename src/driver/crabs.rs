//! Abstraction-driven concolic testing (Algorithm 3 of the paper, "Crabs"): concolic testing
//! for a time tc, then the model checker for a time tm on the goals left (its predicates carried
//! over), and the monitor of the model checker's final ARG multiplied into the program that
//! concolic testing explores next. Every monitor makes the product more precise: branches it
//! proves infeasible are never negated, and search backs off from product states that reach no
//! open goal.

use crate::driver::concolic::{Concolic, ConcolicStats, SolverOptions};
use crate::driver::prove::ModelChecking;
use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::exec::Config;
use crate::mc::monitor::Monitor;
use crate::search::product::Product;
use crate::search::pursuit::Pursuit;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// At most this many monitors are multiplied in (the oldest go first: each costs tracking on
/// every run, and later ones are built with more predicates).
const MAX_MONITORS: usize = 8;

/// Predicates seeded from open goals' guards before each model-checking turn, at most.
const SEED_CAP: usize = 48;

pub struct Crabs<'p> {
    testing: Concolic,
    mc: ModelChecking<'p>,
    product: Product,
    /// How a fresh concolic search over a new product is made.
    strategy: String,
    seed: u64,
    cfg: Config,
    solver: SolverOptions,
    /// The model checker's share of each round.
    mc_share: f64,
    first_slice: Duration,
    /// The shortest model-checking turn.
    min_mc: Duration,
    stats: CrabsStats,
    /// Concolic statistics of the searches a new monitor replaced, and their pursuit picks.
    earlier: Vec<ConcolicStats>,
    earlier_pursuit: u64,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CrabsStats {
    pub rounds: u64,
    /// Monitors built (from complete, certified ARGs), and those multiplied in now.
    pub monitors_built: u64,
    pub monitors: usize,
    /// States of each monitor built.
    pub monitor_states: Vec<usize>,
    /// Predicates seeded from the guards of open goals.
    pub seeded_predicates: usize,
    /// ARGs that could not serve as monitors (incomplete or uncertified).
    pub args_unusable: u64,
    /// Model-checker turns that ended without a complete ARG, their predicates dropped.
    pub predicates_forgotten: u64,
    /// Totals over every concolic search of the run.
    pub paths: u64,
    pub monitor_blocked: u64,
    pub monitor_set_aside: u64,
    pub monitor_mismatches: u64,
    /// Pending branches chosen in pursuit of one goal (`search::pursuit`), over every search.
    pub pursuit_picks: u64,
}

/// `strategy` under goal pursuit in the product (`search::pursuit`).
fn pursuing(strategy: &str) -> anyhow::Result<Box<dyn crate::search::Strategy>> {
    let order = crate::search::by_name(strategy)
        .ok_or_else(|| anyhow::anyhow!("unknown strategy `{strategy}`"))?;
    Ok(Box::new(Pursuit::over(order)))
}

fn pursuit_picks(search: &Concolic) -> u64 {
    search.stats()["pursuit"]["picks"].as_u64().unwrap_or(0)
}

impl<'p> Crabs<'p> {
    /// Crabs with `strategy` under the monitors, the rest as `plan` says.
    pub fn new(
        s: &Session<'p>,
        strategy: &str,
        plan: &crate::driver::generate::Plan,
    ) -> anyhow::Result<Crabs<'p>> {
        let (seed, cfg, solver) = (plan.seed, &plan.cfg, &plan.solver);
        let order = pursuing(strategy)?;
        Ok(Crabs {
            testing: Concolic::new(s, order, seed, cfg, solver)?,
            mc: {
                let mut mc = ModelChecking::with_config(s, plan.mc.clone())?;
                mc.cegar_first();
                mc
            },
            product: Product::default(),
            strategy: strategy.into(),
            seed,
            cfg: cfg.clone(),
            solver: solver.clone(),
            mc_share: plan.mc_share,
            first_slice: (s.budget.time / 16).max(Duration::from_millis(500)),
            min_mc: (s.budget.time / 8).clamp(Duration::from_millis(500), Duration::from_secs(5)),
            stats: CrabsStats::default(),
            earlier: vec![],
            earlier_pursuit: 0,
        })
    }

    /// Multiplies the monitor of the model checker's last ARG into the product, and starts a
    /// concolic search over the new product.
    fn refine_product(&mut self, s: &Session) -> anyhow::Result<()> {
        let Some(arg) = self.mc.certified_arg() else {
            self.stats.args_unusable += 1;
            return Ok(());
        };
        let Some(m) = Monitor::from_arg(arg, &s.goals) else {
            self.stats.args_unusable += 1;
            return Ok(());
        };
        if let Some(dir) = crate::debug::dump_dir().filter(|_| crate::debug_on!("monitor")) {
            if let Some(dot) = self.mc.arg_dot(s) {
                let path = std::path::Path::new(&dir)
                    .join(format!("arg{}.dot", self.stats.monitors_built));
                let _ = std::fs::write(path, dot);
            }
            for (i, l) in m.locs.iter().enumerate() {
                let reach: Vec<usize> = (0..s.goals.goals.len())
                    .filter(|g| m.reaches(i as u32, *g))
                    .collect();
                crate::debug_log!(
                    "monitor",
                    "monitor state {i} at {l:?}: {:?} reaches {reach:?}",
                    m.succ[i]
                );
            }
        }
        self.stats.monitors_built += 1;
        self.stats.monitor_states.push(m.len());
        if self.product.monitors.len() >= MAX_MONITORS {
            self.product.monitors.remove(0);
        }
        self.product.monitors.push(Rc::new(m));
        self.stats.monitors = self.product.monitors.len();
        self.restart_testing(s)
    }

    /// A fresh concolic search over the current product (what is covered stays covered).
    fn restart_testing(&mut self, s: &Session) -> anyhow::Result<()> {
        let order = pursuing(&self.strategy)?;
        let seed = self.seed.wrapping_add(self.stats.monitors_built);
        let mut fresh = Concolic::new(s, order, seed, &self.cfg, &self.solver)?;
        fresh.set_product(self.product.clone());
        let old = std::mem::replace(&mut self.testing, fresh);
        self.earlier_pursuit += pursuit_picks(&old);
        self.earlier.push(old.stats);
        Ok(())
    }

    /// Concolic testing until `until` (a search whose tree grows to half of Cairn's memory
    /// starts afresh by itself).
    fn test(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        if !self.testing.finished() {
            self.testing.run(s, until)?;
        }
        Ok(())
    }

    fn totals(&mut self) {
        let all = self.earlier.iter().chain([&self.testing.stats]);
        let (mut paths, mut blocked, mut aside, mut mism) = (0, 0, 0, 0);
        for c in all {
            paths += c.paths;
            blocked += c.monitor_blocked;
            aside += c.monitor_set_aside;
            mism += c.monitor_mismatches;
        }
        self.stats.paths = paths;
        self.stats.monitor_blocked = blocked;
        self.stats.monitor_set_aside = aside;
        self.stats.monitor_mismatches = mism;
        self.stats.pursuit_picks = self.earlier_pursuit + pursuit_picks(&self.testing);
    }
}

impl Technique for Crabs<'_> {
    fn name(&self) -> &'static str {
        "crabs"
    }

    /// Rounds of testing then model checking; the rounds double, so short ones catch easy
    /// goals and long ones deep goals (the paper's fixed tc and tm, grown geometrically).
    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        while !s.should_stop() && Instant::now() < until {
            let slice = self
                .first_slice
                .mul_f64(2f64.powi(self.stats.rounds.min(30) as i32));
            self.stats.rounds += 1;
            let tc = slice.mul_f64(1.0 - self.mc_share);
            self.test(s, (Instant::now() + tc).min(until))?;
            if s.should_stop() || Instant::now() >= until {
                break;
            }
            // A turn too short to finish the ARG's abstract posts yields a monitor that
            // constrains nothing (posts cut by the deadline keep no predicate).
            let tm = slice.mul_f64(self.mc_share).max(self.min_mc);
            if !self.mc.finished() {
                self.stats.seeded_predicates += self.mc.seed_goal_guards(s, SEED_CAP);
                self.mc.run(s, (Instant::now() + tm).min(until))?;
                self.refine_product(s)?;
                // Refinement cut by the turn's end rarely completes an ARG later (its
                // predicates only grow, and each post gets dearer): the next turn, twice as
                // long, refines afresh from the goals' guards.
                if self.mc.certified_arg().is_none() && self.mc.predicate_count() > 0 {
                    self.mc.forget_predicates();
                    self.stats.predicates_forgotten += 1;
                }
            } else if self.testing.finished() {
                break;
            }
        }
        self.totals();
        Ok(())
    }

    fn finished(&self) -> bool {
        self.testing.finished() && self.mc.finished()
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = self.testing.stats();
        m.extend(self.mc.stats());
        m.insert("crabs".into(), serde_json::to_value(&self.stats).unwrap());
        m
    }
}
