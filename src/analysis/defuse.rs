//! Def-use pairs of source variables (data-flow testing, the all-uses criterion).
//!
//! Works on a module compiled with locals kept in memory (`CompileOptions::locals_in_memory`):
//! every scalar local (parameters too, through their `.addr` slots) and every scalar global is
//! one address, a *definition* is a store to it (or a call receiving its address, which may
//! write it: `scanf("%d", &x)`), a *use* a load from it. Globals are also defined at the start
//! of the entry function (their initial values). A use whose value decides the branch that ends
//! its block is a p-use, giving one pair per branch outcome; any other use is a c-use.
//!
//! Reaching definitions: intraprocedural for locals (a call neither kills nor passes them),
//! interprocedural and context-insensitive for globals (definitions flow into callees; a call
//! returns the caller's definitions plus those made inside the callee's call closure). Calls
//! that may define a variable do not kill its other definitions, so the pairs over-approximate
//! the feasible ones; testing covers pairs, proofs show the others infeasible.

use crate::ir::operands::{inst_operands, term_operands};
use crate::ir::{BlockId, Callee, FuncId, Function, Inst, Loc, Module, Reg, Terminator, Ty, Val};
use std::collections::{BTreeSet, HashMap, HashSet};

pub type VarId = u32;
pub type DefId = u32;
pub type UseId = u32;
pub type PairId = u32;

/// An instruction: function, block, index in the block.
pub type InstAt = (FuncId, BlockId, u32);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Source name, from the debug information (two variables may share it: their pairs'
    /// lines tell them apart).
    pub name: String,
    /// The function owning a local; None for a global.
    pub func: Option<FuncId>,
    /// Index into `Module::globals` for a global.
    pub global: Option<u32>,
    /// The register holding a local's slot address.
    pub reg: Option<Reg>,
    /// Bytes of the variable.
    pub size: u32,
    /// Its address is taken (stored, passed, converted): pointers may redefine it.
    pub address_taken: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefSite {
    /// A store to the variable, or a call receiving its address.
    At(InstAt),
    /// A global's initial value, at the start of the entry function.
    Entry,
}

#[derive(Clone, Debug)]
pub struct Def {
    pub var: VarId,
    pub site: DefSite,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Use {
    pub var: VarId,
    pub at: InstAt,
    pub loc: Loc,
    /// Outcome labels of the branch this use decides (`true`/`false`, `case N`/`default`), in
    /// the order `outcome_index` numbers them; empty for a c-use.
    pub outcomes: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Pair {
    pub def: DefId,
    pub use_: UseId,
    /// For a p-use: the branch outcome (index into `Use::outcomes`).
    pub outcome: Option<u32>,
}

/// Variables, definitions, uses and def-use pairs of a module, with the lookups the dynamic
/// coverage tracker needs.
#[derive(Clone, Debug, Default)]
pub struct DefUse {
    pub vars: Vec<Variable>,
    pub defs: Vec<Def>,
    pub uses: Vec<Use>,
    pub pairs: Vec<Pair>,
    /// Definitions made at each instruction (a call may define several variables).
    pub defs_at: HashMap<InstAt, Vec<DefId>>,
    pub use_at: HashMap<InstAt, UseId>,
    pub pair_of: HashMap<(DefId, UseId, Option<u32>), PairId>,
    /// The entry function whose start defines the globals.
    pub entry: Option<FuncId>,
}

/// The branch outcome taken by a terminator, as `Use::outcomes` numbers them.
pub fn outcome_index(t: &Terminator, cond_value: u64) -> Option<u32> {
    match t {
        Terminator::CondBr { .. } => Some(if cond_value & 1 == 1 { 0 } else { 1 }),
        Terminator::Switch { cases, w, .. } => {
            let mask = if *w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
            let k = cases
                .iter()
                .position(|c| c.0 & mask == cond_value & mask)
                .unwrap_or(cases.len());
            Some(k as u32)
        }
        _ => None,
    }
}

/// The globals' addresses that some global's initial bytes hold (at any offset, as a pointer).
fn addresses_in_initializers(m: &Module) -> HashSet<u64> {
    let addrs: HashSet<u64> = m.globals.iter().map(|g| g.addr).collect();
    pointers_in_initializers(m)
        .filter(|v| addrs.contains(v))
        .collect()
}

/// Every pointer-sized word of the globals' initial bytes, at any offset.
pub fn pointers_in_initializers(m: &Module) -> impl Iterator<Item = u64> + '_ {
    let ptr = m.data_model.ptr_bytes() as usize;
    m.globals.iter().flat_map(move |g| {
        g.init.windows(ptr).map(move |w| {
            let mut b = [0u8; 8];
            b[..ptr].copy_from_slice(w);
            u64::from_le_bytes(b)
        })
    })
}

/// Per function, the functions its direct calls reach (transitively), itself included.
pub fn direct_call_closure(m: &Module) -> Vec<BTreeSet<FuncId>> {
    let callees: Vec<BTreeSet<FuncId>> = (m.functions.iter())
        .map(|f| {
            (f.blocks.iter().flat_map(|b| &b.insts))
                .filter_map(|i| match i {
                    Inst::Call {
                        callee: Callee::Func(t),
                        ..
                    } => Some(*t),
                    _ => None,
                })
                .collect()
        })
        .collect();
    (0..m.functions.len())
        .map(|f| {
            let mut seen = BTreeSet::from([f as FuncId]);
            let mut stack = vec![f as FuncId];
            while let Some(g) = stack.pop() {
                for &c in &callees[g as usize] {
                    if seen.insert(c) {
                        stack.push(c);
                    }
                }
            }
            seen
        })
        .collect()
}

/// The register deciding a terminator.
pub fn decider(t: &Terminator) -> Option<Reg> {
    match t {
        Terminator::CondBr { cond, .. } => Some(*cond),
        Terminator::Switch { val, .. } => Some(*val),
        _ => None,
    }
}

/// A deciding terminator's outcomes, named as its branch goals are (`true` may be the false
/// edge: see `lower::swapped_by_clang`).
fn outcome_labels(m: &Module, t: &Terminator) -> Vec<String> {
    match t {
        Terminator::CondBr {
            then_goal,
            else_goal,
            ..
        } => [then_goal, else_goal]
            .iter()
            .zip(["true", "false"])
            .map(|(g, plain)| match m.branch_goals.get(**g as usize) {
                Some(goal) => goal.outcome.clone(),
                None => plain.to_string(),
            })
            .collect(),
        Terminator::Switch { cases, .. } => cases
            .iter()
            .map(|c| format!("case {}", c.0 as i64))
            .chain(["default".to_string()])
            .collect(),
        _ => vec![],
    }
}

/// Library functions the program's own code calls: runtime functions and external ones by
/// name (the runtime's internal calls left out).
pub fn library_calls(m: &Module) -> std::collections::HashSet<&str> {
    use crate::ir::{Callee, Inst};
    let mut out = std::collections::HashSet::new();
    for f in m.functions.iter().filter(|f| !is_runtime(m, f)) {
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            match i {
                Inst::Call {
                    callee: Callee::Func(g),
                    ..
                } if is_runtime(m, &m.functions[*g as usize]) => {
                    out.insert(m.functions[*g as usize].name.as_str());
                }
                Inst::CallExtern { ext, .. } => {
                    out.insert(m.externs[*ext as usize].name.as_str());
                }
                _ => {}
            }
        }
    }
    out
}

pub fn is_runtime(m: &Module, f: &Function) -> bool {
    m.files
        .get(f.loc.file as usize)
        .is_some_and(|p| p.ends_with(crate::ir::frontend::RUNTIME_FILE))
}

fn is_const(f: &Function, r: Reg) -> bool {
    f.reg_tys.get(r as usize) == Some(&Ty::Void)
}

/// Compiler temporaries that are not source variables.
fn is_source_name(name: &str) -> bool {
    !name.is_empty()
        && name != "retval"
        && !name.starts_with("__")
        && (!name.contains('.') || name.ends_with(".addr"))
}

/// The source variable a stack slot holds: its name in the debug information; without debug
/// information, LLVM's name of the slot unless it is a compiler temporary.
fn local_name(f: &Function, slot: Reg) -> Option<String> {
    if !f.variables.is_empty() {
        return f.variables.get(&slot).cloned();
    }
    let name = f.reg_names.get(slot as usize)?;
    is_source_name(name).then(|| name.trim_end_matches(".addr").to_string())
}

impl DefUse {
    /// The def-use pairs of `m`, whose program starts at `entry`.
    pub fn compute(m: &Module, entry: &str) -> DefUse {
        let mut du = DefUse {
            entry: m.func_by_name.get(entry).copied(),
            ..Default::default()
        };
        du.find_variables(m);
        du.find_defs_and_uses(m);
        du.reaching_definitions(m);
        du
    }

    /// The variable an address register of `f` names, if any.
    fn slot(
        &self,
        m: &Module,
        f: &Function,
        r: Reg,
        locals: &HashMap<Reg, VarId>,
    ) -> Option<VarId> {
        if let Some(v) = locals.get(&r) {
            return Some(*v);
        }
        if !is_const(f, r) {
            return None;
        }
        let addr = *f.reg_init.get(r as usize)?;
        self.vars
            .iter()
            .position(|v| v.global.is_some_and(|g| m.globals[g as usize].addr == addr))
            .map(|v| v as VarId)
    }

    fn find_variables(&mut self, m: &Module) {
        // Candidate slots: scalar allocas of user functions and scalar writable globals.
        let mut local_regs: Vec<HashMap<Reg, VarId>> = vec![HashMap::new(); m.functions.len()];
        let mut dropped: BTreeSet<VarId> = BTreeSet::new();
        for f in m.functions.iter().filter(|f| !is_runtime(m, f)) {
            for b in &f.blocks {
                for i in &b.insts {
                    let Inst::Alloca {
                        dst,
                        elem_size,
                        count,
                        ..
                    } = i
                    else {
                        continue;
                    };
                    let one = is_const(f, *count) && f.reg_init[*count as usize] == 1;
                    let Some(name) = local_name(f, *dst) else {
                        continue;
                    };
                    if !one || *elem_size > 8 {
                        continue;
                    }
                    local_regs[f.id as usize].insert(*dst, self.vars.len() as VarId);
                    self.vars.push(Variable {
                        name,
                        func: Some(f.id),
                        global: None,
                        reg: Some(*dst),
                        size: *elem_size as u32,
                        address_taken: false,
                    });
                }
            }
        }
        let held = addresses_in_initializers(m);
        for (gi, g) in m.globals.iter().enumerate() {
            let name = match &g.source_name {
                Some(n) => n.clone(),
                None if is_source_name(&g.name) => g.name.clone(),
                None => continue,
            };
            if g.read_only || g.size == 0 || g.size > 8 || g.name.starts_with("__") {
                continue;
            }
            self.vars.push(Variable {
                name,
                func: None,
                global: Some(gi as u32),
                reg: None,
                size: g.size as u32,
                // `int *p = &g;`: taken without an instruction taking it.
                address_taken: held.contains(&g.addr),
            });
        }
        // Accesses: loads and stores of the whole slot are uses and definitions; the slot as
        // a value makes the variable address-taken; as the base of an address computation or
        // a block copy it is not a scalar.
        let mut accessed = vec![false; self.vars.len()];
        for f in m.functions.iter().filter(|f| !is_runtime(m, f)) {
            let locals = &local_regs[f.id as usize];
            for b in &f.blocks {
                for i in &b.insts {
                    let slot_var = |du: &DefUse, r: Reg| du.slot(m, f, r, locals);
                    match i {
                        Inst::Load { addr, ty, .. } | Inst::Store { addr, ty, .. }
                            if slot_var(self, *addr).is_some() =>
                        {
                            let v = slot_var(self, *addr).unwrap();
                            if ty.store_size(m.data_model) == self.vars[v as usize].size {
                                accessed[v as usize] = true;
                            } else {
                                dropped.insert(v);
                            }
                            if let Inst::Store { val, .. } = i
                                && let Some(w) = slot_var(self, *val)
                            {
                                self.vars[w as usize].address_taken = true;
                            }
                        }
                        Inst::Gep { base, .. } if slot_var(self, *base).is_some() => {
                            dropped.insert(slot_var(self, *base).unwrap());
                        }
                        Inst::Alloca { .. } => {}
                        _ => {
                            let mut regs = inst_operands(i);
                            if let Inst::Call { args, .. } | Inst::CallExtern { args, .. } = i {
                                regs.extend(args.iter().filter_map(|a| match a {
                                    Val::Reg(r, _) => Some(*r),
                                    _ => None,
                                }));
                            }
                            for r in regs {
                                if let Some(v) = slot_var(self, r) {
                                    match i {
                                        Inst::MemCopy { .. }
                                        | Inst::MemSet { .. }
                                        | Inst::LoadAgg { .. }
                                        | Inst::StoreAgg { .. } => {
                                            dropped.insert(v);
                                        }
                                        _ => self.vars[v as usize].address_taken = true,
                                    }
                                }
                            }
                        }
                    }
                }
                for r in term_operands(&b.term) {
                    if let Some(v) = self.slot(m, f, r, locals) {
                        self.vars[v as usize].address_taken = true;
                    }
                }
            }
        }
        // The runtime's own code (getopt's `optind`) writes globals by name, with no definition
        // the probes see: to the analysis, their address is taken.
        let none = HashMap::new();
        for f in m.functions.iter().filter(|f| is_runtime(m, f)) {
            for b in &f.blocks {
                let regs = b.insts.iter().flat_map(inst_operands);
                for r in regs.chain(term_operands(&b.term)) {
                    if let Some(v) = self.slot(m, f, r, &none) {
                        self.vars[v as usize].address_taken = true;
                    }
                }
            }
        }
        // Renumber the variables kept.
        let keep: Vec<bool> = (0..self.vars.len())
            .map(|v| accessed[v] && !dropped.contains(&(v as VarId)))
            .collect();
        let mut k = 0;
        self.vars.retain(|_| {
            k += 1;
            keep[k - 1]
        });
    }

    /// Registers of `f` holding the address of one of its local variables.
    fn local_slots(&self, f: &Function) -> HashMap<Reg, VarId> {
        self.vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.func == Some(f.id))
            .filter_map(|(i, v)| Some((v.reg?, i as VarId)))
            .collect()
    }

    fn find_defs_and_uses(&mut self, m: &Module) {
        if let Some(e) = self.entry {
            let loc = m.functions[e as usize].loc;
            for v in 0..self.vars.len() {
                if self.vars[v].global.is_some() {
                    self.defs.push(Def {
                        var: v as VarId,
                        site: DefSite::Entry,
                        loc,
                    });
                }
            }
        }
        for f in m.functions.iter().filter(|f| !is_runtime(m, f)) {
            let locals = self.local_slots(f);
            let var_of = |du: &DefUse, r: Reg| du.slot(m, f, r, &locals);
            let indeterminate = indeterminate_values(m, f);
            for (bi, b) in f.blocks.iter().enumerate() {
                let decider = decider(&b.term);
                // Loads of a variable on one line with no definition or call in between are
                // one use (`d * d` reads `d` twice): the last such use of each variable.
                let mut same_use: HashMap<VarId, UseId> = HashMap::new();
                for (ii, i) in b.insts.iter().enumerate() {
                    let at = (f.id, bi as BlockId, ii as u32);
                    let loc = b.locs[ii];
                    match i {
                        // The indeterminate value a slot starts with is no definition.
                        Inst::Store { addr, val, .. } if !indeterminate.contains(val) => {
                            if let Some(v) = var_of(self, *addr) {
                                // Parameters are stored to their slots at entry, unlocated.
                                let loc = if loc.line == 0 { f.loc } else { loc };
                                self.add_def(v, at, loc);
                                same_use.remove(&v);
                            }
                        }
                        Inst::Load { addr, dst, .. } => {
                            if let Some(v) = var_of(self, *addr) {
                                let decides = decider.is_some_and(|d| {
                                    flows_to(&b.insts[ii + 1..], *dst, d, &b.term)
                                });
                                let outcomes = if decides {
                                    outcome_labels(m, &b.term)
                                } else {
                                    vec![]
                                };
                                if let Some(&u) = same_use.get(&v) {
                                    let first = &self.uses[u as usize];
                                    if first.loc.line == loc.line && first.outcomes == outcomes {
                                        self.use_at.insert(at, u);
                                        continue;
                                    }
                                }
                                same_use.insert(v, self.uses.len() as UseId);
                                self.use_at.insert(at, self.uses.len() as UseId);
                                self.uses.push(Use {
                                    var: v,
                                    at,
                                    loc,
                                    outcomes,
                                });
                            }
                        }
                        Inst::Call { args, .. } | Inst::CallExtern { args, .. } => {
                            same_use.clear();
                            for a in args {
                                if let Val::Reg(r, _) = a
                                    && let Some(v) = var_of(self, *r)
                                {
                                    self.add_def(v, at, loc);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn add_def(&mut self, var: VarId, at: InstAt, loc: Loc) {
        let d = self.defs.len() as DefId;
        self.defs.push(Def {
            var,
            site: DefSite::At(at),
            loc,
        });
        self.defs_at.entry(at).or_default().push(d);
    }

    fn is_global_def(&self, d: DefId) -> bool {
        self.vars[self.defs[d as usize].var as usize]
            .global
            .is_some()
    }

    /// Reaching definitions over the whole program, then one pair per (reaching definition,
    /// use, outcome).
    fn reaching_definitions(&mut self, m: &Module) {
        self.pairs = self.reach(m, &vec![BTreeSet::new(); m.functions.len()]);
        for (id, p) in self.pairs.iter().enumerate() {
            self.pair_of
                .insert((p.def, p.use_, p.outcome), id as PairId);
        }
    }

    /// Pairs whose definition cannot reach the use because a call on every path between them
    /// runs a function that writes the (global) variable on every path through it: the
    /// reaching definitions again, with those calls killing the caller's definitions.
    pub fn killed_by_calls(&self, m: &Module) -> Vec<PairId> {
        let must = self.written_by_every_call(m);
        if must.iter().all(BTreeSet::is_empty) {
            return vec![];
        }
        let kept: HashSet<(DefId, UseId, Option<u32>)> = (self.reach(m, &must).into_iter())
            .map(|p| (p.def, p.use_, p.outcome))
            .collect();
        (self.pairs.iter().enumerate())
            .filter(|(_, p)| !kept.contains(&(p.def, p.use_, p.outcome)))
            .map(|(id, _)| id as PairId)
            .collect()
    }

    /// Per function, the globals (address never taken) that every call of it writes before it
    /// returns: a store on every path to a return, or a call that writes them. A least fixpoint
    /// over the call graph (a recursive call writes nothing until shown otherwise).
    fn written_by_every_call(&self, m: &Module) -> Vec<BTreeSet<VarId>> {
        let nf = m.functions.len();
        let mut must: Vec<BTreeSet<VarId>> = vec![BTreeSet::new(); nf];
        let mut changed = true;
        while changed {
            changed = false;
            for (fi, f) in m.functions.iter().enumerate() {
                if f.blocks.is_empty() || is_runtime(m, f) {
                    continue;
                }
                let mut preds: Vec<Vec<usize>> = vec![vec![]; f.blocks.len()];
                for (b, block) in f.blocks.iter().enumerate() {
                    for s in block.term.successors() {
                        preds[s as usize].push(b);
                    }
                }
                // Written on every path from the entry to a block's end (None: no path yet).
                let mut out: Vec<Option<BTreeSet<VarId>>> = vec![None; f.blocks.len()];
                let mut moved = true;
                while moved {
                    moved = false;
                    for (b, block) in f.blocks.iter().enumerate() {
                        let mut cur = if b == 0 {
                            Some(BTreeSet::new())
                        } else {
                            (preds[b].iter().filter_map(|&p| out[p].as_ref())).fold(
                                None,
                                |acc: Option<BTreeSet<VarId>>, o| match acc {
                                    None => Some(o.clone()),
                                    Some(a) => Some(a.intersection(o).copied().collect()),
                                },
                            )
                        };
                        if let Some(cur) = cur.as_mut() {
                            for (ii, i) in block.insts.iter().enumerate() {
                                let at = (fi as FuncId, b as BlockId, ii as u32);
                                match i {
                                    Inst::Store { .. } => {
                                        cur.extend(
                                            self.defs_at
                                                .get(&at)
                                                .into_iter()
                                                .flatten()
                                                .map(|&d| self.defs[d as usize].var)
                                                .filter(|&v| {
                                                    let v = &self.vars[v as usize];
                                                    v.global.is_some() && !v.address_taken
                                                }),
                                        );
                                    }
                                    Inst::Call {
                                        callee: Callee::Func(t),
                                        ..
                                    } => cur.extend(must[*t as usize].iter().copied()),
                                    _ => {}
                                }
                            }
                        }
                        if cur.is_some() && cur != out[b] {
                            out[b] = cur;
                            moved = true;
                        }
                    }
                }
                let returns = (f.blocks.iter().enumerate())
                    .filter(|(_, b)| matches!(b.term, Terminator::Ret { .. }))
                    .map(|(b, _)| out[b].clone().unwrap_or_default());
                let w = returns
                    .reduce(|a, o| a.intersection(&o).copied().collect())
                    .unwrap_or_default();
                if w != must[fi] {
                    must[fi] = w;
                    changed = true;
                }
            }
        }
        must
    }

    /// Reaching definitions, where a call to `t` kills the caller's definitions of the
    /// variables in `must[t]` (none for the pairs themselves: a call may leave a variable).
    fn reach(&self, m: &Module, must: &[BTreeSet<VarId>]) -> Vec<Pair> {
        let nf = m.functions.len();
        // Functions each function may call (transitively), for what a call returns.
        let closure = direct_call_closure(m);
        let def_func: Vec<Option<FuncId>> = self
            .defs
            .iter()
            .map(|d| match d.site {
                DefSite::At((f, _, _)) => Some(f),
                DefSite::Entry => None,
            })
            .collect();
        let block_in: Vec<Vec<BTreeSet<DefId>>> = m
            .functions
            .iter()
            .map(|f| vec![BTreeSet::new(); f.blocks.len()])
            .collect();
        let mut block_in = block_in;
        let mut exit: Vec<BTreeSet<DefId>> = vec![BTreeSet::new(); nf];
        if let Some(e) = self.entry
            && !m.functions[e as usize].blocks.is_empty()
        {
            block_in[e as usize][0].extend(
                (0..self.defs.len() as DefId)
                    .filter(|d| self.defs[*d as usize].site == DefSite::Entry),
            );
        }
        let kills = |du: &DefUse, set: &mut BTreeSet<DefId>, var: VarId| {
            set.retain(|d| du.defs[*d as usize].var != var);
        };
        let mut pairs = vec![];
        // Iterate to a fixpoint (programs are small; each pass is linear in the program).
        let mut changed = true;
        while changed {
            changed = false;
            for (fi, f) in m.functions.iter().enumerate() {
                if is_runtime(m, f) {
                    continue;
                }
                for (bi, b) in f.blocks.iter().enumerate() {
                    let mut cur = block_in[fi][bi].clone();
                    for (ii, i) in b.insts.iter().enumerate() {
                        let at = (fi as FuncId, bi as BlockId, ii as u32);
                        if let Inst::Call {
                            callee: Callee::Func(t),
                            ..
                        } = i
                        {
                            let t = *t as usize;
                            if !m.functions[t].blocks.is_empty() && !is_runtime(m, &m.functions[t])
                            {
                                let into: BTreeSet<DefId> = cur
                                    .iter()
                                    .copied()
                                    .filter(|d| self.is_global_def(*d))
                                    .collect();
                                let before = block_in[t][0].len();
                                block_in[t][0].extend(into);
                                changed |= block_in[t][0].len() != before;
                                cur.retain(|d| !must[t].contains(&self.defs[*d as usize].var));
                                cur.extend(exit[t].iter().copied().filter(|d| {
                                    self.is_global_def(*d)
                                        && def_func[*d as usize]
                                            .is_some_and(|g| closure[t].contains(&g))
                                }));
                            }
                        }
                        if let Some(ds) = self.defs_at.get(&at) {
                            // A store replaces the variable's value; a call may leave it.
                            if let Inst::Store { .. } = i {
                                for d in ds {
                                    kills(self, &mut cur, self.defs[*d as usize].var);
                                }
                            }
                            cur.extend(ds.iter().copied());
                        }
                    }
                    match &b.term {
                        Terminator::Ret { .. } => {
                            let before = exit[fi].len();
                            exit[fi].extend(cur.iter().copied());
                            changed |= exit[fi].len() != before;
                        }
                        t => {
                            for s in t.successors() {
                                let dst = &mut block_in[fi][s as usize];
                                let before = dst.len();
                                dst.extend(cur.iter().copied());
                                changed |= dst.len() != before;
                            }
                        }
                    }
                }
            }
        }
        // Pairs: walk each block again with its fixpoint input.
        for (fi, f) in m.functions.iter().enumerate() {
            if is_runtime(m, f) {
                continue;
            }
            for (bi, b) in f.blocks.iter().enumerate() {
                let mut cur = block_in[fi][bi].clone();
                for (ii, i) in b.insts.iter().enumerate() {
                    let at = (fi as FuncId, bi as BlockId, ii as u32);
                    let first_load = |u: &&UseId| self.uses[**u as usize].at == at;
                    if let Some(&u) = self.use_at.get(&at).filter(first_load) {
                        let var = self.uses[u as usize].var;
                        let n = self.uses[u as usize].outcomes.len();
                        for &d in cur.iter().filter(|d| self.defs[**d as usize].var == var) {
                            let outs: Vec<Option<u32>> = if n == 0 {
                                vec![None]
                            } else {
                                (0..n as u32).map(Some).collect()
                            };
                            for o in outs {
                                pairs.push(Pair {
                                    def: d,
                                    use_: u,
                                    outcome: o,
                                });
                            }
                        }
                    }
                    if let Inst::Call {
                        callee: Callee::Func(t),
                        ..
                    } = i
                    {
                        let t = *t as usize;
                        if !m.functions[t].blocks.is_empty() && !is_runtime(m, &m.functions[t]) {
                            let clo = &closure[t];
                            cur.retain(|d| !must[t].contains(&self.defs[*d as usize].var));
                            cur.extend(exit[t].iter().copied().filter(|d| {
                                self.is_global_def(*d)
                                    && def_func[*d as usize].is_some_and(|g| clo.contains(&g))
                            }));
                        }
                    }
                    if let Some(ds) = self.defs_at.get(&at) {
                        if let Inst::Store { .. } = i {
                            for d in ds {
                                kills(self, &mut cur, self.defs[*d as usize].var);
                            }
                        }
                        cur.extend(ds.iter().copied());
                    }
                }
            }
        }
        pairs
    }

    /// `variable def LINE c-use LINE` or `... p-use LINE OUTCOME`, for listings; `LINE:COLUMN`
    /// where the variable has two definitions (uses) on the line.
    pub fn describe(&self, p: PairId) -> String {
        let p = &self.pairs[p as usize];
        let d = &self.defs[p.def as usize];
        let u = &self.uses[p.use_ as usize];
        let v = &self.vars[u.var as usize];
        // A line is ambiguous when the variable has two definitions (uses) on it.
        let place = |loc: Loc, shared: bool| match shared {
            true => format!("{}:{}", loc.line, loc.col),
            false => loc.line.to_string(),
        };
        let def = match d.site {
            DefSite::Entry => "entry".to_string(),
            DefSite::At(_) => place(
                d.loc,
                self.defs
                    .iter()
                    .any(|o| o.var == d.var && o.loc.line == d.loc.line && o.loc != d.loc),
            ),
        };
        let use_ = place(
            u.loc,
            self.uses
                .iter()
                .any(|o| o.var == u.var && o.loc.line == u.loc.line && o.loc != u.loc),
        );
        match p.outcome {
            Some(o) => format!(
                "{} def {def} p-use {use_} {}",
                v.name, u.outcomes[o as usize]
            ),
            None => format!("{} def {def} c-use {use_}", v.name),
        }
    }
}

/// Registers of `f` holding the indeterminate value a local starts with (see `ir::normalize`).
fn indeterminate_values(m: &Module, f: &Function) -> BTreeSet<Reg> {
    let mut regs = BTreeSet::new();
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        let (name, ret) = match i {
            Inst::Call {
                callee: Callee::Func(t),
                ret,
                ..
            } => (&m.functions[*t as usize].name, ret),
            Inst::CallExtern { ext, ret, .. } => (&m.externs[*ext as usize].name, ret),
            _ => continue,
        };
        // A local's initial value is no definition, an input one either: the pairs do not
        // depend on `--uninitialized-inputs`.
        let seed = name.starts_with(crate::ir::normalize::INDETERMINATE)
            || name.starts_with(crate::ir::normalize::UNINITIALIZED_INPUT);
        if let (true, Some(Val::Reg(r, _))) = (seed, ret) {
            regs.insert(*r);
        }
    }
    regs
}

/// Does the value loaded into `from` decide the terminator (through the block's later
/// instructions)?
fn flows_to(rest: &[Inst], from: Reg, decider: Reg, _t: &Terminator) -> bool {
    let mut derived = BTreeSet::from([from]);
    for i in rest {
        if inst_operands(i).iter().any(|r| derived.contains(r))
            && let Some(Val::Reg(d, _)) = crate::ir::operands::inst_dst(i)
        {
            derived.insert(d);
        }
    }
    derived.contains(&decider)
}

impl DefUse {
    /// Native probes for the pairs' claims (goal of pair `p`: `goal_base + p`): a probe at
    /// every store definition and every use, and at the entry and returns of functions with
    /// local variables. Definitions by a call receiving the variable's address have none, and
    /// stores through pointers may redefine an address-taken variable unseen: the pairs of
    /// such variables are checked by line.
    pub fn native_probes(&self, m: &Module, goal_base: usize) -> crate::ir::probes::DefUseProbes {
        use crate::ir::probes::{DefUseProbes, ProbeKind, ProbeSite, Storage};
        const KEY: u32 = 1 << 31;
        let mut out = DefUseProbes {
            var_init: vec![0; self.vars.len()],
            use_var: self.uses.iter().map(|u| u.var).collect(),
            use_pairs: vec![vec![]; self.uses.len()],
            ..Default::default()
        };
        // Per function, its allocas' ordinals by register.
        let allocas: Vec<HashMap<Reg, u32>> = m
            .functions
            .iter()
            .map(|f| {
                let regs = f
                    .blocks
                    .iter()
                    .flat_map(|b| &b.insts)
                    .filter_map(|i| match i {
                        Inst::Alloca { dst, .. } => Some(*dst),
                        _ => None,
                    });
                regs.enumerate().map(|(k, r)| (r, k as u32)).collect()
            })
            .collect();
        let storage = |f: &Function, r: Reg| -> Option<Storage> {
            let a = &allocas[f.id as usize];
            if let Some(&nth) = a.get(&r) {
                return Some(Storage::Alloca {
                    nth,
                    of: a.len() as u32,
                });
            }
            if !is_const(f, r) {
                return None;
            }
            let addr = *f.reg_init.get(r as usize)?;
            m.globals
                .iter()
                .find(|g| g.addr == addr)
                .map(|g| Storage::Global(g.name.clone()))
        };
        // The instruction at `at`, where it accesses, and how many accesses of the same kind to
        // the same place come before it in its block.
        let access = |at: InstAt| -> Option<(Storage, u32)> {
            let f = &m.functions[at.0 as usize];
            let b = &f.blocks[at.1 as usize];
            let addr_of = |i: &Inst, store: bool| match (i, store) {
                (Inst::Store { addr, .. }, true) | (Inst::Load { addr, .. }, false) => Some(*addr),
                _ => None,
            };
            let inst = b.insts.get(at.2 as usize)?;
            let store = matches!(inst, Inst::Store { .. });
            let place = storage(f, addr_of(inst, store)?)?;
            let nth = b.insts[..at.2 as usize]
                .iter()
                .filter_map(|i| addr_of(i, store))
                .filter(|&r| storage(f, r).as_ref() == Some(&place))
                .count() as u32;
            Some((place, nth))
        };
        let mut def_key: HashMap<DefId, u32> = HashMap::new();
        let mut use_key: HashMap<UseId, u32> = HashMap::new();
        let mut frame_key: HashMap<FuncId, u32> = HashMap::new();
        for (d, def) in self.defs.iter().enumerate() {
            let at = match def.site {
                DefSite::Entry => {
                    out.var_init[def.var as usize] = d as u32 + 1;
                    continue;
                }
                DefSite::At(at) => at,
            };
            let Some((storage, nth)) = access(at) else {
                continue;
            };
            let key = KEY + out.sites.len() as u32;
            def_key.insert(d as DefId, key);
            out.sites.push(ProbeSite {
                func: m.functions[at.0 as usize].name.clone(),
                block: at.1,
                line: def.loc.line,
                kind: ProbeKind::Def {
                    storage,
                    nth,
                    var: def.var,
                    def: d as u32,
                    key,
                },
            });
        }
        for (u, use_) in self.uses.iter().enumerate() {
            let (f, b) = (&m.functions[use_.at.0 as usize], use_.at.1);
            let key = KEY + out.sites.len() as u32;
            let kind = if use_.outcomes.is_empty() {
                let Some((storage, nth)) = access(use_.at) else {
                    continue;
                };
                ProbeKind::Use {
                    storage,
                    nth,
                    use_: u as u32,
                    key,
                }
            } else {
                let cases = match &f.blocks[b as usize].term {
                    Terminator::CondBr { .. } => None,
                    Terminator::Switch { cases, .. } => Some(cases.iter().map(|c| c.0).collect()),
                    _ => continue,
                };
                let Some((storage, nth)) = access(use_.at) else {
                    continue;
                };
                ProbeKind::PUse {
                    use_: u as u32,
                    cases,
                    storage,
                    nth,
                    key,
                }
            };
            use_key.insert(u as UseId, key);
            let line = match kind {
                ProbeKind::Use { .. } => use_.loc.line,
                _ => f.blocks[b as usize].term_loc.line,
            };
            out.sites.push(ProbeSite {
                func: f.name.clone(),
                block: b,
                line,
                kind,
            });
        }
        for (v, var) in self.vars.iter().enumerate() {
            let Some(f) = var.func else { continue };
            let k = *frame_key.entry(f).or_insert_with(|| {
                out.func_vars.push(vec![]);
                let key = KEY + out.sites.len() as u32;
                out.sites.push(ProbeSite {
                    func: m.functions[f as usize].name.clone(),
                    block: 0,
                    line: 0,
                    kind: ProbeKind::Frame {
                        func: out.func_vars.len() as u32 - 1,
                        key,
                    },
                });
                key
            });
            let ProbeKind::Frame { func, .. } = out.sites[(k - KEY) as usize].kind else {
                unreachable!()
            };
            out.func_vars[func as usize].push(v as u32);
        }
        // A variable whose address is taken, or with a definition no probe marks (a call
        // receiving its address), may be redefined where the native runtime cannot see it:
        // its last definition there would be stale, so its pairs are checked by line only.
        let mut unseen = vec![false; self.vars.len()];
        for (v, var) in self.vars.iter().enumerate() {
            unseen[v] |= var.address_taken;
        }
        for (d, def) in self.defs.iter().enumerate() {
            if matches!(def.site, DefSite::At(_)) && !def_key.contains_key(&(d as DefId)) {
                unseen[def.var as usize] = true;
            }
        }
        for (p, pair) in self.pairs.iter().enumerate() {
            let goal = (goal_base + p) as u32;
            let var_id = self.uses[pair.use_ as usize].var;
            if unseen[var_id as usize] {
                continue;
            }
            let outcome = pair.outcome.map_or(-1, |o| o as i32);
            out.use_pairs[pair.use_ as usize].push((pair.def, outcome, goal));
            let var = &self.vars[var_id as usize];
            let mut needs = vec![];
            match self.defs[pair.def as usize].site {
                DefSite::Entry => {}
                DefSite::At(_) => match def_key.get(&pair.def) {
                    Some(&k) => needs.push(k),
                    None => continue,
                },
            }
            let Some(&k) = use_key.get(&pair.use_) else {
                continue;
            };
            needs.push(k);
            if let Some(f) = var.func {
                needs.push(frame_key[&f]);
            }
            out.needs.push((goal, needs));
        }
        out
    }
}
