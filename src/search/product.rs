//! Exploring the product of the program and its monitors on the fly (section 6 of the
//! abstraction-driven concolic testing paper): beside the program location, every run tracks
//! the state of each monitor. At each branch the tracker tells which outcomes some monitor has no
//! transition for (infeasible: concolic search never negates them) and, for the others, the
//! product state they lead to, from which the goals still reachable follow (product goals
//! projected back to program goals).
//!
//! The tracker is an [`Observer`]; [`WithMonitors`] pairs it with the symbolic shadow so that
//! each recorded symbolic decision gets the monitors' verdict on its outcomes.

use crate::exec::observer::{Call, CallAction, InputUse, Observer, Site, View};
use crate::exec::shadow::Shadow;
use crate::ir::{FuncId, Inst, Moves, Terminator, Val};
use crate::mc::model::Loc;
use crate::mc::monitor::{Monitor, StateId};
use std::collections::HashMap;
use std::rc::Rc;

/// The monitors multiplied into the program so far (the product only gets more precise).
#[derive(Clone, Default)]
pub struct Product {
    pub monitors: Vec<Rc<Monitor>>,
}

/// Where one monitor goes when a branch outcome is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The monitor lost track of the run (unexpected event): it allows everything from here.
    Top,
    /// No transition: the abstraction proved the outcome infeasible here.
    Blocked,
    State(StateId),
}

/// The monitors' verdict on each outcome of one branch: `outcomes[o][m]` for monitor `m`.
#[derive(Clone, Debug)]
pub struct Decision {
    pub outcomes: Vec<Vec<Next>>,
}

impl Decision {
    /// Some monitor has no transition for outcome `o`.
    pub fn blocked(&self, o: usize) -> bool {
        self.outcomes[o].contains(&Next::Blocked)
    }
}

impl Product {
    /// Whether taking an outcome whose monitors go to `next` (and which covers `goal`) can still
    /// lead to a goal left open: every monitor must reach one same open goal.
    pub fn hopeful(&self, next: &[Next], goal: usize, open: &[bool]) -> bool {
        if open.get(goal).copied().unwrap_or(false) {
            return true;
        }
        (0..open.len()).any(|g| {
            open[g]
                && next.iter().zip(&self.monitors).all(|(n, m)| match n {
                    Next::Top => true,
                    Next::Blocked => false,
                    Next::State(s) => m.reaches(*s, g),
                })
        })
    }
}

/// Distances in the product, for the CFG-directed strategy under the monitors: per monitor and
/// state, the fewest monitor transitions to one covering an open goal; per pending branch, the
/// monitors' states once it is taken.
#[derive(Default)]
pub struct ProductDistances {
    monitors: Vec<Rc<Monitor>>,
    per_monitor: Vec<Vec<u32>>,
    /// Per pending branch (tree node, outcome): where the monitors go when it is taken.
    pub next: HashMap<(u32, usize), Vec<Next>>,
}

impl ProductDistances {
    /// Recomputes the monitors' distances for the goals open now.
    pub fn refresh(&mut self, p: &Product, open: &[bool]) {
        self.monitors = p.monitors.clone();
        self.per_monitor = p.monitors.iter().map(|m| m.distances(open)).collect();
    }

    pub fn has_monitors(&self) -> bool {
        !self.monitors.is_empty()
    }

    /// The goals every monitor still reaches once a pending branch is taken, as bit-set words
    /// in `out`; false when no monitor follows the run there (the product knows nothing).
    pub fn reach_into(&self, node: u32, outcome: usize, out: &mut Vec<u64>) -> bool {
        let Some(next) = self.next.get(&(node, outcome)) else {
            return false;
        };
        let mut known = false;
        out.clear();
        for (n, m) in next.iter().zip(&self.monitors) {
            match n {
                Next::Top => {}
                Next::Blocked => {
                    out.clear();
                    return true;
                }
                Next::State(s) => {
                    let words = m.reach_words(*s);
                    if known {
                        out.iter_mut().zip(words).for_each(|(o, w)| *o &= w);
                    } else {
                        out.extend_from_slice(words);
                        known = true;
                    }
                }
            }
        }
        known
    }

    /// From the product state a pending branch leads to, the fewest transitions to an open goal:
    /// the largest over the monitors (each bounds it from below); None where no monitor follows
    /// the run there.
    pub fn of(&self, node: u32, outcome: usize) -> Option<u32> {
        let next = self.next.get(&(node, outcome))?;
        let mut d = None;
        for (n, dist) in next.iter().zip(&self.per_monitor) {
            match n {
                Next::Top => {}
                Next::Blocked => return Some(u32::MAX),
                Next::State(s) => d = Some(d.unwrap_or(0).max(dist[*s as usize])),
            }
        }
        d
    }
}

/// One monitor following a run.
struct Track {
    monitor: Rc<Monitor>,
    /// The current state; None when lost (the monitor then allows everything).
    cur: Option<StateId>,
    /// Inside a call the monitor summarizes (library code, callbacks): the caller's depth.
    suspended: Option<usize>,
    /// The monitor reached a terminal state: the rest of the run is not its concern.
    done: bool,
}

impl Track {
    fn lose(&mut self, mismatches: &mut u64) {
        if self.cur.is_some() && !self.done {
            *mismatches += 1;
        }
        self.cur = None;
    }

    fn quiet(&self, v: &View) -> bool {
        self.done || self.cur.is_none() || self.suspended.is_some_and(|d| v.depth > d)
    }

    fn loc(&self) -> Option<Loc> {
        self.cur.map(|s| self.monitor.locs[s as usize])
    }
}

/// Follows the monitors along a run.
pub struct ProductTracker {
    tracks: Vec<Track>,
    /// Events no monitor transition matched (the monitor stopped constraining the run there).
    pub mismatches: u64,
}

fn is_call(i: &Inst) -> bool {
    matches!(i, Inst::Call { .. } | Inst::CallExtern { .. })
}

impl ProductTracker {
    pub fn new(p: &Product) -> ProductTracker {
        ProductTracker {
            tracks: p
                .monitors
                .iter()
                .map(|m| Track {
                    monitor: m.clone(),
                    cur: Some(m.root),
                    suspended: None,
                    done: false,
                })
                .collect(),
            mismatches: 0,
        }
    }

    /// Before a terminator: the outcome taken on this run, and the verdict on every outcome.
    fn branch(&mut self, v: &View, term: &Terminator, at: Site) -> Option<Decision> {
        let (n, taken) = match term {
            Terminator::Br { .. } | Terminator::Ret { .. } => (1, 0),
            Terminator::CondBr { cond, .. } => {
                (2, if v.reg(at.rb, *cond) & 1 != 0 { 0 } else { 1 })
            }
            Terminator::Switch { val, w, cases, .. } => {
                let x = crate::ir::ops::mask(v.reg(at.rb, *val), *w as u32);
                (
                    cases.len() + 1,
                    cases.iter().position(|c| c.0 == x).unwrap_or(cases.len()),
                )
            }
            Terminator::Unreachable => return None,
        };
        let mut outcomes = vec![Vec::with_capacity(self.tracks.len()); n];
        for t in &mut self.tracks {
            if t.quiet(v) {
                outcomes.iter_mut().for_each(|o| o.push(Next::Top));
                continue;
            }
            let at_block = t.loc().is_some_and(|l| {
                l.func == at.func && l.block == at.block && {
                    let b = &v.module.functions[l.func as usize].blocks[l.block as usize];
                    !b.insts[l.ip as usize..].iter().any(is_call)
                }
            });
            if !at_block {
                t.lose(&mut self.mismatches);
                outcomes.iter_mut().for_each(|o| o.push(Next::Top));
                continue;
            }
            let s = t.cur.unwrap();
            let next: Vec<Next> = (0..n)
                .map(|o| match t.monitor.step(s, o as u32) {
                    Some((to, _)) => Next::State(to),
                    None => Next::Blocked,
                })
                .collect();
            match next[taken] {
                Next::State(to) => {
                    t.cur = Some(to);
                    t.done = t.monitor.terminal[to as usize];
                    for (o, x) in next.into_iter().enumerate() {
                        outcomes[o].push(x);
                    }
                }
                // The run took a transition the monitor lacks: it cannot be trusted here.
                _ => {
                    t.lose(&mut self.mismatches);
                    outcomes.iter_mut().for_each(|o| o.push(Next::Top));
                }
            }
        }
        (n > 1).then_some(Decision { outcomes })
    }
}

impl Observer for ProductTracker {
    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {
        self.branch(v, term, at);
    }

    fn call(&mut self, v: &View, call: Call, _rb: usize) {
        for t in &mut self.tracks {
            if t.quiet(v) {
                continue;
            }
            let Some(mut l) = t.loc() else { continue };
            let b = &v.module.functions[l.func as usize].blocks[l.block as usize];
            // From a segment start, the segment up to the call.
            if !b.insts.get(l.ip as usize).is_some_and(is_call) {
                match &t.monitor.succ[t.cur.unwrap() as usize][..] {
                    [(0, to, _)] => {
                        t.cur = Some(*to);
                        l = t.monitor.locs[*to as usize];
                    }
                    _ => {
                        t.lose(&mut self.mismatches);
                        continue;
                    }
                }
            }
            let s = t.cur.unwrap();
            let ret_to = Loc { ip: l.ip + 1, ..l };
            let succ = &t.monitor.succ[s as usize];
            // An indirect call has a transition per possible callee: take the one into the
            // function this run calls.
            let entry = match call.target {
                crate::exec::observer::Target::Func(f) => Some(Loc {
                    func: f,
                    block: 0,
                    ip: 0,
                }),
                _ => None,
            };
            let into: Vec<_> = succ
                .iter()
                .filter(|(_, to, _)| Some(t.monitor.locs[*to as usize]) == entry)
                .collect();
            if succ.len() > 1 && into.len() == 1 {
                t.cur = Some(into[0].1);
                continue;
            }
            match &succ[..] {
                [(_, to, _)] => {
                    let tl = t.monitor.locs[*to as usize];
                    t.cur = Some(*to);
                    if t.monitor.terminal[*to as usize] {
                        t.done = true;
                    } else if tl == ret_to {
                        // Summarized: the monitor resumes when the call returns.
                        t.suspended = Some(v.depth);
                    } else if !matches!(call.target, crate::exec::observer::Target::Func(f) if tl == Loc { func: f, block: 0, ip: 0 })
                    {
                        t.lose(&mut self.mismatches);
                    }
                }
                _ => t.lose(&mut self.mismatches),
            }
        }
    }

    fn enter(&mut self, v: &View, func: FuncId, _rb: usize) {
        for t in &mut self.tracks {
            if t.quiet(v) {
                continue;
            }
            let s = t.cur.unwrap();
            // The run's first frame: the ARG's initial edge leads to it.
            if s == t.monitor.root {
                match t.monitor.step(s, 0) {
                    Some((to, _)) => t.cur = Some(to),
                    None => {
                        t.lose(&mut self.mismatches);
                        continue;
                    }
                }
            }
            if t.loc()
                != Some(Loc {
                    func,
                    block: 0,
                    ip: 0,
                })
            {
                t.lose(&mut self.mismatches);
            }
        }
    }

    fn ret(&mut self, v: &View, _val: Option<Val>, _rb: usize, _c: Option<(usize, Option<Val>)>) {
        for t in &mut self.tracks {
            if t.suspended.is_some_and(|d| v.depth == d + 1) {
                t.suspended = None;
            }
        }
    }

    fn extern_returned(&mut self, v: &View, _dst: Option<Val>, _rb: usize) {
        for t in &mut self.tracks {
            if t.suspended == Some(v.depth) {
                t.suspended = None;
            }
        }
    }
}

/// The symbolic shadow and the monitors, watching one run together: each symbolic decision the
/// shadow records gets the monitors' verdict on its outcomes (`decisions`, aligned with the
/// shadow's path; None where the decision is no branch of the program).
pub struct WithMonitors<'a, 's> {
    pub shadow: &'a mut Shadow<'s>,
    pub tracker: ProductTracker,
    pub decisions: Vec<Option<Rc<Decision>>>,
}

impl WithMonitors<'_, '_> {
    fn sync(&mut self) {
        self.decisions.resize(self.shadow.path.len(), None);
    }
}

impl Observer for WithMonitors<'_, '_> {
    fn stop(&mut self, v: &View) -> Option<crate::exec::observer::RunEnd> {
        self.shadow.stop(v)
    }
    fn inst(&mut self, v: &View, inst: &Inst, at: Site) {
        self.shadow.inst(v, inst, at);
        self.sync();
    }
    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {
        let before = self.shadow.path.len();
        self.shadow.terminator(v, term, at);
        let d = self.tracker.branch(v, term, at);
        self.sync();
        if self.shadow.path.len() == before + 1 {
            self.decisions[before] = d.map(Rc::new);
        }
    }
    fn edge(&mut self, v: &View, moves: &Moves, rb: usize) {
        self.shadow.edge(v, moves, rb);
        self.sync();
    }
    fn call(&mut self, v: &View, call: Call, rb: usize) {
        self.shadow.call(v, call, rb);
        self.tracker.call(v, call, rb);
        self.sync();
    }
    fn call_action(&mut self, v: &View, callee: FuncId) -> CallAction {
        self.shadow.call_action(v, callee)
    }
    fn abstract_writes(&mut self, v: &View, callee: FuncId) -> Vec<(u64, u64)> {
        self.shadow.abstract_writes(v, callee)
    }
    fn enter(&mut self, v: &View, func: FuncId, rb: usize) {
        self.shadow.enter(v, func, rb);
        self.tracker.enter(v, func, rb);
        self.sync();
    }
    fn ret(&mut self, v: &View, val: Option<Val>, rb: usize, caller: Option<(usize, Option<Val>)>) {
        self.shadow.ret(v, val, rb, caller);
        self.tracker.ret(v, val, rb, caller);
        self.sync();
    }
    fn extern_returned(&mut self, v: &View, dst: Option<Val>, rb: usize) {
        self.shadow.extern_returned(v, dst, rb);
        self.tracker.extern_returned(v, dst, rb);
        self.sync();
    }
    fn mem_written(&mut self, v: &View, addr: u64, n: u64) {
        self.shadow.mem_written(v, addr, n);
        self.sync();
    }
    fn uninitialized(&mut self, v: &View, addr: u64, n: u64) {
        self.shadow.uninitialized(v, addr, n);
        self.sync();
    }
    fn mem_copied(&mut self, v: &View, dst: u64, src: u64, n: u64) {
        self.shadow.mem_copied(v, dst, src, n);
        self.sync();
    }
    fn vararg_placed(&mut self, v: &View, index: usize, addr: u64, n: u32) {
        self.shadow.vararg_placed(v, index, addr, n);
        self.sync();
    }
    fn input(&mut self, v: &View, index: usize, width: u32, used: InputUse) {
        self.shadow.input(v, index, width, used);
        self.sync();
    }
    fn assume(&mut self, v: &View, holds: bool) {
        self.shadow.assume(v, holds);
        self.sync();
    }
}
