//! Globals settled by start-up code. Many programs give their configuration globals their
//! values once, at the start of `main` (BLAST's instrumented drivers call `_BLAST_init()`,
//! which sets `NP = 1; DC = 2; ...`), and never write them again. Past that start, every read
//! of such a global reads the one value, so `s = NP;` stores a constant and `if (s == NP)`
//! compares with one.
//!
//! The start is found by walking `main` from its entry as it must execute: straight-line code,
//! calls into functions with a body (walked the same way), branches only where values already
//! known decide them; the walk ends at the first thing it cannot follow. A global is settled
//! when its address is never taken and each of its stores is an instruction the walk went
//! through that runs at no other time; a read the walk did not go through then comes after
//! the start and reads what the walk's last store of it wrote (and its value, when the walk
//! knew it): every other definition of the global reaches no such read.

use crate::analysis::defuse::{DefSite, DefUse, InstAt, VarId, pointers_in_initializers};
use crate::ir::ops;
use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// Calls out of the program that let code run out of order (another thread, a handler, a
/// jump back into the start) end the walk, as does code the interpreter does not model
/// (`NOT_INTERPRETED`: inline assembly may write anything).
const UNORDERED: [&str; 6] = ["setjmp", "pthread", "signal", "sigaction", "fork", "clone"];

/// Deepest call the walk follows.
const MAX_DEPTH: usize = 16;

#[derive(Default)]
pub struct Settled {
    /// Each settled variable's last store in the start (None: it keeps its initial value).
    writer: HashMap<VarId, Option<InstAt>>,
    /// The value of each settled variable after the start, where the walk knew it.
    values: HashMap<VarId, u64>,
    /// Global address → settled variable whose value is known.
    at: HashMap<u64, VarId>,
    /// Every instruction the walk went through: a read there may come before the start ends.
    start: HashSet<InstAt>,
    /// Reads of the start that run at no other time, with the one value the walk saw there.
    start_loads: HashMap<InstAt, u64>,
    /// Each global's initial value (at most 8 bytes, holding no address).
    initial: HashMap<VarId, u64>,
}

impl Settled {
    /// The globals the start-up code of `du`'s entry settles; none when the entry is not
    /// `main` (a unit's globals are inputs) or constructors run before it.
    pub fn compute(m: &Module, du: &DefUse) -> Settled {
        let Some(entry) = du.entry.filter(|&e| m.functions[e as usize].name == "main") else {
            return Settled::default();
        };
        let ctors = m.func_by_name.get("__cairn_ctors");
        let ctors = ctors.map(|&f| &m.functions[f as usize]);
        if ctors.is_some_and(|f| f.blocks.iter().any(|b| b.insts.iter().any(is_call))) {
            return Settled::default();
        }
        let mut walk = Walk {
            m,
            addr_of: HashMap::new(),
            fn_at: (m.functions.iter())
                .map(|f| (m.func_addrs[f.id as usize], f.id))
                .collect(),
            values: HashMap::new(),
            writer: HashMap::new(),
            loads: HashMap::new(),
            start: HashSet::new(),
            stack: vec![],
            again: HashSet::new(),
        };
        let mut initial = HashMap::new();
        for (v, var) in du.vars.iter().enumerate() {
            let Some(g) = var.global else {
                continue;
            };
            let g = &m.globals[g as usize];
            let mut b = [0u8; 8];
            let n = (g.size as usize).min(8).min(g.init.len());
            b[..n].copy_from_slice(&g.init[..n]);
            let value = u64::from_le_bytes(b);
            // An address in an initializer is the interpreter's, not the native one.
            let address = (m.globals.iter()).any(|o| (o.addr..=o.addr + o.size).contains(&value))
                || m.func_addrs.contains(&value);
            let value = (g.size <= 8 && (value == 0 || !address)).then_some(value);
            if let Some(x) = value {
                initial.insert(v as VarId, x);
            }
            // Pointers may write an address-taken global after the start: never settled.
            if !var.address_taken {
                walk.addr_of.insert(g.addr, v as VarId);
                walk.values.insert(v as VarId, value);
                walk.writer.insert(v as VarId, None);
            }
        }
        // `main` returning ends the program: exit handlers come after the start.
        walk.function(entry, 0);
        let start_only = walk.called_only_in_start(entry);
        let mut stores: HashMap<VarId, Vec<InstAt>> = HashMap::new();
        for f in &m.functions {
            for (b, block) in f.blocks.iter().enumerate() {
                for (i, inst) in block.insts.iter().enumerate() {
                    if let Inst::Store { addr, .. } = inst
                        && let Some(v) = walk.tracked(f, *addr)
                    {
                        let at = (f.id, b as BlockId, i as u32);
                        stores.entry(v).or_default().push(at);
                    }
                }
            }
        }
        // The last store must be a definition (a store of an indeterminate value is none).
        let defs: HashSet<InstAt> = (du.defs.iter())
            .filter_map(|d| match d.site {
                DefSite::At(at) => Some(at),
                DefSite::Entry => None,
            })
            .collect();
        let writer: HashMap<VarId, Option<InstAt>> = (walk.writer.iter())
            .filter(|(v, _)| {
                let mut s = stores.get(v).into_iter().flatten();
                s.all(|&at| walk.only_in_start(&start_only, at))
            })
            .filter(|(_, w)| w.is_none_or(|at| defs.contains(&at)))
            .map(|(&v, &w)| (v, w))
            .collect();
        let values: HashMap<VarId, u64> = (walk.values.iter())
            .filter(|(v, _)| writer.contains_key(v))
            .filter_map(|(&v, &x)| Some((v, x?)))
            .collect();
        let start_loads = (walk.loads.iter())
            .filter(|&(&at, _)| walk.only_in_start(&start_only, at))
            .filter_map(|(&at, &x)| Some((at, x?)))
            .collect();
        let at = (walk.addr_of.into_iter())
            .filter(|(_, v)| values.contains_key(v))
            .collect();
        Settled {
            writer,
            values,
            at,
            start: walk.start,
            start_loads,
            initial,
        }
    }

    /// Every read whose value the start settles, with that value: every run reads the same
    /// there, so a model checker can take the constant and needs no invariant to know it
    /// (`NP == 1` at every loop head of a driver).
    pub fn reads(&self, m: &Module) -> HashMap<InstAt, u64> {
        let mut out = HashMap::new();
        for (f, func) in m.functions.iter().enumerate() {
            for (b, block) in func.blocks.iter().enumerate() {
                for (i, inst) in block.insts.iter().enumerate() {
                    let at = (f as FuncId, b as BlockId, i as u32);
                    if let Some((_, value)) = self.load(m, func, at, inst) {
                        out.insert(at, value);
                    }
                }
            }
        }
        out
    }

    /// A global's initial value, when the entry is `main` and no constructor runs before it.
    pub fn initial(&self, var: VarId) -> Option<u64> {
        self.initial.get(&var).copied()
    }

    /// The definition a use of `var` at `at` reads, when `var` is settled and the use comes
    /// after the start: its last store there (None: its initial value).
    pub fn writer(&self, var: VarId, at: InstAt) -> Option<Option<InstAt>> {
        let w = self.writer.get(&var)?;
        (!self.start.contains(&at)).then_some(*w)
    }

    /// The value `inst` at `at` loads, when it reads a settled global after the start or a
    /// global during the start (where the walk saw the one value it reads).
    pub fn load(&self, m: &Module, f: &Function, at: InstAt, inst: &Inst) -> Option<(Reg, u64)> {
        let Inst::Load { dst, ty, addr } = inst else {
            return None;
        };
        if let Some(&x) = self.start_loads.get(&at) {
            return Some((*dst, x));
        }
        let v = *self.at.get(&f.constant(*addr)?)?;
        if self.start.contains(&at) || !matches!(ty, Ty::Int(_)) {
            return None;
        }
        Some((*dst, ops::mask(self.values[&v], ty.bits(m.data_model))))
    }
}

struct Walk<'a> {
    m: &'a Module,
    /// Address → global variable whose address is never taken.
    addr_of: HashMap<u64, VarId>,
    /// Function address → function.
    fn_at: HashMap<u64, FuncId>,
    /// Each such variable's value at the walk's point (None: unknown), and its last store.
    values: HashMap<VarId, Option<u64>>,
    writer: HashMap<VarId, Option<InstAt>>,
    /// The value each read of such a variable took (None: unknown, or not always the same).
    loads: HashMap<InstAt, Option<u64>>,
    start: HashSet<InstAt>,
    /// Functions being walked (recursion ends the walk).
    stack: Vec<FuncId>,
    /// Blocks of the functions still running when the walk stopped that may run again after
    /// it (a loop back into the start): their instructions do not run only during the start.
    again: HashSet<(FuncId, BlockId)>,
}

impl Walk<'_> {
    fn tracked(&self, f: &Function, addr: Reg) -> Option<VarId> {
        self.addr_of.get(&f.constant(addr)?).copied()
    }

    /// Walks one call of `f` as it executes; false where the walk stopped inside it.
    fn function(&mut self, f: FuncId, depth: usize) -> bool {
        let func = &self.m.functions[f as usize];
        if depth > MAX_DEPTH || self.stack.contains(&f) || func.blocks.is_empty() {
            return false;
        }
        self.stack.push(f);
        let flow = self.blocks(func, depth);
        self.stack.pop();
        flow
    }

    fn blocks(&mut self, func: &Function, depth: usize) -> bool {
        let mut known: HashMap<Reg, u64> = HashMap::new();
        let mut entered = HashSet::new();
        let mut b: BlockId = 0;
        loop {
            if !entered.insert(b) {
                self.stop(func, b, true);
                return false;
            }
            let block = &func.blocks[b as usize];
            for (i, inst) in block.insts.iter().enumerate() {
                let at = (func.id, b, i as u32);
                self.start.insert(at);
                if !self.step(func, at, inst, &mut known, depth) {
                    self.stop(func, b, false);
                    return false;
                }
            }
            let val = |r: Reg| known.get(&r).copied().or_else(|| func.constant(r));
            let next = match &block.term {
                Terminator::Ret { .. } => return true,
                Terminator::Br { edge } => Some(edge),
                Terminator::CondBr {
                    cond,
                    then_edge,
                    else_edge,
                    ..
                } => val(*cond).map(|c| if c & 1 == 1 { then_edge } else { else_edge }),
                Terminator::Switch {
                    val: v,
                    w,
                    cases,
                    default,
                    ..
                } => val(*v).map(|x| {
                    let w = *w as u32;
                    (cases.iter())
                        .find(|c| ops::mask(c.0, w) == ops::mask(x, w))
                        .map_or(default, |c| &c.1)
                }),
                Terminator::Unreachable => None,
            };
            let Some(edge) = next else {
                self.stop(func, b, false);
                return false;
            };
            let moved: Vec<(Reg, Option<u64>)> = (edge.moves.regs.iter())
                .map(|&(d, s)| (d, val(s)))
                .collect();
            for (d, x) in moved {
                match x {
                    Some(x) => known.insert(d, x),
                    None => known.remove(&d),
                };
            }
            b = edge.target;
        }
    }

    /// The walk stops in block `b` of `func` (before it, when `reentered`): what runs after is
    /// the rest of the block and the blocks reachable from it.
    fn stop(&mut self, func: &Function, b: BlockId, reentered: bool) {
        let mut from = func.blocks[b as usize].term.successors();
        if reentered {
            from.push(b);
        }
        let again = reachable(func, from);
        self.again.extend(again.into_iter().map(|c| (func.id, c)));
    }

    /// Walks one instruction; false where the walk cannot follow the program.
    fn step(
        &mut self,
        func: &Function,
        at: InstAt,
        inst: &Inst,
        known: &mut HashMap<Reg, u64>,
        depth: usize,
    ) -> bool {
        let bits = |ty: &Ty| ty.bits(self.m.data_model);
        let var = match inst {
            Inst::Store { addr, .. } | Inst::Load { addr, .. } => self.tracked(func, *addr),
            _ => None,
        };
        match (inst, var) {
            (Inst::Store { ty, val, .. }, Some(v)) => {
                let x = known.get(val).copied().or_else(|| func.constant(*val));
                let x = x.filter(|_| matches!(ty, Ty::Int(_)));
                self.values.insert(v, x.map(|x| ops::mask(x, bits(ty))));
                self.writer.insert(v, Some(at));
            }
            (Inst::Load { dst, ty, .. }, Some(v)) => {
                let x = self.values[&v];
                let x = x.filter(|_| matches!(ty, Ty::Int(_)));
                let x = x.map(|x| ops::mask(x, bits(ty)));
                match x {
                    Some(x) => known.insert(*dst, x),
                    None => known.remove(dst),
                };
                let seen = self.loads.entry(at).or_insert(x);
                if *seen != x {
                    *seen = None;
                }
            }
            (Inst::Call { callee, ret, .. }, _) => {
                let Callee::Func(g) = callee else {
                    return false;
                };
                if !self.function(*g, depth + 1) {
                    return false;
                }
                if let Some(Val::Reg(r, _)) = ret {
                    known.remove(r);
                }
            }
            (Inst::CallExtern { ext, args, ret, .. }, _) => {
                let name = &self.m.externs[*ext as usize].name;
                // A function passed out may be called back at once (`qsort`'s comparison).
                let callback = args.iter().any(|a| match a {
                    Val::Reg(r, _) => func
                        .constant(*r)
                        .is_some_and(|x| self.fn_at.contains_key(&x)),
                    Val::Agg(..) => false,
                });
                let unordered = UNORDERED.iter().any(|u| name.contains(u));
                if callback || unordered || name == NOT_INTERPRETED {
                    return false;
                }
                if let Some(Val::Reg(r, _)) = ret {
                    known.remove(r);
                }
            }
            _ => {
                let mut val = |r: Reg| known.get(&r).copied().or_else(|| func.constant(r));
                let ptr_bits = self.m.data_model.ptr_bytes() * 8;
                if let Some((dst, x)) = ops::eval_int(inst, &mut val, ptr_bits) {
                    match x {
                        Some(x) => known.insert(dst, x),
                        None => known.remove(&dst),
                    };
                }
            }
        }
        true
    }

    /// An instruction the walk went through that runs at no other time: in a function called
    /// only during the start, in a block that does not run again after the walk stopped.
    fn only_in_start(&self, start_only: &HashSet<FuncId>, at: InstAt) -> bool {
        self.start.contains(&at)
            && start_only.contains(&at.0)
            && !self.again.contains(&(at.0, at.1))
    }

    /// Functions called only during the start: `entry` (called by nothing else), and functions
    /// whose address is never taken called only from instructions that run only then.
    fn called_only_in_start(&self, entry: FuncId) -> HashSet<FuncId> {
        let m = self.m;
        let taken = function_addresses_taken(m, &self.fn_at);
        let mut sites: HashMap<FuncId, Vec<InstAt>> = HashMap::new();
        for f in &m.functions {
            for (b, block) in f.blocks.iter().enumerate() {
                for (i, inst) in block.insts.iter().enumerate() {
                    if let Inst::Call {
                        callee: Callee::Func(g),
                        ..
                    } = inst
                    {
                        let at = (f.id, b as BlockId, i as u32);
                        sites.entry(*g).or_default().push(at);
                    }
                }
            }
        }
        let calls = |f: FuncId| sites.get(&f).map_or(&[][..], |s| &s[..]);
        let start_routine = m.func_by_name.get("__cairn_start").copied();
        let mut start_only = HashSet::new();
        if taken.contains(&entry) || calls(entry).iter().any(|s| Some(s.0) != start_routine) {
            return start_only;
        }
        start_only.insert(entry);
        // Callers come before callees: grow until nothing changes.
        let walked: HashSet<FuncId> = self.start.iter().map(|s| s.0).collect();
        loop {
            let before = start_only.len();
            for &f in &walked {
                if !start_only.contains(&f)
                    && !taken.contains(&f)
                    && calls(f).iter().all(|&s| self.only_in_start(&start_only, s))
                {
                    start_only.insert(f);
                }
            }
            if start_only.len() == before {
                return start_only;
            }
        }
    }
}

fn is_call(i: &Inst) -> bool {
    matches!(i, Inst::Call { .. } | Inst::CallExtern { .. })
}

/// Blocks reachable from `from` (included).
fn reachable(f: &Function, from: Vec<BlockId>) -> HashSet<BlockId> {
    let mut seen: HashSet<BlockId> = from.iter().copied().collect();
    let mut work = from;
    while let Some(b) = work.pop() {
        for s in f.blocks[b as usize].term.successors() {
            if seen.insert(s) {
                work.push(s);
            }
        }
    }
    seen
}

/// Functions whose address a constant operand or a global's initial bytes hold.
fn function_addresses_taken(m: &Module, fn_at: &HashMap<u64, FuncId>) -> HashSet<FuncId> {
    let mut out = HashSet::new();
    for f in &m.functions {
        for (r, ty) in f.reg_tys.iter().enumerate() {
            if *ty == Ty::Void
                && let Some(&g) = f.reg_init.get(r).and_then(|a| fn_at.get(a))
            {
                out.insert(g);
            }
        }
    }
    out.extend(pointers_in_initializers(m).filter_map(|w| fn_at.get(&w).copied()));
    out
}

/// A copy of `m` where the settled `reads` (`Settled::reads`) are constant operands, except
/// reads of `keep` (a cover-flag copy instruments them); None when there are none.
pub fn fold(m: &Module, reads: &HashMap<InstAt, u64>, du: &DefUse, keep: VarId) -> Option<Module> {
    let kept = |at: &InstAt| {
        du.use_at
            .get(at)
            .is_some_and(|&u| du.uses[u as usize].var == keep)
    };
    if reads.keys().all(kept) {
        return None;
    }
    let mut out = m.clone();
    for (&(f, b, i), &value) in reads.iter().filter(|(at, _)| !kept(at)) {
        let g = &mut out.functions[f as usize];
        let Inst::Load { dst, ty, .. } = g.blocks[b as usize].insts[i as usize] else {
            continue;
        };
        let k = g.new_constant(value);
        g.blocks[b as usize].insts[i as usize] = Inst::Bin {
            op: BinOp::Or,
            w: ty.bits(m.data_model) as u8,
            dst,
            a: k,
            b: k,
        };
    }
    Some(out)
}
