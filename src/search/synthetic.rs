//! Synthetic runs and pending branches for the strategies' unit tests: a strategy sees only
//! these (no program runs), so its order can be checked exactly.

use super::tree::{Pending, RunPath};
use super::{Ctx, PendingPool, Strategy};
use crate::analysis::cfg::Distances;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::rc::Rc;

pub fn run(id: usize, new_goals: usize, bound: usize) -> Rc<RunPath> {
    Rc::new(RunPath {
        id,
        records: vec![],
        inputs: vec![],
        new_goals,
        bound,
        observed: Default::default(),
    })
}

/// A pending branch at `depth` of `run` (its node is `node`; it covers `goal` when taken).
pub fn pending(node: u32, depth: usize, goal: u32, run: &Rc<RunPath>) -> Pending {
    Pending {
        node,
        outcome: 0,
        depth,
        goal,
        target: (0, 0),
        run: run.clone(),
    }
}

/// Feeds runs (each with its pending branches, in order) to a strategy and records the nodes
/// it then selects, until it has none left or `picks` were made.
pub struct Driver {
    pub pool: PendingPool,
    pub covered: Vec<bool>,
    /// Distances in the product, for strategies that read the monitors.
    pub product: Option<super::product::ProductDistances>,
    rng: SmallRng,
    dist: Distances,
}

impl Driver {
    pub fn new(goals: usize) -> Driver {
        Driver {
            pool: PendingPool::default(),
            covered: vec![false; goals],
            product: None,
            rng: SmallRng::seed_from_u64(7),
            dist: Distances::unknown(),
        }
    }

    pub fn feed(&mut self, s: &mut dyn Strategy, run: &Rc<RunPath>, branches: &[Pending]) {
        let mut ctx = Ctx {
            rng: &mut self.rng,
            covered: &self.covered,
            dist: &self.dist,
            product: self.product.as_ref(),
        };
        for p in branches {
            let id = self.pool.add(p.clone());
            s.add(id, p, &mut ctx);
        }
        s.on_run(run, &mut ctx);
    }

    pub fn select(&mut self, s: &mut dyn Strategy, picks: usize) -> Vec<u32> {
        let mut out = vec![];
        while out.len() < picks {
            let mut ctx = Ctx {
                rng: &mut self.rng,
                covered: &self.covered,
                dist: &self.dist,
                product: self.product.as_ref(),
            };
            let Some(id) = s.select(&self.pool, &mut ctx) else {
                break;
            };
            out.push(self.pool.take(id).unwrap().node);
        }
        out
    }

    /// Drops a pending branch from the pool (the engine decided it some other way).
    pub fn drop_node(&mut self, node: u32) {
        let id = self
            .pool
            .ids()
            .find(|&i| self.pool.get(i).unwrap().node == node)
            .unwrap();
        self.pool.take(id);
    }
}
