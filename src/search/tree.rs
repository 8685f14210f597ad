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
    /// Alternative already queued, tried or taken.
    seen: bool,
}

#[derive(Default)]
pub struct Tree {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    root: Option<NodeId>,
    /// Runs whose path left the tree's recorded site sequence (nondeterminism, concretization).
    pub divergent_nodes: u64,
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
                seen: false,
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
                if o != r.taken && !e.seen && e.child == LEAF && *goal != crate::ir::ASSUME_VIOLATED
                {
                    e.seen = true;
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
            edges[r.taken].seen = true;
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
