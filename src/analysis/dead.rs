//! Cheap static unreachability: branch outcomes in code that no call chain from the entry can
//! reach, and outcomes of branches whose condition is a constant.
//!
//! Sound by construction: every function whose address is taken anywhere (a constant operand
//! or initializer bytes equal to its address) counts as reachable.

use crate::analysis::defuse::{DefSite, DefUse, PairId, VarId};
use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// Goal ids proven unreachable, with the reason.
pub fn dead_goals(m: &Module, entry: &str) -> Vec<(GoalId, &'static str)> {
    let Some(live_blocks) = live_blocks(m, entry, &HashSet::new()) else {
        return vec![];
    };
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

/// Functions whose address is taken (a constant of some function's code, or in a global's
/// initial bytes): a call through a pointer, or a library function handed one, may run them.
pub fn address_taken_functions(m: &Module) -> HashSet<FuncId> {
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
    taken
}

/// The blocks some run may reach from `entry` (its start routine and every function whose
/// address is taken included) when no run takes a branch outcome of `never` (goals proven
/// unreachable); None without the entry function.
pub fn live_blocks(
    m: &Module,
    entry: &str,
    never: &HashSet<GoalId>,
) -> Option<HashSet<(FuncId, BlockId)>> {
    let &root = m.func_by_name.get(entry)?;
    let taken = address_taken_functions(m);
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
            for s in live_successors(func, blk, never) {
                bs.push(s);
            }
        }
    }
    Some(live_blocks)
}

/// Def-use pairs no run covers when no run takes a branch outcome of `never`: the definition
/// or the use is in a block no such run reaches, the pair's branch outcome is in `never`, or
/// (a local whose address is never taken, in a function without `setjmp`) every path from the
/// definition to the use that avoids `never` passes another definition of the variable.
pub fn dead_pairs(m: &Module, entry: &str, du: &DefUse, never: &HashSet<GoalId>) -> Vec<PairId> {
    let Some(live) = live_blocks(m, entry, never) else {
        return vec![];
    };
    // Each variable's definitions, by block: the instructions that kill another one.
    let mut kills: HashMap<(VarId, BlockId), Vec<u32>> = HashMap::new();
    for d in &du.defs {
        if let DefSite::At((_, b, i)) = d.site {
            kills.entry((d.var, b)).or_default().push(i);
        }
    }
    let exts = crate::ir::externs::resolve(m);
    let jumps_back: HashSet<FuncId> = m
        .functions
        .iter()
        .filter(|f| {
            f.blocks.iter().flat_map(|b| &b.insts).any(|i| {
                matches!(i, Inst::CallExtern { ext, .. }
                    if matches!(exts[*ext as usize], crate::ir::externs::Ext::SetJmp))
            })
        })
        .map(|f| f.id)
        .collect();
    let local = |v: VarId, f: FuncId| {
        let var = &du.vars[v as usize];
        var.func == Some(f)
            && var.global.is_none()
            && !var.address_taken
            && !jumps_back.contains(&f)
    };
    let outcome_goal = |f: FuncId, b: BlockId, k: u32| -> Option<GoalId> {
        match &m.functions[f as usize].blocks[b as usize].term {
            Terminator::CondBr {
                then_goal,
                else_goal,
                ..
            } => [*then_goal, *else_goal].get(k as usize).copied(),
            Terminator::Switch {
                cases,
                default_goal,
                ..
            } => Some(cases.get(k as usize).map_or(*default_goal, |c| c.2)),
            _ => None,
        }
    };
    let mut out = vec![];
    for (id, pair) in du.pairs.iter().enumerate() {
        let (f, b, _) = du.uses[pair.use_ as usize].at;
        let def_dead = match du.defs[pair.def as usize].site {
            DefSite::At((df, db, _)) => !live.contains(&(df, db)),
            DefSite::Entry => false,
        };
        let outcome_dead = pair
            .outcome
            .and_then(|k| outcome_goal(f, b, k))
            .is_some_and(|g| never.contains(&g));
        if def_dead || !live.contains(&(f, b)) || outcome_dead {
            out.push(id as PairId);
            continue;
        }
        let (u, d) = (&du.uses[pair.use_ as usize], &du.defs[pair.def as usize]);
        if let DefSite::At((df, db, di)) = d.site
            && df == f
            && local(u.var, f)
        {
            let func = &m.functions[f as usize];
            let killed = |b: BlockId, after: Option<u32>, before: Option<u32>| {
                kills.get(&(u.var, b)).is_some_and(|is| {
                    is.iter()
                        .any(|&i| after.is_none_or(|a| i > a) && before.is_none_or(|z| i < z))
                })
            };
            if !def_clear_path(func, (db, di), u.at.1, u.at.2, &killed, never) {
                out.push(id as PairId);
            }
        }
    }
    out
}

/// Whether a run may go from the instruction `def` to instruction `use_i` of block `use_b`
/// along outcomes `never` leaves possible, past no instruction `killed` names (`killed(b,
/// after, before)`: one in block `b` strictly between the two indices, None meaning the
/// block's start or end).
fn def_clear_path(
    f: &Function,
    def: (BlockId, u32),
    use_b: BlockId,
    use_i: u32,
    killed: &dyn Fn(BlockId, Option<u32>, Option<u32>) -> bool,
    never: &HashSet<GoalId>,
) -> bool {
    let (db, di) = def;
    if db == use_b && di < use_i && !killed(db, Some(di), Some(use_i)) {
        return true;
    }
    if killed(db, Some(di), None) {
        return false;
    }
    let mut seen = HashSet::new();
    let mut stack = live_successors(f, &f.blocks[db as usize], never);
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            continue;
        }
        if b == use_b && !killed(b, None, Some(use_i)) {
            return true;
        }
        if !killed(b, None, None) {
            stack.extend(live_successors(f, &f.blocks[b as usize], never));
        }
    }
    false
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

/// The successors of `b` along outcomes its constant condition or `never` leave possible.
fn live_successors(f: &Function, b: &Block, never: &HashSet<GoalId>) -> Vec<BlockId> {
    let open = |g: &GoalId| !never.contains(g);
    match &b.term {
        Terminator::CondBr {
            cond,
            then_edge,
            else_edge,
            then_goal,
            else_goal,
        } => {
            let c = constant(f, *cond);
            let then = c.is_none_or(|v| v & 1 == 1) && open(then_goal);
            let els = c.is_none_or(|v| v & 1 == 0) && open(else_goal);
            [(then, then_edge.target), (els, else_edge.target)]
                .into_iter()
                .filter_map(|(live, t)| live.then_some(t))
                .collect()
        }
        Terminator::Switch {
            cases,
            default,
            default_goal,
            ..
        } => cases
            .iter()
            .filter(|c| open(&c.2))
            .map(|c| c.1.target)
            .chain(open(default_goal).then_some(default.target))
            .collect(),
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
