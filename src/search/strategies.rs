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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::synthetic::{Driver, pending, run};

    const NONE: u32 = NO_GOAL;

    #[test]
    fn depth_first_takes_the_latest_runs_deepest_branch_within_its_bound() {
        let mut s = Dfs::new(5);
        let mut d = Driver::new(0);
        let (a, b) = (run(0, 0, 0), run(1, 0, 0));
        let first = [pending(1, 0, NONE, &a), pending(2, 3, NONE, &a)];
        d.feed(&mut s, &a, &first);
        d.feed(
            &mut s,
            &b,
            &[pending(3, 4, NONE, &b), pending(4, 9, NONE, &b)],
        );
        // Node 4 lies beyond the bound; a branch dropped meanwhile is skipped.
        d.drop_node(2);
        assert_eq!(d.select(&mut s, 10), [3, 1]);
    }

    #[test]
    fn random_branch_negates_the_latest_path_before_earlier_ones() {
        let mut s = RandomBranch::default();
        let mut d = Driver::new(0);
        let (a, b) = (run(0, 0, 0), run(1, 0, 0));
        d.feed(
            &mut s,
            &a,
            &[pending(1, 0, NONE, &a), pending(2, 1, NONE, &a)],
        );
        let first = d.select(&mut s, 1);
        d.feed(
            &mut s,
            &b,
            &[pending(3, 2, NONE, &b), pending(4, 3, NONE, &b)],
        );
        let next = d.select(&mut s, 1);
        assert!([3, 4].contains(&next[0]), "{first:?} then {next:?}");
        // One branch of each path was taken; the other two remain, in some order.
        let mut rest = d.select(&mut s, 10);
        rest.sort();
        assert_eq!(rest.len(), 2);
        assert!(rest.iter().all(|n| !first.contains(n) && !next.contains(n)));
    }

    #[test]
    fn uniform_random_returns_every_branch_once() {
        let mut s = UniformRandom::default();
        let mut d = Driver::new(0);
        let a = run(0, 0, 0);
        let all: Vec<Pending> = (1..=20).map(|n| pending(n, n as usize, NONE, &a)).collect();
        d.feed(&mut s, &a, &all);
        let mut picks = d.select(&mut s, 100);
        assert_ne!(picks, (1..=20).collect::<Vec<_>>(), "not in arrival order");
        picks.sort();
        assert_eq!(picks, (1..=20).collect::<Vec<_>>());
    }

    #[test]
    fn cfg_directed_takes_a_branch_covering_an_open_goal_first_and_rekeys_when_goals_close() {
        let mut s = CfgDirected::default();
        let mut d = Driver::new(2);
        let a = run(0, 0, 0);
        // Without distances every other branch is equally far: the shallower first.
        let branches = [
            pending(1, 4, NONE, &a),
            pending(2, 6, 0, &a),
            pending(3, 2, NONE, &a),
            pending(4, 8, 1, &a),
        ];
        d.feed(&mut s, &a, &branches);
        assert_eq!(d.select(&mut s, 1), [2], "the branch covering open goal 0");
        // Goal 1 closes: the branch that would cover it is no better than any other.
        d.covered[1] = true;
        assert_eq!(d.select(&mut s, 10), [3, 1, 4]);
    }

    #[test]
    fn generational_expands_the_run_with_most_new_goals_beyond_its_bound() {
        let mut s = Generational::default();
        let mut d = Driver::new(0);
        let (poor, rich) = (run(0, 1, 2), run(1, 5, 1));
        d.feed(
            &mut s,
            &poor,
            &[pending(1, 1, NONE, &poor), pending(2, 3, NONE, &poor)],
        );
        d.feed(
            &mut s,
            &rich,
            &[pending(3, 1, NONE, &rich), pending(4, 2, NONE, &rich)],
        );
        // Node 1 lies above its run's bound (generated for a flip at depth 2): never expanded.
        assert_eq!(d.select(&mut s, 10), [3, 4, 2]);
    }
}
