//! Call abstraction for lazy expansion (LATEST, sections 3 and 4.4): an observer that wraps the
//! symbolic shadow and decides, for each call of a program function, whether to run it or to
//! abstract it — the callee is not run, its result (and what it may write) becomes fresh input.
//!
//! Only calls that depend on inputs are *candidates*: their arguments, or the memory reachable
//! from their pointer arguments and the globals the callee refers to, hold symbolic values, or
//! the callee reads program input itself. Input-independent calls have one path and always run.
//! Candidates are numbered in execution order; a run *expands* the first `expand` of them and
//! abstracts the rest, so a run is described statelessly by its inputs and that number.
//!
//! Abstract inputs are keyed by (call site, occurrence of the site), not by position, so that
//! expanding one call leaves the values of the calls after it in place. A fresh abstract input
//! starts as "nothing happened": a zero result, memory as it was.
//!
//! The observer also keeps the run's whole branch trace, concrete branches included: when a
//! call is expanded, a decision on its abstract result usually becomes concrete (callees
//! return constants), and stitching must still check which way it went.

use super::input::{InputKind, InputSource, InputValue, RandomInputs, Seeded};
use super::libc::Ext;
use super::observer::{Call, CallAction, InputUse, Observer, Site, Target, View};
use super::shadow::{NONE, Shadow};
use crate::analysis::effects::Effects;
use crate::ir::{FuncId, Inst, Moves, Terminator, Ty, Val};
use rand::Rng;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

/// Which functions lazy expansion may abstract.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// Every function with a body whose paths can multiply (it or a callee loops or recurses)
    /// and that returns a scalar (or nothing, but writes memory). Loop-free leaves have a few
    /// paths: abstracting them costs more runs than it saves.
    Auto,
    /// These functions.
    Named(Vec<String>),
}

impl Selection {
    /// `auto` or a comma-separated list of function names.
    pub fn parse(text: &str) -> Selection {
        if text.trim() == "auto" {
            Selection::Auto
        } else {
            Selection::Named(
                text.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect(),
            )
        }
    }
}

/// What the abstraction needs to know about the program, computed once.
pub struct Policy {
    /// Per function: may its calls be abstracted.
    pub abstractable: Vec<bool>,
    pub effects: Effects,
}

/// Why a function cannot be abstracted (None: it can).
fn unabstractable(p: &super::Program, f: FuncId) -> Option<&'static str> {
    let func = &p.module.functions[f as usize];
    if func.blocks.is_empty() {
        return Some("it has no body");
    }
    if matches!(func.name.as_str(), "main" | "__cairn_start") {
        return Some("it is the program's start");
    }
    if !func
        .blocks
        .iter()
        .any(|b| matches!(b.term, crate::ir::Terminator::Ret { .. }))
    {
        return Some("it never returns");
    }
    match func.ret {
        Ty::Ptr => Some("it returns a pointer"),
        Ty::Agg(_) => Some("it returns a struct"),
        _ => None,
    }
}

impl Policy {
    pub fn new(p: &super::Program, sel: &Selection) -> Result<Policy, String> {
        let inputs: HashSet<&str> = p
            .module
            .externs
            .iter()
            .zip(&p.exts)
            .filter(|(_, e)| {
                matches!(
                    e,
                    Ext::Nondet(_)
                        | Ext::CrestInput(_)
                        | Ext::MakeSymbolic
                        | Ext::UninitializedInput
                        | Ext::Fgetc
                        | Ext::Unknown(_)
                )
            })
            .map(|(x, _)| x.name.as_str())
            .collect();
        let effects = Effects::compute(&p.module, &|n| inputs.contains(n));
        let n = p.module.functions.len();
        let mut abstractable = vec![false; n];
        match sel {
            Selection::Auto => {
                for (f, chosen) in abstractable.iter_mut().enumerate() {
                    let e = &effects.funcs[f];
                    // A void function that writes nothing has no effect to abstract.
                    let effect = p.module.functions[f].ret != Ty::Void
                        || e.writes_unknown
                        || !e.writes_globals.is_empty()
                        || !e.writes_params.is_empty();
                    *chosen = effect && e.may_loop && unabstractable(p, f as FuncId).is_none();
                }
            }
            Selection::Named(names) => {
                for name in names {
                    let Some(&f) = p.module.func_by_name.get(name) else {
                        return Err(format!("--lazy: no function `{name}` in the program"));
                    };
                    if let Some(why) = unabstractable(p, f) {
                        return Err(format!("--lazy: cannot abstract `{name}`: {why}"));
                    }
                    abstractable[f as usize] = true;
                }
            }
        }
        Ok(Policy {
            abstractable,
            effects,
        })
    }

    pub fn count(&self) -> usize {
        self.abstractable.iter().filter(|a| **a).count()
    }
}

/// Which abstract input a value is: the call's site, the how-manieth call through that site it
/// is, and the part (0: the result, i: the i-th memory region the callee may write).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputKey {
    pub site: u32,
    pub occurrence: u32,
    pub part: u32,
}

/// A position in a run: symbolic decisions recorded, branches taken, candidate calls made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunPoint {
    pub records: usize,
    pub trace: usize,
    pub calls: usize,
}

/// A candidate call of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct CallMark {
    pub site: u32,
    pub callee: FuncId,
    /// Where the call was made.
    pub at: RunPoint,
    pub abstracted: bool,
    /// For an entered call: where it returned (None: the run ended inside). The candidate calls
    /// between `at` and `end` are nested in it.
    pub end: Option<RunPoint>,
    pub key: InputKey,
}

/// A conditional branch or switch the run took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Branch {
    pub func: FuncId,
    pub block: crate::ir::BlockId,
    /// The outcome: 0 then / 1 else, or the case index (the number of cases: default).
    pub taken: u32,
    /// Its symbolic decision's index in the shadow's path, if it was symbolic.
    pub record: Option<u32>,
}

/// Branches kept per run; past it the trace is cut (and `trace_cut` set).
const MAX_TRACE: usize = 1 << 22;

/// An abstract input about to be read: its key, and its value unless a run chose one.
pub type AbstractRead = (InputKey, InputValue);

/// A program-function call being made: site, occurrence, result destination, and the values of
/// its pointer arguments (by position).
type CallBeingMade = (u32, u32, Option<Val>, Vec<Option<u64>>);

/// The symbolic shadow with call abstraction: forwards every event to the shadow, answers
/// `call_action` and `abstract_writes`, and records the candidate calls.
pub struct Abstracting<'s> {
    pub shadow: Shadow<'s>,
    policy: &'s Policy,
    /// Candidate calls numbered below this run; the others are abstracted.
    pub expand: usize,
    pub calls: Vec<CallMark>,
    /// Every conditional branch taken (up to `MAX_TRACE`).
    pub trace: Vec<Branch>,
    pub trace_cut: bool,
    /// The abstract inputs the machine is about to read (shared with `LazyInputs`).
    keys: Rc<RefCell<VecDeque<AbstractRead>>>,
    occurrences: HashMap<u32, u32>,
    /// The program-function call being made.
    calling: Option<CallBeingMade>,
    /// Entered candidates not yet returned: (depth of their frame, index in `calls`).
    open: Vec<(usize, usize)>,
    /// The call being abstracted.
    abstracting: Option<FuncId>,
}

impl<'s> Abstracting<'s> {
    pub fn new(
        shadow: Shadow<'s>,
        policy: &'s Policy,
        expand: usize,
        keys: Rc<RefCell<VecDeque<AbstractRead>>>,
    ) -> Abstracting<'s> {
        Abstracting {
            shadow,
            policy,
            expand,
            calls: vec![],
            trace: vec![],
            trace_cut: false,
            keys,
            occurrences: HashMap::new(),
            calling: None,
            open: vec![],
            abstracting: None,
        }
    }

    /// Number of calls this run abstracted.
    pub fn abstracted(&self) -> usize {
        self.calls.iter().filter(|c| c.abstracted).count()
    }

    fn point(&self) -> RunPoint {
        RunPoint {
            records: self.shadow.path.len(),
            trace: self.trace.len(),
            calls: self.calls.len(),
        }
    }

    /// Section 4.4: does the call depend on inputs? Its arguments, the memory reachable from
    /// its pointer arguments and from the globals the callee refers to, or input it reads.
    fn depends_on_input(&self, v: &View, callee: FuncId, ptrs: &[Option<u64>]) -> bool {
        let e = &self.policy.effects.funcs[callee as usize];
        if e.reads_input || self.shadow.call_args().iter().any(|a| *a != NONE) {
            return true;
        }
        if !self.shadow.has_symbolic_memory() {
            return false;
        }
        let mut work: Vec<u64> = ptrs.iter().flatten().copied().collect();
        work.extend(e.globals.iter().map(|g| v.module.globals[*g as usize].addr));
        let mut seen: HashSet<u64> = HashSet::new();
        let mut budget: u64 = 1 << 16;
        let pb = v.ptr_bits / 8;
        while let Some(a) = work.pop() {
            let Some((base, size)) = v.mem.object_bounds(a) else {
                continue;
            };
            if !seen.insert(base) {
                continue;
            }
            if self.shadow.symbolic_bytes(base, size) {
                return true;
            }
            // Pointers stored in the object lead further.
            if size > budget || seen.len() > 256 {
                continue;
            }
            budget -= size;
            let mut off = 0;
            while off + pb as u64 <= size {
                if let Ok(p) = v.mem.read_uint(base + off, pb)
                    && p != 0
                    && v.mem.object_bounds(p).is_some()
                {
                    work.push(p);
                }
                off += pb as u64;
            }
        }
        false
    }
}

impl Observer for Abstracting<'_> {
    fn stop(&mut self, v: &View) -> Option<super::observer::RunEnd> {
        self.shadow.stop(v)
    }
    fn inst(&mut self, v: &View, inst: &Inst, at: Site) {
        self.shadow.inst(v, inst, at)
    }
    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {
        let before = self.shadow.path.len();
        self.shadow.terminator(v, term, at);
        let taken = match term {
            Terminator::CondBr { cond, .. } => (v.reg(at.rb, *cond) & 1 == 0) as u32,
            Terminator::Switch { val, w, cases, .. } => {
                let x = crate::ir::ops::mask(v.reg(at.rb, *val), *w as u32);
                cases.iter().position(|c| c.0 == x).unwrap_or(cases.len()) as u32
            }
            _ => return,
        };
        if self.trace.len() >= MAX_TRACE {
            self.trace_cut = true;
            return;
        }
        let recorded = self.shadow.path.len() > before;
        self.trace.push(Branch {
            func: at.func,
            block: at.block,
            taken,
            record: recorded.then_some(before as u32),
        });
    }
    fn edge(&mut self, v: &View, moves: &Moves, rb: usize) {
        self.shadow.edge(v, moves, rb)
    }
    fn call(&mut self, v: &View, call: Call, rb: usize) {
        self.shadow.call(v, call, rb);
        self.calling = match call.target {
            Target::Func(_) => {
                let n = self.occurrences.entry(call.site).or_insert(0);
                let occurrence = *n;
                *n += 1;
                let ptrs = call
                    .args
                    .iter()
                    .map(|a| match a {
                        Val::Reg(r, Ty::Ptr) => Some(v.reg(rb, *r)),
                        _ => None,
                    })
                    .collect();
                Some((call.site, occurrence, call.dst, ptrs))
            }
            Target::Extern(_) => None,
        };
    }
    fn call_action(&mut self, v: &View, callee: FuncId) -> CallAction {
        let Some((site, occurrence, dst, ptrs)) = self.calling.clone() else {
            return CallAction::Enter;
        };
        if !self.policy.abstractable[callee as usize] || !self.depends_on_input(v, callee, &ptrs) {
            return CallAction::Enter;
        }
        let index = self.calls.len();
        let abstracted = index >= self.expand;
        let key = InputKey {
            site,
            occurrence,
            part: 0,
        };
        let at = self.point();
        self.calls.push(CallMark {
            site,
            callee,
            at,
            abstracted,
            end: None,
            key,
        });
        if !abstracted {
            self.open.push((v.depth + 1, index));
            return CallAction::Enter;
        }
        self.abstracting = Some(callee);
        if let Some(Val::Reg(_, t)) = dst {
            // Unless a run chose its value, the result is zero (or the least value the callee
            // can return).
            let kind = match t {
                Ty::F32 => InputKind::Float,
                Ty::F64 => InputKind::Double,
                Ty::Int(1) => InputKind::Bool,
                Ty::Int(8) => InputKind::Char,
                Ty::Int(16) => InputKind::Short,
                Ty::Int(32) => InputKind::Int,
                _ => InputKind::LongLong,
            };
            let mut fresh = super::input::zero(kind, 0, 0);
            if let Some(set) = &self.policy.effects.funcs[callee as usize].returns
                && !set.contains(&0)
            {
                fresh.bits = set.iter().next().copied().unwrap_or(0);
            }
            self.keys.borrow_mut().push_back((key, fresh));
        }
        CallAction::Abstract
    }
    fn abstract_writes(&mut self, v: &View, callee: FuncId) -> Vec<(u64, u64)> {
        let Some((site, occurrence, _, ptrs)) = self.calling.take() else {
            return vec![];
        };
        let e = &self.policy.effects.funcs[callee as usize];
        let mut regions: Vec<(u64, u64)> = vec![];
        let globals = e
            .writes_globals
            .iter()
            .map(|g| v.module.globals[*g as usize].addr);
        let params = e
            .writes_params
            .iter()
            .filter_map(|p| ptrs.get(*p as usize).copied().flatten());
        for a in globals.chain(params) {
            if let Some((base, size)) = v.mem.writable_bounds(a)
                && size <= 4096
                && !regions.contains(&(base, size))
            {
                regions.push((base, size));
            }
        }
        // Unless a run chose their bytes, the regions keep what they hold.
        let mut keys = self.keys.borrow_mut();
        for (i, (base, size)) in regions.iter().enumerate() {
            let key = InputKey {
                site,
                occurrence,
                part: i as u32 + 1,
            };
            let mut now = super::input::zero(InputKind::Bytes, 0, *size as usize);
            if let Ok(b) = v.mem.read(*base, *size) {
                now.set_bytes(b.to_vec());
            }
            keys.push_back((key, now));
        }
        regions
    }
    fn enter(&mut self, v: &View, func: FuncId, rb: usize) {
        self.calling = None;
        self.shadow.enter(v, func, rb)
    }
    fn ret(&mut self, v: &View, val: Option<Val>, rb: usize, caller: Option<(usize, Option<Val>)>) {
        self.shadow.ret(v, val, rb, caller);
        if let Some(&(depth, index)) = self.open.last()
            && depth == v.depth
        {
            self.open.pop();
            self.calls[index].end = Some(self.point());
        }
    }
    fn extern_returned(&mut self, v: &View, dst: Option<Val>, rb: usize) {
        self.calling = None;
        // An abstracted result is one of the values the callee can return, when known.
        if let (Some(f), Some(Val::Reg(r, t))) = (self.abstracting.take(), dst)
            && let Some(set) = &self.policy.effects.funcs[f as usize].returns
        {
            let w = t.bits(v.module.data_model);
            let values: Vec<u64> = set.iter().map(|x| crate::ir::ops::mask(*x, w)).collect();
            let now = v.reg(rb, r);
            self.shadow
                .assume_result_in(v, &values, values.contains(&now));
        }
        self.shadow.extern_returned(v, dst, rb)
    }
    fn mem_written(&mut self, v: &View, addr: u64, n: u64) {
        self.shadow.mem_written(v, addr, n)
    }
    fn mem_copied(&mut self, v: &View, dst: u64, src: u64, n: u64) {
        self.shadow.mem_copied(v, dst, src, n)
    }
    fn vararg_placed(&mut self, v: &View, index: usize, addr: u64, n: u32) {
        self.shadow.vararg_placed(v, index, addr, n)
    }
    fn input(&mut self, v: &View, index: usize, width: u32, used: InputUse) {
        self.shadow.input(v, index, width, used)
    }
    fn assume(&mut self, v: &View, holds: bool) {
        self.shadow.assume(v, holds)
    }
}

/// Inputs of a lazy run: the program's own inputs in order, and abstract inputs by key. Records
/// which input of the run is which.
pub struct LazyInputs<R: Rng> {
    pub real: Seeded<R>,
    pub abstract_values: HashMap<InputKey, InputValue>,
    keys: Rc<RefCell<VecDeque<AbstractRead>>>,
    /// Per input the run read: the abstract input it is (None: the program's own).
    pub tags: Vec<Option<InputKey>>,
}

impl<R: Rng> LazyInputs<R> {
    pub fn new(
        real: Vec<InputValue>,
        abstract_values: HashMap<InputKey, InputValue>,
        fallback: R,
        keys: Rc<RefCell<VecDeque<AbstractRead>>>,
    ) -> LazyInputs<R> {
        LazyInputs {
            real: Seeded {
                values: real,
                pos: 0,
                fallback: RandomInputs { rng: fallback },
            },
            abstract_values,
            keys,
            tags: vec![],
        }
    }
}

impl<R: Rng> LazyInputs<R> {
    /// An abstract read's value as `kind` of `width` bits if one is pending; else the
    /// program's own value, as the real source `draw`s it (text for stdin, a NULL flag).
    fn abstract_or(
        &mut self,
        kind: InputKind,
        width: u32,
        draw: impl FnOnce(&mut Seeded<R>) -> InputValue,
    ) -> InputValue {
        if !self.keys.borrow().is_empty() {
            return self.next(kind, width, 0);
        }
        self.tags.push(None);
        draw(&mut self.real)
    }
}

impl<R: Rng> InputSource for LazyInputs<R> {
    fn next_char(&mut self) -> InputValue {
        self.abstract_or(InputKind::Int, 32, |r| r.next_char())
    }

    fn next_null_flag(&mut self) -> InputValue {
        self.abstract_or(InputKind::Bool, 1, |r| r.next_null_flag())
    }

    fn next(&mut self, kind: InputKind, width: u32, len: usize) -> InputValue {
        let read = self.keys.borrow_mut().pop_front();
        self.tags.push(read.as_ref().map(|r| r.0));
        match read {
            None => self.real.next(kind, width, len),
            Some((k, fresh)) => match self.abstract_values.get(&k) {
                Some(v)
                    if v.kind == kind && (kind != InputKind::Bytes || v.bytes().len() == len) =>
                {
                    v.clone()
                }
                _ if fresh.kind == kind
                    && (kind != InputKind::Bytes || fresh.bytes().len() == len) =>
                {
                    let mut v = fresh;
                    v.width = width;
                    v
                }
                _ => self.real.fallback.next(kind, width, len),
            },
        }
    }
}
