//! The model-checking reduction of a def-use pair (the paper's section 4.3): a copy of the
//! program with a cover flag, set right after the definition, cleared after every other
//! definition of the variable, and tested where the variable is used. The pair is covered
//! exactly when the new branch goal "flag set at the use" (for a p-use: and the branch takes
//! the pair's outcome) is reached, so a model checker proving that goal unreachable proves the
//! pair infeasible.
//!
//! Stores through pointers do not clear the flag: the copy may reach its goal where the pair
//! is not covered, never the other way round, so unreachability stays a proof. Pairs of
//! recursive functions are not reduced (one global flag cannot tell their frames apart).

use crate::analysis::defuse::{DefSite, DefUse, PairId};
use crate::ir::{
    BlockId, BranchGoal, Edge, FuncId, Function, Global, GoalId, IPred, Inst, Loc, Module, Moves,
    NO_GOAL, Reg, Terminator, Ty,
};
use std::collections::BTreeSet;

/// The instrumented copy and the goal that stands for the pair.
pub struct Reduction {
    pub module: Module,
    pub goal: GoalId,
}

fn fresh(f: &mut Function, ty: Ty) -> Reg {
    let r = f.new_constant(0);
    f.reg_tys[r as usize] = ty;
    r
}

fn new_block(f: &mut Function, insts: Vec<Inst>, loc: Loc, term: Terminator) -> BlockId {
    f.blocks.push(crate::ir::Block {
        name: format!("cover.{}", f.blocks.len()),
        locs: vec![loc; insts.len()],
        insts,
        term,
        term_loc: loc,
    });
    (f.blocks.len() - 1) as BlockId
}

fn edge(target: BlockId) -> Edge {
    Edge {
        target,
        moves: Moves::default(),
    }
}

/// Functions on a cycle of the call graph.
pub fn recursive_functions(m: &Module) -> BTreeSet<FuncId> {
    let callees = |f: &Function| -> Vec<FuncId> {
        f.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|i| match i {
                Inst::Call {
                    callee: crate::ir::Callee::Func(t),
                    ..
                } => Some(*t),
                _ => None,
            })
            .collect()
    };
    let mut rec = BTreeSet::new();
    for f in &m.functions {
        let mut seen = BTreeSet::new();
        let mut stack = callees(f);
        while let Some(g) = stack.pop() {
            if g == f.id {
                rec.insert(f.id);
                break;
            }
            if seen.insert(g) {
                stack.extend(callees(&m.functions[g as usize]));
            }
        }
    }
    rec
}

/// The reduction of `pair`, or None when it cannot be made soundly.
pub fn reduce(
    m: &Module,
    du: &DefUse,
    pair: PairId,
    recursive: &BTreeSet<FuncId>,
) -> Option<Reduction> {
    let p = &du.pairs[pair as usize];
    let u = &du.uses[p.use_ as usize];
    let var = u.var;
    let v = &du.vars[var as usize];
    if v.func.is_some_and(|f| recursive.contains(&f)) || recursive.contains(&u.at.0) {
        return None;
    }
    let mut m = m.clone();
    // Two one-byte globals after the others: the flag, and its value at the use (p-uses).
    let flag_addr = m.globals_end;
    let seen_addr = flag_addr + 8;
    for (name, addr) in [
        ("__cairn_cover_flag", flag_addr),
        ("__cairn_cover_seen", seen_addr),
    ] {
        m.globals.push(Global {
            name: name.into(),
            source_name: None,
            addr,
            size: 1,
            align: 1,
            init: vec![0],
            read_only: false,
            external: false,
            holds_pointers: false,
        });
    }
    m.globals_end = (seen_addr + 8).div_ceil(4096) * 4096;
    let goal = m.branch_goals.len() as GoalId;
    let byte = Ty::Int(8);
    // Definitions of the variable by function and block: (index, sets the flag?).
    let mut defs: Vec<(FuncId, BlockId, u32, bool)> = vec![];
    let mut entry_def = false;
    for (d, def) in du.defs.iter().enumerate() {
        if def.var != var {
            continue;
        }
        match def.site {
            DefSite::At((f, b, i)) => defs.push((f, b, i, d as u32 == p.def)),
            DefSite::Entry => entry_def |= d as u32 == p.def,
        }
    }
    let funcs: BTreeSet<FuncId> = defs
        .iter()
        .map(|d| d.0)
        .chain([u.at.0])
        .chain(du.entry.filter(|_| entry_def))
        .collect();
    let mut use_split = None;
    for fid in funcs {
        let f = &mut m.functions[fid as usize];
        let (flag, seen) = (f.new_constant(flag_addr), f.new_constant(seen_addr));
        let (zero, one) = (f.new_constant(0), f.new_constant(1));
        let nb = f.blocks.len();
        for bi in 0..nb {
            let block = &f.blocks[bi];
            let mut insts = vec![];
            let mut locs = vec![];
            let mut split = None;
            if entry_def && Some(fid) == du.entry && bi == 0 {
                insts.push(Inst::Store {
                    ty: byte,
                    addr: flag,
                    val: one,
                });
                locs.push(f.loc);
            }
            let old: Vec<(Inst, Loc)> = block
                .insts
                .iter()
                .cloned()
                .zip(block.locs.iter().copied())
                .collect();
            let mut extra_regs = vec![];
            for (j, (inst, loc)) in old.into_iter().enumerate() {
                let at_use = (fid, bi as BlockId, j as u32) == u.at;
                if at_use {
                    let r = fresh_reg(&mut extra_regs, f.num_regs, byte);
                    insts.push(Inst::Load {
                        dst: r,
                        ty: byte,
                        addr: flag,
                    });
                    locs.push(loc);
                    if p.outcome.is_some() {
                        insts.push(Inst::Store {
                            ty: byte,
                            addr: seen,
                            val: r,
                        });
                        locs.push(loc);
                    } else {
                        let c = fresh_reg(&mut extra_regs, f.num_regs, Ty::Int(1));
                        insts.push(Inst::ICmp {
                            pred: IPred::Ne,
                            w: 8,
                            dst: c,
                            a: r,
                            b: zero,
                        });
                        locs.push(loc);
                        split = Some((insts.len(), c, loc));
                    }
                }
                insts.push(inst);
                locs.push(loc);
                if let Some(&(_, _, _, sets)) = defs
                    .iter()
                    .find(|d| (d.0, d.1, d.2) == (fid, bi as BlockId, j as u32))
                {
                    insts.push(Inst::Store {
                        ty: byte,
                        addr: flag,
                        val: if sets { one } else { zero },
                    });
                    locs.push(loc);
                }
            }
            for ty in extra_regs {
                let _ = fresh(f, ty);
            }
            let block = &mut f.blocks[bi];
            block.insts = insts;
            block.locs = locs;
            if let Some((at, cond, loc)) = split {
                use_split = Some((fid, bi, at, cond, loc));
            }
        }
    }
    if let Some((fid, bi, at, cond, loc)) = use_split {
        // [before the use, check] -> goal block -> [the use and the rest].
        let f = &mut m.functions[fid as usize];
        let block = &mut f.blocks[bi];
        let tail_insts = block.insts.split_off(at);
        let tail_locs = block.locs.split_off(at);
        let term = std::mem::replace(&mut block.term, Terminator::Unreachable);
        let term_loc = block.term_loc;
        let tail = new_block(f, tail_insts, loc, term);
        f.blocks[tail as usize].locs = tail_locs;
        f.blocks[tail as usize].term_loc = term_loc;
        let hit = new_block(f, vec![], loc, Terminator::Br { edge: edge(tail) });
        f.blocks[bi].term = Terminator::CondBr {
            cond,
            then_edge: edge(hit),
            else_edge: edge(tail),
            then_goal: goal,
            else_goal: NO_GOAL,
        };
        for g in m.branch_goals.iter_mut() {
            if (g.func, g.block) == (fid, bi as BlockId) {
                g.block = tail;
            }
        }
        m.branch_goals.push(BranchGoal {
            func: fid,
            block: bi as BlockId,
            outcome: "true".into(),
            loc,
            target_loc: loc,
        });
        return Some(Reduction { module: m, goal });
    }
    if let Some(o) = p.outcome {
        let fid = u.at.0;
        let (seen, zero) = {
            let f = &mut m.functions[fid as usize];
            (f.new_constant(seen_addr), f.new_constant(0))
        };
        {
            // The outcome's edge goes through a check of the flag's value at the use.
            let f = &mut m.functions[fid as usize];
            let b = u.at.1 as usize;
            let loc = f.blocks[b].term_loc;
            let r = fresh(f, byte);
            let c = fresh(f, Ty::Int(1));
            let target = {
                let term = &mut f.blocks[b].term;
                let e: &mut Edge = match term {
                    Terminator::CondBr {
                        then_edge,
                        else_edge,
                        ..
                    } => {
                        if o == 0 {
                            then_edge
                        } else {
                            else_edge
                        }
                    }
                    Terminator::Switch { cases, default, .. } => {
                        if (o as usize) < cases.len() {
                            &mut cases[o as usize].1
                        } else {
                            default
                        }
                    }
                    _ => return None,
                };
                e.target
            };
            let hit = new_block(f, vec![], loc, Terminator::Br { edge: edge(target) });
            let check = new_block(
                f,
                vec![
                    Inst::Load {
                        dst: r,
                        ty: byte,
                        addr: seen,
                    },
                    Inst::ICmp {
                        pred: IPred::Ne,
                        w: 8,
                        dst: c,
                        a: r,
                        b: zero,
                    },
                ],
                loc,
                Terminator::CondBr {
                    cond: c,
                    then_edge: edge(hit),
                    else_edge: edge(target),
                    then_goal: goal,
                    else_goal: NO_GOAL,
                },
            );
            match &mut f.blocks[b].term {
                Terminator::CondBr {
                    then_edge,
                    else_edge,
                    ..
                } => {
                    if o == 0 {
                        then_edge.target = check
                    } else {
                        else_edge.target = check
                    }
                }
                Terminator::Switch { cases, default, .. } => {
                    if (o as usize) < cases.len() {
                        cases[o as usize].1.target = check
                    } else {
                        default.target = check
                    }
                }
                _ => {}
            }
            m.branch_goals.push(BranchGoal {
                func: fid,
                block: check,
                outcome: "true".into(),
                loc,
                target_loc: loc,
            });
            return Some(Reduction { module: m, goal });
        }
    }
    None
}

/// A register numbered after the function's current ones (allocated when the block is done).
fn fresh_reg(extra: &mut Vec<Ty>, num_regs: u32, ty: Ty) -> Reg {
    extra.push(ty);
    num_regs + extra.len() as u32 - 1
}
