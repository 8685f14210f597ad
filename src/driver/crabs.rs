//! Abstraction-driven concolic testing (Algorithm 3 of the paper, "Crabs"): concolic testing
//! for a time tc, then the model checker for a time tm on the goals left (its predicates carried
//! over), and the monitor of the model checker's final ARG multiplied into the program that
//! concolic testing explores next. Every monitor makes the product more precise: branches it
//! proves infeasible are never negated, and search backs off from product states that reach no
//! open goal.
//!
//! The two parts take turns in the generic alternation (`technique::Alternate`, fixed shares):
//! `ProductSearch` is the concolic search over the product, `MonitorBuilding` the model
//! checker that multiplies each certified ARG's monitor into it. They share `Handoff`.

use crate::driver::concolic::{Concolic, SolverOptions};
use crate::driver::prove::ModelChecking;
use crate::driver::session::Session;
use crate::driver::technique::{Alternate, Technique};
use crate::exec::Config;
use crate::mc::monitor::Monitor;
use crate::search::product::Product;
use crate::search::pursuit::Pursuit;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// At most this many monitors are multiplied in (the oldest go first: each costs tracking on
/// every run, and later ones are built with more predicates).
const MAX_MONITORS: usize = 8;

/// How often a search turn looks whether it still decides anything (see `ProductSearch::run`).
const PATIENCE_CHECK: Duration = Duration::from_millis(500);

/// Predicates seeded from open goals' guards before each model-checking turn, at most.
const SEED_CAP: usize = 48;

/// What crabs' two parts share: the product (the monitors multiplied in so far), and crabs'
/// statistics, which both add to.
#[derive(Default)]
struct Handoff {
    product: Product,
    /// The model checker can decide nothing more: no monitor will come.
    checker_finished: bool,
    stats: CrabsStats,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CrabsStats {
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

/// Crabs: the product search and the model checker in turns, `plan.mc_share` of each round the
/// checker's; `strategy` orders the search under goal pursuit.
pub fn crabs<'p>(
    s: &Session<'p>,
    strategy: &str,
    plan: &crate::driver::generate::Plan,
) -> anyhow::Result<Alternate<'p>> {
    let handoff = Rc::new(RefCell::new(Handoff::default()));
    let search = ProductSearch {
        testing: Concolic::new(s, pursuing(strategy)?, plan.seed, &plan.cfg, &plan.solver)?,
        monitors_seen: 0,
        strategy: strategy.into(),
        seed: plan.seed,
        cfg: plan.cfg.clone(),
        solver: plan.solver.clone(),
        earlier: Totals::default(),
        handoff: handoff.clone(),
    };
    let mut mc = ModelChecking::with_config(s, plan.mc.clone())?;
    mc.cegar_first();
    let building = MonitorBuilding {
        mc,
        min_turn: (s.budget.time / 8).clamp(Duration::from_millis(500), Duration::from_secs(5)),
        handoff,
    };
    let first = (s.budget.time / 16).max(Duration::from_millis(500));
    let parts: Vec<(Box<dyn Technique + 'p>, f64)> = vec![
        (Box::new(search), 1.0 - plan.mc_share),
        (Box::new(building), plan.mc_share),
    ];
    Ok(Alternate::new(parts, first).fixed_shares())
}

/// `strategy` under goal pursuit in the product (`search::pursuit`).
fn pursuing(strategy: &str) -> anyhow::Result<Box<dyn crate::search::Strategy>> {
    let order = crate::search::by_name(strategy)
        .ok_or_else(|| anyhow::anyhow!("unknown strategy `{strategy}`"))?;
    Ok(Box::new(Pursuit::over(order)))
}

/// Concolic search over the product; a new monitor starts a fresh search (what is covered
/// stays covered; a search whose tree grows to half of Cairn's memory starts afresh by itself).
struct ProductSearch {
    testing: Concolic,
    /// Monitors built when the current search started.
    monitors_seen: u64,
    strategy: String,
    seed: u64,
    cfg: Config,
    solver: SolverOptions,
    /// Of the searches a new monitor replaced.
    earlier: Totals,
    handoff: Rc<RefCell<Handoff>>,
}

/// Counts summed over concolic searches.
#[derive(Default, Clone, Copy)]
struct Totals {
    paths: u64,
    blocked: u64,
    set_aside: u64,
    mismatches: u64,
    pursuit_picks: u64,
}

impl Totals {
    fn of(search: &Concolic) -> Totals {
        let m = search.monitor_stats();
        Totals {
            paths: search.stats.paths,
            blocked: m.monitor_blocked,
            set_aside: m.monitor_set_aside,
            mismatches: m.monitor_mismatches,
            pursuit_picks: search.stats()["pursuit"]["picks"].as_u64().unwrap_or(0),
        }
    }

    fn plus(self, o: Totals) -> Totals {
        Totals {
            paths: self.paths + o.paths,
            blocked: self.blocked + o.blocked,
            set_aside: self.set_aside + o.set_aside,
            mismatches: self.mismatches + o.mismatches,
            pursuit_picks: self.pursuit_picks + o.pursuit_picks,
        }
    }
}

impl ProductSearch {
    /// A fresh concolic search over the product as it is now.
    fn restart(&mut self, s: &Session) -> anyhow::Result<()> {
        let (product, built) = {
            let h = self.handoff.borrow();
            (h.product.clone(), h.stats.monitors_built)
        };
        let seed = self.seed.wrapping_add(built);
        let mut fresh = Concolic::new(s, pursuing(&self.strategy)?, seed, &self.cfg, &self.solver)?;
        fresh.set_product(product);
        let old = std::mem::replace(&mut self.testing, fresh);
        self.earlier = self.earlier.plus(Totals::of(&old));
        self.monitors_seen = built;
        Ok(())
    }
}

impl Technique for ProductSearch {
    fn name(&self) -> &'static str {
        "crabs search"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        if self.handoff.borrow().stats.monitors_built != self.monitors_seen {
            self.restart(s)?;
        }
        // A turn that decides nothing for a quarter of its length hands over early: while the
        // product lacks the monitor a goal needs, more search of it finds nothing (counters.c:
        // the monitor relating `hits` to `i` came after 65 s of searching 2^39 paths), and
        // while it has one, search decides soon.
        let start = Instant::now();
        let patience = until
            .saturating_duration_since(start)
            .mul_f64(0.25)
            .max(PATIENCE_CHECK);
        let (mut decided, mut news_at) = (s.ledger.covered + s.ledger.unreachable, start);
        while !self.testing.finished() && !s.should_stop() && Instant::now() < until {
            let check = PATIENCE_CHECK.max(self.testing.min_turn());
            self.testing.run(s, (Instant::now() + check).min(until))?;
            let now = s.ledger.covered + s.ledger.unreachable;
            if now > decided {
                (decided, news_at) = (now, Instant::now());
            } else if news_at.elapsed() >= patience && !self.handoff.borrow().checker_finished {
                break;
            }
        }
        let t = self.earlier.plus(Totals::of(&self.testing));
        let stats = &mut self.handoff.borrow_mut().stats;
        stats.paths = t.paths;
        stats.monitor_blocked = t.blocked;
        stats.monitor_set_aside = t.set_aside;
        stats.monitor_mismatches = t.mismatches;
        stats.pursuit_picks = t.pursuit_picks;
        Ok(())
    }

    fn min_turn(&self) -> Duration {
        self.testing.min_turn()
    }

    /// Exhausted, and no monitor is coming that would make a new product to search.
    fn finished(&self) -> bool {
        let h = self.handoff.borrow();
        self.testing.finished()
            && h.checker_finished
            && h.stats.monitors_built == self.monitors_seen
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        self.testing.stats()
    }
}

/// The model checker's turns, each ending with the monitor of its final ARG multiplied into
/// the product.
struct MonitorBuilding<'p> {
    mc: ModelChecking<'p>,
    /// The shortest turn: a turn too short to finish the ARG's abstract posts yields a monitor
    /// that constrains nothing (posts cut by the deadline keep no predicate).
    min_turn: Duration,
    handoff: Rc<RefCell<Handoff>>,
}

impl MonitorBuilding<'_> {
    /// Multiplies the monitor of the model checker's last ARG into the product.
    fn refine_product(&mut self, s: &Session) {
        let mut h = self.handoff.borrow_mut();
        let Some(arg) = self.mc.certified_arg() else {
            h.stats.args_unusable += 1;
            return;
        };
        let Some(m) = Monitor::from_arg(arg, &s.goals) else {
            h.stats.args_unusable += 1;
            return;
        };
        if let Some(dir) = crate::debug::dump_dir().filter(|_| crate::debug_on!("monitor")) {
            if let Some(dot) = self.mc.arg_dot(s) {
                let path =
                    std::path::Path::new(&dir).join(format!("arg{}.dot", h.stats.monitors_built));
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
        h.stats.monitors_built += 1;
        h.stats.monitor_states.push(m.len());
        if h.product.monitors.len() >= MAX_MONITORS {
            h.product.monitors.remove(0);
        }
        h.product.monitors.push(Rc::new(m));
        h.stats.monitors = h.product.monitors.len();
    }
}

impl Technique for MonitorBuilding<'_> {
    fn name(&self) -> &'static str {
        "crabs model checking"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        let seeded = self.mc.seed_goal_guards(s, SEED_CAP) + self.mc.seed_loop_relations();
        self.handoff.borrow_mut().stats.seeded_predicates += seeded;
        self.mc.run(s, until)?;
        self.refine_product(s);
        // Refinement cut by the turn's end rarely completes an ARG later (its predicates only
        // grow, and each post gets dearer): the next turn, twice as long, refines afresh from
        // the goals' guards. A complete ARG whose certificate ran out of time keeps them: the
        // longer turn certifies it (on a loaded machine, forgetting lost every refinement).
        if !self.mc.arg_complete() && self.mc.predicate_count() > 0 {
            self.mc.forget_predicates();
            self.handoff.borrow_mut().stats.predicates_forgotten += 1;
        }
        self.handoff.borrow_mut().checker_finished = self.mc.finished();
        Ok(())
    }

    fn finished(&self) -> bool {
        self.mc.finished()
    }

    fn min_turn(&self) -> Duration {
        self.min_turn
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = self.mc.stats();
        let crabs = serde_json::to_value(&self.handoff.borrow().stats).unwrap();
        m.insert("crabs".into(), crabs);
        m
    }
}
