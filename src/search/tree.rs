//! The execution tree: every run appends its symbolic branch decisions. Each side of a decision
//! that no run has taken yet is a *pending branch*; strategies choose among them.

use crate::exec::InputValue;
use crate::exec::shadow::BranchRecord;
use crate::ir::{BlockId, FuncId, GoalId};
use std::rc::Rc;

pub type NodeId = u32;
const LEAF: NodeId = u32::MAX;

/// A run as search sees it: its decisions and the inputs that produced them.
#[derive(Debug)]
pub struct RunPath {
    pub id: usize,
    pub records: Vec<BranchRecord>,
    pub inputs: Vec<InputValue>,
    /// Goals this run covered first.
    pub new_goals: usize,
    /// Depth of the pending branch this run was generated for (generational search bound).
    pub bound: usize,
    /// What the run's observers found (the def-use trace, whose steps order it against
    /// `records`).
    pub observed: crate::exec::observer::Observations,
}

#[derive(Clone, Debug)]
pub struct Pending {
    pub node: NodeId,
    pub outcome: usize,
    pub depth: usize,
    pub goal: GoalId,
    pub target: (FuncId, BlockId),
    pub run: Rc<RunPath>,
}

impl Pending {
    /// Path condition prefix (decisions before this one) and the negated condition.
    pub fn query(&self) -> (Vec<crate::smt::expr::ExprId>, crate::smt::expr::ExprId) {
        let prefix = self.run.records[..self.depth]
            .iter()
            .map(|r| r.taken_cond())
            .collect();
        (
            prefix,
            self.run.records[self.depth].outcomes[self.outcome].0,
        )
    }
}

/// A decision site; its outcomes are `Tree::edges[first .. first + outcomes]` (one vector for
/// the whole tree: no allocation per node, and a path's nodes stay compact in memory — a
/// search holds hundreds of thousands of them).
struct Node {
    site: (FuncId, BlockId),
    first: u32,
    outcomes: u32,
}

#[derive(Clone, Copy)]
struct Edge {
    child: NodeId,
    state: EdgeState,
}

/// Where an outcome of a decision stands. Exhausting the tree proves only when every outcome
/// was taken by a run, refuted by the solver or excluded by an assumption: a flip whose run
/// went elsewhere, or a pending branch lost on the way, leaves its outcome `Queued`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum EdgeState {
    Fresh,
    /// A pending branch was made for it.
    Queued,
    Taken,
    Infeasible,
    /// Violates an `assume`: no run continues through it.
    Assumed,
    /// Its paths are another shard's share (`--shard`).
    OtherShard,
}

#[derive(Default)]
pub struct Tree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    root: Option<NodeId>,
    /// Runs whose path left the tree's recorded site sequence (nondeterminism, concretization).
    pub divergent_nodes: u64,
    /// Outcomes the solver called infeasible that a run then took: a wrong refutation.
    pub refuted_infeasible: u64,
}

impl Tree {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn new_node(&mut self, r: &BranchRecord) -> NodeId {
        let first = self.edges.len() as u32;
        self.edges.extend(std::iter::repeat_n(
            Edge {
                child: LEAF,
                state: EdgeState::Fresh,
            },
            r.outcomes.len(),
        ));
        self.nodes.push(Node {
            site: (r.func, r.block),
            first,
            outcomes: r.outcomes.len() as u32,
        });
        (self.nodes.len() - 1) as NodeId
    }

    /// The solver refuted this outcome.
    pub fn mark_infeasible(&mut self, node: NodeId, outcome: usize) {
        let first = self.nodes[node as usize].first as usize;
        let e = &mut self.edges[first + outcome];
        if e.state == EdgeState::Taken {
            self.refuted_infeasible += 1;
        } else {
            e.state = EdgeState::Infeasible;
        }
    }

    /// This outcome's paths are explored by another shard.
    pub fn leave_to_other_shard(&mut self, node: NodeId, outcome: usize) {
        let first = self.nodes[node as usize].first as usize;
        self.edges[first + outcome].state = EdgeState::OtherShard;
    }

    /// Outcomes no run took and nothing excluded: none when the tree holds every path.
    pub fn unresolved(&self) -> usize {
        self.edges
            .iter()
            .filter(|e| matches!(e.state, EdgeState::Fresh | EdgeState::Queued))
            .count()
    }

    /// Adds a run; returns the pending branches it revealed.
    pub fn insert(&mut self, run: &Rc<RunPath>) -> Vec<Pending> {
        let mut out = vec![];
        let recs = &run.records;
        if recs.is_empty() {
            return out;
        }
        let mut cur = match self.root {
            Some(r) => r,
            None => {
                let r = self.new_node(&recs[0]);
                self.root = Some(r);
                r
            }
        };
        for (i, r) in recs.iter().enumerate() {
            let node = &self.nodes[cur as usize];
            if node.site != (r.func, r.block) || node.outcomes as usize != r.outcomes.len() {
                self.divergent_nodes += 1;
                break;
            }
            let first = node.first as usize;
            let edges = &mut self.edges[first..first + r.outcomes.len()];
            for (o, (_, goal, target)) in r.outcomes.iter().enumerate() {
                let e = &mut edges[o];
                if o == r.taken || e.state != EdgeState::Fresh {
                    continue;
                }
                if *goal == crate::ir::ASSUME_VIOLATED {
                    e.state = EdgeState::Assumed;
                } else {
                    e.state = EdgeState::Queued;
                    out.push(Pending {
                        node: cur,
                        outcome: o,
                        depth: i,
                        goal: *goal,
                        target: (r.func, *target),
                        run: run.clone(),
                    });
                }
            }
            if edges[r.taken].state == EdgeState::Infeasible {
                self.refuted_infeasible += 1;
            }
            edges[r.taken].state = EdgeState::Taken;
            if i + 1 == recs.len() {
                break;
            }
            let next = edges[r.taken].child;
            cur = if next == LEAF {
                let c = self.new_node(&recs[i + 1]);
                self.edges[first + r.taken].child = c;
                c
            } else {
                next
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::expr::ExprId;

    /// A run through decisions at blocks 0, 1, 2, ... taking the given outcomes (of two).
    fn run(taken: &[usize]) -> Rc<RunPath> {
        let records = taken
            .iter()
            .enumerate()
            .map(|(i, &t)| BranchRecord {
                func: 0,
                block: i as BlockId,
                taken: t,
                outcomes: vec![
                    (ExprId(0), 2 * i as u32, 0),
                    (ExprId(0), 2 * i as u32 + 1, 0),
                ],
                ctx: 0,
                step: i as u64,
                ahead: Box::new([]),
            })
            .collect();
        Rc::new(RunPath {
            id: 0,
            records,
            inputs: vec![],
            new_goals: 0,
            bound: 0,
            observed: Default::default(),
        })
    }

    #[test]
    fn every_outcome_must_be_taken_or_refuted() {
        let mut t = Tree::default();
        let pending = t.insert(&run(&[0, 0]));
        assert_eq!(pending.len(), 2);
        assert_eq!(t.unresolved(), 2);
        // The flip at depth 1 ran; the one at the root was refuted.
        assert!(t.insert(&run(&[0, 1])).is_empty());
        assert_eq!(t.unresolved(), 1);
        t.mark_infeasible(pending[0].node, pending[0].outcome);
        assert_eq!(t.unresolved(), 0);
        assert_eq!(t.refuted_infeasible, 0);
    }

    #[test]
    fn a_flip_whose_run_went_elsewhere_stays_unresolved() {
        let mut t = Tree::default();
        let pending = t.insert(&run(&[0, 0]));
        let deep = pending.iter().find(|p| p.depth == 1).unwrap();
        // Its run took the root's other outcome instead: the deep outcome was never taken.
        t.insert(&run(&[1]));
        assert!(t.unresolved() > 0);
        // Only a run that takes it resolves it.
        t.insert(&run(&[0, 1 - deep.run.records[1].taken]));
        assert_eq!(t.unresolved(), 0);
    }

    #[test]
    fn a_run_through_a_refuted_outcome_is_counted() {
        let mut t = Tree::default();
        let pending = t.insert(&run(&[0]));
        t.mark_infeasible(pending[0].node, pending[0].outcome);
        t.insert(&run(&[1]));
        assert_eq!(t.refuted_infeasible, 1);
    }
}
