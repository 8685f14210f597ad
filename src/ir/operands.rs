//! Operands and results of instructions and terminators, for analyses over the IR.

use super::*;

pub fn edges(t: &Terminator) -> Vec<&Edge> {
    match t {
        Terminator::Br { edge } => vec![edge],
        Terminator::CondBr {
            then_edge,
            else_edge,
            ..
        } => vec![then_edge, else_edge],
        Terminator::Switch { cases, default, .. } => {
            cases.iter().map(|c| &c.1).chain([default]).collect()
        }
        _ => vec![],
    }
}

pub fn inst_dst(i: &Inst) -> Option<Val> {
    Some(match i {
        Inst::Bin { dst, w, .. } => Val::Reg(*dst, Ty::Int(*w)),
        Inst::FBin { dst, ty, .. } | Inst::FNeg { dst, ty, .. } => Val::Reg(*dst, *ty),
        Inst::ICmp { dst, .. } | Inst::FCmp { dst, .. } => Val::Reg(*dst, Ty::Int(1)),
        Inst::Cast { dst, to, .. } => Val::Reg(*dst, *to),
        Inst::Select { dst, ty, .. } => Val::Reg(*dst, *ty),
        Inst::Alloca { dst, .. } | Inst::Gep { dst, .. } => Val::Reg(*dst, Ty::Ptr),
        Inst::Load { dst, ty, .. } => Val::Reg(*dst, *ty),
        Inst::ExtractValue { dst, ty, .. } => Val::Reg(*dst, *ty),
        Inst::Intrinsic { dst, .. } => *dst,
        Inst::Call { ret: Some(v), .. } | Inst::CallExtern { ret: Some(v), .. } => *v,
        _ => return None,
    })
}

/// Registers read by an instruction (scalar operands).
pub fn inst_operands(i: &Inst) -> Vec<Reg> {
    match i {
        Inst::Bin { a, b, .. }
        | Inst::FBin { a, b, .. }
        | Inst::ICmp { a, b, .. }
        | Inst::FCmp { a, b, .. } => vec![*a, *b],
        Inst::FNeg { a, .. } | Inst::Cast { a, .. } => vec![*a],
        Inst::Select { cond, t, f, .. } => vec![*cond, *t, *f],
        Inst::SelectAgg { cond, .. } => vec![*cond],
        Inst::Alloca { count, .. } => vec![*count],
        Inst::Load { addr, .. } | Inst::LoadAgg { addr, .. } => vec![*addr],
        Inst::Store { addr, val, .. } => vec![*addr, *val],
        Inst::StoreAgg { addr, .. } => vec![*addr],
        Inst::Gep { base, terms, .. } => std::iter::once(*base)
            .chain(terms.iter().map(|t| t.0))
            .collect(),
        Inst::InsertValue {
            val: Val::Reg(r, _),
            ..
        } => vec![*r],
        Inst::Intrinsic { args, .. } => args.clone(),
        Inst::MemCopy { dst, src, len, .. } => vec![*dst, *src, *len],
        Inst::MemSet { dst, byte, len } => vec![*dst, *byte, *len],
        Inst::VaStart { list } => vec![*list],
        Inst::VaCopy { dst, src } => vec![*dst, *src],
        Inst::Call { callee, args, .. } => {
            let mut v: Vec<Reg> = args
                .iter()
                .filter_map(|a| {
                    if let Val::Reg(r, _) = a {
                        Some(*r)
                    } else {
                        None
                    }
                })
                .collect();
            if let Callee::Indirect(r) = callee {
                v.push(*r);
            }
            v
        }
        Inst::CallExtern { args, .. } => args
            .iter()
            .filter_map(|a| {
                if let Val::Reg(r, _) = a {
                    Some(*r)
                } else {
                    None
                }
            })
            .collect(),
        _ => vec![],
    }
}

pub fn term_operands(t: &Terminator) -> Vec<Reg> {
    let mut v = match t {
        Terminator::Ret {
            val: Some(Val::Reg(r, _)),
        } => vec![*r],
        Terminator::CondBr { cond, .. } => vec![*cond],
        Terminator::Switch { val, .. } => vec![*val],
        _ => vec![],
    };
    for e in edges(t) {
        v.extend(e.moves.regs.iter().map(|(_, s)| *s));
    }
    v
}

/// Calls whose result register nothing reads get no destination: observers then know the
/// result cannot influence the run (a `printf` whose count is ignored, say).
pub fn drop_unused_results(blocks: &mut [Block]) {
    let mut used = std::collections::HashSet::new();
    for b in blocks.iter() {
        for i in &b.insts {
            used.extend(inst_operands(i));
        }
        used.extend(term_operands(&b.term));
    }
    for b in blocks.iter_mut() {
        for i in &mut b.insts {
            if let Inst::Call { ret, .. } | Inst::CallExtern { ret, .. } = i
                && matches!(ret, Some(Val::Reg(r, _)) if !used.contains(r))
            {
                *ret = None;
            }
        }
    }
}
