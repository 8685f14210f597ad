//! Dominators of a function's blocks (Cooper, Harvey and Kennedy's iterative algorithm over
//! reverse postorder): block `a` dominates `b` when every path from the entry to `b` passes `a`.

use crate::ir::{BlockId, Function};

pub struct Dominators {
    /// Immediate dominator of each block (the entry's is itself); None when unreachable.
    idom: Vec<Option<BlockId>>,
}

impl Dominators {
    pub fn of(f: &Function) -> Dominators {
        let n = f.blocks.len();
        if n == 0 {
            return Dominators { idom: vec![] };
        }
        // Reverse postorder by an explicit DFS.
        let mut order = vec![];
        let mut seen = vec![false; n];
        let mut stack: Vec<(BlockId, usize)> = vec![(0, 0)];
        seen[0] = true;
        while let Some((b, i)) = stack.pop() {
            let succ = f.blocks[b as usize].term.successors();
            if i < succ.len() {
                stack.push((b, i + 1));
                let s = succ[i];
                if !seen[s as usize] {
                    seen[s as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
            }
        }
        order.reverse();
        let mut rpo = vec![usize::MAX; n];
        for (i, b) in order.iter().enumerate() {
            rpo[*b as usize] = i;
        }
        let mut preds = vec![vec![]; n];
        for (b, blk) in f.blocks.iter().enumerate() {
            for s in blk.term.successors() {
                preds[s as usize].push(b as BlockId);
            }
        }
        let mut idom: Vec<Option<BlockId>> = vec![None; n];
        idom[0] = Some(0);
        let intersect = |idom: &Vec<Option<BlockId>>, mut a: BlockId, mut b: BlockId| {
            while a != b {
                while rpo[a as usize] > rpo[b as usize] {
                    a = idom[a as usize].unwrap();
                }
                while rpo[b as usize] > rpo[a as usize] {
                    b = idom[b as usize].unwrap();
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new: Option<BlockId> = None;
                for &p in &preds[b as usize] {
                    if idom[p as usize].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(x) => intersect(&idom, p, x),
                    });
                }
                if new.is_some() && idom[b as usize] != new {
                    idom[b as usize] = new;
                    changed = true;
                }
            }
        }
        Dominators { idom }
    }

    /// Does `a` dominate `b` (reflexively)?
    pub fn dominates(&self, a: BlockId, mut b: BlockId) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.idom.get(b as usize).copied().flatten() {
                Some(p) if p != b => b = p,
                _ => return false,
            }
        }
    }

    /// The blocks dominating `b`, from the entry down to `b` itself.
    pub fn chain(&self, mut b: BlockId) -> Vec<BlockId> {
        let mut v = vec![b];
        while let Some(p) = self.idom.get(b as usize).copied().flatten() {
            if p == b {
                break;
            }
            v.push(p);
            b = p;
        }
        if self.idom.get(b as usize).copied().flatten().is_none() {
            return vec![];
        }
        v.reverse();
        v
    }
}
