//! Goal pursuit in the product (crabs): a decorator that, while monitors are multiplied in,
//! follows one open goal at a time along the latest runs. Of the pending branches after which
//! the product still reaches the goal, it takes one of the latest run, shallowest first.
//!
//! Why: a goal behind a conjunction over loop iterations (every input equal to a constant) is
//! one flip per iteration away, each on the run the previous flip made. The monitor knows which
//! flip keeps the goal reachable (the abstraction tracks the flag) but a global order over all
//! pending branches spreads its picks over the whole tree, where every iteration's other
//! branches multiply the paths. Pursuit chains the flips; the strategy it decorates chooses
//! whenever no pending branch of the latest runs leads to an open goal in the product.

use super::tree::Pending;
use super::{Ctx, PendingId, PendingPool, Strategy};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Picks spent on one goal before the next open goal gets its turn (a goal no input reaches,
/// not yet proven so, must not hold the search).
const PICKS_PER_GOAL: u32 = 256;
/// Runs scanned for a pending branch toward the goal, the latest first.
const RUNS_SCANNED: usize = 32;
/// Runs remembered (older ones are left to the decorated strategy).
const RUNS_KEPT: usize = 4096;

pub struct Pursuit {
    inner: Box<dyn Strategy>,
    /// Pending branches the product has a verdict on, by run (latest last), each run's by depth.
    by_run: BTreeMap<usize, Vec<(usize, PendingId, u32, usize)>>,
    goal: Option<usize>,
    picks: u32,
    /// Pending branches chosen in pursuit of a goal, and the goals pursued.
    pursued: u64,
    goals: u64,
}

impl Pursuit {
    pub fn over(inner: Box<dyn Strategy>) -> Pursuit {
        Pursuit {
            inner,
            by_run: BTreeMap::new(),
            goal: None,
            picks: 0,
            pursued: 0,
            goals: 0,
        }
    }

    /// A pending branch of the latest runs after which the product reaches `goal`; every goal
    /// of `open` (bit-set words) such a branch reaches is added to `seen`.
    fn find(
        &mut self,
        goal: Option<usize>,
        pool: &PendingPool,
        ctx: &Ctx,
        open: &[u64],
        seen: &mut [u64],
    ) -> Option<PendingId> {
        let product = ctx.product?;
        let mut reach = vec![];
        for list in self.by_run.values_mut().rev().take(RUNS_SCANNED) {
            list.retain(|e| pool.get(e.1).is_some());
            for (i, &(_, id, node, outcome)) in list.iter().enumerate() {
                if !product.reach_into(node, outcome, &mut reach) {
                    continue;
                }
                for ((r, o), s) in reach.iter().zip(open).zip(seen.iter_mut()) {
                    *s |= r & o;
                }
                if goal.is_some_and(|g| reach.get(g / 64).is_some_and(|r| r >> (g % 64) & 1 != 0)) {
                    list.remove(i);
                    return Some(id);
                }
            }
        }
        self.by_run.retain(|_, l| !l.is_empty());
        None
    }
}

/// The goals not covered, as bit-set words.
fn open_words(covered: &[bool]) -> Vec<u64> {
    let mut words = vec![0u64; covered.len().div_ceil(64)];
    for (g, _) in covered.iter().enumerate().filter(|(_, c)| !**c) {
        words[g / 64] |= 1 << (g % 64);
    }
    words
}

impl Strategy for Pursuit {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn fresh(&self) -> Box<dyn Strategy> {
        Box::new(Pursuit::over(self.inner.fresh()))
    }

    fn prepare(&mut self, program: &crate::exec::Program) {
        self.inner.prepare(program);
    }

    fn add(&mut self, id: PendingId, p: &Pending, ctx: &mut Ctx) {
        self.inner.add(id, p, ctx);
        if ctx
            .product
            .is_some_and(|d| d.next.contains_key(&(p.node, p.outcome)))
        {
            let list = self.by_run.entry(p.run.id).or_default();
            list.push((p.depth, id, p.node, p.outcome));
        }
    }

    fn on_run(&mut self, run: &Rc<super::tree::RunPath>, ctx: &mut Ctx) {
        self.inner.on_run(run, ctx);
        if let Some(list) = self.by_run.get_mut(&run.id) {
            list.sort_unstable();
        }
        while self.by_run.len() > RUNS_KEPT {
            self.by_run.pop_first();
        }
    }

    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId> {
        if ctx.product.is_some_and(|d| d.has_monitors()) {
            let prev = self.goal;
            let open = |g: usize| !ctx.covered.get(g).copied().unwrap_or(true);
            let keep = prev.filter(|g| open(*g) && self.picks < PICKS_PER_GOAL);
            let open_goals = open_words(ctx.covered);
            let mut seen = vec![0u64; open_goals.len()];
            if let Some(id) = self.find(keep, pool, ctx, &open_goals, &mut seen) {
                self.picks += 1;
                self.pursued += 1;
                return Some(id);
            }
            // The next open goal after the last one that some latest pending branch leads to.
            let after = prev.map_or(0, |g| g + 1);
            let reached = |g: &usize| seen[g / 64] >> (g % 64) & 1 != 0;
            let n = ctx.covered.len();
            self.goal = (after..n).chain(0..after).find(reached);
            crate::debug_log!(
                "monitor",
                "pursuit: goal {:?} after {prev:?} ({} picks); open goals reached: {:?}",
                self.goal,
                self.picks,
                (0..n).filter(reached).collect::<Vec<_>>()
            );
            self.picks = 0;
            if self.goal.is_some()
                && let Some(id) = self.find(self.goal, pool, ctx, &open_goals, &mut seen)
            {
                self.picks += 1;
                self.pursued += 1;
                self.goals += 1;
                return Some(id);
            }
        }
        self.inner.select(pool, ctx)
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = self.inner.stats();
        m.insert(
            "pursuit".into(),
            serde_json::json!({"picks": self.pursued, "goals": self.goals}),
        );
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::arg::Arg;
    use crate::mc::monitor::Monitor;
    use crate::mc::monitor::fixtures::{goals, node};
    use crate::search::product::{Next, Product, ProductDistances};
    use crate::search::shallow::Shallow;
    use crate::search::synthetic::{Driver, pending, run};

    /// A monitor with states root, `keeps` (goal 0 still reachable: a loop's flag still set) and
    /// `lost` (from which only goal 1 is reachable).
    fn monitor() -> Monitor {
        let arg = Arg {
            nodes: vec![
                node(0, None, 0, None),
                node(1, Some(0), 0, None),    // keeps
                node(2, Some(0), 1, None),    // lost
                node(3, Some(1), 0, Some(0)), // goal 0 from keeps
                node(4, Some(2), 0, Some(1)), // goal 1 from lost
            ],
            complete: true,
            ..Default::default()
        };
        Monitor::from_arg(&arg, &goals(2)).unwrap()
    }

    #[test]
    fn follows_the_goal_along_the_latest_run_then_leaves_the_rest_to_the_inner_strategy() {
        let m = Rc::new(monitor());
        let (keeps, lost) = (m.step(m.root, 0).unwrap().0, m.step(m.root, 1).unwrap().0);
        let product = Product { monitors: vec![m] };
        let mut dist = ProductDistances::default();
        // Pending branches (node = id here): those after which the flag is still set.
        for (node, state) in [
            (10, keeps),
            (11, lost),
            (20, keeps),
            (21, lost),
            (22, keeps),
        ] {
            dist.next.insert((node, 0), vec![Next::State(state)]);
        }
        dist.refresh(&product, &[true, true]);
        let mut d = Driver::new(2);
        d.product = Some(dist);
        let mut s = Pursuit::over(Box::new(Shallow::default()));
        let (old, new) = (run(1, 0, 0), run(2, 0, 0));
        let none = u32::MAX;
        d.feed(
            &mut s,
            &old,
            &[pending(10, 3, none, &old), pending(11, 1, none, &old)],
        );
        let latest = [
            pending(20, 5, none, &new),
            pending(21, 0, none, &new),
            pending(22, 2, none, &new),
        ];
        d.feed(&mut s, &new, &latest);
        // Goal 0 first (the lowest open goal some branch leads to): the latest run's shallowest.
        assert_eq!(d.select(&mut s, 2), [22, 20]);
        // Goal 0 covered: goal 1 is reachable only after the lost branches, latest run first.
        d.covered[0] = true;
        assert_eq!(d.select(&mut s, 2), [21, 11]);
        // Nothing leads to an open goal any more: the inner strategy's order (shallowest).
        d.covered[1] = true;
        assert_eq!(d.select(&mut s, 10), [10]);
    }

    #[test]
    fn a_fresh_search_keeps_the_decorator() {
        let s = Pursuit::over(Box::new(Shallow::default()));
        let f = s.fresh();
        assert_eq!(f.name(), "shallow");
        assert!(f.stats().contains_key("pursuit"));
    }
}
