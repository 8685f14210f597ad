//! Search: the execution tree, pending branches, and the strategies that choose among them.
//!
//! As in KLEE's `Searcher`, choosing what to explore next is separated from executing it: a
//! `Strategy` sees pending branches as they appear and picks one when asked.

pub mod cutpoint;
pub mod expectation;
pub mod product;
pub mod pursuit;
pub mod registry;
pub mod shallow;
pub mod slow_goals;
pub mod strategies;
#[cfg(test)]
pub(crate) mod synthetic;
pub mod tree;

use crate::analysis::cfg::Distances;
use rand::rngs::SmallRng;
use std::rc::Rc;
use tree::{Pending, RunPath};

pub type PendingId = usize;

/// Pending branches by id; a strategy holds ids, the pool owns the branches.
#[derive(Default)]
pub struct PendingPool {
    slots: Vec<Option<Pending>>,
    live: usize,
}

impl PendingPool {
    pub fn add(&mut self, p: Pending) -> PendingId {
        self.slots.push(Some(p));
        self.live += 1;
        self.slots.len() - 1
    }
    pub fn get(&self, id: PendingId) -> Option<&Pending> {
        self.slots.get(id).and_then(|p| p.as_ref())
    }
    pub fn take(&mut self, id: PendingId) -> Option<Pending> {
        let p = self.slots.get_mut(id).and_then(|p| p.take());
        if p.is_some() {
            self.live -= 1;
        }
        p
    }
    pub fn live(&self) -> usize {
        self.live
    }
    pub fn ids(&self) -> impl Iterator<Item = PendingId> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_some())
            .map(|(i, _)| i)
    }
}

/// What strategies may consult.
pub struct Ctx<'a> {
    pub rng: &'a mut SmallRng,
    /// Per goal: covered yet?
    pub covered: &'a [bool],
    pub dist: &'a Distances,
    /// Exploring the product with monitors (crabs): distances in the product.
    pub product: Option<&'a product::ProductDistances>,
}

pub trait Strategy {
    fn name(&self) -> &'static str;
    /// Called once before the first run, with the program under test (static analyses).
    fn prepare(&mut self, _program: &crate::exec::Program) {}
    /// A new pending branch.
    fn add(&mut self, id: PendingId, p: &Pending, ctx: &mut Ctx);
    /// A run finished (after its pending branches were added).
    fn on_run(&mut self, _run: &Rc<RunPath>, _ctx: &mut Ctx) {}
    /// The next pending branch to try, or None when the strategy has nothing left.
    fn select(&mut self, pool: &PendingPool, ctx: &mut Ctx) -> Option<PendingId>;
    /// A new strategy of the same composition, for a search that starts afresh.
    fn fresh(&self) -> Box<dyn Strategy> {
        by_name(self.name()).expect("every strategy is known by its name")
    }
    /// Its own statistics, for summary.json (beside the search's).
    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
}

pub use registry::by_name;
