//! Observers: everything that watches a run without being part of its concrete semantics.
//!
//! The interpreter executes concretely and reports events to the observer it was given; it
//! never names one. The symbolic shadow (concolic testing) is an observer; so are monitors,
//! def-use trackers and call abstraction. Events come with a read-only [`View`] of the concrete
//! state, taken *before* the event's concrete effect (an instruction's operands still hold
//! their inputs) unless the event says otherwise.

use super::libc::Ext;
use super::memory::Memory;
use crate::ir::{BlockId, FuncId, Inst, Module, Moves, Reg, Terminator, Val};

/// The concrete state an observer may read.
pub struct View<'a> {
    pub module: &'a Module,
    /// What each external function of the module is (`Module::externs` order).
    pub exts: &'a [Ext],
    /// Registers of every active frame; a frame's registers start at its base `rb`.
    pub regs: &'a [u64],
    pub mem: &'a Memory,
    pub ptr_bits: u32,
    /// Call-string context of the current frame (tells copies of a function apart per call site).
    pub ctx: u64,
    /// Number of active frames.
    pub depth: usize,
    /// The active frames, the current one last.
    pub frames: &'a [super::machine::Frame],
    /// Instructions executed so far, counted per block entered: orders events of a run.
    pub steps: u64,
    /// Per branch goal: how many times the run took it so far.
    pub branches: &'a [u32],
    /// Error calls reached so far.
    pub errors_hit: usize,
    /// Inputs read so far.
    pub inputs: usize,
    /// The rounding mode the program set: float operations round so.
    pub rounding: crate::ir::rounding::Rounding,
}

impl View<'_> {
    pub fn reg(&self, rb: usize, r: Reg) -> u64 {
        self.regs[rb + r as usize]
    }
}

/// Why an observer ends a run (`Observer::stop`).
pub enum RunEnd {
    /// As the environment's: no outcome predicted, nothing claimed past it.
    Environment(String),
    /// At a state another run of the search was in (`Outcome::Revisited`).
    Revisited,
}

/// Where in the program an event happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub func: FuncId,
    pub block: BlockId,
    /// Base of the current frame's registers.
    pub rb: usize,
}

/// How an input value (the last one read, number `index` of the run) reaches the program, so
/// that a symbolic observer can relate it to its variable.
#[derive(Clone, Copy, Debug)]
pub enum InputUse {
    /// The result of the current external call: an integer of `w` bits (the input truncated,
    /// or extended by its signedness), or a float's bit pattern when `w` equals its width.
    Ret { w: u32, signed: bool },
    /// `getchar`'s result: -1 for EOF, else the input's low byte.
    Char,
    /// Stored as an integer of `n` bytes at `addr`.
    Mem { addr: u64, n: u32, signed: bool },
    /// A byte buffer at `addr`: byte i of memory is byte i of the input.
    Bytes { addr: u64, n: u64 },
    /// Parameter `pos` of the entry function (unit mode), before its frame is entered; a
    /// length parameter with its bound.
    Param { pos: usize, at_most: Option<AtMost> },
    /// A pointer of `n` bytes stored at `addr` (`exec::links`): `block` if the input is true,
    /// else null.
    Link { addr: u64, n: u32, block: u64 },
    /// Whether pointer parameter `pos` of the entry function (unit mode) is NULL: null if the
    /// input is true, else `buf`.
    NullParam { pos: usize, buf: u64 },
}

/// A length parameter is at most `max` elements (`exec::length_params`): an assumption, which
/// `holds` on this run or ends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtMost {
    pub max: u64,
    pub unsigned: bool,
    pub holds: bool,
}

/// The function a call goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Func(FuncId),
    /// An external function: index into `View::exts` and `Module::externs`.
    Extern(u32),
}

/// A call being made.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    pub target: Target,
    /// The caller's argument values.
    pub args: &'a [Val],
    /// Where the result goes (None when the program ignores it).
    pub dst: Option<Val>,
    /// The call site (`Module::call_sites` index).
    pub site: u32,
}

/// What to do with a call of a program function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallAction {
    /// Execute the callee.
    Enter,
    /// Do not execute it: its result becomes a fresh input (an abstracted call).
    Abstract,
}

/// The events of a run. Every method has a default that ignores the event.
#[allow(unused_variables)]
pub trait Observer {
    /// Before `inst` executes.
    fn inst(&mut self, v: &View, inst: &Inst, at: Site) {}
    /// Before the block's terminator chooses its successor.
    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {}
    /// Before the phi moves of the edge just chosen are made.
    fn edge(&mut self, v: &View, moves: &Moves, rb: usize) {}
    /// A block was entered by an edge back to it or to one before it (a loop header, in the
    /// order blocks are laid out), after the edge's moves.
    fn back_edge_taken(&mut self, v: &View, at: Site) {}
    /// A call is about to be made (program or library function); `args` are the caller's
    /// values, `dst` receives the result (None when the program ignores it).
    fn call(&mut self, v: &View, call: Call, rb: usize) {}
    /// Asked before a program function is entered; any observer may abstract the call.
    fn call_action(&mut self, v: &View, callee: FuncId) -> CallAction {
        CallAction::Enter
    }
    /// Asked after a call of `callee` was abstracted: memory `(addr, len)` the callee may have
    /// written. Each region becomes fresh input bytes too (reported as `input` events).
    fn abstract_writes(&mut self, v: &View, callee: FuncId) -> Vec<(u64, u64)> {
        vec![]
    }
    /// A frame of `func` was pushed with base `rb` and its parameters bound (after `call`).
    fn enter(&mut self, v: &View, func: FuncId, rb: usize) {}
    /// The current frame (base `rb`) returns `val`; `caller` is the caller's base and the
    /// register receiving the value, or None when the entry function returns.
    fn ret(&mut self, v: &View, val: Option<Val>, rb: usize, caller: Option<(usize, Option<Val>)>) {
    }
    /// A library model finished; its result (if any) went to `dst` in the frame at `rb`.
    fn extern_returned(&mut self, v: &View, dst: Option<Val>, rb: usize) {}
    /// Memory `[addr, addr+n)` received concrete data (library writes, stack frames freed).
    fn mem_written(&mut self, v: &View, addr: u64, n: u64) {}
    /// Memory `[addr, addr+n)` was just allocated without initialization (stack slots,
    /// malloc): the interpreter reads zeros there, a native run whatever was there before.
    fn uninitialized(&mut self, v: &View, addr: u64, n: u64) {}
    /// Memory was copied from `src` to `dst` (memcpy, byval arguments).
    fn mem_copied(&mut self, v: &View, dst: u64, src: u64, n: u64) {}
    /// Variadic argument `index` of the current frame was laid out at `addr` (`n` bytes).
    fn vararg_placed(&mut self, v: &View, index: usize, addr: u64, n: u32) {}
    /// Input number `index` (of `width` bits) was read and used as `used`.
    fn input(&mut self, v: &View, index: usize, width: u32, used: InputUse) {}
    /// An assumption on the first argument of the current library call (`__VERIFIER_assume`):
    /// whether it holds on this run.
    fn assume(&mut self, v: &View, holds: bool) {}
    /// After a block's terminator is observed: `Some` ends the run there.
    fn stop(&mut self, v: &View) -> Option<RunEnd> {
        None
    }
}

/// No observer at all.
impl Observer for () {}

/// Several observers, each told every event in order.
pub struct Observers<'a>(pub Vec<&'a mut dyn Observer>);

impl Observer for Observers<'_> {
    fn inst(&mut self, v: &View, inst: &Inst, at: Site) {
        self.0.iter_mut().for_each(|o| o.inst(v, inst, at))
    }
    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {
        self.0.iter_mut().for_each(|o| o.terminator(v, term, at))
    }
    fn edge(&mut self, v: &View, moves: &Moves, rb: usize) {
        self.0.iter_mut().for_each(|o| o.edge(v, moves, rb))
    }
    fn back_edge_taken(&mut self, v: &View, at: Site) {
        self.0.iter_mut().for_each(|o| o.back_edge_taken(v, at))
    }
    fn call(&mut self, v: &View, call: Call, rb: usize) {
        self.0.iter_mut().for_each(|o| o.call(v, call, rb))
    }
    fn call_action(&mut self, v: &View, callee: FuncId) -> CallAction {
        // Every observer is asked; one abstraction is enough.
        let mut action = CallAction::Enter;
        for o in self.0.iter_mut() {
            if o.call_action(v, callee) == CallAction::Abstract {
                action = CallAction::Abstract;
            }
        }
        action
    }
    fn abstract_writes(&mut self, v: &View, callee: FuncId) -> Vec<(u64, u64)> {
        let mut all = vec![];
        for o in self.0.iter_mut() {
            all.extend(o.abstract_writes(v, callee));
        }
        all
    }
    fn enter(&mut self, v: &View, func: FuncId, rb: usize) {
        self.0.iter_mut().for_each(|o| o.enter(v, func, rb))
    }
    fn ret(&mut self, v: &View, val: Option<Val>, rb: usize, caller: Option<(usize, Option<Val>)>) {
        self.0.iter_mut().for_each(|o| o.ret(v, val, rb, caller))
    }
    fn extern_returned(&mut self, v: &View, dst: Option<Val>, rb: usize) {
        self.0
            .iter_mut()
            .for_each(|o| o.extern_returned(v, dst, rb))
    }
    fn mem_written(&mut self, v: &View, addr: u64, n: u64) {
        self.0.iter_mut().for_each(|o| o.mem_written(v, addr, n))
    }
    fn uninitialized(&mut self, v: &View, addr: u64, n: u64) {
        self.0.iter_mut().for_each(|o| o.uninitialized(v, addr, n))
    }
    fn mem_copied(&mut self, v: &View, dst: u64, src: u64, n: u64) {
        self.0.iter_mut().for_each(|o| o.mem_copied(v, dst, src, n))
    }
    fn vararg_placed(&mut self, v: &View, index: usize, addr: u64, n: u32) {
        self.0
            .iter_mut()
            .for_each(|o| o.vararg_placed(v, index, addr, n))
    }
    fn input(&mut self, v: &View, index: usize, width: u32, used: InputUse) {
        self.0
            .iter_mut()
            .for_each(|o| o.input(v, index, width, used))
    }
    fn stop(&mut self, v: &View) -> Option<RunEnd> {
        self.0.iter_mut().find_map(|o| o.stop(v))
    }
    fn assume(&mut self, v: &View, holds: bool) {
        self.0.iter_mut().for_each(|o| o.assume(v, holds))
    }
}

/// What observers that a program tracks on every run found (the def-use tracker's pairs and
/// trace), kept by their own types: a run's result carries them without naming them, and a
/// reader asks for the type it knows (`r.observed.get::<DefUseRun>()`), as LibAFL's
/// feedbacks read observers through handles.
#[derive(Default)]
pub struct Observations(Vec<Box<dyn Observation>>);

/// A result an observer leaves on its run.
pub trait Observation: std::any::Any + std::fmt::Debug + Send + Sync {
    fn clone_box(&self) -> Box<dyn Observation>;
    fn as_any(&self) -> &dyn std::any::Any;
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any>;
}

impl<T: std::any::Any + std::fmt::Debug + Clone + Send + Sync> Observation for T {
    fn clone_box(&self) -> Box<dyn Observation> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn std::any::Any> {
        self
    }
}

impl Observations {
    /// Keeps `o`, replacing an observation of the same type.
    pub fn insert<T: Observation>(&mut self, o: T) {
        self.take::<T>();
        self.0.push(Box::new(o));
    }

    pub fn get<T: Observation>(&self) -> Option<&T> {
        self.0.iter().find_map(|o| (**o).as_any().downcast_ref())
    }

    pub fn take<T: Observation>(&mut self) -> Option<T> {
        let i = self.0.iter().position(|o| (**o).as_any().is::<T>())?;
        self.0.swap_remove(i).into_any().downcast().ok().map(|b| *b)
    }
}

impl Clone for Observations {
    fn clone(&self) -> Self {
        Observations(self.0.iter().map(|o| (**o).clone_box()).collect())
    }
}

impl std::fmt::Debug for Observations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(&self.0).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Observations;

    #[derive(Clone, Debug, PartialEq)]
    struct Pairs(Vec<u32>);
    #[derive(Clone, Debug, PartialEq)]
    struct Trace(u64);

    #[test]
    fn observations_are_found_by_type_and_replaced_by_type() {
        let mut o = Observations::default();
        assert_eq!(o.get::<Pairs>(), None);
        o.insert(Pairs(vec![1, 2]));
        o.insert(Trace(7));
        o.insert(Pairs(vec![3]));
        assert_eq!(o.get::<Pairs>(), Some(&Pairs(vec![3])));
        let copy = o.clone();
        assert_eq!(o.take::<Trace>(), Some(Trace(7)));
        assert_eq!(o.get::<Trace>(), None);
        assert_eq!(copy.get::<Trace>(), Some(&Trace(7)));
        assert_eq!(copy.get::<Pairs>(), Some(&Pairs(vec![3])));
    }
}
