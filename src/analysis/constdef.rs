//! Def-use pairs decided by a constant definition. On a def-clear path the variable still holds
//! what the definition stored; when that is a constant, every branch the variable alone decides
//! goes one way. Walking the function from the definition, following only those outcomes and
//! stopping at redefinitions, reaches every use (and p-use outcome) the definition can reach;
//! the definition's other pairs are infeasible (`state = 0` never reaches `if (state == 1)`
//! true, nor code behind `if (state == 0)` false). Cheap, and it settles most pairs of state
//! machines before the model checker is asked.
//!
//! Sound for every scalar local, its address taken or not: a pair counts only while its
//! definition holds (`exec::defuse`), and any other write to the variable — a store through a
//! pointer, a callee writing through its address, a library write — ends that, so wherever the
//! definition still holds the variable holds its constant; the walk ignores such writes and
//! reaches more than the definition does. A use in another call of the function reads another
//! slot.
//!
//! A global may be redefined by any function, so no walk bounds where its definition reaches;
//! but a use the definition reaches still reads the constant, wherever it is (for the same
//! reason, its address taken or not): a p-use that the constant decides in its own block takes
//! that outcome (`s = DC;` in a callee never reaches `if (s == NP)` true in `main`;
//! `current = 0;` never reaches `if (current)` true, though `get(&current)` fills it), the
//! other outcomes' pairs are infeasible.

use crate::analysis::defuse::{
    DefId, DefSite, DefUse, InstAt, PairId, UseId, decider, outcome_index,
};
use crate::analysis::settled::Settled;
use crate::ir::ops;
use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// Why a pair is infeasible: its definition's constant decides the use.
pub const CONSTANT: &str = "static: the definition's constant decides the use";
/// Why a pair is infeasible: start-up code writes the global again before any use past it.
pub const STARTUP: &str = "static: start-up code redefines the global before the use";
/// Why a pair is infeasible: between the definition and the use, a call always writes the
/// global (`schedule()` sets `cur_proc` on every path before `if (cur_proc)`).
pub const CALLED: &str = "static: a call redefines the global on every path to the use";
/// Why a pair is infeasible: between the definition of a local and the use, a call receiving
/// its address redefines it on every path (`next_int(&prio)` before `if (prio > MAXPRIO)`).
pub const ADDRESS_CALL: &str =
    "static: a call receiving the variable's address redefines it on every path to the use";

/// Uses a definition reaches, each with the p-use's outcome (None for a c-use).
type Reach = HashSet<(UseId, Option<u32>)>;

/// Pairs no execution can cover.
pub fn infeasible_pairs(m: &Module, du: &DefUse) -> Vec<PairId> {
    infeasible_pairs_why(m, du)
        .into_iter()
        .map(|p| p.0)
        .collect()
}

/// Pairs no execution can cover, each with why (`CONSTANT`, `STARTUP`, `CALLED` or
/// `ADDRESS_CALL`).
pub fn infeasible_pairs_why(m: &Module, du: &DefUse) -> Vec<(PairId, &'static str)> {
    let mut by_def: HashMap<DefId, Vec<PairId>> = HashMap::new();
    for (id, p) in du.pairs.iter().enumerate() {
        by_def.entry(p.def).or_default().push(id as PairId);
    }
    let settled = Settled::compute(m, du);
    let calls = Calls::new(m);
    let mut out: Vec<(PairId, &'static str)> = (du.killed_by_calls(m).into_iter())
        .map(|p| (p, CALLED))
        .collect();
    // A use past the start reads a settled global's last store there, no other definition.
    for (id, p) in du.pairs.iter().enumerate() {
        let (d, u) = (&du.defs[p.def as usize], &du.uses[p.use_ as usize]);
        let site = match d.site {
            DefSite::At(at) => Some(at),
            DefSite::Entry => None,
        };
        if settled.writer(d.var, u.at).is_some_and(|w| w != site) {
            out.push((id as PairId, STARTUP));
        }
    }
    for (def, pairs) in by_def {
        if let Some((plain, constant)) = reached_from(m, du, &settled, def) {
            out.extend((pairs.into_iter()).filter_map(|p| {
                let pair = &du.pairs[p as usize];
                let at = (pair.use_, pair.outcome);
                if !plain.contains(&at) {
                    Some((p, ADDRESS_CALL))
                } else {
                    (constant.as_ref().is_some_and(|c| !c.contains(&at))).then_some((p, CONSTANT))
                }
            }));
        } else if let Some(value) = global_constant(m, du, &settled, def) {
            // Per function of a use that cannot run the definition: what it reaches from
            // the function's entry.
            let mut walked: HashMap<FuncId, Reach> = HashMap::new();
            for &p in &pairs {
                let f = du.uses[du.pairs[p as usize].use_ as usize].at.0;
                if !walked.contains_key(&f) && !calls.may_run(f, du.defs[def as usize].site) {
                    walked.insert(f, walk(m, du, &settled, def, Some(value), (f, 0, 0)));
                }
            }
            out.extend(
                (pairs.into_iter())
                    .filter(|&p| {
                        let pair = &du.pairs[p as usize];
                        let u = &du.uses[pair.use_ as usize];
                        let decided = pair.outcome.is_some_and(|o| {
                            decided_at_use(m, du, &settled, pair.use_, value)
                                .is_some_and(|x| x != o)
                        });
                        let unreached = (walked.get(&u.at.0))
                            .is_some_and(|r| !r.contains(&(pair.use_, pair.outcome)));
                        decided || unreached
                    })
                    .map(|p| (p, CONSTANT)),
            );
        }
    }
    out.sort_unstable();
    out.dedup_by_key(|p| p.0);
    out
}

/// The uses (with the outcomes of p-uses) a definition of a local reaches along def-clear
/// paths, a call receiving the local's address being a redefinition (the pairs themselves let
/// such a call leave the variable; as coverage counts them, it always ends the definition);
/// and, for a constant definition, those its value does not rule out. None for a global.
fn reached_from(
    m: &Module,
    du: &DefUse,
    settled: &Settled,
    def: DefId,
) -> Option<(Reach, Option<Reach>)> {
    let d = &du.defs[def as usize];
    let var = &du.vars[d.var as usize];
    var.func?;
    let DefSite::At((f, b, i)) = d.site else {
        return None;
    };
    let start = (f, b, i + 1);
    let value = stored_constant(m, settled, d.site, var.size);
    let constant = value.map(|v| walk(m, du, settled, def, Some(v), start));
    Some((walk(m, du, settled, def, None, start), constant))
}

/// The uses (with p-use outcomes) reachable from `start` within its function while `def`
/// holds, stopping at redefinitions; with its variable's `value`, following only the outcomes
/// that value allows where a block loads the variable. Writes the walk does not see (through
/// pointers, in callees) end the definition, so ignoring them only reaches more.
fn walk(
    m: &Module,
    du: &DefUse,
    settled: &Settled,
    def: DefId,
    value: Option<u64>,
    (f, b, i): InstAt,
) -> Reach {
    let d = &du.defs[def as usize];
    let var = &du.vars[d.var as usize];
    let func = &m.functions[f as usize];
    let redefines = |at: InstAt| {
        du.defs_at
            .get(&at)
            .is_some_and(|ds| ds.iter().any(|&x| du.defs[x as usize].var == d.var))
    };
    let mut reach = HashSet::new();
    let mut entered: HashSet<BlockId> = HashSet::new();
    let mut work = vec![(b, i as usize)];
    let slots = slots(func);
    while let Some((blk, from)) = work.pop() {
        let block = &func.blocks[blk as usize];
        let mut known = Known::new(&slots);
        let mut loaded: Vec<UseId> = vec![];
        let mut killed = false;
        for (k, inst) in block.insts.iter().enumerate().skip(from) {
            if redefines((f, blk, k as u32)) {
                killed = true;
                break;
            }
            if let Some(&u) = du.use_at.get(&(f, blk, k as u32))
                && du.uses[u as usize].var == d.var
            {
                if let (Inst::Load { dst, ty, .. }, Some(value)) = (inst, value) {
                    let exact = reliable(ty, value) && ty.store_size(m.data_model) == var.size;
                    if exact {
                        known
                            .regs
                            .insert(*dst, ops::mask(value, ty.bits(m.data_model)));
                    }
                }
                loaded.push(u);
                continue;
            }
            evaluate(m, settled, func, (f, blk, k as u32), inst, &mut known);
        }
        let decided = (!killed)
            .then(|| decider(&block.term))
            .flatten()
            .and_then(|r| known.regs.get(&r).copied())
            .and_then(|v| outcome_index(&block.term, v));
        for &u in &loaded {
            let n = du.uses[u as usize].outcomes.len() as u32;
            if n == 0 {
                reach.insert((u, None));
            }
            for o in 0..n {
                if decided.is_none_or(|x| x == o) {
                    reach.insert((u, Some(o)));
                }
            }
        }
        if killed {
            continue;
        }
        for (o, succ) in block.term.successors().into_iter().enumerate() {
            if decided.is_none_or(|x| x == o as u32) && entered.insert(succ) {
                work.push((succ, 0));
            }
        }
    }
    reach
}

/// Which functions a call may run: a global's definition holding at a use in a function that
/// cannot run it held since before the function was entered, so every load of the variable
/// there reads the definition's constant.
struct Calls {
    /// Per function, the functions its direct calls reach, itself included.
    reach: Vec<std::collections::BTreeSet<FuncId>>,
    /// Functions a call through a pointer (or a library function handed one) may run.
    address_taken: HashSet<FuncId>,
}

impl Calls {
    fn new(m: &Module) -> Calls {
        Calls {
            reach: crate::analysis::defuse::direct_call_closure(m),
            address_taken: crate::analysis::dead::address_taken_functions(m),
        }
    }

    /// Whether a run of `f` may execute the definition at `site` (the initial values'
    /// definition runs before everything).
    fn may_run(&self, f: FuncId, site: DefSite) -> bool {
        match site {
            DefSite::Entry => false,
            DefSite::At((g, _, _)) => {
                self.address_taken.contains(&g) || self.reach[f as usize].contains(&g)
            }
        }
    }
}

/// The constant a definition of a global stores (its initial value for the start's
/// definition).
fn global_constant(m: &Module, du: &DefUse, settled: &Settled, def: DefId) -> Option<u64> {
    let d = &du.defs[def as usize];
    let var = &du.vars[d.var as usize];
    var.global?;
    match d.site {
        DefSite::Entry => settled.initial(d.var),
        DefSite::At(_) => stored_constant(m, settled, d.site, var.size),
    }
}

/// The outcome of the branch a p-use decides when its load reads `value`: evaluated in the
/// use's own block, from the load to the terminator (None when something else decides it too).
fn decided_at_use(m: &Module, du: &DefUse, settled: &Settled, u: UseId, value: u64) -> Option<u32> {
    let (f, b, i) = du.uses[u as usize].at;
    let func = &m.functions[f as usize];
    let block = &func.blocks[b as usize];
    let Inst::Load { dst, ty, .. } = block.insts.get(i as usize)? else {
        return None;
    };
    let size = du.vars[du.uses[u as usize].var as usize].size;
    if !reliable(ty, value) || ty.store_size(m.data_model) != size {
        return None;
    }
    let slots = slots(func);
    let mut known = Known::new(&slots);
    known
        .regs
        .insert(*dst, ops::mask(value, ty.bits(m.data_model)));
    for (k, inst) in block.insts.iter().enumerate().skip(i as usize + 1) {
        evaluate(m, settled, func, (f, b, k as u32), inst, &mut known);
    }
    let v = known.regs.get(&decider(&block.term)?).copied()?;
    outcome_index(&block.term, v)
}

/// The constant a definition stores, if it stores the whole variable: a constant operand, or
/// a value its block computes from constants, settled globals (`s = NP;`) and what it stored
/// before (`b = 0; a = b;`).
fn stored_constant(m: &Module, settled: &Settled, site: DefSite, size: u32) -> Option<u64> {
    let DefSite::At((f, b, i)) = site else {
        return None;
    };
    let func = &m.functions[f as usize];
    let insts = &func.blocks[b as usize].insts;
    match insts.get(i as usize)? {
        Inst::Store { ty, val, .. } if ty.store_size(m.data_model) == size => {
            let v = func.constant(*val).or_else(|| {
                let slots = slots(func);
                let mut known = Known::new(&slots);
                for (k, inst) in insts[..i as usize].iter().enumerate() {
                    evaluate(m, settled, func, (f, b, k as u32), inst, &mut known);
                }
                known.regs.get(val).copied()
            })?;
            reliable(ty, v).then_some(v)
        }
        _ => None,
    }
}

/// A value of type `ty` the analysis may rely on: an integer, or the null pointer (every
/// object's address is nonzero and below 2^63 here and natively, so any comparison with null
/// comes out the same; other addresses are the interpreter's own).
fn reliable(ty: &Ty, value: u64) -> bool {
    matches!(ty, Ty::Int(_)) || (*ty == Ty::Ptr && value == 0)
}

/// Where a store went that a later load of the same block may read back: a constant address
/// (a global), or a stack slot of the function (`alloca`), which no store through another
/// register of the block can write without first passing through an unknown address.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    At(u64),
    Slot(Reg),
}

/// What is known at a point of a block: registers' values, and the integers the block stored
/// since the last instruction that may write memory it cannot name (a call, a store through a
/// computed pointer, a copy).
struct Known<'a> {
    regs: HashMap<Reg, u64>,
    stored: Vec<(Place, u32, u64)>,
    slots: &'a HashSet<Reg>,
}

impl<'a> Known<'a> {
    fn new(slots: &'a HashSet<Reg>) -> Self {
        Known {
            regs: HashMap::new(),
            stored: vec![],
            slots,
        }
    }

    fn place(&self, f: &Function, addr: Reg) -> Option<Place> {
        match f.constant(addr) {
            Some(a) => Some(Place::At(a)),
            None => self.slots.contains(&addr).then_some(Place::Slot(addr)),
        }
    }

    /// A store of `size` bytes to `place` (None: anywhere): what it may overlap is forgotten.
    fn overwrite(&mut self, place: Option<Place>, size: u32) {
        self.stored.retain(|&(p, n, _)| match (place, p) {
            (Some(Place::At(a)), Place::At(b)) => a + size as u64 <= b || b + n as u64 <= a,
            (Some(Place::At(_)), Place::Slot(_)) | (Some(Place::Slot(_)), Place::At(_)) => true,
            (Some(Place::Slot(a)), Place::Slot(b)) => a != b,
            (None, _) => false,
        });
    }
}

/// The function's stack slots (registers an `alloca` defines).
fn slots(f: &Function) -> HashSet<Reg> {
    (f.blocks.iter().flat_map(|b| &b.insts))
        .filter_map(|i| match i {
            Inst::Alloca { dst, .. } => Some(*dst),
            _ => None,
        })
        .collect()
}

/// Adds the value `inst` at `at` computes when its operands are known (constants or in
/// `known`), loads from a settled global, and loads of what the block stored before.
fn evaluate(
    m: &Module,
    settled: &Settled,
    f: &Function,
    at: InstAt,
    inst: &Inst,
    known: &mut Known,
) {
    if let Some((dst, v)) = settled.load(m, f, at, inst) {
        known.regs.insert(dst, v);
        return;
    }
    match inst {
        Inst::Load { dst, ty, addr } => {
            let (place, size) = (known.place(f, *addr), ty.store_size(m.data_model));
            let stored = (known.stored.iter().rev())
                .find(|&&(p, n, _)| Some(p) == place && n == size)
                .map(|s| s.2);
            if let Some(v) = stored.filter(|&v| reliable(ty, v)) {
                known.regs.insert(*dst, ops::mask(v, ty.bits(m.data_model)));
            }
            return;
        }
        Inst::Store { ty, addr, val } => {
            let (place, size) = (known.place(f, *addr), ty.store_size(m.data_model));
            known.overwrite(place, size);
            let v = known.regs.get(val).copied().or_else(|| f.constant(*val));
            if let (Some(p), Some(v)) = (place, v.filter(|&v| reliable(ty, v))) {
                known.stored.push((p, size, v));
            }
            return;
        }
        Inst::StoreAgg { .. }
        | Inst::Intrinsic { .. }
        | Inst::MemCopy { .. }
        | Inst::MemSet { .. }
        | Inst::VaStart { .. }
        | Inst::VaCopy { .. }
        | Inst::Call { .. }
        | Inst::CallExtern { .. } => known.overwrite(None, 0),
        _ => {}
    }
    let mut val = |r: Reg| known.regs.get(&r).copied().or_else(|| f.constant(r));
    if let Some((dst, Some(v))) = ops::eval_int(inst, &mut val, 64) {
        known.regs.insert(dst, v);
    }
}
