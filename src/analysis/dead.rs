//! Cheap static unreachability: branch outcomes in code that no call chain from the entry can
//! reach, and outcomes of branches whose condition is a constant.
//!
//! Sound by construction: every function whose address is taken anywhere (a constant operand
//! or initializer bytes equal to its address) counts as reachable.

use crate::ir::*;
use std::collections::HashSet;

/// Goal ids proven unreachable, with the reason.
pub fn dead_goals(m: &Module, entry: &str) -> Vec<(GoalId, &'static str)> {
    let Some(&root) = m.func_by_name.get(entry) else {
        return vec![];
    };
    let fptrs: HashSet<u64> = m.func_addrs.iter().copied().collect();
    let mut taken: HashSet<FuncId> = HashSet::new();
    let mut note = |v: u64| {
        if fptrs.contains(&v) {
            taken.insert(((v - layout::FUNC_BASE) / 16) as FuncId);
        }
    };
    for f in &m.functions {
        for v in &f.reg_init {
            note(*v);
        }
    }
    let pb = m.data_model.ptr_bytes() as usize;
    for g in &m.globals {
        for c in g.init.chunks(pb) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            note(u64::from_le_bytes(b));
        }
    }
    let mut live: HashSet<FuncId> = HashSet::new();
    let mut stack: Vec<FuncId> = std::iter::once(root)
        .chain(taken)
        .chain(m.func_by_name.get("__cairn_start").copied())
        .collect();
    let mut live_blocks: HashSet<(FuncId, BlockId)> = HashSet::new();
    while let Some(f) = stack.pop() {
        if !live.insert(f) {
            continue;
        }
        let func = &m.functions[f as usize];
        if func.blocks.is_empty() {
            continue;
        }
        let mut bs = vec![0u32];
        while let Some(b) = bs.pop() {
            if !live_blocks.insert((f, b)) {
                continue;
            }
            let blk = &func.blocks[b as usize];
            for i in &blk.insts {
                if let Inst::Call {
                    callee: Callee::Func(t),
                    ..
                } = i
                {
                    stack.push(*t);
                }
            }
            for s in live_successors(func, blk) {
                bs.push(s);
            }
        }
    }
    let mut out = vec![];
    for (gid, g) in m.branch_goals.iter().enumerate() {
        if !live_blocks.contains(&(g.func, g.block)) {
            out.push((gid as GoalId, "static: code unreachable from the entry"));
            continue;
        }
        let func = &m.functions[g.func as usize];
        if let Terminator::CondBr {
            cond,
            then_goal,
            else_goal,
            ..
        } = &func.blocks[g.block as usize].term
            && let Some(v) = constant(func, *cond)
        {
            let dead = if v & 1 == 1 { *else_goal } else { *then_goal };
            if dead == gid as GoalId {
                out.push((gid as GoalId, "static: constant branch condition"));
            }
        }
    }
    out
}

/// The value of a register that no instruction defines (a constant).
fn constant(f: &Function, r: Reg) -> Option<u64> {
    if f.reg_tys.get(r as usize).is_some_and(|t| *t != Ty::Void) {
        return None;
    }
    if f.params
        .iter()
        .any(|p| matches!(p, Val::Reg(x, _) if *x == r))
    {
        return None;
    }
    Some(f.reg_init[r as usize])
}

fn live_successors(f: &Function, b: &Block) -> Vec<BlockId> {
    match &b.term {
        Terminator::CondBr {
            cond,
            then_edge,
            else_edge,
            ..
        } => match constant(f, *cond) {
            Some(v) if v & 1 == 1 => vec![then_edge.target],
            Some(_) => vec![else_edge.target],
            None => vec![then_edge.target, else_edge.target],
        },
        t => t.successors(),
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::layout::{FUNC_BASE, GLOBAL_BASE};

    /// A constant equal to a function's address takes it, so round constants (powers of two
    /// and ten, their neighbours, all-ones masks) must not be function addresses.
    #[test]
    fn round_constants_are_no_function_addresses() {
        let functions = 50_000u64;
        assert!(FUNC_BASE + 16 * functions <= GLOBAL_BASE);
        let mut round: Vec<u64> = (0..64).flat_map(|k| [1u64 << k, (1u64 << k) - 1]).collect();
        round.extend((0..20).map(|k| 10u64.pow(k)));
        let round: Vec<u64> = round
            .iter()
            .flat_map(|&v| [v, v.wrapping_add(1), v.wrapping_sub(1)])
            .collect();
        for v in round {
            let is_function = v >= FUNC_BASE
                && (v - FUNC_BASE).is_multiple_of(16)
                && (v - FUNC_BASE) / 16 < functions;
            assert!(!is_function, "{v:#x} is a function's address");
        }
    }
}
