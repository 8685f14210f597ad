//! Uncovered-branch expectation search (`--strategy expectation`): the pending branch whose
//! outcome has the largest weight in `analysis::expectation` (the approximate number of
//! uncovered branches a test through it covers) goes first.
//!
//! Differences from the paper's CREST implementation, and why:
//! - The candidate queue is global (every pending branch of the execution tree), not rebuilt from
//!   the latest path: the paper's own conclusion is that a global search would do better, and an
//!   infeasible best candidate then costs one solver call instead of a restart.
//! - "Weight 0 and try the next" for an unsatisfiable prefix: the driver drops a pending branch
//!   whose query is unsat, and the next `select` takes the next best.
//! - Loop penalty: pending branches that are the same branch copy (the same outcome of the same
//!   branch in the same call context, repeated by a loop or across runs) form a group numbered
//!   1, 2, ... in random order; the i-th weighs w / i. Numbers are not reused: after t members of a
//!   group were tried, the group's best remaining member weighs w / (t + 1), so a repeating
//!   branch whose prefixes keep failing sinks instead of being retried at full weight.
//! - A flip is weighed by what it is sure to do: where the shadow saw that the branches right
//!   behind the flipped outcome are decided by values computed before the flip from inputs the
//!   flip does not change (`BranchRecord::ahead`), their outcomes count in full and the weight
//!   is taken at the last of them, not averaged over both outcomes of each. tcas computes
//!   `intent_not_known` before testing `tcas_equipped && intent_not_known`: a flip of
//!   `tcas_equipped` is worth the second test's uncovered `true` outcome in a run where
//!   `intent_not_known` holds, and nothing where it does not (inputs to the final coverage, 10
//!   seeds: 25.0 → 16.1).
//! - Weights are recomputed whenever coverage changed since the last selection. Ties are broken
//!   at random.
//! - No pending branch starves: weights are approximations (a goal behind a concretized value or
//!   a function pointer weighs nothing), so one selection in `EXPLORE` is uniform over every
//!   pending branch, and when no candidate is expected to reach an uncovered branch at all the
//!   choice is CREST's random branch (of the latest path first), which keeps deepening paths.
//!   The longer selections go without new coverage, the more of them are random-branch's
//!   (half after `STALL_HALF`): on an SSH server task the weights alone took 420 to 44,613
//!   runs (5 seeds) to reach what random-branch reached in 527 on average.

use super::strategies::take_random;
use super::tree::{Pending, RunPath};
use super::{Ctx, PendingId, PendingPool, Strategy};
use crate::analysis::expectation::{ALPHA, ExpectationGraph, Target};
use crate::exec::Program;
use rand::Rng;
use std::collections::HashMap;
use std::rc::Rc;

/// Share of selections made uniformly at random over all pending branches.
const EXPLORE: f64 = 0.05;

/// Selections without new coverage after which half of the picks deepen a recent path as
/// random-branch does: weights that led nowhere for that long are not to be trusted alone.
const STALL_HALF: u32 = 1000;

struct Group {
    target: Target,
    /// Outcomes the flips are sure to take on the way (`BranchRecord::ahead`): their own goals
    /// count in full, not as one of a branch's outcomes.
    via: Box<[Target]>,
    members: Vec<PendingId>,
    tried: u32,
}

impl Group {
    fn weight(&self, g: &ExpectationGraph, covered: &[bool]) -> f64 {
        let via: f64 = self.via.iter().map(|&t| g.own(t, covered)).sum();
        via + g.weight(self.target, covered)
    }
}

pub struct Expectation {
    alpha: f64,
    graph: Option<ExpectationGraph>,
    /// Coverage the weights were computed for.
    weights_for: Option<Vec<bool>>,
    groups: Vec<Group>,
    group_of: HashMap<(Target, Box<[Target]>), usize>,
    /// Pending branches added since the last run, of the latest run, of earlier runs, and all
    /// of them (for the random choices).
    fresh: Vec<PendingId>,
    recent: Vec<PendingId>,
    older: Vec<PendingId>,
    all: Vec<PendingId>,
    /// Selections since coverage last grew.
    stalled: u32,
}

impl Expectation {
    pub fn new(alpha: f64) -> Expectation {
        Expectation {
            alpha,
            graph: None,
            weights_for: None,
            stalled: 0,
            groups: vec![],
            group_of: HashMap::new(),
            fresh: vec![],
            recent: vec![],
            older: vec![],
            all: vec![],
        }
    }

    pub fn graph(&self) -> Option<&ExpectationGraph> {
        self.graph.as_ref()
    }

    /// CREST's random branch: a pending branch of the latest path, else of an earlier one.
    fn deepen(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        let r = take_random(&mut self.recent, pool, ctx);
        self.older.append(&mut self.recent);
        r.or_else(|| take_random(&mut self.older, pool, ctx))
    }
}

impl Default for Expectation {
    fn default() -> Expectation {
        Expectation::new(ALPHA)
    }
}

impl Strategy for Expectation {
    fn name(&self) -> &'static str {
        "expectation"
    }

    fn prepare(&mut self, program: &Program) {
        self.graph = Some(ExpectationGraph::new(
            &program.module,
            &program.entry,
            self.alpha,
        ));
    }

    fn add(&mut self, id: PendingId, p: &Pending, _: &mut Ctx) {
        let r = &p.run.records[p.depth];
        let (target, via) = match &self.graph {
            Some(g) => {
                let mut t = g.locate(r.ctx, r.func, r.block, p.outcome, p.target.1);
                let mut via = vec![];
                let ahead = r.ahead.iter().filter(|a| a.0 as usize == p.outcome);
                for &(_, block, o, to) in ahead {
                    via.push(t);
                    t = g.locate(r.ctx, r.func, block, o as usize, to);
                }
                (t, via.into_boxed_slice())
            }
            None => (Target::Other, Box::default()),
        };
        let key = (target, via);
        let gi = match self.group_of.get(&key) {
            Some(&gi) => gi,
            None => {
                self.groups.push(Group {
                    target,
                    via: key.1.clone(),
                    members: vec![],
                    tried: 0,
                });
                self.group_of.insert(key, self.groups.len() - 1);
                self.groups.len() - 1
            }
        };
        self.groups[gi].members.push(id);
        self.all.push(id);
        self.fresh.push(id);
    }

    fn on_run(&mut self, _: &Rc<RunPath>, _: &mut Ctx) {
        // The branches added since the last run are the latest path's.
        self.older.append(&mut self.recent);
        self.recent = std::mem::take(&mut self.fresh);
    }

    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        if self.weights_for.as_deref() != Some(ctx.covered) {
            self.stalled = 0;
            if let Some(g) = self.graph.as_mut() {
                g.update(ctx.covered);
            }
            self.weights_for = Some(ctx.covered.to_vec());
        } else {
            self.stalled = self.stalled.saturating_add(1);
        }
        if ctx.rng.gen_bool(EXPLORE)
            && let Some(id) = take_random(&mut self.all, pool, ctx)
        {
            return Some(id);
        }
        let stall = self.stalled as f64 / (self.stalled + STALL_HALF) as f64;
        if ctx.rng.gen_bool(stall)
            && let Some(id) = self.deepen(pool, ctx)
        {
            return Some(id);
        }
        loop {
            let mut best: Option<usize> = None;
            let mut best_w = 0.0;
            let mut ties = 0u32;
            for (i, grp) in self.groups.iter().enumerate() {
                if grp.members.is_empty() {
                    continue;
                }
                let w = self
                    .graph
                    .as_ref()
                    .map_or(0.0, |g| grp.weight(g, ctx.covered))
                    / (grp.tried + 1) as f64;
                let eps = 1e-9 * f64::max(w.abs(), 1.0);
                if best.is_none() || w > best_w + eps {
                    best = Some(i);
                    best_w = w;
                    ties = 1;
                } else if (w - best_w).abs() <= eps {
                    // Reservoir sampling: each tied group equally likely.
                    ties += 1;
                    if ctx.rng.gen_range(0..ties) == 0 {
                        best = Some(i);
                    }
                }
            }
            if best.is_some() && best_w <= 0.0 {
                // Nothing is expected to reach an uncovered branch: deepen a recent path.
                if let Some(id) = self.deepen(pool, ctx) {
                    return Some(id);
                }
            }
            let grp = &mut self.groups[best?];
            // Members leave only through `select`, but check (cheaply, in this group only).
            grp.members.retain(|id| pool.get(*id).is_some());
            if grp.members.is_empty() {
                continue;
            }
            // The random numbering within the group: a random member gets the next number.
            let k = ctx.rng.gen_range(0..grp.members.len());
            grp.tried += 1;
            crate::debug_log!("paths", "expectation: {:?} weighs {best_w:.3}", grp.target);
            return Some(grp.members.swap_remove(k));
        }
    }
}
