//! What a function may touch beyond its own frame, transitively through its callees: globals it
//! refers to or writes, pointer parameters it may write through, and whether it reads program
//! input. Lazy expansion uses it to decide which calls depend on inputs and what an abstracted
//! call may have written; unit mode uses it for the globals an entry function sees.
//!
//! Sound enough for its users, not a proof: pointer origins are tracked through registers
//! (parameters, globals, stack slots, address arithmetic, phis); a pointer loaded from memory
//! or returned by a call has an unknown origin, and writes through it are flagged as such.

use crate::ir::operands::edges;
use crate::ir::*;
use std::collections::BTreeSet;

/// Where a pointer may point.
#[derive(Clone, Default, PartialEq, Eq)]
struct Origins {
    params: BTreeSet<u32>,
    globals: BTreeSet<u32>,
    /// Loaded from memory, returned by a call, computed from an input...
    unknown: bool,
    /// A stack slot of this frame.
    local: bool,
}

impl Origins {
    fn union(&mut self, o: &Origins) -> bool {
        let before = (
            self.params.len(),
            self.globals.len(),
            self.unknown,
            self.local,
        );
        self.params.extend(o.params.iter().copied());
        self.globals.extend(o.globals.iter().copied());
        self.unknown |= o.unknown;
        self.local |= o.local;
        before
            != (
                self.params.len(),
                self.globals.len(),
                self.unknown,
                self.local,
            )
    }
    fn is_empty(&self) -> bool {
        self.params.is_empty() && self.globals.is_empty() && !self.unknown && !self.local
    }
}

/// The summary of one function (its callees included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FnEffects {
    /// Globals (indices into `Module::globals`) it refers to.
    pub globals: BTreeSet<u32>,
    /// Globals it may write.
    pub writes_globals: BTreeSet<u32>,
    /// Pointer parameters it may write through (memory the caller passed).
    pub writes_params: BTreeSet<u32>,
    /// It may write through a pointer of unknown origin (heap, pointers read from memory).
    pub writes_unknown: bool,
    /// It reads program input (input functions, unmodelled externals) or calls through a
    /// function pointer.
    pub reads_input: bool,
    /// Its number of paths can grow with its input: it or a callee has a loop, recursion, or a
    /// call through a function pointer.
    pub may_loop: bool,
    /// Every value it can return, when that is a small set of constants (None: any value).
    pub returns: Option<BTreeSet<u64>>,
    /// Where it returns, and what (None: any value): a returning block, or a block whose edge
    /// into a shared return block carries the result.
    pub return_sites: Vec<(BlockId, Option<BTreeSet<u64>>)>,
}

/// Direct facts of one function, before callees are folded in.
struct Facts {
    effects: FnEffects,
    /// (callee, origins of each argument)
    calls: Vec<(FuncId, Vec<Origins>)>,
}

pub struct Effects {
    pub funcs: Vec<FnEffects>,
}

/// C library functions that never write through their pointer arguments.
fn reads_only(name: &str) -> bool {
    matches!(
        name,
        "printf"
            | "fprintf"
            | "vprintf"
            | "vfprintf"
            | "puts"
            | "putchar"
            | "fputs"
            | "fputc"
            | "putc"
            | "fwrite"
            | "fflush"
            | "perror"
            | "exit"
            | "_exit"
            | "abort"
            | "free"
            | "malloc"
            | "calloc"
            | "__assert_fail"
            | "__cairn_exit"
            | "reach_error"
            | "__VERIFIER_error"
            | "__VERIFIER_assume"
            | "assume_abort_if_not"
            | "klee_assume"
            | "strlen"
            | "strcmp"
            | "strncmp"
            | "memcmp"
            | "atoi"
            | "atol"
    ) || name.starts_with("__VERIFIER_nondet_")
        || name.starts_with("__ctype_")
        || name.starts_with("llvm.")
}

impl Effects {
    /// Summaries of every function; `is_input(name)` tells which external functions read
    /// program input (their results or the memory they fill are inputs).
    pub fn compute(m: &Module, is_input: &dyn Fn(&str) -> bool) -> Effects {
        let mut by_addr: Vec<(u64, u64, u32)> = m
            .globals
            .iter()
            .enumerate()
            .map(|(i, g)| (g.addr, g.size, i as u32))
            .collect();
        by_addr.sort();
        let global_at = |a: u64| -> Option<u32> {
            let i = by_addr.partition_point(|g| g.0 <= a);
            let (base, size, idx) = *by_addr.get(i.checked_sub(1)?)?;
            (a < base + size.max(1)).then_some(idx)
        };
        let facts: Vec<Facts> = m
            .functions
            .iter()
            .map(|f| facts_of(m, f, &global_at, is_input))
            .collect();
        let mut funcs: Vec<FnEffects> = facts.iter().map(|f| f.effects.clone()).collect();
        // Fold callees in until nothing changes (recursion converges: the sets only grow).
        loop {
            let mut changed = false;
            for (fi, fa) in facts.iter().enumerate() {
                let mut e = funcs[fi].clone();
                for (callee, args) in &fa.calls {
                    let c = &funcs[*callee as usize];
                    e.globals.extend(c.globals.iter().copied());
                    e.writes_globals.extend(c.writes_globals.iter().copied());
                    e.writes_unknown |= c.writes_unknown;
                    e.reads_input |= c.reads_input;
                    e.may_loop |= c.may_loop || *callee as usize == fi;
                    for p in &c.writes_params {
                        match args.get(*p as usize) {
                            Some(o) => write_through(&mut e, o),
                            None => e.writes_unknown = true,
                        }
                    }
                }
                if e != funcs[fi] {
                    funcs[fi] = e;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Recursion through other functions: a function its callees reach again.
        let callees: Vec<Vec<FuncId>> = facts
            .iter()
            .map(|f| f.calls.iter().map(|c| c.0).collect())
            .collect();
        for (fi, f) in funcs.iter_mut().enumerate() {
            if f.may_loop {
                continue;
            }
            let mut seen = vec![false; callees.len()];
            let mut work = callees[fi].clone();
            while let Some(c) = work.pop() {
                if c as usize == fi {
                    f.may_loop = true;
                    break;
                }
                if !std::mem::replace(&mut seen[c as usize], true) {
                    work.extend(callees[c as usize].iter().copied());
                }
            }
        }
        let returns = return_sets(m);
        for (fi, f) in funcs.iter_mut().enumerate() {
            let func = &m.functions[fi];
            if !func.blocks.is_empty() {
                let (all, sites) = returns_of(func, &returns, m.data_model);
                f.returns = all;
                f.return_sites = sites;
            }
        }
        Effects { funcs }
    }
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

/// Largest set of constant results tracked; more is "any value".
const MAX_RETURN_SET: usize = 64;

/// Values a register may hold: a set of constants, or any value (None).
type Values = Option<BTreeSet<u64>>;

fn join(a: &mut Values, b: &Values) -> bool {
    match (a.as_mut(), b) {
        (None, _) => false,
        (Some(_), None) => {
            *a = None;
            true
        }
        (Some(x), Some(y)) => {
            let n = x.len();
            x.extend(y.iter().copied());
            if x.len() > MAX_RETURN_SET {
                *a = None;
                return true;
            }
            x.len() != n
        }
    }
}

fn cast_values(v: &Values, op: CastOp, from: u32, to: u32) -> Values {
    let set = v.as_ref()?;
    let map = |x: u64| -> Option<u64> {
        let x = mask(x, from);
        Some(match op {
            CastOp::Trunc | CastOp::ZExt => mask(x, to),
            CastOp::SExt => {
                let s = if from == 0 || from >= 64 {
                    x
                } else if x >> (from - 1) & 1 == 1 {
                    x | !((1u64 << from) - 1)
                } else {
                    x
                };
                mask(s, to)
            }
            _ => return None,
        })
    };
    set.iter().map(|x| map(*x)).collect()
}

/// Per function: the constants it can return (through phis, selects, comparisons, integer
/// casts and calls of functions with known results), or None.
fn return_sets(m: &Module) -> Vec<Values> {
    let n = m.functions.len();
    // Bottom (nothing returned yet) is the empty set; functions only grow towards None.
    let mut rets: Vec<Values> = vec![Some(BTreeSet::new()); n];
    for _round in 0..n.max(1) + 2 {
        let mut changed = false;
        for (fi, f) in m.functions.iter().enumerate() {
            if f.blocks.is_empty() {
                rets[fi] = None;
                continue;
            }
            let r = returns_of(f, &rets, m.data_model).0;
            if r != rets[fi] {
                rets[fi] = r;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    rets
}

/// What `f` can return in all, and per returning block.
fn returns_of(f: &Function, rets: &[Values], dm: DataModel) -> (Values, Vec<(BlockId, Values)>) {
    let empty = || Some(BTreeSet::new());
    let mut v: Vec<Values> = vec![empty(); f.num_regs as usize];
    for (r, x) in f.reg_init.iter().enumerate() {
        if f.reg_tys.get(r) == Some(&Ty::Void) {
            v[r] = Some(BTreeSet::from([*x]));
        }
    }
    // Parameters and anything not understood: any value.
    for p in &f.params {
        if let Val::Reg(r, _) = p {
            v[*r as usize] = None;
        }
    }
    let width = |t: Ty| t.bits(dm);
    loop {
        let mut changed = false;
        for b in &f.blocks {
            for i in &b.insts {
                let (dst, from): (Reg, Values) = match i {
                    Inst::ICmp { dst, .. } | Inst::FCmp { dst, .. } => {
                        (*dst, Some(BTreeSet::from([0, 1])))
                    }
                    Inst::Select { dst, t, f, .. } => {
                        let mut u = v[*t as usize].clone();
                        join(&mut u, &v[*f as usize]);
                        (*dst, u)
                    }
                    Inst::Cast {
                        op,
                        from,
                        to,
                        dst,
                        a,
                    } => (
                        *dst,
                        cast_values(&v[*a as usize], *op, width(*from), width(*to)),
                    ),
                    Inst::Call {
                        callee: Callee::Func(c),
                        ret: Some(Val::Reg(dst, _)),
                        ..
                    } => (*dst, rets[*c as usize].clone()),
                    _ => match crate::ir::operands::inst_dst(i) {
                        Some(Val::Reg(dst, _)) => (dst, None),
                        _ => continue,
                    },
                };
                changed |= join(&mut v[dst as usize], &from);
            }
            for e in edges(&b.term) {
                for (d, s) in &e.moves.regs {
                    let from = v[*s as usize].clone();
                    changed |= join(&mut v[*d as usize], &from);
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = empty();
    let mut sites = vec![];
    for (bi, b) in f.blocks.iter().enumerate() {
        let Terminator::Ret { val } = &b.term else {
            continue;
        };
        let Some(Val::Reg(r, Ty::Int(_))) = val else {
            out = None;
            sites.push((bi as BlockId, None));
            continue;
        };
        join(&mut out, &v[*r as usize]);
        // A return block reached from several places (clang's single exit, a phi of the
        // results): each edge into it is a return site of its own value, through the casts
        // of the return block.
        let mut casts: Vec<(CastOp, u32, u32)> = vec![];
        let mut reg = *r;
        for i in b.insts.iter().rev() {
            if let Inst::Cast {
                op,
                from,
                to,
                dst,
                a,
            } = i
                && *dst == reg
            {
                casts.push((*op, width(*from), width(*to)));
                reg = *a;
            }
        }
        let mut from_edges = false;
        for (pi, p) in f.blocks.iter().enumerate() {
            for e in edges(&p.term) {
                if e.target != bi as BlockId {
                    continue;
                }
                if let Some((_, src)) = e.moves.regs.iter().find(|(d, _)| *d == reg) {
                    let mut vals = v[*src as usize].clone();
                    for (op, from, to) in casts.iter().rev() {
                        vals = cast_values(&vals, *op, *from, *to);
                    }
                    sites.push((pi as BlockId, vals));
                    from_edges = true;
                }
            }
        }
        if !from_edges {
            sites.push((bi as BlockId, v[*r as usize].clone()));
        }
    }
    (out, sites)
}

/// Whether the control-flow graph of `f` has a cycle (a loop).
fn has_cycle(f: &Function) -> bool {
    // Iterative depth-first search with colours: an edge to a block on the stack closes a cycle.
    let n = f.blocks.len();
    let mut colour = vec![0u8; n];
    let mut stack: Vec<(usize, usize)> = vec![];
    for root in 0..n.min(1) {
        stack.push((root, 0));
        colour[root] = 1;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            let succ = f.blocks[b].term.successors();
            if *i < succ.len() {
                let s = succ[*i] as usize;
                *i += 1;
                match colour[s] {
                    0 => {
                        colour[s] = 1;
                        stack.push((s, 0));
                    }
                    1 => return true,
                    _ => {}
                }
            } else {
                colour[b] = 2;
                stack.pop();
            }
        }
    }
    false
}

fn write_through(e: &mut FnEffects, o: &Origins) {
    e.writes_params.extend(o.params.iter().copied());
    e.writes_globals.extend(o.globals.iter().copied());
    if o.unknown || o.is_empty() {
        e.writes_unknown = true;
    }
}

/// Pointer origins of every register of `f` (a fixpoint over its instructions and phi moves).
fn origins_of(f: &Function, global_at: &dyn Fn(u64) -> Option<u32>) -> Vec<Origins> {
    let mut o: Vec<Origins> = vec![Origins::default(); f.num_regs as usize];
    for (r, v) in f.reg_init.iter().enumerate() {
        if f.reg_tys.get(r) == Some(&Ty::Void)
            && let Some(g) = global_at(*v)
        {
            o[r].globals.insert(g);
        }
    }
    for (i, p) in f.params.iter().enumerate() {
        if let Val::Reg(r, _) = p {
            o[*r as usize].params.insert(i as u32);
        }
    }
    let unknown = Origins {
        unknown: true,
        ..Default::default()
    };
    let local = Origins {
        local: true,
        ..Default::default()
    };
    loop {
        let mut changed = false;
        for b in &f.blocks {
            for i in &b.insts {
                let (dst, from): (Reg, Origins) = match i {
                    Inst::Gep { dst, base, .. } => (*dst, o[*base as usize].clone()),
                    Inst::Cast {
                        op: CastOp::Bits,
                        dst,
                        a,
                        ..
                    } => (*dst, o[*a as usize].clone()),
                    Inst::Bin { dst, a, b, .. } => {
                        let mut u = o[*a as usize].clone();
                        u.union(&o[*b as usize]);
                        (*dst, u)
                    }
                    Inst::Select { dst, t, f, .. } => {
                        let mut u = o[*t as usize].clone();
                        u.union(&o[*f as usize]);
                        (*dst, u)
                    }
                    Inst::Alloca { dst, .. } => (*dst, local.clone()),
                    Inst::Load {
                        dst, ty: Ty::Ptr, ..
                    }
                    | Inst::ExtractValue {
                        dst, ty: Ty::Ptr, ..
                    } => (*dst, unknown.clone()),
                    Inst::Call {
                        ret: Some(Val::Reg(dst, Ty::Ptr)),
                        ..
                    }
                    | Inst::CallExtern {
                        ret: Some(Val::Reg(dst, Ty::Ptr)),
                        ..
                    } => (*dst, unknown.clone()),
                    _ => continue,
                };
                changed |= o[dst as usize].union(&from);
            }
            for e in edges(&b.term) {
                for (d, s) in &e.moves.regs {
                    let from = o[*s as usize].clone();
                    changed |= o[*d as usize].union(&from);
                }
            }
        }
        if !changed {
            return o;
        }
    }
}

fn facts_of(
    m: &Module,
    f: &Function,
    global_at: &dyn Fn(u64) -> Option<u32>,
    is_input: &dyn Fn(&str) -> bool,
) -> Facts {
    let mut e = FnEffects::default();
    let mut calls = vec![];
    if f.blocks.is_empty() {
        return Facts { effects: e, calls };
    }
    for (r, v) in f.reg_init.iter().enumerate() {
        if f.reg_tys.get(r) == Some(&Ty::Void)
            && let Some(g) = global_at(*v)
        {
            e.globals.insert(g);
        }
    }
    e.may_loop = has_cycle(f);
    let o = origins_of(f, global_at);
    let arg_origins = |args: &[Val]| -> Vec<Origins> {
        args.iter()
            .map(|a| match a {
                Val::Reg(r, _) => o[*r as usize].clone(),
                Val::Agg(..) => Origins::default(),
            })
            .collect()
    };
    for b in &f.blocks {
        for i in &b.insts {
            match i {
                Inst::Store { addr, .. }
                | Inst::StoreAgg { addr, .. }
                | Inst::MemCopy { dst: addr, .. }
                | Inst::MemSet { dst: addr, .. }
                | Inst::VaCopy { dst: addr, .. } => {
                    let a = &o[*addr as usize];
                    if !a.local || a.unknown || !a.params.is_empty() || !a.globals.is_empty() {
                        write_through(&mut e, a);
                    }
                }
                Inst::Call {
                    callee: Callee::Func(t),
                    args,
                    ..
                } => calls.push((*t, arg_origins(args))),
                Inst::Call {
                    callee: Callee::Indirect(_),
                    ..
                } => {
                    e.writes_unknown = true;
                    e.reads_input = true;
                    e.may_loop = true;
                }
                Inst::CallExtern { ext, args, .. } => {
                    let name = m.externs[*ext as usize].name.as_str();
                    if is_input(name) {
                        e.reads_input = true;
                    }
                    if !reads_only(name) {
                        for a in arg_origins(args) {
                            if !a.is_empty() && (a.unknown || !a.local) {
                                write_through(&mut e, &a);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Facts { effects: e, calls }
}

/// The globals that start as inputs when `entry` is tested with `--symbolic-globals`: those it
/// refers to (through its callees too) that a harness can set, in module order: writable data
/// with external linkage and no pointers in it.
pub fn entry_globals(m: &Module, effects: &Effects, entry: FuncId) -> Vec<u32> {
    let e = &effects.funcs[entry as usize];
    e.globals
        .iter()
        .copied()
        .filter(|&g| {
            let g = &m.globals[g as usize];
            g.external && !g.read_only && !g.holds_pointers && g.size <= 1 << 16
        })
        .collect()
}
