//! The interprocedural control-flow graph over blocks and static distances to uncovered goals.

use crate::ir::{BlockId, Callee, FuncId, Inst, Module, NO_GOAL, Terminator};
use std::collections::VecDeque;

/// Blocks of all functions numbered densely; edges include calls (caller block → callee entry)
/// and returns (callee's returning blocks → caller block).
pub struct Icfg {
    pub base: Vec<u32>,
    pub preds: Vec<Vec<u32>>,
    /// Goals on each block's terminator.
    pub goals: Vec<Vec<u32>>,
}

impl Icfg {
    pub fn new(m: &Module) -> Icfg {
        let error_goals = crate::analysis::goals::Goals::of(m);
        let mut base = vec![];
        let mut n = 0u32;
        for f in &m.functions {
            base.push(n);
            n += f.blocks.len() as u32;
        }
        let mut preds = vec![vec![]; n as usize];
        let mut goals = vec![vec![]; n as usize];
        let rets: Vec<Vec<u32>> = m
            .functions
            .iter()
            .map(|f| {
                f.blocks
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| matches!(b.term, Terminator::Ret { .. }))
                    .map(|(i, _)| i as u32)
                    .collect()
            })
            .collect();
        for (fi, f) in m.functions.iter().enumerate() {
            for (bi, b) in f.blocks.iter().enumerate() {
                let me = base[fi] + bi as u32;
                for s in b.term.successors() {
                    preds[(base[fi] + s) as usize].push(me);
                }
                match &b.term {
                    Terminator::CondBr {
                        then_goal,
                        else_goal,
                        ..
                    } => {
                        goals[me as usize].extend(
                            [*then_goal, *else_goal]
                                .into_iter()
                                .filter(|g| *g != NO_GOAL),
                        );
                    }
                    Terminator::Switch {
                        cases,
                        default_goal,
                        ..
                    } => {
                        goals[me as usize].extend(
                            cases
                                .iter()
                                .map(|c| c.2)
                                .chain([*default_goal])
                                .filter(|g| *g != NO_GOAL),
                        );
                    }
                    _ => {}
                }
                for i in &b.insts {
                    // Error calls are goals of the block they are in.
                    let site = match i {
                        Inst::Call { site, .. } | Inst::CallExtern { site, .. } => Some(*site),
                        _ => None,
                    };
                    if let Some(k) =
                        site.and_then(|st| error_goals.error_sites.iter().position(|e| *e == st))
                    {
                        goals[me as usize].push((error_goals.num_branches + k) as u32);
                    }
                    if let Inst::Call {
                        callee: Callee::Func(t),
                        ..
                    } = i
                    {
                        let t = *t as usize;
                        if m.functions[t].blocks.is_empty() {
                            continue;
                        }
                        preds[base[t] as usize].push(me);
                        for r in &rets[t] {
                            preds[me as usize].push(base[t] + r);
                        }
                    }
                }
            }
        }
        Icfg { base, preds, goals }
    }

    pub fn index(&self, f: FuncId, b: BlockId) -> usize {
        (self.base[f as usize] + b) as usize
    }
}

/// Per block: fewest ICFG edges to a block whose terminator has an uncovered goal.
pub struct Distances {
    dist: Vec<u32>,
    base: Vec<u32>,
}

impl Distances {
    pub fn unknown() -> Distances {
        Distances {
            dist: vec![],
            base: vec![],
        }
    }

    pub fn compute(g: &Icfg, covered: &[bool]) -> Distances {
        let targets = g.goals.iter().enumerate().filter_map(|(b, gs)| {
            gs.iter()
                .any(|&x| !covered.get(x as usize).copied().unwrap_or(true))
                .then_some(b)
        });
        Self::to_blocks(g, targets)
    }

    /// Per block: fewest ICFG edges to one of `targets` (ICFG block indices).
    pub fn to_blocks(g: &Icfg, targets: impl IntoIterator<Item = usize>) -> Distances {
        let n = g.preds.len();
        let mut dist = vec![u32::MAX; n];
        let mut q = VecDeque::new();
        for b in targets {
            dist[b] = 0;
            q.push_back(b as u32);
        }
        while let Some(b) = q.pop_front() {
            let d = dist[b as usize] + 1;
            for &p in &g.preds[b as usize] {
                if dist[p as usize] > d {
                    dist[p as usize] = d;
                    q.push_back(p);
                }
            }
        }
        Distances {
            dist,
            base: g.base.clone(),
        }
    }

    pub fn of(&self, f: FuncId, b: BlockId) -> u32 {
        self.base
            .get(f as usize)
            .and_then(|base| self.dist.get((base + b) as usize))
            .copied()
            .unwrap_or(u32::MAX)
    }
}
