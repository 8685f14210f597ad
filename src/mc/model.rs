//! The program as the model checker sees it: locations, and the symbolic *effect* of each
//! straight-line segment between locations (assignments, guards, havocs).
//!
//! What is modelled (sound over-approximation of the interpreter's semantics):
//! - scalar SSA registers of every function, exactly, as bit-vectors;
//! - "tracked" global cells: scalar globals whose address is only ever used directly as the
//!   address of loads and stores of one type (so nothing can alias them), with their initial
//!   values; likewise tracked stack slots, a function's allocas used only that way (locals kept
//!   in memory, as data-flow testing compiles them), indeterminate when the alloca runs;
//! - everything else read from memory, floating-point results, aggregates and the results of
//!   library calls are *havoc* (unconstrained fresh values); stores to untracked memory are
//!   ignored; inputs are havocs that the test generator maps back to input values;
//! - `abort`, `exit`, failed assertions and error functions end a path; assumptions are guards.
//!
//! Calls of program functions are inlined (the call stack is part of the abstract state);
//! recursive calls and calls through function pointers are havoc, and every goal in code they
//! could reach is excluded from proofs.

use crate::ir::externs::Ext;
use crate::ir::inputs::InputKind;
pub use crate::ir::operands::{edges, inst_dst, inst_operands, term_operands};
use crate::ir::*;
use crate::smt::expr::{ExprId, Pool, VarKey};
use std::collections::{HashMap, HashSet};

/// A program location: a block start, or a call instruction inside a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub func: FuncId,
    pub block: BlockId,
    pub ip: u32,
}

/// Model variables are Pool variables with `input` = variable index, `byte` = SSA version.
#[derive(Clone, Debug)]
pub enum VarKind {
    Reg(FuncId, Reg),
    Global(u64),
    /// The value held by a tracked stack slot (the alloca's register) of a function.
    Slot(FuncId, Reg),
    /// A fresh value created by one effect (an input when `input` is Some).
    Havoc(Option<InputKind>),
}

/// The symbolic effect of one segment, over version-0 variables and its own havocs.
#[derive(Clone, Debug, Default)]
pub struct Effect {
    /// Parallel assignments (relative to the segment's start state).
    pub assigns: Vec<(u32, ExprId)>,
    pub guards: Vec<ExprId>,
    /// Havoc variables this effect creates, in execution order.
    pub havocs: Vec<u32>,
}

/// Where control goes after a segment.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    Goto(Loc),
    /// Inline call: push the return location, enter the callee.
    Call {
        callee: FuncId,
        ret_to: Loc,
    },
    /// Return from the current function (value already assigned to the caller's register).
    Return,
    /// The path ends (exit, abort, error function, unreachable).
    End,
}

#[derive(Clone, Debug)]
pub struct Transition {
    pub effect: Effect,
    pub next: Next,
    /// Branch goal covered by taking this transition.
    pub goal: Option<GoalId>,
    /// Error-call site reached by this transition.
    pub error_site: Option<u32>,
}

pub struct Model<'m> {
    pub m: &'m Module,
    pub exts: &'m [Ext],
    pub pool: Pool,
    pub vars: Vec<VarKind>,
    widths: Vec<u8>,
    reg_var: HashMap<(FuncId, Reg), u32>,
    global_var: HashMap<u64, u32>,
    /// Tracked global cells: address → (type, initial value).
    pub tracked: HashMap<u64, (Ty, u64)>,
    /// Tracked stack slots: (function, alloca register) → the one type it is accessed as.
    slots: HashMap<(FuncId, Reg), Ty>,
    slot_var: HashMap<(FuncId, Reg), u32>,
    is_const: Vec<Vec<bool>>,
    /// Functions whose goals no proof may claim (reachable from havocked calls).
    pub unprovable_funcs: HashSet<FuncId>,
    /// Why each unprovable function is.
    pub unprovable_why: HashMap<FuncId, String>,
    /// What can run outside the visible calls.
    pub escapes: crate::analysis::escape::Escapes,
    /// Tracked globals that some escaping function may write.
    callback_writes: Vec<u64>,
    /// Functions that make indirect calls or call unknown external functions.
    calls_back: HashSet<FuncId>,
    /// Why escaping functions may run outside the model's calls (then no goal in them is
    /// provable); None in a closed world, where indirect calls enter the escaping functions
    /// they may reach.
    pub open_world: Option<String>,
    /// Unit mode: the entry is not `main`, constructors are not explored.
    unit: bool,
    /// Reads whose value every run shares (`Settled::reads`): the model takes the constant.
    pub settled: HashMap<(FuncId, BlockId, u32), u64>,
    /// What the model gives up on, for the summary.
    pub notes: Vec<String>,
    /// Runtime (library) functions, summarized instead of inlined.
    pub summarized: HashSet<FuncId>,
    /// Tracked globals a summarized function may write (transitively).
    pub writes: HashMap<FuncId, Vec<u64>>,
    cache: HashMap<(Loc, usize), Vec<Transition>>,
    pub ptr_bits: u32,
}

/// Runtime functions explored like program code: the start routine, constructors,
/// destructors and `exit` (which runs the atexit handlers and destructors).
const STARTUP: &[&str] = &["__cairn_start", "__cairn_ctors", "__cairn_dtors", "exit"];

/// Library functions that install signal handlers.
const INSTALLS_HANDLER: &[&str] = &[
    "signal",
    "sigaction",
    "sigset",
    "bsd_signal",
    "sysv_signal",
    "__sysv_signal",
];

fn is_terminating(name: &str) -> bool {
    matches!(
        name,
        "abort"
            | "exit"
            | "_exit"
            | "_Exit"
            | "__cairn_exit"
            | "__assert_fail"
            | "__assert_perror_fail"
            | "__assert"
            | "reach_error"
            | "__VERIFIER_error"
    )
}

impl<'m> Model<'m> {
    /// The model of `m`; `unit` when the entry is a function other than `main` (then the
    /// runtime's start routine and the constructors are not part of the explored program).
    pub fn new(m: &'m Module, exts: &'m [Ext], unit: bool) -> Model<'m> {
        let is_const = m
            .functions
            .iter()
            .map(|f| {
                let mut c = vec![true; f.num_regs as usize];
                for p in &f.params {
                    if let Val::Reg(r, _) = p {
                        c[*r as usize] = false;
                    }
                }
                // `undef` is whatever was there natively: an unconstrained value, not 0.
                for r in &f.undef_regs {
                    c[*r as usize] = false;
                }
                for b in &f.blocks {
                    for i in &b.insts {
                        if let Some(Val::Reg(d, _)) = inst_dst(i) {
                            c[d as usize] = false;
                        }
                    }
                    for e in edges(&b.term) {
                        for (d, _) in &e.moves.regs {
                            c[*d as usize] = false;
                        }
                    }
                }
                c
            })
            .collect();
        let mut model = Model {
            m,
            exts,
            pool: Pool::new(),
            vars: vec![],
            widths: vec![],
            reg_var: HashMap::new(),
            global_var: HashMap::new(),
            tracked: HashMap::new(),
            slots: HashMap::new(),
            slot_var: HashMap::new(),
            is_const,
            unprovable_funcs: HashSet::new(),
            unprovable_why: HashMap::new(),
            escapes: crate::analysis::escape::escapes(m),
            callback_writes: vec![],
            calls_back: HashSet::new(),
            open_world: Some("not analysed yet".into()),
            unit,
            settled: HashMap::new(),
            notes: vec![],
            summarized: HashSet::new(),
            writes: HashMap::new(),
            cache: HashMap::new(),
            ptr_bits: m.data_model.ptr_bytes() * 8,
        };
        model.summarized = m
            .functions
            .iter()
            .filter(|f| is_runtime(m, f) && !STARTUP.contains(&f.name.as_str()))
            .map(|f| f.id)
            .collect();
        model.open_world = model.find_open_world();
        if let Some(why) = &model.open_world
            && !model.escapes.escaping.is_empty()
        {
            model.notes.push(format!(
                "calls through function pointers are not followed: {why}"
            ));
        }
        model.find_tracked_globals();
        model.find_tracked_slots();
        model.find_escape_effects();
        model.find_unprovable();
        model.find_summary_writes();
        model
    }

    pub fn var_width(&self, v: u32) -> u8 {
        self.widths[v as usize]
    }

    fn new_var(&mut self, k: VarKind, w: u8) -> u32 {
        self.vars.push(k);
        self.widths.push(w);
        (self.vars.len() - 1) as u32
    }

    /// The version-0 expression of variable `v`.
    pub fn var_expr(&mut self, v: u32) -> ExprId {
        let w = self.widths[v as usize];
        self.pool.var(VarKey {
            input: v,
            byte: 0,
            w,
        })
    }

    /// Variable `v` at SSA version `k` (path formulas).
    pub fn var_version(&mut self, v: u32, k: u32) -> ExprId {
        let w = self.widths[v as usize];
        self.pool.var(VarKey {
            input: v,
            byte: k,
            w,
        })
    }

    fn reg_var(&mut self, f: FuncId, r: Reg, w: u8) -> u32 {
        if let Some(&v) = self.reg_var.get(&(f, r)) {
            return v;
        }
        // Registers have one width whatever the use: their declared type's, when known.
        let w = match self.m.functions[f as usize].reg_tys.get(r as usize) {
            Some(Ty::Void) | None => w,
            Some(t) => self.width_of(*t),
        };
        let v = self.new_var(VarKind::Reg(f, r), w);
        self.reg_var.insert((f, r), v);
        v
    }

    pub fn global_cell(&mut self, addr: u64) -> Option<u32> {
        let (ty, _) = *self.tracked.get(&addr)?;
        if let Some(&v) = self.global_var.get(&addr) {
            return Some(v);
        }
        let w = ty.bits_with(self.ptr_bits) as u8;
        let v = self.new_var(VarKind::Global(addr), w);
        self.global_var.insert(addr, v);
        Some(v)
    }

    /// The variable of tracked stack slot `r` of `f`, if it is one accessed as `ty`.
    fn slot_cell(&mut self, f: FuncId, r: Reg, ty: Ty) -> Option<u32> {
        if self.slots.get(&(f, r)) != Some(&ty) {
            return None;
        }
        if let Some(&v) = self.slot_var.get(&(f, r)) {
            return Some(v);
        }
        let v = self.new_var(VarKind::Slot(f, r), self.width_of(ty));
        self.slot_var.insert((f, r), v);
        Some(v)
    }

    /// The tracked cell (global or stack slot) a load or store of `ty` at `addr` accesses.
    fn cell(&mut self, f: FuncId, addr: Reg, ty: Ty) -> Option<u32> {
        if let Some(a) = self.const_value(f, addr) {
            return match self.tracked.get(&a) {
                Some((t, _)) if *t == ty => self.global_cell(a),
                _ => None,
            };
        }
        self.slot_cell(f, addr, ty)
    }

    /// Initial values of tracked globals.
    pub fn initial_assigns(&mut self) -> Vec<(u32, ExprId)> {
        let mut addrs: Vec<(u64, Ty, u64)> = self
            .tracked
            .iter()
            .map(|(a, (t, v))| (*a, *t, *v))
            .collect();
        addrs.sort_by_key(|x| x.0);
        let mut out = vec![];
        for (a, t, v) in addrs {
            let var = self.global_cell(a).unwrap();
            let c = self.pool.constant(t.bits_with(self.ptr_bits) as u8, v);
            out.push((var, c));
        }
        out
    }

    fn const_value(&self, f: FuncId, r: Reg) -> Option<u64> {
        if self.is_const[f as usize][r as usize] {
            Some(self.m.functions[f as usize].reg_init[r as usize])
        } else {
            None
        }
    }

    /// Globals whose address only appears as a load/store address of one scalar type.
    fn find_tracked_globals(&mut self) {
        let m = self.m;
        let mut cells: HashMap<u64, Option<Ty>> = HashMap::new();
        let mut escaped: HashSet<usize> = HashSet::new();
        let owner = |a: u64| -> Option<usize> {
            m.globals
                .iter()
                .position(|g| a >= g.addr && a < g.addr + g.size)
        };
        for f in &m.functions {
            let fid = f.id;
            let cst = |r: Reg| {
                self.const_value(fid, r)
                    .filter(|v| *v >= layout::GLOBAL_BASE && *v < m.globals_end)
            };
            for b in &f.blocks {
                for i in &b.insts {
                    let (addr_ops, others): (Vec<(Reg, Ty)>, Vec<Reg>) = match i {
                        Inst::Load { addr, ty, .. } => (vec![(*addr, *ty)], vec![]),
                        Inst::Store { addr, ty, val } => (vec![(*addr, *ty)], vec![*val]),
                        _ => (vec![], inst_operands(i)),
                    };
                    for (r, ty) in addr_ops {
                        if let Some(a) = cst(r) {
                            match cells.get(&a) {
                                None => {
                                    cells.insert(a, Some(ty));
                                }
                                Some(Some(t)) if *t == ty => {}
                                _ => {
                                    cells.insert(a, None);
                                }
                            }
                        }
                    }
                    for r in others {
                        if let Some(a) = cst(r)
                            && let Some(g) = owner(a)
                        {
                            escaped.insert(g);
                        }
                    }
                }
                for r in term_operands(&b.term) {
                    if let Some(a) = cst(r)
                        && let Some(g) = owner(a)
                    {
                        escaped.insert(g);
                    }
                }
            }
        }
        // Global initializers that hold addresses also make the target escape.
        let pb = self.ptr_bits / 8;
        for g in &m.globals {
            for chunk in g.init.chunks(pb as usize) {
                let mut b = [0u8; 8];
                b[..chunk.len()].copy_from_slice(chunk);
                let a = u64::from_le_bytes(b);
                if a >= layout::GLOBAL_BASE
                    && a < m.globals_end
                    && let Some(o) = owner(a)
                {
                    escaped.insert(o);
                }
            }
        }
        // Cells of one global must not overlap each other.
        for (a, t) in cells {
            let Some(t) = t else { continue };
            if matches!(t, Ty::Agg(_)) || t.is_float() {
                continue;
            }
            let Some(gi) = owner(a) else { continue };
            let g = &m.globals[gi];
            if escaped.contains(&gi)
                || matches!(g.name.as_str(), "stdin" | "stdout" | "stderr")
                || g.init.is_empty()
            {
                continue;
            }
            let n = t.store_size(m.data_model) as u64;
            if a + n > g.addr + g.size {
                continue;
            }
            let off = (a - g.addr) as usize;
            let mut b = [0u8; 8];
            b[..n as usize].copy_from_slice(&g.init[off..off + n as usize]);
            self.tracked.insert(a, (t, u64::from_le_bytes(b)));
        }
        let keys: Vec<(u64, u64)> = self
            .tracked
            .iter()
            .map(|(a, (t, _))| (*a, t.store_size(m.data_model) as u64))
            .collect();
        for (a, n) in &keys {
            if keys.iter().any(|(b, k)| b != a && *b < a + n && *a < b + k) {
                self.tracked.remove(a);
            }
        }
    }

    /// Allocas of one element whose register is only ever the address of loads and stores of
    /// one scalar type: nothing else can reach the slot, so it is a variable of its function
    /// like a register (calls are inlined and recursion is havoc, so activations never overlap).
    fn find_tracked_slots(&mut self) {
        for f in &self.m.functions {
            let mut ty: HashMap<Reg, Option<Ty>> = HashMap::new();
            for i in f.blocks.iter().flat_map(|b| &b.insts) {
                if let Inst::Alloca { dst, count, .. } = i
                    && self.const_value(f.id, *count) == Some(1)
                {
                    ty.insert(*dst, None);
                }
            }
            if ty.is_empty() {
                continue;
            }
            let mut escaped: HashSet<Reg> = HashSet::new();
            for b in &f.blocks {
                for i in &b.insts {
                    let (addr, others) = match i {
                        Inst::Load { addr, ty, .. } => (Some((*addr, *ty)), vec![]),
                        Inst::Store { addr, ty, val } => (Some((*addr, *ty)), vec![*val]),
                        Inst::Alloca { .. } => (None, vec![]),
                        _ => (None, inst_operands(i)),
                    };
                    if let Some((a, t)) = addr
                        && let Some(seen) = ty.get_mut(&a)
                    {
                        match seen {
                            None => *seen = Some(t),
                            Some(s) if *s == t => {}
                            _ => {
                                escaped.insert(a);
                            }
                        }
                    }
                    escaped.extend(others);
                }
                escaped.extend(term_operands(&b.term));
                for e in edges(&b.term) {
                    escaped.extend(e.moves.regs.iter().map(|(_, s)| *s));
                }
            }
            for (r, t) in ty {
                match t {
                    Some(t)
                        if !escaped.contains(&r) && !matches!(t, Ty::Agg(_)) && !t.is_float() =>
                    {
                        self.slots.insert((f.id, r), t);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Direct callees of every function, and whether it makes indirect calls or calls
    /// external functions that may call back (unknown ones).
    fn call_graph(&self) -> (Vec<Vec<FuncId>>, Vec<bool>) {
        let m = self.m;
        let mut callees = vec![];
        let mut calls_back = vec![];
        for f in &m.functions {
            let mut cs = vec![];
            let mut back = false;
            for i in f.blocks.iter().flat_map(|b| &b.insts) {
                match i {
                    Inst::Call {
                        callee: Callee::Func(t),
                        ..
                    } => cs.push(*t),
                    Inst::Call { args, .. } if self.open_world.is_none() => {
                        cs.extend(self.indirect_candidates(args.len()))
                    }
                    Inst::Call { .. } => back = true,
                    Inst::CallExtern { ext, .. } => back |= self.may_call_back(*ext),
                    _ => {}
                }
            }
            callees.push(cs);
            calls_back.push(back);
        }
        (callees, calls_back)
    }

    /// An external function that may call program functions: one Cairn has no model of (input
    /// functions excepted).
    fn may_call_back(&self, ext: u32) -> bool {
        matches!(&self.exts[ext as usize], Ext::Unknown(n) if !n.starts_with("__VERIFIER_nondet_"))
    }

    /// Why an escaping function may run where the model does not call it (None: only the
    /// program's indirect calls reach them, and the model follows those). Threads and system
    /// signals run them at any moment; external functions without a model, or library code
    /// the model summarizes, may call them back; the address of an external function makes
    /// an indirect call leave the model.
    fn find_open_world(&self) -> Option<String> {
        let m = self.m;
        let name = |f: FuncId| &m.functions[f as usize].name;
        if let Some((f, why)) = self.escapes.asynchronous.iter().next() {
            return Some(format!("`{}` is {why}", name(*f)));
        }
        if self.escapes.uses_threads {
            return Some("the program starts threads".into());
        }
        if self.unit {
            // The model ends when the entry returns; natively exit then runs the atexit
            // handlers it registered.
            return Some("in unit mode, atexit handlers run after the entry returns".into());
        }
        if let Some(x) = self.escapes.escaping_externs.first() {
            return Some(format!(
                "the address of the external function `{}` is taken",
                m.externs[*x as usize].name
            ));
        }
        let (callees, back) = self.call_graph();
        // Library functions the program calls, directly or through a pointer.
        let mut library: Vec<FuncId> = self
            .escapes
            .escaping
            .iter()
            .copied()
            .filter(|t| self.summarized.contains(t))
            .collect();
        for f in m
            .functions
            .iter()
            .filter(|f| !self.summarized.contains(&f.id))
        {
            for i in f.blocks.iter().flat_map(|b| &b.insts) {
                match i {
                    Inst::CallExtern { ext, .. } if self.may_call_back(*ext) => {
                        return Some(format!(
                            "`{}` calls `{}`, which Cairn has no model of",
                            f.name, m.externs[*ext as usize].name
                        ));
                    }
                    Inst::Call {
                        callee: Callee::Func(t),
                        ..
                    } if INSTALLS_HANDLER.contains(&name(*t).as_str()) => {
                        // A handler runs at any raise, kill or abort (an abort ends the
                        // model's path, natively the handler runs first).
                        return Some(format!(
                            "`{}` installs a signal handler (`{}`)",
                            f.name,
                            name(*t)
                        ));
                    }
                    Inst::Call {
                        callee: Callee::Func(t),
                        ..
                    } if self.summarized.contains(t) => library.push(*t),
                    _ => {}
                }
            }
        }
        // Library code that calls a function pointer (qsort, raise) runs callbacks the model
        // does not see.
        for t in library {
            let mut seen = HashSet::new();
            let mut stack = vec![t];
            while let Some(g) = stack.pop() {
                if !seen.insert(g) {
                    continue;
                }
                if back[g as usize] {
                    return Some(format!(
                        "library function `{}` may call a function pointer",
                        name(t)
                    ));
                }
                stack.extend(callees[g as usize].iter().copied());
            }
        }
        None
    }

    /// Every function `roots` may run: direct callees, and every escaping function where an
    /// indirect or unknown call could reach one.
    fn closure(&self, roots: &[FuncId], cg: &(Vec<Vec<FuncId>>, Vec<bool>)) -> HashSet<FuncId> {
        let mut seen = HashSet::new();
        let mut stack = roots.to_vec();
        while let Some(f) = stack.pop() {
            if (f as usize) >= self.m.functions.len() || !seen.insert(f) {
                continue;
            }
            stack.extend(cg.0[f as usize].iter().copied());
            if cg.1[f as usize] {
                stack.extend(self.escapes.escaping.iter().copied());
            }
        }
        seen
    }

    /// Tracked cells stored to by any of `funcs`.
    fn stores_of(&self, funcs: &HashSet<FuncId>) -> Vec<u64> {
        let mut out: Vec<u64> = vec![];
        for &f in funcs {
            for i in self.m.functions[f as usize]
                .blocks
                .iter()
                .flat_map(|b| &b.insts)
            {
                if let Inst::Store { addr, .. } = i
                    && let Some(a) = self.const_value(f, *addr)
                    && self.tracked.contains_key(&a)
                    && !out.contains(&a)
                {
                    out.push(a);
                }
            }
        }
        out.sort();
        out
    }

    /// Escaping functions: globals that asynchronous ones (threads, system-delivered signal
    /// handlers) may write stop being tracked (every read is havoc); what any escaping function
    /// may write is havocked at each call that may run one.
    fn find_escape_effects(&mut self) {
        let cg = self.call_graph();
        let asynchronous: Vec<FuncId> = self.escapes.asynchronous.keys().copied().collect();
        let run_async = self.closure(&asynchronous, &cg);
        for a in self.stores_of(&run_async) {
            self.tracked.remove(&a);
            let g = self
                .m
                .globals
                .iter()
                .find(|g| a >= g.addr && a < g.addr + g.size);
            let name = g.map_or("?".to_string(), |g| g.name.clone());
            self.notes.push(format!(
                "global `{name}` is not tracked: a thread or an asynchronous signal handler may write it at any time"
            ));
        }
        let escaping: Vec<FuncId> = self.escapes.escaping.iter().copied().collect();
        let run_escaping = self.closure(&escaping, &cg);
        self.callback_writes = self.stores_of(&run_escaping);
        for (f, back) in cg.1.iter().enumerate() {
            if *back {
                self.calls_back.insert(f as FuncId);
            }
        }
    }

    /// Functions whose goals no proof may claim, with the reason: recursive functions,
    /// escaping functions (they may run from library code), functions only library code
    /// calls, and everything they call.
    fn find_unprovable(&mut self) {
        let m = self.m;
        let cg = self.call_graph();
        let callees = &cg.0;
        let mut roots: Vec<(FuncId, String)> = vec![];
        let open = self.open_world.is_some();
        for &f in self.escapes.escaping.iter().filter(|_| open) {
            let why = match self.escapes.asynchronous.get(&f) {
                Some(r) => format!("`{}` is {r}", m.functions[f as usize].name),
                None => format!(
                    "the address of `{}` is taken and {}",
                    m.functions[f as usize].name,
                    self.open_world.as_deref().unwrap_or_default()
                ),
            };
            roots.push((f, why));
        }
        // Functions on a call-graph cycle.
        for f in 0..m.functions.len() {
            let mut seen = HashSet::new();
            let mut stack: Vec<FuncId> = callees[f].clone();
            while let Some(g) = stack.pop() {
                if g as usize == f {
                    roots.push((
                        f as FuncId,
                        format!("`{}` is recursive", m.functions[f].name),
                    ));
                    break;
                }
                if seen.insert(g) {
                    stack.extend(callees[g as usize].iter().copied());
                }
            }
        }
        // Program functions that library code calls directly (a program that defines its own
        // `malloc`, say): the library is summarized, so those calls are never explored. In
        // unit mode, constructors are not explored either.
        // (Only library functions the program can reach count: the runtime defines many.)
        let program: Vec<FuncId> = m
            .functions
            .iter()
            .filter(|f| !is_runtime(m, f) || STARTUP.contains(&f.name.as_str()))
            .map(|f| f.id)
            .collect();
        let reachable = self.closure(&program, &cg);
        for (f, cs) in callees.iter().enumerate() {
            let lib =
                self.summarized.contains(&(f as FuncId)) && reachable.contains(&(f as FuncId));
            // In unit mode the harness's exit runs destructors after the entry returns.
            let ctors = self.unit
                && matches!(
                    m.functions[f].name.as_str(),
                    "__cairn_ctors" | "__cairn_dtors"
                );
            if lib || ctors {
                for c in cs {
                    if !self.summarized.contains(c) {
                        let why = if ctors {
                            "constructor or destructor (not explored in unit mode)".to_string()
                        } else {
                            format!("called by library code (`{}`)", m.functions[f].name)
                        };
                        roots.push((*c, format!("`{}`: {why}", m.functions[*c as usize].name)));
                    }
                }
            }
        }
        let mut stack = roots;
        while let Some((f, why)) = stack.pop() {
            if (f as usize) < m.functions.len() && self.unprovable_funcs.insert(f) {
                let name = &m.functions[f as usize].name;
                for c in &callees[f as usize] {
                    let r = if why.starts_with("called from") {
                        why.clone()
                    } else {
                        format!("called from `{name}`, and {why}")
                    };
                    stack.push((*c, r));
                }
                self.unprovable_why.insert(f, why);
            }
        }
    }

    fn find_summary_writes(&mut self) {
        let cg = self.call_graph();
        for &s in &self.summarized.clone() {
            let run = self.closure(&[s], &cg);
            let mut v = self.stores_of(&run);
            if run.iter().any(|f| self.calls_back.contains(f)) {
                for a in &self.callback_writes {
                    if !v.contains(a) {
                        v.push(*a);
                    }
                }
            }
            v.sort();
            self.writes.insert(s, v);
        }
    }

    /// Havocs of the globals constructors may write (unit mode, where they are not explored).
    pub fn init_havocs(&mut self) -> Effect {
        let mut ex = SegExec::default();
        if !self.unit {
            return Effect::default();
        }
        let Some(&c) = self.m.func_by_name.get("__cairn_ctors") else {
            return Effect::default();
        };
        let cg = self.call_graph();
        let run = self.closure(&[c], &cg);
        for a in self.stores_of(&run) {
            if let Some(v) = self.global_cell(a) {
                let h = self.havoc(&mut ex, v, None);
                self.set(&mut ex, v, h);
            }
        }
        ex.finish()
    }

    /// The transitions leaving `loc` (cached).
    pub fn transitions(&mut self, loc: Loc) -> Vec<Transition> {
        if let Some(t) = self.cache.get(&(loc, 0)) {
            return t.clone();
        }
        let t = self.build(loc);
        self.cache.insert((loc, 0), t.clone());
        t
    }

    fn build(&mut self, loc: Loc) -> Vec<Transition> {
        let m = self.m;
        let f = &m.functions[loc.func as usize];
        let b = &f.blocks[loc.block as usize];
        let mut ex = SegExec {
            assigns: HashMap::new(),
            order: vec![],
            guards: vec![],
            havocs: vec![],
        };
        let mut ip = loc.ip as usize;
        // A segment starting at a call executes the call first.
        if ip < b.insts.len() && is_call(&b.insts[ip]) {
            return self.call_transitions(loc, &b.insts[ip]);
        }
        while ip < b.insts.len() {
            let i = &b.insts[ip];
            if is_call(i) {
                // Stop before the call: the call location is a location of its own.
                let eff = ex.finish();
                return vec![Transition {
                    effect: eff,
                    next: Next::Goto(Loc {
                        func: loc.func,
                        block: loc.block,
                        ip: ip as u32,
                    }),
                    goal: None,
                    error_site: None,
                }];
            }
            match (self.settled.get(&(loc.func, loc.block, ip as u32)), i) {
                (Some(&v), Inst::Load { dst, ty, .. }) => {
                    let w = ty.bits_with(self.ptr_bits) as u8;
                    let d = self.reg_var(loc.func, *dst, w);
                    let e = self.pool.constant(w, v);
                    self.set(&mut ex, d, e);
                }
                _ => self.step(loc.func, i, &mut ex),
            }
            ip += 1;
        }
        // Terminator.
        let mut out = vec![];
        match &b.term {
            Terminator::Ret { val } => {
                let mut ex2 = ex;
                if let Some(Val::Reg(r, t)) = val {
                    // The return value goes to a per-function return variable.
                    let rv = self.ret_var(loc.func, *t);
                    let e = self.read(loc.func, *r, *t, &ex2);
                    self.set(&mut ex2, rv, e);
                }
                out.push(Transition {
                    effect: ex2.finish(),
                    next: Next::Return,
                    goal: None,
                    error_site: None,
                });
            }
            Terminator::Unreachable => {}
            Terminator::Br { edge } => {
                let mut ex2 = ex;
                self.moves(loc.func, &edge.moves, &mut ex2);
                out.push(Transition {
                    effect: ex2.finish(),
                    next: Next::Goto(Loc {
                        func: loc.func,
                        block: edge.target,
                        ip: 0,
                    }),
                    goal: None,
                    error_site: None,
                });
            }
            Terminator::CondBr {
                cond,
                then_edge,
                else_edge,
                then_goal,
                else_goal,
            } => {
                let c = self.read(loc.func, *cond, Ty::Int(1), &ex);
                for (edge, goal, positive) in [
                    (then_edge, *then_goal, true),
                    (else_edge, *else_goal, false),
                ] {
                    let mut ex2 = ex.clone();
                    let g = if positive { c } else { self.pool.not(c) };
                    ex2.guards.push(g);
                    self.moves(loc.func, &edge.moves, &mut ex2);
                    out.push(Transition {
                        effect: ex2.finish(),
                        next: Next::Goto(Loc {
                            func: loc.func,
                            block: edge.target,
                            ip: 0,
                        }),
                        goal: (goal != NO_GOAL).then_some(goal),
                        error_site: None,
                    });
                }
            }
            Terminator::Switch {
                val,
                w,
                cases,
                default,
                default_goal,
            } => {
                let v = self.read(loc.func, *val, Ty::Int(*w), &ex);
                let mut none = self.pool.constant(1, 1);
                for (c, edge, goal) in cases {
                    let k = self.pool.constant(*w, *c);
                    let eq = self.pool.cmp(IPred::Eq, v, k);
                    let ne = self.pool.not(eq);
                    none = self.pool.and(none, ne);
                    let mut ex2 = ex.clone();
                    ex2.guards.push(eq);
                    self.moves(loc.func, &edge.moves, &mut ex2);
                    out.push(Transition {
                        effect: ex2.finish(),
                        next: Next::Goto(Loc {
                            func: loc.func,
                            block: edge.target,
                            ip: 0,
                        }),
                        goal: (*goal != NO_GOAL).then_some(*goal),
                        error_site: None,
                    });
                }
                let mut ex2 = ex;
                ex2.guards.push(none);
                self.moves(loc.func, &default.moves, &mut ex2);
                out.push(Transition {
                    effect: ex2.finish(),
                    next: Next::Goto(Loc {
                        func: loc.func,
                        block: default.target,
                        ip: 0,
                    }),
                    goal: (*default_goal != NO_GOAL).then_some(*default_goal),
                    error_site: None,
                });
            }
        }
        out
    }

    /// The variable of register `r` of `f` (of type `t` unless declared otherwise).
    pub fn reg_var_pub(&mut self, f: FuncId, r: Reg, t: Ty) -> u32 {
        let w = self.width_of(t);
        self.reg_var(f, r, w)
    }

    /// Per-function variable holding the value being returned.
    pub fn ret_var(&mut self, f: FuncId, t: Ty) -> u32 {
        let w = t.bits_with(self.ptr_bits) as u8;
        self.reg_var(f, u32::MAX - 1, w)
    }

    /// The call of program function `t` from `loc` after the segment `ex`: entered when it is
    /// explored, else its result and what it may write are havoc.
    fn enter_call(
        &mut self,
        loc: Loc,
        t: FuncId,
        args: &[Val],
        ret: &Option<Val>,
        site: u32,
        mut exv: SegExec,
    ) -> Transition {
        let m = self.m;
        let ex = &mut exv;
        let ret_to = Loc {
            ip: loc.ip + 1,
            ..loc
        };
        let tf = &m.functions[t as usize];
        let error_site = crate::analysis::goals::is_error_function(&tf.name).then_some(site);
        if error_site.is_some() || tf.name == "__cairn_exit" {
            return Transition {
                effect: exv.finish(),
                next: Next::End,
                goal: None,
                error_site,
            };
        }
        // Inline program functions that are neither library code nor recursive.
        if !tf.blocks.is_empty()
            && !self.summarized.contains(&t)
            && !self.unprovable_funcs.contains(&t)
        {
            for (i, p) in tf.params.iter().enumerate() {
                if let (Val::Reg(pr, pt), Some(a)) = (p, args.get(i)) {
                    let pv = self.reg_var(t, *pr, pt.bits_with(self.ptr_bits) as u8);
                    let e = match a {
                        Val::Reg(r, ty) => self.read(loc.func, *r, *ty, ex),
                        Val::Agg(..) => self.havoc(ex, pv, None),
                    };
                    self.set(ex, pv, e);
                }
            }
            // Varargs of the callee and its aggregate parameters are havoc when read.
            return Transition {
                effect: exv.finish(),
                next: Next::Call { callee: t, ret_to },
                goal: None,
                error_site: None,
            };
        }
        // Summarized or unprovable: havoc the result and what it may write.
        if let Some(ws) = self.writes.get(&t).cloned() {
            for a in ws {
                if let Some(v) = self.global_cell(a) {
                    let h = self.havoc(ex, v, None);
                    self.set(ex, v, h);
                }
            }
        } else {
            self.havoc_all_tracked(ex);
        }
        if let Some(Val::Reg(d, t)) = ret {
            let dv = self.reg_var(loc.func, *d, t.bits_with(self.ptr_bits) as u8);
            let h = self.havoc(ex, dv, None);
            self.set(ex, dv, h);
        }
        Transition {
            effect: exv.finish(),
            next: Next::Goto(ret_to),
            goal: None,
            error_site: None,
        }
    }

    /// Escaping program functions an indirect call with `nargs` arguments may reach: those
    /// taking as many (a variadic one at most as many), and those taking none. Calling through
    /// a pointer of another parameter count is undefined behaviour in C, but a function defined
    /// without a prototype (`void *thr1()`, no parameters in the IR) called as `void *(*)(void
    /// *)` runs natively and in the interpreter, as CSeq's sequentialized programs run their
    /// threads: leaving it out proved its goals unreachable while tests covered them. Other
    /// mismatched counts stay out: every escaping function as a candidate adds call-graph edges
    /// (the runtime's callbacks too) that cost proofs, and such calls are rare.
    fn indirect_candidates(&self, nargs: usize) -> Vec<FuncId> {
        self.escapes
            .escaping
            .iter()
            .copied()
            .filter(|&t| {
                let f = &self.m.functions[t as usize];
                let n = f.params.len();
                n == nargs || n == 0 || (f.is_var_arg && n <= nargs)
            })
            .collect()
    }

    fn call_transitions(&mut self, loc: Loc, inst: &Inst) -> Vec<Transition> {
        let m = self.m;
        let ret_to = Loc {
            func: loc.func,
            block: loc.block,
            ip: loc.ip + 1,
        };
        let mut exv = SegExec::default();
        let ex = &mut exv;
        let (target, args, ret, site): (Option<FuncId>, &Vec<Val>, &Option<Val>, u32) = match inst {
            Inst::Call {
                callee: Callee::Func(t),
                args,
                ret,
                site,
            } => (Some(*t), args, ret, *site),
            Inst::Call {
                args, ret, site, ..
            } => (None, args, ret, *site),
            Inst::CallExtern {
                args, ret, site, ..
            } => (None, args, ret, *site),
            _ => unreachable!(),
        };
        if let Some(t) = target {
            return vec![self.enter_call(loc, t, args, ret, site, exv)];
        }
        let name: &str = match inst {
            Inst::CallExtern { ext, .. } => &m.externs[*ext as usize].name,
            _ => "",
        };
        let error_site = crate::analysis::goals::is_error_function(name).then_some(site);
        if error_site.is_some() || is_terminating(name) {
            return vec![Transition {
                effect: Effect::default(),
                next: Next::End,
                goal: None,
                error_site,
            }];
        }
        // Indirect calls in a closed world: the callee is one of the escaping functions that
        // may take these arguments (`indirect_candidates`); a pointer to no function faults,
        // ending the path.
        if let (
            Inst::Call {
                callee: Callee::Indirect(r),
                ..
            },
            None,
        ) = (inst, &self.open_world)
        {
            let fp = self.read(loc.func, *r, Ty::Ptr, ex);
            let mut out = vec![];
            for t in self.indirect_candidates(args.len()) {
                let mut e = ex.clone();
                let a = self
                    .pool
                    .constant(self.ptr_bits as u8, self.m.func_addrs[t as usize]);
                let is_t = self.pool.cmp(IPred::Eq, fp, a);
                e.guards.push(is_t);
                out.push(self.enter_call(loc, t, args, ret, site, e));
            }
            return out;
        }
        // Indirect calls in an open world: havoc everything tracked (escaping callees are
        // unprovable).
        if let Inst::Call {
            callee: Callee::Indirect(_),
            ..
        } = inst
        {
            self.havoc_all_tracked(ex);
        }
        // External functions: inputs, assumptions, everything else havoc.
        let ext = match inst {
            Inst::CallExtern { ext, .. } => Some(&self.exts[*ext as usize]),
            _ => None,
        };
        // Inline assembly may write anything it can reach: what every call may, and the
        // function's own memory (an output operand in memory).
        if let Some(Ext::InlineAsm | Ext::NotInterpreted) = ext {
            self.havoc_all_tracked(ex);
            self.havoc_slots(ex, loc.func);
        }
        // An unknown function may call any escaping function it was given.
        if let Some(Ext::Unknown(_)) = ext {
            for a in self.callback_writes.clone() {
                if let Some(v) = self.global_cell(a) {
                    let h = self.havoc(ex, v, None);
                    self.set(ex, v, h);
                }
            }
        }
        match ext {
            Some(Ext::Assume) => {
                if let Some(Val::Reg(r, t)) = args.first() {
                    let c = self.read(loc.func, *r, *t, ex);
                    let w = self.pool.width(c);
                    let z = self.pool.constant(w, 0);
                    let g = self.pool.cmp(IPred::Ne, c, z);
                    ex.guards.push(g);
                }
            }
            // A `setjmp` returns again whenever a `longjmp` comes back to it, with whatever
            // the globals and the function's memory hold by then.
            Some(Ext::SetJmp) => {
                self.havoc_all_tracked(ex);
                self.havoc_slots(ex, loc.func);
            }
            Some(Ext::LongJmp) => {
                return vec![Transition {
                    effect: Effect::default(),
                    next: Next::End,
                    goal: None,
                    error_site,
                }];
            }
            Some(Ext::Abort) | Some(Ext::Exit) | Some(Ext::ErrorFn) | Some(Ext::AssertFail) => {
                return vec![Transition {
                    effect: Effect::default(),
                    next: Next::End,
                    goal: None,
                    error_site,
                }];
            }
            _ => {}
        }
        if let Some(Val::Reg(d, t)) = ret {
            let input = match ext {
                Some(Ext::Nondet(k)) if !matches!(k, InputKind::Float | InputKind::Double) => {
                    Some(*k)
                }
                Some(Ext::Unknown(_) | Ext::UninitializedInput) if matches!(t, Ty::Int(_)) => {
                    Some(match t {
                        Ty::Int(1) => InputKind::Bool,
                        Ty::Int(8) => InputKind::Char,
                        Ty::Int(16) => InputKind::Short,
                        Ty::Int(32) => InputKind::Int,
                        _ => InputKind::LongLong,
                    })
                }
                _ => None,
            };
            let dv = self.reg_var(loc.func, *d, t.bits_with(self.ptr_bits) as u8);
            let h = self.havoc(ex, dv, input);
            self.set(ex, dv, h);
        }
        vec![Transition {
            effect: std::mem::take(ex).finish(),
            next: Next::Goto(ret_to),
            goal: None,
            error_site: None,
        }]
    }

    /// Havocs the tracked stack slots of function `func`.
    fn havoc_slots(&mut self, ex: &mut SegExec, func: FuncId) {
        let mut slots: Vec<(FuncId, Reg, Ty)> = self
            .slots
            .iter()
            .filter(|((f, _), _)| *f == func)
            .map(|((f, r), t)| (*f, *r, *t))
            .collect();
        slots.sort_by_key(|s| (s.0, s.1));
        for (f, r, t) in slots {
            if let Some(v) = self.slot_cell(f, r, t) {
                let h = self.havoc(ex, v, None);
                self.set(ex, v, h);
            }
        }
    }

    fn havoc_all_tracked(&mut self, ex: &mut SegExec) {
        let mut all: Vec<u64> = self.tracked.keys().copied().collect();
        all.sort();
        for a in all {
            let v = self.global_cell(a).unwrap();
            let h = self.havoc(ex, v, None);
            self.set(ex, v, h);
        }
    }

    /// A fresh havoc variable shaped like `like`.
    fn havoc(&mut self, ex: &mut SegExec, like: u32, input: Option<InputKind>) -> ExprId {
        let w = self.widths[like as usize];
        let h = self.new_var(VarKind::Havoc(input), w);
        ex.havocs.push(h);
        self.var_expr(h)
    }

    fn fresh(&mut self, ex: &mut SegExec, w: u8) -> ExprId {
        let h = self.new_var(VarKind::Havoc(None), w);
        ex.havocs.push(h);
        self.var_expr(h)
    }

    /// Current value of register `r` in the segment, at the width of `t` (constants are
    /// constants).
    fn read(&mut self, f: FuncId, r: Reg, t: Ty, ex: &SegExec) -> ExprId {
        let w = self.width_of(t);
        if let Some(c) = self.const_value(f, r) {
            return self.pool.constant(w, c);
        }
        let rw = match self.m.functions[f as usize].reg_tys.get(r as usize) {
            Some(Ty::Void) | None => w,
            Some(rt) => self.width_of(*rt),
        };
        let v = self.reg_var(f, r, rw);
        let e = match ex.assigns.get(&v) {
            Some(e) => *e,
            None => self.var_expr(v),
        };
        self.fit(e, w)
    }

    fn width_of(&self, t: Ty) -> u8 {
        match t {
            Ty::Agg(_) | Ty::Void => 64,
            t => t.bits_with(self.ptr_bits) as u8,
        }
    }

    fn moves(&mut self, f: FuncId, mv: &Moves, ex: &mut SegExec) {
        // Parallel copy: read every source first.
        let mut vals = vec![];
        for (d, s) in &mv.regs {
            let w = self.reg_width(f, *d);
            let e = self.read(f, *s, Ty::Int(w), ex);
            let e = self.fit(e, w);
            vals.push((*d, e, w));
        }
        for (d, e, w) in vals {
            let dv = self.reg_var(f, d, w);
            self.set(ex, dv, e);
        }
    }

    /// Assigns `e` to variable `v`, at the variable's width.
    fn set(&mut self, ex: &mut SegExec, v: u32, e: ExprId) {
        let e = self.fit(e, self.widths[v as usize]);
        ex.assign(v, e);
    }

    fn fit(&mut self, e: ExprId, w: u8) -> ExprId {
        let ew = self.pool.width(e);
        if ew == w {
            e
        } else if ew > w {
            self.pool.extract(w, 0, e)
        } else {
            self.pool.zext(w, e)
        }
    }

    fn reg_width(&self, f: FuncId, r: Reg) -> u8 {
        self.width_of(
            self.m.functions[f as usize]
                .reg_tys
                .get(r as usize)
                .copied()
                .unwrap_or(Ty::Void),
        )
    }

    fn step(&mut self, f: FuncId, i: &Inst, ex: &mut SegExec) {
        let pb = self.ptr_bits as u8;
        match i {
            Inst::Bin { op, w, dst, a, b } => {
                let x = self.read(f, *a, Ty::Int(*w), ex);
                let y = self.read(f, *b, Ty::Int(*w), ex);
                let e = self.pool.bin(*op, *w, x, y);
                let d = self.reg_var(f, *dst, *w);
                self.set(ex, d, e);
            }
            Inst::ICmp { pred, w, dst, a, b } => {
                let x = self.read(f, *a, Ty::Int(*w), ex);
                let y = self.read(f, *b, Ty::Int(*w), ex);
                let e = self.pool.cmp(*pred, x, y);
                let d = self.reg_var(f, *dst, 1);
                self.set(ex, d, e);
            }
            Inst::Cast {
                op,
                from,
                to,
                dst,
                a,
            } => {
                let tw = to.bits_with(self.ptr_bits) as u8;
                let d = self.reg_var(f, *dst, tw);
                let e = match op {
                    _ if from.is_float() || to.is_float() => self.fresh(ex, tw),
                    CastOp::Trunc => {
                        let x = self.read(f, *a, *from, ex);
                        self.pool.extract(tw, 0, x)
                    }
                    CastOp::ZExt | CastOp::Bits => {
                        let x = self.read(f, *a, *from, ex);
                        self.pool.zext(tw, x)
                    }
                    CastOp::SExt => {
                        let x = self.read(f, *a, *from, ex);
                        self.pool.sext(tw, x)
                    }
                    _ => self.fresh(ex, tw),
                };
                self.set(ex, d, e);
            }
            Inst::Select {
                ty,
                dst,
                cond,
                t,
                f: fv,
            } => {
                let w = match ty {
                    Ty::Agg(_) | Ty::Void => 64,
                    t => t.bits_with(self.ptr_bits) as u8,
                };
                let d = self.reg_var(f, *dst, w);
                let e = if ty.is_float() {
                    self.fresh(ex, w)
                } else {
                    let c = self.read(f, *cond, Ty::Int(1), ex);
                    let x = self.read(f, *t, *ty, ex);
                    let y = self.read(f, *fv, *ty, ex);
                    self.pool.ite(c, x, y)
                };
                self.set(ex, d, e);
            }
            Inst::Gep {
                dst,
                base,
                offset,
                terms,
            } => {
                let d = self.reg_var(f, *dst, pb);
                let mut e = self.read(f, *base, Ty::Ptr, ex);
                let o = self.pool.constant(pb, *offset as u64);
                e = self.pool.bin(BinOp::Add, pb, e, o);
                for (r, iw, scale) in terms {
                    let x = self.read(f, *r, Ty::Int(*iw), ex);
                    let x = if *iw < pb {
                        self.pool.sext(pb, x)
                    } else {
                        self.pool.extract(pb, 0, x)
                    };
                    let s = self.pool.constant(pb, *scale as u64);
                    let t = self.pool.bin(BinOp::Mul, pb, x, s);
                    e = self.pool.bin(BinOp::Add, pb, e, t);
                }
                self.set(ex, d, e);
            }
            Inst::Load { dst, ty, addr } => {
                let w = ty.bits_with(self.ptr_bits) as u8;
                let d = self.reg_var(f, *dst, w);
                let e = match self.cell(f, *addr, *ty) {
                    Some(v) => match ex.assigns.get(&v) {
                        Some(e) => *e,
                        None => self.var_expr(v),
                    },
                    None => self.fresh(ex, w),
                };
                self.set(ex, d, e);
            }
            Inst::Store { ty, addr, val } => {
                if let Some(v) = self.cell(f, *addr, *ty) {
                    let e = self.read(f, *val, *ty, ex);
                    self.set(ex, v, e);
                }
            }
            Inst::Intrinsic {
                op,
                ty,
                dst: Val::Reg(d, dt),
                args,
            } => {
                let w = dt.bits_with(self.ptr_bits) as u8;
                let dv = self.reg_var(f, *d, w);
                let e = match op {
                    IntrinsicOp::Copy if !ty.is_float() => self.read(f, args[0], *ty, ex),
                    IntrinsicOp::SMax
                    | IntrinsicOp::SMin
                    | IntrinsicOp::UMax
                    | IntrinsicOp::UMin => {
                        let x = self.read(f, args[0], *ty, ex);
                        let y = self.read(f, args[1], *ty, ex);
                        let p = match op {
                            IntrinsicOp::SMax => IPred::Sge,
                            IntrinsicOp::SMin => IPred::Sle,
                            IntrinsicOp::UMax => IPred::Uge,
                            _ => IPred::Ule,
                        };
                        let c = self.pool.cmp(p, x, y);
                        self.pool.ite(c, x, y)
                    }
                    _ => self.fresh(ex, w),
                };
                self.set(ex, dv, e);
            }
            Inst::Alloca { dst, .. } => match self.slots.get(&(f, *dst)) {
                // A new activation's slot holds whatever was on the stack.
                Some(&t) => {
                    let v = self.slot_cell(f, *dst, t).unwrap();
                    let e = self.fresh(ex, self.width_of(t));
                    self.set(ex, v, e);
                }
                None => {
                    let d = self.reg_var(f, *dst, pb);
                    let e = self.fresh(ex, pb);
                    self.set(ex, d, e);
                }
            },
            Inst::ExtractValue { dst, ty, .. } => {
                let w = ty.bits_with(self.ptr_bits) as u8;
                let d = self.reg_var(f, *dst, w);
                let e = self.fresh(ex, w);
                self.set(ex, d, e);
            }
            Inst::FBin { dst, ty, .. } | Inst::FNeg { dst, ty, .. } => {
                let w = ty.bits_with(self.ptr_bits) as u8;
                let d = self.reg_var(f, *dst, w);
                let e = self.fresh(ex, w);
                self.set(ex, d, e);
            }
            Inst::FCmp { dst, .. } => {
                let d = self.reg_var(f, *dst, 1);
                let e = self.fresh(ex, 1);
                self.set(ex, d, e);
            }
            // Memory-only effects on untracked memory: nothing to model.
            _ => {}
        }
    }
}

#[derive(Clone, Default)]
struct SegExec {
    assigns: HashMap<u32, ExprId>,
    order: Vec<u32>,
    guards: Vec<ExprId>,
    havocs: Vec<u32>,
}

impl SegExec {
    fn assign(&mut self, v: u32, e: ExprId) {
        if self.assigns.insert(v, e).is_none() {
            self.order.push(v);
        }
    }
    fn finish(self) -> Effect {
        let assigns = self.order.iter().map(|v| (*v, self.assigns[v])).collect();
        Effect {
            assigns,
            guards: self.guards,
            havocs: self.havocs,
        }
    }
}

fn is_call(i: &Inst) -> bool {
    matches!(i, Inst::Call { .. } | Inst::CallExtern { .. })
}

fn is_runtime(m: &Module, f: &Function) -> bool {
    m.files
        .get(f.loc.file as usize)
        .is_some_and(|p| p.ends_with(crate::ir::frontend::RUNTIME_FILE))
}
