//! Dynamic def-use coverage by last definitions: an observer remembers, per variable address,
//! which definition wrote it last; a use covers the pair of that definition (a p-use once its
//! branch takes an outcome). Any other write to the address — a store through a pointer, a
//! library write, a block copy, the frame going away — leaves it without a known definition,
//! so a pair is covered only on a run where the definition really reaches the use.
//!
//! The tracker also keeps the run's definition trace: when each definition starts to hold
//! somewhere and when it stops (overwritten, or its frame gone), stamped with `View::steps` so
//! that search can tell, for a branch of the run, whether a definition still reaches it.

use super::observer::{Observer, Site, View};
use crate::analysis::defuse::{DefId, DefSite, DefUse, PairId, UseId, decider, outcome_index};
use crate::ir::{FuncId, Inst, Terminator, Val};
use std::collections::HashMap;
use std::collections::{BTreeMap, BTreeSet};

/// A definition starting or ceasing to hold (in any variable instance) during a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefEvent {
    /// `View::steps` of the event (`BranchRecord::step` orders branches against it).
    pub step: u64,
    pub def: DefId,
    pub state: DefState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefState {
    /// The definition was executed and now holds.
    Holds,
    /// Its last instance was overwritten: the variable was redefined (directly, through a
    /// pointer, or by a library write).
    Redefined,
    /// Its last instance went away with its frame or storage.
    Gone,
}

/// What the last definition trace event of `def` at or before `step` says (events in order).
pub fn state_at(trace: &[DefEvent], def: DefId, step: u64) -> Option<DefState> {
    let end = trace.partition_point(|e| e.step <= step);
    trace[..end]
        .iter()
        .rev()
        .find(|e| e.def == def)
        .map(|e| e.state)
}

/// What the def-use tracker found in one run (`RunResult::observed`).
#[derive(Clone, Debug, Default)]
pub struct DefUseRun {
    /// Def-use pairs covered.
    pub covered: Vec<PairId>,
    /// When definitions started and stopped holding.
    pub trace: Vec<DefEvent>,
    /// Positions in `trace` of each definition's events, built on first use: the cut-point
    /// search asks about every pending branch of a run, and a definition the run never
    /// executed made each question a scan of the whole trace.
    by_def: std::sync::OnceLock<HashMap<DefId, Vec<u32>>>,
}

impl DefUseRun {
    pub fn new(covered: Vec<PairId>, trace: Vec<DefEvent>) -> DefUseRun {
        DefUseRun {
            covered,
            trace,
            by_def: Default::default(),
        }
    }

    /// [`state_at`] of this run's trace.
    pub fn state_at(&self, def: DefId, step: u64) -> Option<DefState> {
        let index = self.by_def.get_or_init(|| {
            let mut m: HashMap<DefId, Vec<u32>> = HashMap::new();
            for (i, e) in self.trace.iter().enumerate() {
                m.entry(e.def).or_default().push(i as u32);
            }
            m
        });
        let at = index.get(&def)?;
        let end = at.partition_point(|&i| self.trace[i as usize].step <= step);
        end.checked_sub(1).map(|k| self.trace[at[k] as usize].state)
    }
}

pub struct DefUseTracker<'a> {
    du: &'a DefUse,
    /// start address -> (end, variable, last definition if it still holds).
    slots: BTreeMap<u64, (u64, u32, Option<DefId>)>,
    /// p-uses waiting for their branch: (frame, function, block, definition, use).
    pending_branch: Vec<(usize, FuncId, u32, DefId, UseId)>,
    /// Definitions by a call receiving the variable's address, made when the call is over:
    /// (frame, [(address, definition)]).
    pending_call: Vec<(usize, Vec<(u64, DefId)>)>,
    globals_defined: bool,
    pub covered: BTreeSet<PairId>,
    /// Per definition: how many variable instances it holds in now.
    live: Vec<u32>,
    /// A frame is being popped: the memory write that follows frees it.
    popping: bool,
    pub trace: Vec<DefEvent>,
}

impl<'a> DefUseTracker<'a> {
    pub fn new(du: &'a DefUse) -> Self {
        DefUseTracker {
            du,
            slots: BTreeMap::new(),
            pending_branch: vec![],
            pending_call: vec![],
            globals_defined: false,
            covered: BTreeSet::new(),
            live: vec![0; du.defs.len()],
            popping: false,
            trace: vec![],
        }
    }

    /// Every address in `[a, a+n)` loses its definition (for the reason `why`).
    fn kill(&mut self, v: &View, a: u64, n: u64, why: DefState) {
        let end = a.saturating_add(n);
        for (_, s) in self.slots.range_mut(a.saturating_sub(8)..end) {
            if s.0 > a
                && let Some(d) = s.2.take()
            {
                self.live[d as usize] -= 1;
                if self.live[d as usize] == 0 {
                    self.trace.push(DefEvent {
                        step: v.steps,
                        def: d,
                        state: why,
                    });
                }
            }
        }
    }

    fn define(&mut self, v: &View, addr: u64, d: DefId) {
        let var = self.du.defs[d as usize].var;
        let size = self.du.vars[var as usize].size as u64;
        if self.slots.get(&addr) == Some(&(addr + size, var, Some(d))) {
            return;
        }
        self.kill(v, addr, size, DefState::Redefined);
        self.slots.insert(addr, (addr + size, var, Some(d)));
        self.live[d as usize] += 1;
        if self.live[d as usize] == 1 {
            self.trace.push(DefEvent {
                step: v.steps,
                def: d,
                state: DefState::Holds,
            });
        }
    }

    /// Index of `inst` in its block (instructions are reported by reference into the module).
    fn index(v: &View, inst: &Inst, at: Site) -> Option<u32> {
        let insts = &v.module.functions[at.func as usize].blocks[at.block as usize].insts;
        let i = (inst as *const Inst as usize).checked_sub(insts.as_ptr() as usize)?
            / std::mem::size_of::<Inst>();
        (i < insts.len() && std::ptr::eq(&insts[i], inst)).then_some(i as u32)
    }

    fn finish_calls(&mut self, v: &View, rb: usize) {
        self.popping = false;
        while self.pending_call.last().is_some_and(|p| p.0 >= rb) {
            let (frame, defs) = self.pending_call.pop().unwrap();
            if frame == rb {
                for (a, d) in defs {
                    self.define(v, a, d);
                }
            }
        }
    }
}

impl Observer for DefUseTracker<'_> {
    fn enter(&mut self, v: &View, func: FuncId, _rb: usize) {
        if self.globals_defined || Some(func) != self.du.entry {
            return;
        }
        self.globals_defined = true;
        for (d, def) in self.du.defs.iter().enumerate() {
            if def.site == DefSite::Entry
                && let Some(g) = self.du.vars[def.var as usize].global
            {
                self.define(v, v.module.globals[g as usize].addr, d as DefId);
            }
        }
    }

    fn inst(&mut self, v: &View, inst: &Inst, at: Site) {
        self.finish_calls(v, at.rb);
        let Some(i) = Self::index(v, inst, at) else {
            return;
        };
        let key = (at.func, at.block, i);
        match inst {
            Inst::Store { ty, addr, .. } => {
                let a = v.reg(at.rb, *addr);
                match self.du.defs_at.get(&key) {
                    Some(ds) => self.define(v, a, ds[0]),
                    None => self.kill(
                        v,
                        a,
                        ty.store_size(v.module.data_model) as u64,
                        DefState::Redefined,
                    ),
                }
            }
            Inst::StoreAgg { size, addr, .. } => {
                self.kill(v, v.reg(at.rb, *addr), *size as u64, DefState::Redefined)
            }
            Inst::MemSet { dst, len, .. } | Inst::MemCopy { dst, len, .. } => self.kill(
                v,
                v.reg(at.rb, *dst),
                v.reg(at.rb, *len),
                DefState::Redefined,
            ),
            Inst::Load { addr, .. } => {
                let Some(&u) = self.du.use_at.get(&key) else {
                    return;
                };
                let a = v.reg(at.rb, *addr);
                let var = self.du.uses[u as usize].var;
                let Some(&(_, svar, Some(d))) = self.slots.get(&a) else {
                    return;
                };
                if svar != var {
                    return;
                }
                if self.du.uses[u as usize].outcomes.is_empty() {
                    if let Some(&p) = self.du.pair_of.get(&(d, u, None)) {
                        self.covered.insert(p);
                    }
                } else {
                    self.pending_branch.push((at.rb, at.func, at.block, d, u));
                }
            }
            Inst::Call { args, .. } | Inst::CallExtern { args, .. } => {
                let Some(ds) = self.du.defs_at.get(&key) else {
                    return;
                };
                // The address arguments, in order, are the variables the call may define.
                let mut defs = vec![];
                for a in args {
                    if let Val::Reg(r, _) = a {
                        let addr = v.reg(at.rb, *r);
                        for &d in ds {
                            let var = &self.du.vars[self.du.defs[d as usize].var as usize];
                            let slot = match var.global {
                                Some(g) => Some(v.module.globals[g as usize].addr),
                                None => var.reg.map(|sr| v.reg(at.rb, sr)),
                            };
                            if slot == Some(addr) {
                                defs.push((addr, d));
                            }
                        }
                    }
                }
                self.pending_call.push((at.rb, defs));
            }
            _ => {}
        }
    }

    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {
        self.finish_calls(v, at.rb);
        if self.pending_branch.iter().all(|p| p.0 != at.rb) {
            return;
        }
        let outcome = decider(term).and_then(|r| outcome_index(term, v.reg(at.rb, r)));
        let du = self.du;
        let covered = &mut self.covered;
        self.pending_branch.retain(|&(rb, f, b, d, u)| {
            if rb != at.rb {
                return true;
            }
            if (f, b) == (at.func, at.block)
                && let Some(&p) = du.pair_of.get(&(d, u, outcome))
            {
                covered.insert(p);
            }
            false
        });
    }

    fn ret(&mut self, _v: &View, _val: Option<Val>, _rb: usize, _c: Option<(usize, Option<Val>)>) {
        self.popping = true;
    }

    fn mem_written(&mut self, v: &View, addr: u64, n: u64) {
        let why = if std::mem::take(&mut self.popping) {
            DefState::Gone
        } else {
            DefState::Redefined
        };
        self.kill(v, addr, n, why)
    }

    fn uninitialized(&mut self, v: &View, addr: u64, n: u64) {
        self.kill(v, addr, n, DefState::Gone)
    }

    fn mem_copied(&mut self, v: &View, dst: u64, _src: u64, n: u64) {
        self.kill(v, dst, n, DefState::Redefined)
    }
}
