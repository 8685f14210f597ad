//! Crabs' guest in concolic search: the product of the program with the model checker's
//! monitors. Runs are tracked through the monitors; a pending branch no monitor allows is
//! infeasible (never negated), and one whose product state reaches no open goal is set aside
//! until nothing else is left. Without monitors every call is a no-op.

use super::SymbolicRun;
use crate::driver::session::Session;
use crate::exec::Config;
use crate::exec::shadow::Shadow;
use crate::search::product::{Decision, Product, ProductDistances, ProductTracker, WithMonitors};
use crate::search::tree::Pending;
use crate::smt::expr::Pool;
use std::collections::HashSet;
use std::rc::Rc;

/// What the monitors did, in `summary.json`'s `concolic` section.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MonitorStats {
    /// Monitors multiplied in.
    pub monitors: usize,
    /// Pending branches no monitor allows (never negated).
    pub monitor_blocked: u64,
    /// Pending branches set aside because no open goal is reachable from their product state.
    pub monitor_set_aside: u64,
    /// Events the monitors could not follow.
    pub monitor_mismatches: u64,
}

/// Per recorded decision of a product run, the monitors' verdict on its outcomes.
pub type Verdicts = Vec<Option<Rc<Decision>>>;

#[derive(Default)]
pub struct MonitorGuide {
    product: Product,
    /// Where pending branches lead in the product, and how far open goals are from there.
    dist: ProductDistances,
    /// Pending branches from whose product state no open goal is reachable.
    set_aside: Vec<Pending>,
    released: HashSet<(u32, usize)>,
    pub stats: MonitorStats,
}

impl MonitorGuide {
    pub fn new(product: Product) -> Self {
        MonitorGuide {
            stats: MonitorStats {
                monitors: product.monitors.len(),
                ..Default::default()
            },
            product,
            ..Default::default()
        }
    }

    pub fn active(&self) -> bool {
        !self.product.monitors.is_empty()
    }

    /// The product's distances, for the strategies.
    pub fn distances(&self) -> &ProductDistances {
        &self.dist
    }

    /// Runs the program once with the symbolic shadow and the monitors.
    pub fn run(
        &mut self,
        s: &Session,
        pool: &mut Pool,
        input: &mut dyn crate::exec::InputSource,
        cfg: &Config,
    ) -> (SymbolicRun, Verdicts) {
        let mut shadow = Shadow::for_search(pool);
        let mut both = WithMonitors {
            shadow: &mut shadow,
            tracker: ProductTracker::new(&self.product),
            decisions: vec![],
        };
        let mut result = s.program.run_observed(input, cfg, &mut both);
        let (decisions, mismatches) = (both.decisions, both.tracker.mismatches);
        shadow.annotate(&mut result);
        if crate::debug_on!("monitor") {
            crate::debug_log!(
                "monitor",
                "product run: {} decisions, {} with a verdict, {mismatches} mismatches: {:?}",
                decisions.len(),
                decisions.iter().filter(|d| d.is_some()).count(),
                decisions.iter().flatten().take(3).collect::<Vec<_>>()
            );
        }
        self.stats.monitor_mismatches += mismatches;
        let run = SymbolicRun {
            result,
            path: shadow.path,
            exactness: shadow.exactness,
            last_char: shadow.last_char,
        };
        (run, decisions)
    }

    /// The goals open now changed: the product's distances follow.
    pub fn refresh(&mut self, open: &[bool]) {
        if self.active() {
            self.dist.refresh(&self.product, open);
        }
    }

    /// Keeps the new pending branches the monitors allow, noting where each leads in the
    /// product; returns how many were blocked.
    pub fn admit(&mut self, verdicts: &Verdicts, new: &mut Vec<Pending>) -> u64 {
        let before = self.stats.monitor_blocked;
        new.retain(|p| {
            let Some(Some(d)) = verdicts.get(p.depth) else {
                return true;
            };
            if d.blocked(p.outcome) {
                self.stats.monitor_blocked += 1;
                return false;
            }
            self.dist
                .next
                .insert((p.node, p.outcome), d.outcomes[p.outcome].clone());
            true
        });
        self.stats.monitor_blocked - before
    }

    /// `p` back when an open goal is reachable once it is taken; otherwise it is set aside.
    pub fn unless_hopeless(&mut self, p: Pending, covered: &[bool]) -> Option<Pending> {
        let hopeless = self
            .dist
            .next
            .get(&(p.node, p.outcome))
            .is_some_and(|next| {
                let open: Vec<bool> = covered.iter().map(|c| !c).collect();
                !self.released.contains(&(p.node, p.outcome))
                    && !self.product.hopeful(next, p.goal as usize, &open)
            });
        if !hopeless {
            return Some(p);
        }
        self.stats.monitor_set_aside += 1;
        self.set_aside.push(p);
        None
    }

    /// The set-aside branches, to try once nothing else is left (never set aside again).
    pub fn release(&mut self) -> Vec<Pending> {
        let out = std::mem::take(&mut self.set_aside);
        self.released
            .extend(out.iter().map(|p| (p.node, p.outcome)));
        out
    }

    /// The search starts afresh: what it knew of its tree's branches goes.
    pub fn forget_tree(&mut self) {
        self.dist = Default::default();
        self.set_aside.clear();
        self.released.clear();
    }
}
