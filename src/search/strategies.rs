//! The classic search strategies: bounded DFS, random branch, uniform random, CFG-directed,
//! generational (uncovered-branch expectation is in `expectation.rs`).

use super::tree::{Pending, RunPath};
use super::{Ctx, PendingId, PendingPool, Strategy};
use crate::ir::NO_GOAL;
use rand::Rng;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;

/// Depth-first: always the deepest pending branch of the latest run; branches deeper than
/// `bound` decisions are not explored.
pub struct Dfs {
    stack: Vec<PendingId>,
    bound: usize,
}

impl Dfs {
    /// Explores branches up to `bound` decisions deep.
    pub fn new(bound: usize) -> Dfs {
        Dfs {
            stack: vec![],
            bound,
        }
    }
}

impl Strategy for Dfs {
    fn name(&self) -> &'static str {
        "dfs"
    }
    fn add(&mut self, id: PendingId, p: &Pending, _: &mut Ctx) {
        if p.depth <= self.bound {
            self.stack.push(id);
        }
    }
    fn select(&mut self, pool: &PendingPool, _: &mut Ctx) -> Option<PendingId> {
        while let Some(id) = self.stack.pop() {
            if pool.get(id).is_some() {
                return Some(id);
            }
        }
        None
    }
}

/// Removes and returns a random live member of `v`.
pub fn take_random(v: &mut Vec<PendingId>, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
    while !v.is_empty() {
        let i = ctx.rng.gen_range(0..v.len());
        let id = v.swap_remove(i);
        if pool.get(id).is_some() {
            return Some(id);
        }
    }
    None
}

/// CREST's random branch search: negate a random branch of the latest path; when it has none
/// left, a random branch of any earlier path.
#[derive(Default)]
pub struct RandomBranch {
    recent: Vec<PendingId>,
    older: Vec<PendingId>,
}

impl Strategy for RandomBranch {
    fn name(&self) -> &'static str {
        "random-branch"
    }
    fn add(&mut self, id: PendingId, _: &Pending, _: &mut Ctx) {
        self.recent.push(id);
    }
    fn on_run(&mut self, _: &Rc<RunPath>, _: &mut Ctx) {}
    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        let r = take_random(&mut self.recent, pool, ctx);
        // The rest of the latest path's branches stay available, but behind the next path's.
        self.older.append(&mut self.recent);
        r.or_else(|| take_random(&mut self.older, pool, ctx))
    }
}

/// Every pending branch equally likely.
#[derive(Default)]
pub struct UniformRandom {
    all: Vec<PendingId>,
}

impl Strategy for UniformRandom {
    fn name(&self) -> &'static str {
        "uniform-random"
    }
    fn add(&mut self, id: PendingId, _: &Pending, _: &mut Ctx) {
        self.all.push(id);
    }
    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        take_random(&mut self.all, pool, ctx)
    }
}

/// CFG-directed: the pending branch whose target is statically closest to an uncovered goal
/// (a branch that itself covers an uncovered goal is at distance 0). Ties go to the
/// shallower branch, then at random. Under monitors (crabs) the distance is the product's:
/// from the monitors' states the branch leads to, the fewest transitions to an open goal.
///
/// Distances change only when a goal is decided, so the branches wait in a heap keyed by
/// their distance, rebuilt when the decided goals change (searching every pending branch on
/// each selection dominated long runs: 100 000 branches pending is common).
#[derive(Default)]
pub struct CfgDirected {
    heap: BinaryHeap<Reverse<(u32, usize, u32, PendingId)>>,
    /// Goals decided when the keys were computed.
    decided: usize,
}

pub fn distance(p: &Pending, ctx: &Ctx) -> u32 {
    if p.goal != NO_GOAL && !ctx.covered.get(p.goal as usize).copied().unwrap_or(true) {
        return 0;
    }
    let cfg = ctx.dist.of(p.target.0, p.target.1).saturating_add(1);
    match ctx.product.and_then(|d| d.of(p.node, p.outcome)) {
        // Both bound the way to an open goal from below; the product's is the finer.
        Some(product) => cfg.max(product),
        None => cfg,
    }
}

impl CfgDirected {
    fn key(id: PendingId, p: &Pending, ctx: &mut Ctx) -> Reverse<(u32, usize, u32, PendingId)> {
        Reverse((distance(p, ctx), p.depth, ctx.rng.r#gen(), id))
    }
}

impl Strategy for CfgDirected {
    fn name(&self) -> &'static str {
        "cfg"
    }
    fn add(&mut self, id: PendingId, p: &Pending, ctx: &mut Ctx) {
        self.heap.push(Self::key(id, p, ctx));
    }
    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        let decided = ctx.covered.iter().filter(|c| **c).count();
        if decided != self.decided {
            self.decided = decided;
            let ids: Vec<PendingId> = self.heap.drain().map(|Reverse(k)| k.3).collect();
            for id in ids {
                if let Some(p) = pool.get(id) {
                    self.heap.push(Self::key(id, p, ctx));
                }
            }
        }
        while let Some(Reverse((_, _, _, id))) = self.heap.pop() {
            if pool.get(id).is_some() {
                return Some(id);
            }
        }
        None
    }
}

/// SAGE's generational search: expand every branch of the most promising run (the one that
/// covered most new goals) beyond the depth at which that run was generated.
#[derive(Default)]
pub struct Generational {
    by_run: HashMap<usize, Vec<PendingId>>,
    runs: BinaryHeap<(usize, std::cmp::Reverse<usize>, usize)>,
    queue: Vec<PendingId>,
}

impl Strategy for Generational {
    fn name(&self) -> &'static str {
        "generational"
    }
    fn add(&mut self, id: PendingId, p: &Pending, _: &mut Ctx) {
        if p.depth >= p.run.bound {
            self.by_run.entry(p.run.id).or_default().push(id);
        }
    }
    fn on_run(&mut self, run: &Rc<RunPath>, _: &mut Ctx) {
        if self.by_run.contains_key(&run.id) {
            self.runs
                .push((run.new_goals, std::cmp::Reverse(run.id), run.id));
        }
    }
    fn select(&mut self, pool: &PendingPool, _: &mut Ctx) -> Option<PendingId> {
        loop {
            while let Some(id) = self.queue.pop() {
                if pool.get(id).is_some() {
                    return Some(id);
                }
            }
            let (_, _, run) = self.runs.pop()?;
            let mut ids = self.by_run.remove(&run).unwrap_or_default();
            ids.reverse();
            self.queue = ids;
        }
    }
}
