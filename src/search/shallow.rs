//! Shortest path first: the pending branch fewest decisions deep, oldest first — a
//! breadth-first flavour of concolic search. The README's example of adding a strategy: this
//! file and its entry in `registry.rs` are all it took.

use super::tree::Pending;
use super::{Ctx, PendingId, PendingPool, Strategy};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Default)]
pub struct Shallow {
    /// (depth, arrival) of every pending branch, smallest first.
    heap: BinaryHeap<Reverse<(usize, PendingId)>>,
}

impl Strategy for Shallow {
    fn name(&self) -> &'static str {
        "shallow"
    }

    fn add(&mut self, id: PendingId, p: &Pending, _: &mut Ctx) {
        self.heap.push(Reverse((p.depth, id)));
    }

    fn select(&mut self, pool: &PendingPool, _: &mut Ctx) -> Option<PendingId> {
        // Branches the engine dropped meanwhile are skipped.
        while let Some(Reverse((_, id))) = self.heap.pop() {
            if pool.get(id).is_some() {
                return Some(id);
            }
        }
        None
    }
}
