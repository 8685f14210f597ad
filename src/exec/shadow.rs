//! The symbolic shadow of a run: for every register and memory byte that depends on inputs, the
//! expression over input variables it equals, and the path condition of the branches taken.
//! It is an [`Observer`] of the interpreter: it reads concrete values through the [`View`] and
//! never changes the run.
//!
//! Policy (documented in the README):
//! - Integers and pointers are tracked exactly; floating-point values are tracked as their IEEE
//!   bit patterns; aggregates (struct values in registers) are concretized: their shadow is
//!   dropped, which loses constraints but never adds wrong ones.
//! - A load through a symbolic pointer into an object of at most `MAX_SYMBOLIC_OBJECT` bytes reads
//!   an if-then-else over every element of the object, so the solver can pick any entry of an
//!   input-indexed table; larger objects are concretized. A store through a symbolic pointer into
//!   an object of at most `MAX_SYMBOLIC_STORE` bytes makes every byte of the object "the stored
//!   byte if the address hits it, else the old one" (up to `MAX_SYMBOLIC_STORES` per run and
//!   `MAX_SYMBOLIC_STORES_PER_OBJECT` per object); others are concretized. A pointer that
//!   chooses among known addresses (`choices`) reads and writes every object it can point to.
//! - Library models that write memory clear the shadow of what they write; memcpy/memmove/memset
//!   move or set it, with symbolic fill values and (into small objects) symbolic lengths.

use super::libc::Ext;
use super::observer::{AtMost, Call, InputUse, Observer, RunEnd, Site, Target, View};
use super::revisit::{Canonical, LoopHeads, Place};
use crate::ir::rounding::Rounding;
use crate::ir::*;
use crate::smt::expr::{ExprId, Node, Pool, VarKey};
use crate::smt::opaque::OpaqueFn;
use std::collections::BTreeMap;

/// No shadow: the value is concrete.
pub const NONE: ExprId = ExprId(u32::MAX);

pub const MAX_SYMBOLIC_OBJECT: u64 = 4096;

/// How deep in non-linear operations an expression may be (`Pool::depth`: 16 nested products
/// of inputs) before it is concretized.
const MAX_EXPR_DEPTH: u32 = 1024;

/// How tall an expression may be before it is concretized: the solvers' translation and the
/// evaluators walk expressions recursively, and a loop that adds an input each time (a sum of
/// 100,000 of them) built a chain that overflowed Cairn's stack.
const MAX_EXPR_HEIGHT: u32 = 1_024;

/// A memory byte never written since it was allocated (see `Observer::uninitialized`).
const UNINIT: ExprId = ExprId(u32::MAX - 1);
/// Input index of the variables standing for indeterminate values: no test input controls
/// them, so decisions on them are never recorded (they withhold exhaustive proofs instead).
pub const UNINIT_INPUT: u32 = u32::MAX;
/// Input index of the variables standing for where an object lies in memory: natively that
/// changes with the layout and address randomisation, so a value computed from an address
/// (a pointer cast to an integer) is no constant, and decisions on it are never recorded.
pub const ADDRESS_INPUT: u32 = u32::MAX - 1;
/// Input index of the variables standing for values a library model computed from symbolic
/// data without a symbolic account (the text `sprintf` renders, the count `printf` returns):
/// a decision on one is not recorded and makes the run inexact, as a concretization would,
/// but a value the program never decides on costs nothing.
pub const LOST_INPUT: u32 = u32::MAX - 2;
/// Larger allocations are not tracked byte by byte; they count as inexact.
const MAX_TRACKED_UNINIT: u64 = 1 << 16;

/// What a run had covered when a decision first rested on uninitialized memory, and where.
struct ClaimsEnd {
    branches: Vec<u32>,
    errors_hit: usize,
    loc: Loc,
}

/// One symbolic branch decision of a run.
#[derive(Clone, Debug)]
pub struct BranchRecord {
    pub func: FuncId,
    pub block: BlockId,
    /// Index into `outcomes` of the outcome this run took.
    pub taken: usize,
    /// Every outcome: its condition, the goal it covers, and the target block.
    pub outcomes: Vec<(ExprId, GoalId, BlockId)>,
    /// Call-string context of the decision (`View::ctx`): tells apart the copies of a
    /// function's branches per call site (uncovered-branch expectation search).
    pub ctx: u64,
    /// `View::steps` when the decision was made: orders it among other observers' events
    /// (the def-use trace, redefinition pruning).
    pub step: u64,
    /// What a run flipped here is sure to do next (`Shadow::predict_flips`): per untaken
    /// outcome, in order, the branches right behind it whose conditions values computed before
    /// this decision settle, as (flipped outcome, block, its outcome, the block it leads to).
    pub ahead: Box<[(u32, BlockId, u32, BlockId)]>,
}

impl BranchRecord {
    pub fn taken_cond(&self) -> ExprId {
        self.outcomes[self.taken].0
    }
}

pub struct Shadow<'p> {
    pub pool: &'p mut Pool,
    /// `exit` was called with a status that depends on an indeterminate value.
    pub exit_indeterminate: bool,
    /// The last input read as a character of stdin.
    pub last_char: Option<usize>,
    /// Per register of every active frame (indexed like `View::regs`).
    regs: Vec<ExprId>,
    /// Per memory byte.
    mem: BTreeMap<u64, ExprId>,
    pub path: Vec<BranchRecord>,
    /// Shadows of the arguments of the call being made.
    args: Vec<ExprId>,
    /// Shadow of the value the current library call returns.
    ret: ExprId,
    /// The size a `malloc` being made was asked for, where it depends on inputs: its shadow
    /// and this run's value.
    allocating: Option<(ExprId, u64)>,
    /// Heap objects allocated with a size that depends on inputs, by base: that size's
    /// shadow. An access through a symbolic pointer is checked against it, not against this
    /// run's size, so a solution may ask for a longer object (`s = malloc(size + 1); s[size]
    /// = 0` no longer pins `size`); such runs are inexact already (the size is concretized).
    sized_by_inputs: rustc_hash::FxHashMap<u64, ExprId>,
    /// Per active frame: shadows of its variadic arguments.
    varargs: Vec<Vec<ExprId>>,
    /// Indeterminate values created so far (numbers their variables apart).
    uninit_vars: u32,
    /// Addresses made integers so far (see `ADDRESS_INPUT`).
    address_vars: u32,
    /// Values lost so far (see `LOST_INPUT`).
    lost_vars: u32,
    /// Shadows of numbers the program made pointers (`(int *)x`): which of them equals an
    /// object's address is the layout's (see `number_against_address`).
    numbers_made_pointers: rustc_hash::FxHashSet<ExprId>,
    /// Each address variable's object base in this run (see `address_value`).
    address_bases: rustc_hash::FxHashMap<ExprId, u64>,
    /// Comparisons of two addresses in one object whose outcome in this run is the same
    /// wherever a process puts the object (see `same_in_every_layout`): not recorded, but not
    /// the layout's choice.
    layout_robust: rustc_hash::FxHashSet<ExprId>,
    /// If-then-elses the shadow made over memory bytes (a write of a symbolic length or
    /// through a symbolic pointer), with the arm this run's values take: a decision reaching
    /// an indeterminate byte only through arms not taken does not rest on it.
    ite_taken: rustc_hash::FxHashMap<ExprId, bool>,
    /// Conditions of pointers an input makes null or an object (a null parameter, a lazily
    /// linked pointer; see `without_null_choice`).
    null_choices: rustc_hash::FxHashSet<ExprId>,
    /// The library call being made renders symbolic data into memory: what it writes is lost.
    writes_lost: bool,
    /// The run's coverage when a decision first rested on uninitialized memory (see
    /// `RunResult::uninitialized_at`).
    claims_end: Option<ClaimsEnd>,
    /// End the run at the first decision on uninitialized memory: nothing past it can be
    /// claimed, and every path that extends it decides the same way there (a search's runs;
    /// not a run that must end as another did).
    pub stop_at_claims_end: bool,
    /// The call site of the call being made, then of each active frame (`Module::call_sites`):
    /// a decision inside the runtime is told at the program's call of it.
    calling_site: u32,
    entered_from: Vec<u32>,
    /// Where this run's symbolic record is not exact.
    pub exactness: Exactness,
    /// Stop recording branches after this many (very long paths).
    pub max_path: usize,
    /// Leave out a decision whose taken condition the path already holds (see `record`).
    pub skip_repeated: bool,
    /// Record what a flip of each decision is sure to do next (`BranchRecord::ahead`).
    pub predict_flips: bool,
    /// Stop shadowing once the path is full (see `path_full`).
    pub rest_when_full: bool,
    /// The path filled up with `rest_when_full`: the rest of the run goes unshadowed.
    resting: bool,
    /// The taken conditions recorded so far (with `skip_repeated`).
    taken: rustc_hash::FxHashSet<ExprId>,
    /// Calls of opaque user functions in progress: their branches are not recorded.
    pub opaque_frames: Vec<super::opaque::OpaqueFrame>,
    /// A call of a program function was announced and its frame not yet entered.
    calling_function: bool,
    /// Shadow bytes a library call's write leaves (memset/memcpy/memmove with symbolic data or
    /// length), computed before the call and applied at its write event: (destination, bytes).
    after_write: Option<(u64, Vec<(u64, ExprId)>)>,
    /// Stores through symbolic pointers modelled so far, in all and per object (its base).
    symbolic_stores: u32,
    symbolic_stores_into: BTreeMap<u64, u32>,
    /// Bytes given shadows by modelled library writes so far.
    symbolic_written: u64,
    /// A search's loop headers of the entry function and the states its runs were in there:
    /// recording stops at a state seen before (`exec::revisit`).
    pub revisits: Option<(
        &'p super::revisit::LoopHeads,
        &'p mut super::revisit::Visited,
    )>,
    /// The run reached a state another run was in: it ends (`Outcome::Revisited`).
    revisited: bool,
    /// Where the recorded decisions put the run in the execution tree (`revisit::prefix_key`).
    prefix: u64,
    /// Inputs read when the state was last compared at a loop header.
    inputs_when_compared: usize,
    /// Expression nodes the run wrote comparing symbolic states (`revisit::Canonical`): a
    /// state that grows with the run (a loop filling an array with inputs) costs more each
    /// time, so the run writes at most `CANONICAL_FREE` plus one per
    /// `STEPS_PER_CANONICAL_NODE` steps it made.
    canonical_written: u64,
    /// Memory objects the run's state comparisons have read (each fingerprint reads every
    /// one): at most `FINGERPRINT_FREE_OBJECTS` plus `OBJECTS_PER_STEP` per step it made.
    objects_fingerprinted: u64,
    /// Per input variable, the recorded decisions whose taken condition reads it, for the
    /// first `indexed_conditions` decisions of the path (`add_path_slice`).
    conditions_on: rustc_hash::FxHashMap<u32, Vec<u32>>,
    indexed_conditions: usize,
}

/// The live registers' values at a loop header, and those of the registers each frame below
/// reads where it resumes (`Shadow::state_values`).
type StateValues = (Vec<(Reg, u64)>, Vec<Vec<u64>>);

/// Symbolic bytes past which a state at a loop header is not compared (`exec::revisit`).
const MAX_COMPARED_SYMBOLIC_BYTES: usize = 1024;
/// Path conditions on a state's variables past which it is not compared.
const MAX_SLICE: usize = 512;
/// Expression nodes a run may write comparing symbolic states, beyond one per
/// `STEPS_PER_CANONICAL_NODE` steps: writing one costs tens of steps' time, so comparisons
/// take at most about a third more time than the run.
const CANONICAL_FREE: u64 = 512;
const STEPS_PER_CANONICAL_NODE: u64 = 16;
/// Memory objects a run's state comparisons may read beyond `OBJECTS_PER_STEP` per step it
/// made: reading one costs about a step's time (hashing its contents). Without the bound a
/// loop over a heap of thousands of nodes spent seconds between two checks of the clock (made
/// by the step count), past the budget.
const FINGERPRINT_FREE_OBJECTS: u64 = 1 << 20;
const OBJECTS_PER_STEP: u64 = 2;

/// Largest object a store through a symbolic pointer (or a write of symbolic length) updates
/// byte by byte with if-then-elses; larger ones are concretized.
pub const MAX_SYMBOLIC_STORE: u64 = 512;
/// Symbolic stores modelled per run: each grows the object's expressions; later ones are
/// concretized.
pub const MAX_SYMBOLIC_STORES: u32 = 256;
/// Symbolic stores modelled per object: each nests every byte of the object one if-then-else
/// deeper, and loads through symbolic pointers nest those again. A sort's swaps at addresses
/// computed from a symbolic length made path constraints Z3 took seconds to assert (the
/// fidelity program 31_libc_results.c); later stores into the object are concretized.
pub const MAX_SYMBOLIC_STORES_PER_OBJECT: u32 = 8;
/// Bytes one library write (memset/memcpy/memmove with symbolic data or length) may give
/// shadows, and all of a run's such writes together: the shadow's memory stays bounded (a
/// program filling megabytes in a loop would otherwise exhaust Cairn's).
const MAX_SYMBOLIC_WRITE: u64 = 1 << 16;
const MAX_SYMBOLIC_WRITES_PER_RUN: u64 = 1 << 18;

/// Ways a run's symbolic record can fall short of the program's behaviour. While all are zero,
/// the recorded decisions are exactly the input-dependent branches the run took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Exactness {
    /// Symbolic values replaced by their concrete value (constraints lost).
    pub concretized: u64,
    /// Decisions not recorded because the path grew past `max_path` (a shadow that rests
    /// counts the first).
    pub truncated: u64,
    /// Calls whose effect Cairn does not model (external functions without a model, clocks,
    /// random number generators; in a 32-bit program, math functions the host's library
    /// computes, another build than the program's): natively they may behave otherwise.
    pub unmodelled_calls: u64,
    /// Decisions on indeterminate values (uninitialized locals or heap memory) and allocations
    /// too large to track: the interpreter reads zeros, a native run may not.
    pub uninitialized: u64,
    /// Calls of program functions that were not run: their results were made inputs (lazy
    /// expansion), so the run is a path of an abstraction of the program.
    pub abstracted_calls: u64,
    /// Decisions on values computed from addresses (pointers cast to integers): natively
    /// they depend on where objects lie in memory.
    pub addresses: u64,
    /// Pointers a unit-mode entry loaded from its inputs, made null or a fresh block
    /// (`exec::links`): a caller may pass one into an object the function has, or two that
    /// alias.
    pub linked_pointers: u64,
}

impl Exactness {
    pub fn add(&mut self, o: &Exactness) {
        self.concretized += o.concretized;
        self.truncated += o.truncated;
        self.unmodelled_calls += o.unmodelled_calls;
        self.uninitialized += o.uninitialized;
        self.abstracted_calls += o.abstracted_calls;
        self.addresses += o.addresses;
        self.linked_pointers += o.linked_pointers;
    }
    pub fn is_exact(&self) -> bool {
        *self == Exactness::default()
    }
}

/// Functions whose results depend on the environment (time, process, random state, signals
/// that may arrive at any moment, thread interleavings): Cairn's deterministic models may
/// differ from the native run.
fn depends_on_environment(name: &str) -> bool {
    matches!(
        name,
        "signal"
            | "sigaction"
            | "pthread_create"
            | "rand"
            | "random"
            | "rand_r"
            | "srand"
            | "srandom"
            | "drand48"
            | "lrand48"
            | "getpid"
            | "getenv"
    ) || crate::ir::frontend::ENVIRONMENT_FNS.contains(&name)
}

impl<'p> Shadow<'p> {
    /// What the run's result cannot know without the shadow.
    pub fn annotate(&self, r: &mut crate::exec::machine::RunResult) {
        r.exit_indeterminate |= self.exit_indeterminate;
        r.layout_dependent |= self.exactness.addresses > 0;
        // Past the point where it rested, a decision on uninitialized memory went unseen.
        r.uninitialized_checked = !self.resting;
        if let Some(end) = &self.claims_end {
            // Natively the rest of the run went wherever the memory's contents led.
            r.uninitialized_at = Some(end.loc);
            r.branches.clone_from(&end.branches);
            r.errors_hit.truncate(end.errors_hit);
            if let Some(mut pairs) = r.observed.take::<crate::exec::defuse::DefUseRun>() {
                pairs.covered.clear();
                r.observed.insert(pairs);
            }
        }
    }

    pub fn new(pool: &'p mut Pool) -> Shadow<'p> {
        Shadow {
            pool,
            exit_indeterminate: false,
            last_char: None,
            regs: vec![],
            mem: BTreeMap::new(),
            path: vec![],
            args: vec![],
            ret: NONE,
            allocating: None,
            sized_by_inputs: Default::default(),
            varargs: vec![],
            uninit_vars: 0,
            address_vars: 0,
            lost_vars: 0,
            numbers_made_pointers: Default::default(),
            address_bases: Default::default(),
            layout_robust: Default::default(),
            ite_taken: Default::default(),
            null_choices: Default::default(),
            writes_lost: false,
            claims_end: None,
            stop_at_claims_end: false,
            calling_site: u32::MAX,
            entered_from: vec![],
            exactness: Exactness::default(),
            max_path: 100_000,
            skip_repeated: false,
            predict_flips: false,
            rest_when_full: false,
            resting: false,
            taken: Default::default(),
            opaque_frames: vec![],
            calling_function: false,
            after_write: None,
            symbolic_stores: 0,
            symbolic_stores_into: BTreeMap::new(),
            symbolic_written: 0,
            revisits: None,
            revisited: false,
            prefix: 0,
            inputs_when_compared: 0,
            canonical_written: 0,
            objects_fingerprinted: 0,
            conditions_on: Default::default(),
            indexed_conditions: 0,
        }
    }

    /// The shadow of a search's run: it ends at the first decision on uninitialized memory,
    /// leaves out repeated decisions and rests once the path is full.
    pub fn for_search(pool: &'p mut Pool) -> Shadow<'p> {
        Shadow {
            stop_at_claims_end: true,
            skip_repeated: true,
            predict_flips: true,
            rest_when_full: true,
            ..Shadow::new(pool)
        }
    }

    /// Whether a decision finds the path full (it is not recorded, and counts as truncated).
    /// A search flips only recorded decisions, so with `rest_when_full` the shadow stops
    /// there: a run spinning until the step limit built millions of expressions past its
    /// 100,000th decision, most of its time (a list built while an input is nonzero: 9 s).
    fn path_full(&mut self) -> bool {
        if self.path.len() < self.max_path {
            return false;
        }
        self.exactness.truncated += 1;
        self.resting |= self.rest_when_full;
        true
    }

    /// Whether the run's future depends on nothing but its state at a loop header and on
    /// inputs not read yet, so that the state can be compared (`back_edge_taken`): no object's
    /// size depends on an input, nothing ended the run's claims, and no input was a character
    /// of stdin (where a run stands in the stream, whether it reached the end that a replay's
    /// later reads see, is no part of a state; every other input —
    /// a value a call returns or stores, bytes made inputs by `klee_make_symbolic`, a unit's
    /// parameters, argv and files the runtime builds in memory — is a fresh variable wherever
    /// a run stands). A state with symbolic values is compared only while the run is exact
    /// (its path then holds every condition on the state's variables), its symbolic bytes are
    /// few and `symbolic_affordable` (an indeterminate byte is refused when it is written:
    /// `Canonical::add`); `live`: the registers live at the header (frame base `rb`).
    fn state_is_comparable(&self, live: &[Reg], rb: usize, symbolic_affordable: bool) -> bool {
        self.last_char.is_none()
            && self.claims_end.is_none()
            && self.sized_by_inputs.is_empty()
            && self.allocating.is_none()
            && self.opaque_frames.is_empty()
            && self.after_write.is_none()
            && ((self.mem.is_empty() && live.iter().all(|&r| self.reg(rb, r) == NONE))
                || (self.exactness.is_exact()
                    && symbolic_affordable
                    && self.mem.len() <= MAX_COMPARED_SYMBOLIC_BYTES))
    }

    /// What makes the state at a loop header not comparable (`state_is_comparable`), for
    /// debugging.
    fn why_not_comparable(&self, live: &[Reg], rb: usize, symbolic_affordable: bool) -> String {
        let symbolic: Vec<Reg> = live
            .iter()
            .copied()
            .filter(|&r| self.reg(rb, r) != NONE)
            .collect();
        let mut why = vec![];
        let symbolic_state = !self.mem.is_empty() || !symbolic.is_empty();
        let flags = [
            (self.last_char.is_some(), "a character of stdin"),
            (self.claims_end.is_some(), "claims ended"),
            (!self.sized_by_inputs.is_empty(), "a size from an input"),
            (self.allocating.is_some(), "allocating"),
            (!self.opaque_frames.is_empty(), "opaque frames"),
            (self.after_write.is_some(), "after a write"),
            (
                symbolic_state && !self.exactness.is_exact(),
                "symbolic in an inexact run",
            ),
            (
                symbolic_state && !symbolic_affordable,
                "symbolic states not worth their cost",
            ),
            (
                self.mem.values().any(|&e| e == UNINIT),
                "indeterminate bytes",
            ),
        ];
        why.extend(
            flags
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, w)| w.to_string()),
        );
        if let Some((&a, _)) = self.mem.iter().next() {
            why.push(format!(
                "{} symbolic bytes, the first at {a:#x}",
                self.mem.len()
            ));
        }
        if !symbolic.is_empty() {
            why.push(format!("live registers {symbolic:?}"));
        }
        why.join(", ")
    }

    /// Adds to `state` the path's conditions over the variables it holds, and over the
    /// variables those conditions share with them, as a set (`Canonical::add_conditions`);
    /// false when they are too many or hold what a renaming cannot map (`Canonical::add`).
    fn add_path_slice(&mut self, state: &mut super::revisit::Canonical) -> bool {
        for i in self.indexed_conditions..self.path.len() {
            let vars = self.pool.vars_of(self.path[i].taken_cond());
            for &x in vars.iter() {
                self.conditions_on.entry(x).or_default().push(i as u32);
            }
        }
        self.indexed_conditions = self.path.len();
        let mut seen: rustc_hash::FxHashSet<u32> = state.vars.iter().copied().collect();
        let mut todo = state.vars.clone();
        let mut slice = std::collections::BTreeSet::new();
        while let Some(x) = todo.pop() {
            for &i in self.conditions_on.get(&x).map_or(&[][..], Vec::as_slice) {
                if !slice.insert(i) {
                    continue;
                }
                if slice.len() > MAX_SLICE {
                    return false;
                }
                for &y in self.pool.vars_of(self.path[i as usize].taken_cond()).iter() {
                    if seen.insert(y) {
                        todo.push(y);
                    }
                }
            }
        }
        let conditions: Vec<ExprId> = (slice.into_iter())
            .map(|i| self.path[i as usize].taken_cond())
            .collect();
        state.add_conditions(self.pool, &conditions)
    }

    /// The values of the registers a continuation can read at a loop header (`live`, frame
    /// base `rb`) and of those each frame below reads where it resumes (`frames`, the current
    /// one last), a register with a shadow as 0 with its expression written to `symbolic`, as
    /// are the memory's symbolic bytes and, if there are any of either, the path's conditions
    /// on them (`add_path_slice`); None when one cannot be written.
    fn state_values(
        &mut self,
        v: &View,
        (heads, frames): (&LoopHeads, &[super::machine::Frame]),
        (live, rb): (&[Reg], usize),
        symbolic: &mut Canonical,
    ) -> Option<StateValues> {
        let mut values_of = |frame: usize, rb: usize, regs: &[Reg]| -> Option<Vec<(Reg, u64)>> {
            regs.iter()
                .map(|&r| match self.reg(rb, r) {
                    NONE => Some((r, v.reg(rb, r))),
                    e => symbolic
                        .add(self.pool, Place::Reg { frame, reg: r }, e)
                        .then_some((r, 0)),
                })
                .collect()
        };
        let below = frames.len() - 1;
        let mut resumes = Vec::with_capacity(below);
        for (i, f) in frames[..below].iter().enumerate() {
            let regs = heads.live_at_resume(v.module, f);
            resumes.push(
                values_of(i, f.rb, &regs)?
                    .into_iter()
                    .map(|(_, x)| x)
                    .collect(),
            );
        }
        let values = values_of(below, rb, live)?;
        let bytes = self
            .mem
            .iter()
            .all(|(&a, &e)| symbolic.add(self.pool, Place::Byte(a), e));
        (bytes && (symbolic.is_empty() || self.add_path_slice(symbolic)))
            .then_some((values, resumes))
    }

    /// Shadows of the arguments of the call being made (NONE: concrete).
    pub fn call_args(&self) -> &[ExprId] {
        &self.args
    }

    /// Whether any byte of `[addr, addr+len)` holds a symbolic value.
    pub fn symbolic_bytes(&self, addr: u64, len: u64) -> bool {
        !self.mem.is_empty()
            && self
                .mem
                .range(addr..addr.saturating_add(len))
                .next()
                .is_some()
    }

    /// Whether any memory byte holds a symbolic value.
    pub fn has_symbolic_memory(&self) -> bool {
        !self.mem.is_empty()
    }
}

/// Registers `a` and `b` of function `f` are pointers into two different live objects.
/// True when `x` is a variable standing for `input` (`UNINIT_INPUT`, `ADDRESS_INPUT`...).
fn is_var_of(pool: &Pool, x: ExprId, input: u32) -> bool {
    match pool.node(x) {
        Node::Var { id, .. } => pool.vars[*id as usize].input == input,
        _ => false,
    }
}

/// Whether comparing `A + p` with `A + q` (`w` bits, ordered by `pred`) gives the same for
/// every address `A` a process may give the object, the interpreter's `base` among them.
/// Between the addresses where one side wraps (past 2^w, or past 2^(w-1) for a signed
/// order) both sides move together and the outcome stays; user-space addresses lie between
/// 4 KiB and 2^57 (five-level paging) on 64-bit targets. On 32-bit ones any address may
/// wrap: no outcome is sure.
fn same_in_every_layout(pred: IPred, w: u8, p: u64, q: u64, base: u64) -> bool {
    const LOWEST: u64 = 1 << 12;
    const HIGHEST: u64 = 1 << 57;
    if w != 64 || !(LOWEST..=HIGHEST).contains(&base) {
        return false;
    }
    let signed = matches!(pred, IPred::Sgt | IPred::Sge | IPred::Slt | IPred::Sle);
    let edge: u64 = if signed { 1 << 63 } else { 0 };
    // A + o crosses the edge at A = edge - o.
    let crosses = |o: u64| (LOWEST + 1..=HIGHEST).contains(&edge.wrapping_sub(o));
    !crosses(p) && !crosses(q)
}

fn unrelated_pointers(v: &View, f: FuncId, rb: usize, a: Reg, b: Reg) -> bool {
    let tys = &v.module.functions[f as usize].reg_tys;
    let is_ptr = |r: Reg| tys.get(r as usize) == Some(&Ty::Ptr);
    if !is_ptr(a) || !is_ptr(b) {
        return false;
    }
    match (
        v.mem.object_bounds(v.reg(rb, a)),
        v.mem.object_bounds(v.reg(rb, b)),
    ) {
        (Some((x, _)), Some((y, _))) => x != y,
        _ => false,
    }
}

fn size_of(ty: Ty, ptr_bytes: u32) -> u32 {
    match ty {
        Ty::Ptr => ptr_bytes,
        Ty::Int(w) => (w as u32).div_ceil(8),
        Ty::F32 => 4,
        Ty::F64 => 8,
        _ => 0,
    }
}

impl Observer for Shadow<'_> {
    fn stop(&mut self, v: &View) -> Option<RunEnd> {
        if self.revisited {
            return Some(RunEnd::Revisited);
        }
        let end = self
            .claims_end
            .as_ref()
            .filter(|_| self.stop_at_claims_end)?;
        Some(RunEnd::Environment(format!(
            "a decision on uninitialized memory at {}",
            v.module.loc_string(end.loc)
        )))
    }
    fn inst(&mut self, v: &View, inst: &Inst, at: Site) {
        if self.resting {
            return;
        }
        self.shadow_inst(v, inst, at);
    }

    fn terminator(&mut self, v: &View, term: &Terminator, at: Site) {
        if self.resting {
            return;
        }
        self.shadow_branch(v, term, at);
    }

    fn back_edge_taken(&mut self, v: &View, at: Site) {
        if self.resting {
            return;
        }
        let Some((heads, visited)) = &self.revisits else {
            return;
        };
        let heads: &LoopHeads = heads;
        // Only where the run read an input since it was last compared: a loop that reads
        // none runs on as its state dictates, and comparing each of its iterations would
        // cost more than the loop.
        if v.inputs == self.inputs_when_compared || !visited.compares(v.mem) {
            return;
        }
        let symbolic_affordable = visited.compares_symbolic()
            && self.canonical_written <= CANONICAL_FREE + v.steps / STEPS_PER_CANONICAL_NODE;
        let Some(live) = heads.live_in(at.func, at.block) else {
            return;
        };
        // The cheap test first: loops run it at every back edge while the state holds an input.
        if !self.state_is_comparable(live, at.rb, symbolic_affordable) {
            crate::debug_log!(
                "revisit",
                "{at:?}: not compared ({})",
                self.why_not_comparable(live, at.rb, symbolic_affordable)
            );
            return;
        }
        let objects = v.mem.objects() as u64;
        if self.objects_fingerprinted + objects
            > FINGERPRINT_FREE_OBJECTS + v.steps * OBJECTS_PER_STEP
        {
            crate::debug_log!("revisit", "{at:?}: not compared ({objects} objects)");
            return;
        }
        self.objects_fingerprinted += objects;
        let Some(frames) = heads.compared_frames(v.module, v.frames) else {
            crate::debug_log!(
                "revisit",
                "{at:?}: frames not compared ({})",
                v.frames.len()
            );
            return;
        };
        // Every frame's variable arguments may still be read (the shadow's frames are the
        // machine's), and each frame below resumes reading the registers live after its call.
        let varargs = self.varargs.iter().rev().take(frames.len());
        if varargs.flatten().any(|&e| e != NONE) {
            crate::debug_log!("revisit", "{at:?}: a variable argument is symbolic");
            return;
        }
        // Registers and bytes with a shadow count as 0 among the concrete values; `symbolic`
        // holds their expressions and the path's conditions on them.
        let mut symbolic = Canonical::default();
        let values = self.state_values(v, (heads, frames), (live, at.rb), &mut symbolic);
        self.canonical_written += symbolic.written() as u64;
        let Some((values, resumes)) = values else {
            crate::debug_log!("revisit", "{at:?}: symbolic values not renamable");
            return;
        };
        self.inputs_when_compared = v.inputs;
        let fp = super::revisit::fingerprint(
            (at.func, at.block),
            &values,
            frames,
            &resumes,
            (v.mem, &self.mem),
            v.rounding,
            &symbolic,
        );
        let (_, visited) = self.revisits.as_mut().unwrap();
        crate::debug_log!("revisit", "{at:?}: state {fp:032x}");
        if visited.reached_elsewhere(fp, self.prefix, !symbolic.is_empty()) {
            // An earlier run's decisions from here on are this run's continuations: this one
            // ends here (`stop`), exactly. (Running on would record nothing, and a run of an
            // endless system past the inputs it was given runs on random ones for long.)
            self.resting = true;
            self.revisited = true;
        }
    }

    fn edge(&mut self, _v: &View, moves: &Moves, rb: usize) {
        if self.resting {
            return;
        }
        // A parallel copy, like the concrete one.
        let vals: Vec<ExprId> = moves.regs.iter().map(|(_, s)| self.reg(rb, *s)).collect();
        for ((d, _), e) in moves.regs.iter().zip(vals) {
            self.set_reg(rb, *d, e);
        }
    }

    fn call(&mut self, v: &View, call: Call, rb: usize) {
        if self.resting {
            return;
        }
        self.args = call
            .args
            .iter()
            .map(|a| match a {
                Val::Reg(r, _) => self.reg(rb, *r),
                Val::Agg(..) => NONE,
            })
            .collect();
        self.ret = NONE;
        // A write computed for an earlier call whose write event never came is stale.
        self.after_write = None;
        self.calling_function = matches!(call.target, Target::Func(_));
        self.calling_site = call.site;
        // The runtime's `exit` runs unshadowed: its status is checked at the call.
        let exit = match call.target {
            Target::Func(f) => matches!(
                v.module.functions[f as usize].name.as_str(),
                "exit" | "_exit" | "_Exit"
            ),
            Target::Extern(e) => matches!(v.exts[e as usize], Ext::Exit),
        };
        if exit {
            let status = self.args.first().copied().unwrap_or(NONE);
            self.exit_indeterminate = status != NONE && self.indeterminate(status);
        }
        match call.target {
            Target::Func(f) => {
                if depends_on_environment(&v.module.functions[f as usize].name) {
                    self.exactness.unmodelled_calls += 1;
                }
                self.opaque_call(v, f, call, rb);
            }
            Target::Extern(e) => self.library_call(v, &v.exts[e as usize], call, rb),
        }
    }

    fn enter(&mut self, v: &View, func: FuncId, rb: usize) {
        if self.resting {
            return;
        }
        self.calling_function = false;
        let f = &v.module.functions[func as usize];
        self.regs.truncate(rb);
        self.regs.resize(rb + f.reg_init.len(), NONE);
        let args = std::mem::take(&mut self.args);
        let mut varargs = vec![];
        for (i, e) in args.into_iter().enumerate() {
            match f.params.get(i) {
                Some(Val::Reg(r, _)) => self.regs[rb + *r as usize] = e,
                Some(Val::Agg(..)) => {}
                None => varargs.push(e),
            }
        }
        // A byval parameter now points to the callee's private copy: a concrete address.
        for &(i, _, _) in &f.byval {
            if let Some(Val::Reg(r, _)) = f.params.get(i) {
                self.regs[rb + *r as usize] = NONE;
            }
        }
        for &r in &f.undef_regs {
            let w = match f.reg_tys[r as usize] {
                Ty::Ptr => v.ptr_bits,
                t => t.bits_with(v.ptr_bits),
            };
            if (1..=64).contains(&w) {
                self.regs[rb + r as usize] = self.uninit_var(w as u8);
            }
        }
        self.varargs.push(varargs);
        self.entered_from.push(self.calling_site);
    }

    fn ret(&mut self, v: &View, val: Option<Val>, rb: usize, caller: Option<(usize, Option<Val>)>) {
        if self.resting {
            return;
        }
        let e = match (val, self.opaque_frames.last()) {
            // The return of an opaque call: its result is the node over its arguments.
            (_, Some(fr)) if fr.depth + 1 == v.depth => {
                let fr = self.opaque_frames.pop().unwrap();
                self.pool.opaque(OpaqueFn::User(fr.func), fr.w, fr.args)
            }
            (Some(Val::Reg(r, _)), _) => self.reg(rb, r),
            _ => NONE,
        };
        self.regs.truncate(rb);
        self.varargs.pop();
        self.entered_from.pop();
        if let Some((crb, Some(Val::Reg(d, _)))) = caller {
            self.set_reg(crb, d, e);
        }
    }

    fn extern_returned(&mut self, v: &View, dst: Option<Val>, rb: usize) {
        if self.resting {
            return;
        }
        self.writes_lost = false;
        if let (Some((size, n)), Some(Val::Reg(d, _))) = (self.allocating.take(), dst) {
            let p = v.reg(rb, d);
            if p != 0 && v.mem.object_bounds(p) == Some((p, n)) {
                self.sized_by_inputs.insert(p, size);
            }
        }
        // A program function that returns without being entered was abstracted.
        if std::mem::take(&mut self.calling_function) {
            self.exactness.abstracted_calls += 1;
        }
        let e = std::mem::replace(&mut self.ret, NONE);
        self.args.clear();
        self.after_write = None;
        if let Some(Val::Reg(d, _)) = dst {
            self.set_reg(rb, d, e);
        }
    }

    fn mem_written(&mut self, _v: &View, addr: u64, n: u64) {
        if self.resting {
            return;
        }
        self.clear_mem(addr, n);
        if std::mem::take(&mut self.writes_lost) {
            for a in addr..addr.saturating_add(n.min(MAX_TRACKED_UNINIT)) {
                let e = self.lost_var(8);
                self.set_byte(a, e);
            }
        }
        self.apply_after_write(addr);
    }

    fn mem_copied(&mut self, _v: &View, dst: u64, src: u64, n: u64) {
        if self.resting {
            return;
        }
        self.copy_mem(dst, src, n);
        self.apply_after_write(dst);
    }

    fn uninitialized(&mut self, _v: &View, addr: u64, n: u64) {
        if self.resting {
            return;
        }
        if n > MAX_TRACKED_UNINIT {
            self.exactness.uninitialized += 1;
            return;
        }
        for a in addr..addr + n {
            self.mem.insert(a, UNINIT);
        }
    }

    fn vararg_placed(&mut self, _v: &View, index: usize, addr: u64, n: u32) {
        if self.resting {
            return;
        }
        let e = self
            .varargs
            .last()
            .and_then(|a| a.get(index).copied())
            .unwrap_or(NONE);
        if e != NONE {
            self.set_mem(addr, n, e);
        }
    }

    fn input(&mut self, v: &View, index: usize, width: u32, used: InputUse) {
        if self.resting {
            return;
        }
        let var = |pool: &mut Pool, byte: u32, w: u8| {
            pool.var(VarKey {
                input: index as u32,
                byte,
                w,
            })
        };
        match used {
            InputUse::Ret { w, signed } => {
                let e = var(self.pool, 0, width as u8);
                self.ret = self.fit(e, w, signed);
            }
            InputUse::Char => {
                self.last_char = Some(index);
                // v == -1 ? -1 : (v & 0xff)
                let e = var(self.pool, 0, 32);
                let p = &mut *self.pool;
                let minus1 = p.constant(32, u32::MAX as u64);
                let is_eof = p.cmp(IPred::Eq, e, minus1);
                let byte = p.extract(8, 0, e);
                let byte = p.zext(32, byte);
                self.ret = p.ite(is_eof, minus1, byte);
            }
            InputUse::Mem { addr, n, signed } => {
                let e = var(self.pool, 0, width as u8);
                let e = self.fit(e, n * 8, signed);
                self.set_mem(addr, n, e);
            }
            InputUse::Bytes { addr, n } => {
                for i in 0..n {
                    let e = var(self.pool, i as u32, 8);
                    self.set_mem(addr + i, 1, e);
                }
            }
            InputUse::Link { addr, n, block } => {
                self.exactness.linked_pointers += 1;
                let e = var(self.pool, 0, width as u8);
                let p = &mut *self.pool;
                let zero = p.constant(width as u8, 0);
                let nonnull = p.cmp(IPred::Ne, e, zero);
                let (block, null) = (
                    p.constant((n * 8) as u8, block),
                    p.constant((n * 8) as u8, 0),
                );
                let e = p.ite(nonnull, block, null);
                self.null_choices.insert(nonnull);
                self.set_mem(addr, n, e);
            }
            InputUse::NullParam { pos, buf } => {
                let e = var(self.pool, 0, width as u8);
                let p = &mut *self.pool;
                let zero = p.constant(width as u8, 0);
                let null = p.cmp(IPred::Ne, e, zero);
                let w = v.ptr_bits as u8;
                let (buf, zero) = (p.constant(w, buf), p.constant(w, 0));
                let e = p.ite(null, zero, buf);
                self.null_choices.insert(null);
                if self.args.len() <= pos {
                    self.args.resize(pos + 1, NONE);
                }
                self.args[pos] = e;
            }
            InputUse::Param { pos, at_most } => {
                let e = var(self.pool, 0, width as u8);
                if self.args.len() <= pos {
                    self.args.resize(pos + 1, NONE);
                }
                self.args[pos] = e;
                if let Some(a) = at_most {
                    self.assume_at_most(v, e, a);
                }
            }
        }
    }

    fn assume(&mut self, v: &View, holds_now: bool) {
        if self.resting {
            return;
        }
        // A symbolic assumption is part of the path condition. When it fails, search can flip
        // it to find inputs that satisfy it; its violated side is never explored.
        let c = self.args.first().copied().unwrap_or(NONE);
        if c == NONE || self.undecidable(v, c, None) {
            return;
        }
        if self.path_full() {
            return;
        }
        let p = &mut *self.pool;
        let w = p.width(c);
        let z = p.constant(w, 0);
        let holds = p.cmp(IPred::Ne, c, z);
        let violated = p.not(holds);
        self.record(BranchRecord {
            func: 0,
            block: 0,
            taken: if holds_now { 0 } else { 1 },
            outcomes: vec![(holds, NO_GOAL, 0), (violated, ASSUME_VIOLATED, 0)],
            ctx: v.ctx,
            step: v.steps,
            ahead: Box::default(),
        });
    }
}

impl Shadow<'_> {
    /// A length parameter is at most `max` (see `exec::length_params`): an assumption, as
    /// `assume` records it, whether or not it holds on this run.
    fn assume_at_most(&mut self, v: &View, e: ExprId, a: AtMost) {
        if self.path_full() {
            return;
        }
        let p = &mut *self.pool;
        let w = p.width(e);
        let k = p.constant(w, a.max & (u64::MAX >> (64 - w.min(64) as u32)));
        let holds = p.cmp(if a.unsigned { IPred::Ule } else { IPred::Sle }, e, k);
        let violated = p.not(holds);
        self.record(BranchRecord {
            func: 0,
            block: 0,
            taken: if a.holds { 0 } else { 1 },
            outcomes: vec![(holds, NO_GOAL, 0), (violated, ASSUME_VIOLATED, 0)],
            ctx: v.ctx,
            step: v.steps,
            ahead: Box::default(),
        });
    }

    /// The result of the current call (an abstracted one) is one of `values`, a fact known
    /// about the callee: an assumption, as `assume` records it. `holds_now`: it does on this run.
    pub fn assume_result_in(&mut self, v: &View, values: &[u64], holds_now: bool) {
        let e = self.ret;
        if e == NONE || values.is_empty() || self.path.len() >= self.max_path {
            return;
        }
        let p = &mut *self.pool;
        let w = p.width(e);
        let mut holds = p.constant(1, 0);
        for &k in values {
            let k = p.constant(w, k);
            let eq = p.cmp(IPred::Eq, e, k);
            holds = p.bin(BinOp::Or, 1, holds, eq);
        }
        let violated = p.not(holds);
        self.record(BranchRecord {
            func: 0,
            block: 0,
            taken: if holds_now { 0 } else { 1 },
            outcomes: vec![(holds, NO_GOAL, 0), (violated, ASSUME_VIOLATED, 0)],
            ctx: v.ctx,
            step: v.steps,
            ahead: Box::default(),
        });
    }

    fn reg(&self, rb: usize, r: Reg) -> ExprId {
        self.regs.get(rb + r as usize).copied().unwrap_or(NONE)
    }

    /// Appends a decision to the path. With `skip_repeated`, a decision whose taken condition
    /// the path already holds is left out: its outcomes exclude one another, so every other
    /// one contradicts the earlier decision and no flip of it is satisfiable. A loop spinning
    /// at the end of stdin over the same symbolic line (a validation loop that asks again)
    /// made a million such decisions in one run, each a pending branch and a query.
    fn record(&mut self, rec: BranchRecord) {
        if self.skip_repeated && !self.taken.insert(rec.taken_cond()) {
            return;
        }
        if self.revisits.is_some() {
            self.prefix = super::revisit::prefix_key(self.prefix, rec.func, rec.block, rec.taken);
        }
        self.path.push(rec);
    }

    /// Shadow of register `r` as an expression (a constant if it is concrete).
    fn reg_expr(&mut self, v: &View, rb: usize, r: Reg, w: u8) -> ExprId {
        let e = self.reg(rb, r);
        if e != NONE {
            return e;
        }
        self.pool.constant(w, v.reg(rb, r))
    }

    fn set_reg(&mut self, rb: usize, r: Reg, e: ExprId) {
        let i = rb + r as usize;
        if self.regs.len() <= i {
            self.regs.resize(i + 1, NONE);
        }
        // A constant expression is no shadow at all.
        self.regs[i] = if e != NONE && self.pool.as_const(e).is_some() {
            NONE
        } else if e != NONE && self.pool.height(e) > MAX_EXPR_HEIGHT {
            self.concretize();
            NONE
        } else {
            e
        };
    }

    /// An input of `from` bits seen as an integer of `to` bits.
    fn fit(&mut self, e: ExprId, to: u32, signed: bool) -> ExprId {
        let from = self.pool.width(e) as u32;
        if to == from {
            e
        } else if to < from {
            self.pool.extract(to as u8, 0, e)
        } else if signed {
            self.pool.sext(to as u8, e)
        } else {
            self.pool.zext(to as u8, e)
        }
    }

    /// Symbolic bytes of `[addr, addr+n)` as one little-endian expression, or NONE if all concrete.
    fn mem_expr(&mut self, v: &View, addr: u64, n: u32) -> ExprId {
        self.mem_expr_read(v, addr, n, true)
    }

    /// `mem_expr`, uninitialized bytes indeterminate only if the run `reads` them (else their
    /// concrete value).
    fn mem_expr_read(&mut self, v: &View, addr: u64, n: u32, reads: bool) -> ExprId {
        if self.mem.is_empty()
            || self
                .mem
                .range(addr..addr.saturating_add(n as u64))
                .next()
                .is_none()
        {
            return NONE;
        }
        let mut e: Option<ExprId> = None;
        for i in 0..n as u64 {
            let a = addr + i;
            let byte = match self.mem.get(&a) {
                Some(&UNINIT) if reads => self.uninit_var(8),
                Some(b) if *b != UNINIT => *b,
                _ => {
                    let c = v.mem.read_uint(a, 1).unwrap_or(0);
                    self.pool.constant(8, c)
                }
            };
            e = Some(match e {
                None => byte,
                Some(lo) => self.pool.concat(byte, lo),
            });
        }
        e.unwrap_or(NONE)
    }

    /// The shadow of the byte at `a` (a constant leaves none).
    fn set_byte(&mut self, a: u64, e: ExprId) {
        if self.pool.as_const(e).is_some() {
            self.mem.remove(&a);
        } else {
            self.mem.insert(a, e);
        }
    }

    /// The `n` bytes at `addr` as one choice of a read through a symbolic pointer that reads
    /// `read` on this run: their shadow, or their concrete value as a constant. Uninitialized
    /// bytes are indeterminate only where the run reads; elsewhere they are what the
    /// interpreter reads there, so a decision over the choices is no decision on
    /// uninitialized memory (a run that picks such a choice meets them as its own read).
    fn value_at(&mut self, v: &View, addr: u64, n: u32, read: u64) -> ExprId {
        match self.mem_expr_read(v, addr, n, addr == read) {
            NONE => {
                let c = v.mem.read_uint(addr, n).unwrap_or(0);
                self.pool.constant((n * 8) as u8, c)
            }
            e => e,
        }
    }

    /// Records the shadow of a store of `n` bytes (NONE clears).
    fn set_mem(&mut self, addr: u64, n: u32, e: ExprId) {
        if e == NONE || self.pool.as_const(e).is_some() {
            self.clear_mem(addr, n as u64);
            return;
        }
        for i in 0..n {
            let b = self.pool.extract(8, (8 * i) as u8, e);
            self.set_byte(addr + i as u64, b);
        }
    }

    /// Clears the shadow of `[addr, addr+len)`.
    fn clear_mem(&mut self, addr: u64, len: u64) {
        if self.mem.is_empty() {
            return;
        }
        let keys: Vec<u64> = self
            .mem
            .range(addr..addr.saturating_add(len))
            .map(|(k, _)| *k)
            .collect();
        for k in keys {
            self.mem.remove(&k);
        }
    }

    /// memcpy/memmove: copies the shadow along with the bytes.
    fn copy_mem(&mut self, dst: u64, src: u64, len: u64) {
        if self.mem.is_empty() {
            return;
        }
        let moved: Vec<(u64, ExprId)> = self
            .mem
            .range(src..src.saturating_add(len))
            .map(|(k, e)| (k - src + dst, *e))
            .collect();
        self.clear_mem(dst, len);
        for (k, e) in moved {
            self.mem.insert(k, e);
        }
    }

    /// Under a rounding mode other than to-nearest (`fesetround`), a float operation that
    /// rounds (a conversion to a float, a math intrinsic) of symbolic operands gets its
    /// concrete result, the run inexact: those encodings round to nearest. Arithmetic is
    /// encoded in the mode; `rint` becomes the exact `floor`, `ceil` or `trunc` of the mode
    /// (`MathFn::under`).
    /// Whether it handled `inst`.
    fn rounded_concretely(&mut self, v: &View, inst: &Inst, rb: usize) -> bool {
        let (dst, operands): (Reg, &[Reg]) = match inst {
            // Encoded in the mode (`Pool::fbin_in`).
            Inst::FBin { .. } => return false,
            Inst::Cast {
                op: CastOp::SiToFp | CastOp::UiToFp | CastOp::FpTrunc,
                dst,
                a,
                ..
            } => (*dst, std::slice::from_ref(a)),
            Inst::Intrinsic {
                op,
                ty: ty @ (Ty::F32 | Ty::F64),
                dst: Val::Reg(d, _),
                args,
            } => {
                let w = ty.bits_with(v.ptr_bits) as u8;
                let math = super::opaque::math_intrinsic(*op, w);
                let exact = match op {
                    // Ties to even in every mode: the node rounds to nearest.
                    IntrinsicOp::RoundEven => math,
                    _ => math.and_then(|f| f.under(v.rounding)),
                };
                match exact {
                    Some(f) if Some(f) == math => return false,
                    Some(f) if args.iter().any(|r| self.reg(rb, *r) != NONE) => {
                        let xs = args.iter().map(|r| self.reg_expr(v, rb, *r, w)).collect();
                        let e = self.pool.opaque(OpaqueFn::Math(f), w, xs);
                        self.set_reg(rb, *d, e);
                        return true;
                    }
                    Some(_) => (*d, args),
                    // A square root, a sine; a fused multiply-add.
                    None if math.is_some()
                        || matches!(op, IntrinsicOp::Fma | IntrinsicOp::FMulAdd) =>
                    {
                        (*d, args)
                    }
                    // The others round nothing (a class test, an absolute value).
                    None => return false,
                }
            }
            _ => return false,
        };
        if operands.iter().any(|r| self.reg(rb, *r) != NONE) {
            self.concretize();
        }
        self.set_reg(rb, dst, NONE);
        true
    }

    #[track_caller]
    fn concretize(&mut self) {
        if crate::debug_on!("concretize") {
            crate::debug_log!(
                "concretize",
                "concretized at {}",
                std::panic::Location::caller()
            );
        }
        self.exactness.concretized += 1;
    }

    /// What a write through a symbolic address or length keeps at `a` where it misses: the
    /// byte's shadow, except that a byte the write does hit on this run (`hit_now`) reads its
    /// concrete value in place of an indeterminate one. Else every later read of the written
    /// byte would depend on memory this run never reads, and end the run's claims
    /// (`s[n - 1] = 0` after `s = alloca(n)`); another run that misses the byte reads it as
    /// indeterminate itself. The run is inexact (the alternative is an approximation).
    fn old_byte(&mut self, v: &View, a: u64, hit_now: bool) -> ExprId {
        if hit_now && self.mem.get(&a) == Some(&UNINIT) {
            self.exactness.concretized += 1;
            let c = v.mem.read_uint(a, 1).unwrap_or(0);
            return self.pool.constant(8, c);
        }
        self.byte_at(v, a)
    }

    /// `c ? t : f` over a memory byte, where this run's values make `c` `now` (see `ite_taken`).
    fn byte_ite(&mut self, c: ExprId, t: ExprId, f: ExprId, now: bool) -> ExprId {
        let e = self.pool.ite(c, t, f);
        if matches!(self.pool.node(e), Node::Ite { c: ec, .. } if *ec == c) {
            self.ite_taken.insert(e, now);
        }
        e
    }

    /// True when `e`'s value in this run depends on an indeterminate byte: one is reachable
    /// from it other than through an arm of `ite_taken` this run does not take.
    fn rests_on_uninit(&self, e: ExprId) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut work = vec![e];
        while let Some(x) = work.pop() {
            if !seen.insert(x) {
                continue;
            }
            match self.pool.node(x) {
                _ if is_var_of(self.pool, x, UNINIT_INPUT) => return true,
                Node::Ite { c, t, f, .. } if self.ite_taken.contains_key(&x) => {
                    work.push(*c);
                    work.push(if self.ite_taken[&x] { *t } else { *f });
                }
                _ => work.extend(self.pool.children(x)),
            }
        }
        false
    }

    /// The shadow of the byte at `a`, or its concrete value as a constant.
    fn byte_at(&mut self, v: &View, a: u64) -> ExprId {
        match self.mem.get(&a) {
            Some(&UNINIT) => self.uninit_var(8),
            Some(&b) => b,
            None => {
                let c = v.mem.read_uint(a, 1).unwrap_or(0);
                self.pool.constant(8, c)
            }
        }
    }

    /// Sets the byte shadows a library write computed in advance (at its write event).
    fn apply_after_write(&mut self, dst: u64) {
        if self.after_write.as_ref().is_none_or(|(d, _)| *d != dst) {
            return;
        }
        let (_, bytes) = self.after_write.take().unwrap();
        for (a, e) in bytes {
            self.set_byte(a, e);
        }
    }

    /// memset/memcpy/memmove with symbolic data or a symbolic length: the bytes the write
    /// leaves, each an if-then-else on the length when it is symbolic (over the rest of the
    /// destination object, which must be small). False when not modelled exactly.
    fn model_mem_write(&mut self, v: &View, ext: &Ext, call: &Call, rb: usize) -> bool {
        let arg = |i: usize| match call.args.get(i) {
            Some(Val::Reg(r, _)) => v.reg(rb, *r),
            _ => 0,
        };
        let sym = |i: usize| self.args.get(i).copied().unwrap_or(NONE);
        let (dst, len, len_e) = (arg(0), arg(2), sym(2));
        let fill = matches!(ext, Ext::Memset);
        if sym(0) != NONE || (!fill && sym(1) != NONE) {
            return false;
        }
        // Bytes the write may reach: its length, or the rest of the destination (and source)
        // object when the length is symbolic.
        let reach = if len_e == NONE {
            len
        } else {
            let Some((base, size)) = v.mem.object_bounds(dst) else {
                return false;
            };
            let mut reach = base + size - dst;
            if !fill {
                let Some((sb, ss)) = v.mem.object_bounds(arg(1)) else {
                    return false;
                };
                reach = reach.min(sb + ss - arg(1));
            }
            if size > MAX_SYMBOLIC_STORE || reach < len {
                return false;
            }
            reach
        };
        if reach > MAX_SYMBOLIC_WRITE || self.symbolic_written + reach > MAX_SYMBOLIC_WRITES_PER_RUN
        {
            return false;
        }
        self.symbolic_written += reach;
        let value = if fill {
            let x = sym(1);
            if x == NONE {
                self.pool.constant(8, arg(1) & 0xff)
            } else if self.pool.width(x) > 8 {
                self.pool.extract(8, 0, x)
            } else {
                x
            }
        } else {
            NONE
        };
        let lw = if len_e == NONE {
            64
        } else {
            self.pool.width(len_e)
        };
        let mut bytes = Vec::with_capacity(reach as usize);
        for k in 0..reach {
            let new = if fill {
                value
            } else {
                self.byte_at(v, arg(1) + k)
            };
            let e = if len_e == NONE {
                new
            } else {
                let old = self.old_byte(v, dst + k, k < len);
                let kc = self.pool.constant(lw, k);
                let inside = self.pool.cmp(IPred::Ult, kc, len_e);
                self.byte_ite(inside, new, old, k < len)
            };
            bytes.push((dst + k, e));
        }
        // Bytes past the concrete length are not written: their event does not cover them.
        let (within, past): (Vec<_>, Vec<_>) = bytes.into_iter().partition(|(a, _)| *a < dst + len);
        for (a, e) in past {
            self.set_byte(a, e);
        }
        self.after_write = Some((dst, within));
        true
    }

    /// A store through a symbolic pointer into a small object: every byte of the object
    /// becomes "the stored byte if the address hits it, else the old byte".
    fn symbolic_store(&mut self, v: &View, addr_e: ExprId, addr: u64, n: u32, val: ExprId) -> bool {
        let Some((base, size)) = v.mem.object_bounds(addr) else {
            return false;
        };
        if size > MAX_SYMBOLIC_STORE
            || n == 0
            || n > 8
            || size < n as u64
            || self.symbolic_stores >= MAX_SYMBOLIC_STORES
            || self.symbolic_stores_into.get(&base) >= Some(&MAX_SYMBOLIC_STORES_PER_OBJECT)
        {
            return false;
        }
        self.symbolic_stores += 1;
        *self.symbolic_stores_into.entry(base).or_default() += 1;
        let w = (n * 8) as u8;
        let aw = self.pool.width(addr_e);
        let mut bytes = Vec::with_capacity(size as usize);
        for k in base..base + size {
            let old = self.old_byte(v, k, (addr..addr + n as u64).contains(&k));
            let kc = self.pool.constant(aw, k);
            let off = self.pool.bin(BinOp::Sub, aw, kc, addr_e);
            let nc = self.pool.constant(aw, n as u64);
            let hit = self.pool.cmp(IPred::Ult, off, nc);
            let off_w = self.fit(off, w as u32, false);
            let eight = self.pool.constant(w, 8);
            let shift = self.pool.bin(BinOp::Mul, w, off_w, eight);
            let shifted = self.pool.bin(BinOp::LShr, w, val, shift);
            let byte = self.pool.extract(8, 0, shifted);
            let hit_now = (addr..addr + n as u64).contains(&k);
            bytes.push((k, self.byte_ite(hit, byte, old, hit_now)));
        }
        for (k, e) in bytes {
            self.set_byte(k, e);
        }
        true
    }

    /// A call of an opaque user function (`--opaque f`) with a symbolic argument: its branches
    /// are not recorded while it runs, and its result becomes the node `f(args)`. Goals inside
    /// it are then not explored by search: the run counts as inexact.
    fn opaque_call(&mut self, v: &View, f: FuncId, call: Call, rb: usize) {
        if !self
            .pool
            .user_fns
            .as_ref()
            .is_some_and(|u| u.0.is_opaque(f))
            || self.args.iter().all(|e| *e == NONE)
        {
            return;
        }
        let Some(Val::Reg(_, rty)) = call.dst else {
            return;
        };
        let Some(w) = super::opaque::scalar_bits(rty, v.ptr_bits) else {
            return;
        };
        let mut args = vec![];
        for (i, a) in call.args.iter().enumerate() {
            let Val::Reg(r, ty) = *a else { return };
            let Some(aw) = super::opaque::scalar_bits(ty, v.ptr_bits) else {
                return;
            };
            let e = self.args.get(i).copied().unwrap_or(NONE);
            args.push(if e == NONE {
                self.pool.constant(aw, v.reg(rb, r))
            } else {
                e
            });
        }
        self.exactness.concretized += 1;
        self.opaque_frames.push(super::opaque::OpaqueFrame {
            depth: v.depth,
            func: f,
            w,
            args,
        });
    }

    /// A math-library call (`f`: a modelled function or the host's): on a symbolic argument its
    /// result is the opaque node over the arguments (concrete ones as constants), evaluated
    /// concretely by the solvers; an argument `fits` rejects (a call without prototype) is
    /// concretized. In a 32-bit program a function not `exact` by definition makes the run
    /// inexact: the program's library is another build, whose `cbrt` or `erff` may differ from
    /// the host's in the last bit.
    #[allow(clippy::too_many_arguments)]
    fn math_call(
        &mut self,
        v: &View,
        call: Call,
        rb: usize,
        f: OpaqueFn,
        exact: bool,
        (ret_w, param_ws): (u8, &[u8]),
        fits: impl Fn(usize, Ty) -> bool,
    ) {
        if v.ptr_bits != 64 && !exact {
            self.exactness.unmodelled_calls += 1;
        }
        if self.args.iter().all(|e| *e == NONE) {
            return;
        }
        let mut xs = vec![];
        for (i, &w) in param_ws.iter().enumerate() {
            match call.args.get(i) {
                Some(&Val::Reg(r, ty)) if fits(i, ty) => {
                    let e = self.args.get(i).copied().unwrap_or(NONE);
                    xs.push(if e == NONE {
                        self.pool.constant(w, v.reg(rb, r))
                    } else {
                        e
                    });
                }
                _ => return self.concretize(),
            }
        }
        self.ret = self.pool.opaque(f, ret_w, xs);
    }

    /// A fresh variable for an indeterminate value of `w` bits.
    fn uninit_var(&mut self, w: u8) -> ExprId {
        self.uninit_vars += 1;
        self.pool.var(VarKey {
            input: UNINIT_INPUT,
            byte: self.uninit_vars,
            w,
        })
    }

    /// A fresh variable for a value the shadow lost track of (see `LOST_INPUT`).
    fn lost_var(&mut self, w: u8) -> ExprId {
        self.lost_vars += 1;
        self.pool.var(VarKey {
            input: LOST_INPUT,
            byte: self.lost_vars,
            w,
        })
    }

    /// True when the call's arguments are symbolic or reach symbolic bytes: through a pointer
    /// argument, or one pointer further (a `va_list`'s area, a `%s` string among variadic
    /// arguments).
    fn reaches_symbolic_data(&self, v: &View, call: &Call, rb: usize) -> bool {
        if self.args.iter().any(|e| *e != NONE) {
            return true;
        }
        if self.mem.is_empty() {
            return false;
        }
        let symbolic =
            |base: u64, size: u64| self.mem.range(base..base + size).any(|(_, e)| *e != UNINIT);
        let word = (v.ptr_bits / 8) as u64;
        call.args.iter().any(|a| {
            let Val::Reg(r, Ty::Ptr) = *a else {
                return false;
            };
            let Some((base, size)) = v.mem.object_bounds(v.reg(rb, r)) else {
                return false;
            };
            symbolic(base, size)
                || (0..size.min(4096) / word).any(|k| {
                    let p = v.mem.read_uint(base + k * word, word as u32).unwrap_or(0);
                    v.mem
                        .object_bounds(p)
                        .is_some_and(|(b, n)| b != base && symbolic(b, n))
                })
        })
    }

    /// The integer value of pointer `p` (concretely `addr`, symbolically `sp` or NONE): the
    /// address of its object is a variable of the environment, the offset into it is exact,
    /// so differences of pointers into one object stay constants.
    fn address_value(&mut self, v: &View, addr: u64, sp: ExprId, w: u8) -> ExprId {
        if addr == 0 && sp == NONE {
            return NONE;
        }
        let base = v.mem.object_or_end(addr).map_or(addr, |(b, _)| b);
        self.address_vars += 1;
        let pool = &mut *self.pool;
        let obj = pool.var(VarKey {
            input: ADDRESS_INPUT,
            // One variable per object base (truncated: it only has to tell objects apart).
            byte: (base ^ (base >> 32)) as u32,
            w,
        });
        self.address_bases.insert(obj, base);
        let off = if sp == NONE {
            pool.constant(w, addr.wrapping_sub(base))
        } else {
            let b = pool.constant(w, base);
            let sp = if pool.width(sp) == w {
                sp
            } else {
                pool.zext(w, sp)
            };
            pool.bin(BinOp::Sub, w, sp, b)
        };
        pool.bin(BinOp::Add, w, obj, off)
    }

    /// True when pointers `number` and `address` are compared where `number`'s shadow holds a
    /// number the program made a pointer and `address` points into an object: the number
    /// that equals it natively is not the interpreter's address. (`c ? &g : 0` compared with
    /// `&g` stays a decision on `c`.)
    fn number_against_address(
        &mut self,
        v: &View,
        f: FuncId,
        rb: usize,
        number: Reg,
        address: Reg,
    ) -> bool {
        if self.numbers_made_pointers.is_empty() {
            return false;
        }
        let tys = &v.module.functions[f as usize].reg_tys;
        let is_ptr = |r: Reg| tys.get(r as usize) == Some(&Ty::Ptr);
        let n = self.reg(rb, number);
        n != NONE
            && is_ptr(number)
            && is_ptr(address)
            && v.mem.object_bounds(v.reg(rb, address)).is_some()
            && (self.pool.reachable(&[n]).iter()).any(|x| self.numbers_made_pointers.contains(x))
    }

    /// `e` as an object's address plus an offset (`address_value`): the address variable and
    /// the offset.
    fn address_parts(&mut self, e: ExprId, w: u8) -> Option<(ExprId, ExprId)> {
        let is_address = |pool: &Pool, x: ExprId| is_var_of(pool, x, ADDRESS_INPUT);
        if e == NONE || self.address_vars == 0 {
            return None;
        }
        if is_address(self.pool, e) {
            return Some((e, self.pool.constant(w, 0)));
        }
        match *self.pool.node(e) {
            Node::Bin {
                op: BinOp::Add,
                a,
                b,
                ..
            } if is_address(self.pool, a) => Some((a, b)),
            Node::Bin {
                op: BinOp::Add,
                a,
                b,
                ..
            } if is_address(self.pool, b) => Some((b, a)),
            _ => None,
        }
    }

    /// True when `e` is an object's address plus a constant (`address_value`), with value
    /// `at`, and `other` lies in the same object.
    fn address_in_object(&self, v: &View, e: ExprId, at: u64, other: u64) -> bool {
        if self.address_vars == 0 || e == NONE {
            return false;
        }
        let (x, _) = self.pool.split_offset(e);
        let is_address = is_var_of(self.pool, x, ADDRESS_INPUT);
        let object = |a: u64| v.mem.object_or_end(a).map(|(b, _)| b);
        is_address && object(at).is_some() && object(at) == object(other)
    }

    /// `indeterminate` for a decision of the run (at the end of block `at`, when known): the
    /// first one on uninitialized memory ends what the run claims.
    fn undecidable(&mut self, v: &View, e: ExprId, at: Option<(FuncId, BlockId)>) -> bool {
        let before = self.exactness.uninitialized;
        let undecidable = self.indeterminate(e);
        if self.exactness.uninitialized > before && self.claims_end.is_none() {
            let m = v.module;
            let in_runtime = |l: &Loc| {
                m.files
                    .get(l.file as usize)
                    .is_some_and(|f| f.ends_with(crate::ir::frontend::RUNTIME_FILE))
            };
            // A branch's or check's block, else the call being made (an assumption).
            let decision = match at {
                Some((f, b)) => m.functions[f as usize].blocks[b as usize].term_loc,
                None => (m.call_sites.get(self.calling_site as usize).copied()).unwrap_or_default(),
            };
            // Inside the runtime (strcmp, scanf...): where the program called into it.
            let program_call = || {
                self.entered_from
                    .iter()
                    .rev()
                    .filter_map(|s| m.call_sites.get(*s as usize))
                    .find(|l| !in_runtime(l))
                    .copied()
            };
            let loc = match in_runtime(&decision) {
                true => program_call().unwrap_or(decision),
                false => decision,
            };
            self.claims_end = Some(ClaimsEnd {
                branches: v.branches.to_vec(),
                errors_hit: v.errors_hit,
                loc,
            });
        }
        undecidable
    }

    /// True when `e` depends on an indeterminate value or an address; such a decision is not
    /// recorded (no input can steer it) and makes the run inexact.
    fn indeterminate(&mut self, e: ExprId) -> bool {
        if self.uninit_vars == 0 && self.address_vars == 0 && self.lost_vars == 0 {
            return false;
        }
        let vars = self.pool.vars_of(e);
        let input_of = |v: &u32| self.pool.vars[*v as usize].input;
        if vars.iter().any(|v| input_of(v) == LOST_INPUT) {
            self.exactness.concretized += 1;
            return true;
        }
        if vars.iter().any(|v| input_of(v) == UNINIT_INPUT) && self.rests_on_uninit(e) {
            self.exactness.uninitialized += 1;
            return true;
        }
        if vars.iter().any(|v| input_of(v) == ADDRESS_INPUT) {
            match self.layout_robust.contains(&e) {
                true => self.exactness.concretized += 1,
                false => self.exactness.addresses += 1,
            }
            return true;
        }
        false
    }

    /// `e` as the address variable of one object plus the rest, which holds no address:
    /// `(uptrval)p + len`, `(uptrval)p - 4`.
    fn address_term(&mut self, e: ExprId) -> Option<(ExprId, ExprId)> {
        if is_var_of(self.pool, e, ADDRESS_INPUT) {
            let w = self.pool.width(e);
            return Some((e, self.pool.constant(w, 0)));
        }
        let Node::Bin { op, a, b, .. } = *self.pool.node(e) else {
            return None;
        };
        let w = self.pool.width(e);
        let no_address = |sh: &mut Self, x: ExprId| {
            let vars = sh.pool.vars_of(x);
            !vars
                .iter()
                .any(|v| sh.pool.vars[*v as usize].input == ADDRESS_INPUT)
        };
        match op {
            BinOp::Add | BinOp::Sub if no_address(self, b) => {
                let (obj, rest) = self.address_term(a)?;
                Some((obj, self.pool.bin(op, w, rest, b)))
            }
            BinOp::Add if no_address(self, a) => {
                let (obj, rest) = self.address_term(b)?;
                Some((obj, self.pool.bin(op, w, rest, a)))
            }
            _ => None,
        }
    }

    /// A comparison of `x` and `y` (values `vx`, `vy` of `w` bits in this run) that are one
    /// object's address plus offsets `p` and `q`: `p` against `q` where that is what it decides
    /// in every layout (equality), else the comparison itself, noted as the same in every
    /// layout when it is so for this run's offsets; None when it is not of that kind.
    fn same_object_comparison(
        &mut self,
        pred: IPred,
        (x, vx): (ExprId, u64),
        (y, vy): (ExprId, u64),
        w: u8,
    ) -> Option<ExprId> {
        let (ox, p) = self.address_term(x)?;
        let (oy, q) = self.address_term(y)?;
        if ox != oy {
            return None;
        }
        if matches!(pred, IPred::Eq | IPred::Ne) {
            // A + p == A + q exactly when p == q, modulo 2^w as the machine adds.
            return Some(self.pool.cmp(pred, p, q));
        }
        let base = *self.address_bases.get(&ox)?;
        let m = crate::ir::ops::mask(u64::MAX, w as u32);
        let (op, oq) = (vx.wrapping_sub(base) & m, vy.wrapping_sub(base) & m);
        let e = self.pool.cmp(pred, x, y);
        if same_in_every_layout(pred, w, op, oq, base) {
            self.layout_robust.insert(e);
        }
        Some(e)
    }

    /// A printf-family call with a `%p` conversion whose result the program can read: the count it
    /// returns, or the text it writes into memory.
    fn prints_an_address(v: &View, ext: &Ext, call: &Call, rb: usize) -> bool {
        use Ext::*;
        let fmt = match ext {
            Printf | Vprintf | Fprintf | Vfprintf if call.dst.is_none() => return false,
            Printf | Vprintf => 0,
            Fprintf | Vfprintf | Sprintf | Vsprintf => 1,
            Snprintf | Vsnprintf => 2,
            _ => return false,
        };
        let Some(Val::Reg(r, _)) = call.args.get(fmt) else {
            return false;
        };
        let Ok(text) = v.mem.cstr(v.reg(rb, *r)) else {
            return false;
        };
        let mut conv = false;
        for &b in &text {
            match (conv, b) {
                (false, b'%') => conv = true,
                (true, b'%') => conv = false,
                (true, b'p') => return true,
                (true, c) if c.is_ascii_alphabetic() && !b"hljztLq".contains(&c) => conv = false,
                _ => {}
            }
        }
        false
    }

    /// A call of a library model: its symbolic effects are the input events and memory copies
    /// it reports; any other dependence on symbolic data is lost.
    fn library_call(&mut self, v: &View, ext: &Ext, call: Call, rb: usize) {
        use Ext::*;
        // A model takes a pointer an input makes null or an object as that object (see
        // `without_null_choice`): it tests none for null.
        for i in 0..self.args.len() {
            self.args[i] = self.without_null_choice(self.args[i]);
        }
        if Self::prints_an_address(v, ext, &call, rb) {
            // `%p` renders an address: what the program reads back of it (the count, the
            // text) is the layout's choice; no proof may rest on it.
            self.exactness.addresses += 1;
        }
        // Which arguments' symbolic values the model honours (None: all of them).
        let exact_args: Option<&[usize]> = match ext {
            // Output only changes what is printed, unless the program reads the count.
            Printf | Fprintf | Vprintf | Vfprintf | Puts | Putchar | Fputs | Fputc | Fwrite
            | Perror | Fflush
                if call.dst.is_none() =>
            {
                None
            }
            Nondet(_) | CrestInput(_) | MakeSymbolic | UninitializedInput | Assume | ErrorFn
            | AssertFail | Exit | Abort | Fgetc | CtypeB | CtypeLower | CtypeUpper | Errno
            | Nop => None,
            // Data moves with its shadow; a symbolic length does not.
            Memcpy | Memmove => Some(&[0, 1]),
            // What is rendered from symbolic data is lost: the count, the text.
            Printf | Fprintf | Vprintf | Vfprintf | Puts | Putchar | Fputs | Fputc | Fwrite
            | Perror | Fflush | Sprintf | Snprintf | Vsprintf | Vsnprintf => {
                if self.reaches_symbolic_data(v, &call, rb) {
                    if let Some(Val::Reg(_, t)) = call.dst {
                        let w = t.bits_with(v.ptr_bits);
                        if (1..=64).contains(&w) {
                            self.ret = self.lost_var(w as u8);
                        }
                    }
                    self.writes_lost = matches!(ext, Sprintf | Snprintf | Vsprintf | Vsnprintf);
                }
                return;
            }
            Free => Some(&[]),
            GetPid | CpuId | TimeStampCounter | EnvironmentResult | Unknown(_) => {
                self.exactness.unmodelled_calls += 1;
                return;
            }
            // Under another rounding mode than to-nearest, as `rounded_concretely` says: the
            // host's other functions' encodings round to nearest.
            HostMath(_) if v.rounding != Rounding::ToNearest => {
                if self.args.iter().any(|e| *e != NONE) {
                    self.concretize();
                }
                return;
            }
            Math(f) => {
                let Some(f) = f.under(v.rounding) else {
                    if self.args.iter().any(|e| *e != NONE) {
                        self.concretize();
                    }
                    return;
                };
                let widths = vec![f.w; f.arity()];
                let fits = |_, ty: Ty| ty.bits_with(v.ptr_bits) == f.w as u32;
                let exact = f.same_in_every_build();
                self.math_call(v, call, rb, OpaqueFn::Math(f), exact, (f.w, &widths), fits);
                return;
            }
            HostMath(h) => {
                let f = crate::ir::host_fns::get(*h);
                let widths: Vec<u8> = f.params.iter().map(|p| p.bits()).collect();
                let fits = |i: usize, ty: Ty| ty == f.params[i].ty();
                let (exact, ret_w) = (f.same_in_every_build(), f.ret.bits());
                self.math_call(
                    v,
                    call,
                    rb,
                    OpaqueFn::Host(*h),
                    exact,
                    (ret_w, &widths),
                    fits,
                );
                return;
            }
            // Numbers in, numbers out (a second result written through a pointer, whose shadow
            // the write clears): what the pointer's object held before does not matter.
            Ldexp | Frexp | Frexpf | Modf | Modff => {
                if self.args.iter().take(2).any(|e| *e != NONE) {
                    self.concretize();
                }
                return;
            }
            // The size left in the pointer's object: exact unless the pointer is symbolic.
            Readable => {
                if self.args.first().is_some_and(|e| *e != NONE) {
                    self.concretize();
                }
                return;
            }
            Indeterminate => {
                if let Some(Val::Reg(_, t)) = call.dst {
                    let w = t.bits_with(v.ptr_bits);
                    if (1..=64).contains(&w) {
                        self.ret = self.uninit_var(w as u8);
                    }
                }
                return;
            }
            _ => Some(&[]),
        };
        if matches!(ext, Memset | Memcpy | Memmove) {
            let symbolic = (0..3).any(|i| self.args.get(i).is_some_and(|e| *e != NONE));
            let data = matches!(ext, Memset) && self.args.get(1).is_some_and(|e| *e != NONE)
                || self.args.get(2).is_some_and(|e| *e != NONE);
            if symbolic && data {
                if !self.model_mem_write(v, ext, &call, rb) {
                    self.concretize();
                }
                return;
            }
        }
        match ext {
            Malloc => {
                let size = self.args.first().copied().unwrap_or(NONE);
                let n = match call.args.first() {
                    Some(Val::Reg(r, _)) => v.reg(rb, *r),
                    _ => 0,
                };
                self.allocating = (size != NONE).then_some((size, n));
            }
            Free | Realloc => {
                if let Some(Val::Reg(r, _)) = call.args.first() {
                    self.sized_by_inputs.remove(&v.reg(rb, *r));
                }
            }
            _ => {}
        }
        let Some(exact) = exact_args else { return };
        for (i, a) in call.args.iter().enumerate() {
            if exact.contains(&i) {
                continue;
            }
            let Val::Reg(r, ty) = *a else { continue };
            let symbolic_data = ty == Ty::Ptr
                && !self.mem.is_empty()
                && v.mem
                    .object_bounds(v.reg(rb, r))
                    .is_some_and(|(base, size)| {
                        self.mem.range(base..base + size).any(|(_, e)| *e != UNINIT)
                    });
            if self.args.get(i).is_some_and(|e| *e != NONE) || symbolic_data {
                if crate::debug_on!("concretize") {
                    crate::debug_log!("concretize", "library call {ext:?}, argument {i}");
                }
                self.concretize();
                return;
            }
        }
    }

    /// Computes the shadow of `inst`'s result. Runs before the concrete step, so operand
    /// registers and memory still hold their inputs.
    fn shadow_inst(&mut self, v: &View, inst: &Inst, at: Site) {
        let (rb, site) = (at.rb, (at.func, at.block));
        let pb = v.ptr_bits;
        if v.rounding != Rounding::ToNearest && self.rounded_concretely(v, inst, rb) {
            return;
        }
        match inst {
            Inst::Call {
                callee: Callee::Indirect(r),
                ..
            } => {
                // A function pointer computed from inputs: which function runs is a decision
                // (the other callees are alternatives to explore).
                let e = self.reg(rb, *r);
                if e != NONE {
                    let pool = &mut *self.pool;
                    let w = pool.width(e);
                    let now = pool.constant(w, super::ops::mask(v.reg(rb, *r), w as u32));
                    let same = pool.cmp(IPred::Eq, e, now);
                    self.check(v, site, same, true);
                }
            }
            Inst::Bin { op, w, dst, a, b } => {
                let (sa, sb) = (self.reg(rb, *a), self.reg(rb, *b));
                if sa == NONE && sb == NONE {
                    return self.set_reg(rb, *dst, NONE);
                }
                if sb != NONE && matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
                {
                    // Division by an input: the divisor being zero is an alternative to explore.
                    let pool = &mut *self.pool;
                    let z = pool.constant(*w, 0);
                    let nz = pool.cmp(IPred::Ne, sb, z);
                    let divisor = super::ops::mask(v.reg(rb, *b), *w as u32);
                    self.check(v, site, nz, divisor != 0);
                }
                if *op == BinOp::Sub
                    && sb == NONE
                    && self.address_in_object(v, sa, v.reg(rb, *a), v.reg(rb, *b))
                {
                    // An address minus the address of a place in the same object (a global's
                    // address is a constant of the code): an offset, whatever the layout.
                    return self.set_reg(rb, *dst, NONE);
                }
                let (x, y) = (self.reg_expr(v, rb, *a, *w), self.reg_expr(v, rb, *b, *w));
                if *op == BinOp::Sub
                    && let (Some((ox, dx)), Some((oy, dy))) =
                        (self.address_parts(x, *w), self.address_parts(y, *w))
                    && ox == oy
                {
                    // Two places in one object (one past its end included): the difference
                    // of their offsets, whatever the layout.
                    let e = self.pool.bin(BinOp::Sub, *w, dx, dy);
                    return self.set_reg(rb, *dst, e);
                }
                let e = self.pool.bin(*op, *w, x, y);
                if self.pool.depth(e) > MAX_EXPR_DEPTH {
                    // No solver decides a condition this deep in time, and building it costs
                    // the run (a loop as long as an input): the value goes on concretely.
                    self.concretize();
                    return self.set_reg(rb, *dst, NONE);
                }
                self.set_reg(rb, *dst, e);
            }
            Inst::ICmp { pred, w, dst, a, b } => {
                let (mut sa, mut sb) = (self.reg(rb, *a), self.reg(rb, *b));
                // A pointer an input makes null or an object is either only in a test for
                // null; against another pointer (`memmove`'s `dst < src`) it is the object.
                let null = |r: Reg| self.reg(rb, r) == NONE && v.reg(rb, r) == 0;
                if !(matches!(pred, IPred::Eq | IPred::Ne) && (null(*a) || null(*b))) {
                    (sa, sb) = (self.without_null_choice(sa), self.without_null_choice(sb));
                }
                if sa == NONE && sb == NONE {
                    // Which of two objects lies lower is the layout's choice, not the
                    // program's: such a comparison decides nothing a proof may rest on.
                    if !matches!(pred, IPred::Eq | IPred::Ne)
                        && unrelated_pointers(v, at.func, rb, *a, *b)
                    {
                        self.exactness.addresses += 1;
                    }
                    return self.set_reg(rb, *dst, NONE);
                }
                let expr = |s: &mut Self, e: ExprId, r: Reg| match e {
                    NONE => s.pool.constant(*w, v.reg(rb, r)),
                    e => e,
                };
                let (mut x, mut y) = (expr(self, sa, *a), expr(self, sb, *b));
                // A number made a pointer, compared with an object's address: which number
                // that is depends on the layout, so the address becomes one.
                if self.number_against_address(v, at.func, rb, *b, *a) {
                    x = self.address_value(v, v.reg(rb, *a), sa, *w);
                } else if self.number_against_address(v, at.func, rb, *a, *b) {
                    y = self.address_value(v, v.reg(rb, *b), sb, *w);
                }
                // Two places in one object (an overflow check, `(uptrval)p + len < (uptrval)p`):
                // decided by their offsets where the layout cannot change the outcome.
                let (vx, vy) = (v.reg(rb, *a), v.reg(rb, *b));
                let e = match self.address_vars > 0 {
                    true => self.same_object_comparison(*pred, (x, vx), (y, vy), *w),
                    false => None,
                };
                let e = e.unwrap_or_else(|| self.pool.cmp(*pred, x, y));
                self.set_reg(rb, *dst, e);
            }
            Inst::Cast {
                op,
                from,
                to,
                dst,
                a,
            } => {
                let sa = self.reg(rb, *a);
                let (fw, tw) = (from.bits_with(pb) as u8, to.bits_with(pb) as u8);
                if *from == Ty::Ptr && *to != Ty::Ptr {
                    // A pointer made an integer: an address, no constant (nor null by choice).
                    let sa = self.without_null_choice(sa);
                    let e = self.address_value(v, v.reg(rb, *a), sa, fw);
                    let e = match (*op, e) {
                        (_, NONE) => NONE,
                        (CastOp::Trunc, e) => self.pool.extract(tw, 0, e),
                        (CastOp::ZExt, e) => self.pool.zext(tw, e),
                        (_, e) => e,
                    };
                    return self.set_reg(rb, *dst, e);
                }
                if sa == NONE {
                    return self.set_reg(rb, *dst, NONE);
                }
                if *to == Ty::Ptr {
                    self.numbers_made_pointers.insert(sa);
                }
                let pool = &mut *self.pool;
                let e = match op {
                    CastOp::Trunc => pool.extract(tw, 0, sa),
                    CastOp::ZExt => pool.zext(tw, sa),
                    CastOp::SExt => pool.sext(tw, sa),
                    // Floats are tracked as their IEEE bit patterns.
                    CastOp::Bits if fw == tw => sa,
                    CastOp::Bits => NONE,
                    op => pool.fcast(*op, tw, sa),
                };
                if e == NONE {
                    self.concretize();
                }
                self.set_reg(rb, *dst, e);
            }
            Inst::Select {
                ty,
                dst,
                cond,
                t,
                f,
            } => {
                let (sc, st, sf) = (self.reg(rb, *cond), self.reg(rb, *t), self.reg(rb, *f));
                if sc == NONE {
                    let pick = if v.regs[rb + *cond as usize] & 1 != 0 {
                        st
                    } else {
                        sf
                    };
                    return self.set_reg(rb, *dst, pick);
                }
                let w = ty.bits_with(pb) as u8;
                let x = self.reg_expr(v, rb, *t, w);
                let y = self.reg_expr(v, rb, *f, w);
                let e = self.pool.ite(sc, x, y);
                self.set_reg(rb, *dst, e);
            }
            Inst::Gep {
                dst,
                base,
                terms,
                offset,
            } => {
                let sbase = self.without_null_choice(self.reg(rb, *base));
                let symbolic_terms = terms.iter().any(|(r, _, _)| self.reg(rb, *r) != NONE);
                if sbase == NONE && !symbolic_terms {
                    return self.set_reg(rb, *dst, NONE);
                }
                let w = pb as u8;
                let mut e = match sbase {
                    NONE => self.pool.constant(w, v.reg(rb, *base)),
                    e => e,
                };
                let pool_off = self.pool.constant(w, *offset as u64);
                e = self.pool.bin(BinOp::Add, w, e, pool_off);
                for (r, iw, scale) in terms {
                    let idx = self.reg_expr(v, rb, *r, *iw);
                    let pool = &mut *self.pool;
                    let idx = if *iw < w {
                        pool.sext(w, idx)
                    } else {
                        pool.extract(w, 0, idx)
                    };
                    let sc = pool.constant(w, *scale as u64);
                    let t = pool.bin(BinOp::Mul, w, idx, sc);
                    e = pool.bin(BinOp::Add, w, e, t);
                }
                self.set_reg(rb, *dst, e);
            }
            Inst::Load { dst, ty, addr } => {
                let n = size_of(*ty, pb / 8);
                let a = v.regs[rb + *addr as usize];
                let sa = self.without_null_choice(self.reg(rb, *addr));
                let e = if sa == NONE {
                    self.mem_expr(v, a, n)
                } else if let Some(e) = self.load_from_choices(v, site, sa, a, n) {
                    e
                } else {
                    self.check_pointer(v, site, sa, a, n);
                    self.symbolic_load(v, sa, a, n)
                };
                self.set_reg(rb, *dst, e);
            }
            Inst::Store { ty, addr, val } => {
                let n = size_of(*ty, pb / 8);
                let a = v.regs[rb + *addr as usize];
                let sa = self.without_null_choice(self.reg(rb, *addr));
                let sv = self.reg(rb, *val);
                if sa != NONE {
                    if sv != NONE || n <= 8 {
                        let ve = if sv != NONE {
                            sv
                        } else {
                            let c = v.regs[rb + *val as usize];
                            self.pool
                                .constant((n * 8) as u8, super::ops::mask(c, n * 8))
                        };
                        if self.store_through_choices(v, site, sa, a, n, ve) {
                            return;
                        }
                    }
                    self.check_pointer(v, site, sa, a, n);
                    let w = n * 8;
                    let ve = if sv != NONE {
                        sv
                    } else if w <= 64 {
                        let c = v.regs[rb + *val as usize];
                        self.pool.constant(w as u8, super::ops::mask(c, w))
                    } else {
                        NONE
                    };
                    if ve != NONE && self.symbolic_store(v, sa, a, n, ve) {
                        return;
                    }
                    self.concretize();
                }
                self.set_mem(a, n, sv);
            }
            Inst::LoadAgg { dst: _, .. } => {}
            Inst::StoreAgg { size, addr, .. } => {
                let a = v.regs[rb + *addr as usize];
                self.clear_mem(a, *size as u64);
            }
            Inst::ExtractValue { dst, .. } => self.set_reg(rb, *dst, NONE),
            Inst::Intrinsic {
                op,
                ty,
                dst: Val::Reg(d, _),
                args,
            } => {
                let w = ty.bits_with(pb) as u8;
                let math = super::opaque::math_intrinsic(*op, w);
                // As for a library call (`math_call`): another build of the library natively.
                if pb != 64 && math.is_some_and(|f| !f.same_in_every_build()) {
                    self.exactness.unmodelled_calls += 1;
                }
                let any = args.iter().any(|r| self.reg(rb, *r) != NONE);
                if !any {
                    return self.set_reg(rb, *d, NONE);
                }
                if let Some(f) = math {
                    let xs = args.iter().map(|r| self.reg_expr(v, rb, *r, w)).collect();
                    let e = self.pool.opaque(OpaqueFn::Math(f), w, xs);
                    return self.set_reg(rb, *d, e);
                }
                let e = match op {
                    IntrinsicOp::Copy => self.reg(rb, args[0]),
                    IntrinsicOp::SMax
                    | IntrinsicOp::SMin
                    | IntrinsicOp::UMax
                    | IntrinsicOp::UMin => {
                        let (x, y) = (
                            self.reg_expr(v, rb, args[0], w),
                            self.reg_expr(v, rb, args[1], w),
                        );
                        let pred = match op {
                            IntrinsicOp::SMax => IPred::Sge,
                            IntrinsicOp::SMin => IPred::Sle,
                            IntrinsicOp::UMax => IPred::Uge,
                            _ => IPred::Ule,
                        };
                        let pool = &mut *self.pool;
                        let c = pool.cmp(pred, x, y);
                        pool.ite(c, x, y)
                    }
                    IntrinsicOp::CtPop => {
                        let x = self.reg_expr(v, rb, args[0], w);
                        let pool = &mut *self.pool;
                        let mut sum = pool.constant(w, 0);
                        for i in 0..w {
                            let bit = pool.extract(1, i, x);
                            let bit = pool.zext(w, bit);
                            sum = pool.bin(BinOp::Add, w, sum, bit);
                        }
                        sum
                    }
                    // Leading (trailing) zeros: the width, then each bit set from the far
                    // end decides the count.
                    IntrinsicOp::Ctlz | IntrinsicOp::Cttz => {
                        let x = self.reg_expr(v, rb, args[0], w);
                        let pool = &mut *self.pool;
                        let mut count = pool.constant(w, w as u64);
                        for k in 0..w {
                            // Bit `i` set gives `zeros`; the nearest end's bit comes last.
                            let (i, zeros) = match op {
                                IntrinsicOp::Ctlz => (k, w - 1 - k),
                                _ => (w - 1 - k, w - 1 - k),
                            };
                            let bit = pool.extract(1, i, x);
                            let z = pool.constant(w, zeros as u64);
                            count = pool.ite(bit, z, count);
                        }
                        count
                    }
                    IntrinsicOp::BSwap => {
                        let x = self.reg_expr(v, rb, args[0], w);
                        let pool = &mut *self.pool;
                        let mut acc = pool.extract(8, 0, x);
                        for i in 1..w / 8 {
                            let b = pool.extract(8, 8 * i, x);
                            acc = pool.concat(acc, b);
                        }
                        acc
                    }
                    IntrinsicOp::FMulAdd => {
                        // Unfused, as the x86-64 code clang emits without FMA.
                        let (x, y, z) = (
                            self.reg_expr(v, rb, args[0], w),
                            self.reg_expr(v, rb, args[1], w),
                            self.reg_expr(v, rb, args[2], w),
                        );
                        let pool = &mut *self.pool;
                        let m = pool.fbin(FBinOp::Mul, w, x, y);
                        pool.fbin(FBinOp::Add, w, m, z)
                    }
                    IntrinsicOp::FAbs => {
                        let x = self.reg_expr(v, rb, args[0], w);
                        let pool = &mut *self.pool;
                        let m = pool.constant(w, (1u64 << (w - 1)) - 1);
                        pool.bin(BinOp::And, w, x, m)
                    }
                    IntrinsicOp::Abs => {
                        let x = self.reg_expr(v, rb, args[0], w);
                        let pool = &mut *self.pool;
                        let z = pool.constant(w, 0);
                        let neg = pool.bin(BinOp::Sub, w, z, x);
                        let c = pool.cmp(IPred::Slt, x, z);
                        pool.ite(c, neg, x)
                    }
                    // isnan, isinf, isfinite...: a test of the bits.
                    IntrinsicOp::IsFpClass if self.reg(rb, args[1]) == NONE => {
                        let x = self.reg_expr(v, rb, args[0], w);
                        fp_class_test(self.pool, x, w, v.reg(rb, args[1]))
                    }
                    _ => {
                        self.concretize();
                        NONE
                    }
                };
                self.set_reg(rb, *d, e);
            }
            Inst::Intrinsic {
                dst: Val::Agg(..),
                args,
                ..
            } if args.iter().any(|r| self.reg(rb, *r) != NONE) => {
                self.concretize();
            }
            Inst::MemCopy { dst, src, len, .. } => {
                let (d, s, n) = (
                    v.regs[rb + *dst as usize],
                    v.regs[rb + *src as usize],
                    v.regs[rb + *len as usize],
                );
                if self.reg(rb, *len) != NONE {
                    self.concretize();
                }
                self.copy_mem(d, s, n);
            }
            Inst::MemSet { dst, byte, len } => {
                let (d, n) = (v.regs[rb + *dst as usize], v.regs[rb + *len as usize]);
                let sb = self.reg(rb, *byte);
                if sb == NONE {
                    self.clear_mem(d, n);
                } else {
                    let b = self.pool.extract(8, 0, sb);
                    for i in 0..n.min(1 << 20) {
                        self.mem.insert(d + i, b);
                    }
                }
            }
            Inst::FBin { op, ty, dst, a, b } => {
                if self.reg(rb, *a) == NONE && self.reg(rb, *b) == NONE {
                    return self.set_reg(rb, *dst, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                let (x, y) = (self.reg_expr(v, rb, *a, w), self.reg_expr(v, rb, *b, w));
                let e = self.pool.fbin_in(v.rounding, *op, w, x, y);
                self.set_reg(rb, *dst, e);
            }
            Inst::FNeg { ty, dst, a } => {
                let sa = self.reg(rb, *a);
                if sa == NONE {
                    return self.set_reg(rb, *dst, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                let pool = &mut *self.pool;
                let sign = pool.constant(w, 1u64 << (w - 1));
                let e = pool.bin(BinOp::Xor, w, sa, sign);
                self.set_reg(rb, *dst, e);
            }
            Inst::FCmp {
                pred,
                ty,
                dst,
                a,
                b,
            } => {
                if self.reg(rb, *a) == NONE && self.reg(rb, *b) == NONE {
                    return self.set_reg(rb, *dst, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                let (x, y) = (self.reg_expr(v, rb, *a, w), self.reg_expr(v, rb, *b, w));
                let e = self.pool.fcmp(*pred, x, y);
                self.set_reg(rb, *dst, e);
            }
            Inst::Alloca {
                dst,
                elem_size,
                count,
                align,
            } => {
                // A variable-length array sized by an input overflows the stack for some
                // sizes: which ones is part of the path condition.
                let sc = self.reg(rb, *count);
                // (With no room at all it faults whatever the size: nothing to decide.)
                let room = v.mem.alloca_room(*align);
                if let Some(room) = room.filter(|_| sc != NONE && *elem_size > 0) {
                    let w = self.pool.width(sc);
                    let most = room / elem_size;
                    if w >= 64 || most < 1u64 << w {
                        let m = self.pool.constant(w, most);
                        let fits = self.pool.cmp(IPred::Ule, sc, m);
                        self.check(v, site, fits, v.reg(rb, *count) <= most);
                    }
                }
                self.set_reg(rb, *dst, NONE);
            }
            _ => {}
        }
    }

    /// Records a check (`ok`, which `holds` on this run or else faults it) with its violation
    /// as the alternative, so that search can look for the input that breaks it (a crash is a
    /// test too), or, from a faulting run, for one that passes.
    fn check(&mut self, v: &View, site: (FuncId, BlockId), ok: ExprId, holds: bool) {
        if self.pool.as_const(ok).is_some()
            || !self.opaque_frames.is_empty()
            || self.undecidable(v, ok, Some(site))
        {
            return;
        }
        if self.path_full() {
            return;
        }
        let bad = self.pool.not(ok);
        let ctx = v.ctx;
        self.record(BranchRecord {
            func: site.0,
            block: site.1,
            taken: if holds { 0 } else { 1 },
            outcomes: vec![(ok, NO_GOAL, site.1), (bad, NO_GOAL, site.1)],
            ctx,
            step: v.steps,
            ahead: Box::default(),
        });
    }

    /// An access of `n` bytes through a symbolic pointer: in bounds of the object it hit (the
    /// loaded value's if-then-else ranges over that object: the path must stay inside it). A
    /// table indexed by a random input is read past its end, into a neighbour or nothing: the
    /// access is first checked against the object its address was computed from (`&table[i]`:
    /// the table), so that the solver can bring the index back.
    fn check_pointer(
        &mut self,
        v: &View,
        site: (FuncId, BlockId),
        addr_e: ExprId,
        addr: u64,
        n: u32,
    ) {
        let hit = v.mem.object_bounds(addr);
        let computed_from =
            constant_part(self.pool, addr_e, 8).and_then(|c| v.mem.object_bounds(c));
        if let Some(object) = computed_from.filter(|&o| Some(o) != hit) {
            self.check_within(v, site, addr_e, addr, n, object);
        }
        if let Some(object) = hit {
            self.check_within(v, site, addr_e, addr, n, object);
        }
    }

    /// The access of `n` bytes at `addr` lies within `(base, size)`.
    fn check_within(
        &mut self,
        v: &View,
        site: (FuncId, BlockId),
        addr_e: ExprId,
        addr: u64,
        n: u32,
        (base, size): (u64, u64),
    ) {
        if size < n as u64 {
            return;
        }
        let w = v.ptr_bits as u8;
        let sized_by =
            (self.sized_by_inputs.get(&base).copied()).map(|e| self.fit(e, w as u32, false));
        let pool = &mut *self.pool;
        let b = pool.constant(w, base);
        let off = pool.bin(BinOp::Sub, w, addr_e, b);
        let ok = match sized_by {
            // n <= size && off <= size - n, the size as the allocation asked for it.
            Some(size_e) => {
                let nc = pool.constant(w, n as u64);
                let holds = pool.cmp(IPred::Ule, nc, size_e);
                let last = pool.bin(BinOp::Sub, w, size_e, nc);
                let within = pool.cmp(IPred::Ule, off, last);
                pool.bin(BinOp::And, 1, holds, within)
            }
            None => {
                let last = pool.constant(w, size - n as u64);
                pool.cmp(IPred::Ule, off, last)
            }
        };
        self.check(v, site, ok, addr.wrapping_sub(base) <= size - n as u64);
    }

    /// An address as the access through it goes: a pointer an input makes null or an object
    /// (`null_choices`) is that object (NONE: concrete), so that no run makes it null where the
    /// program dereferences it without a test: a caller passes null to a function that says
    /// what it does with one, and a list ends where its walk tests for the end. Its null
    /// arm stays in comparisons, which search flips like any branch.
    fn without_null_choice(&self, e: ExprId) -> ExprId {
        if e == NONE || self.null_choices.is_empty() {
            return e;
        }
        let Node::Ite { c, t, f, .. } = *self.pool.node(e) else {
            return e;
        };
        if !self.null_choices.contains(&c) {
            return e;
        }
        let object = match (self.pool.as_const(t), self.pool.as_const(f)) {
            (Some(0), _) => f,
            (_, Some(0)) => t,
            _ => return e,
        };
        match self.pool.as_const(object) {
            Some(_) => NONE,
            None => object,
        }
    }

    /// The addresses a symbolic pointer chooses among (`choices`) that can hold an access of
    /// `n` bytes, if the concrete address is one of them; and whether some choice cannot.
    fn choices(&self, v: &View, addr_e: ExprId, addr: u64, n: u32) -> Option<(Vec<u64>, bool)> {
        if n == 0 || n > 8 {
            return None;
        }
        let all = super::choices::addresses(self.pool, addr_e)?;
        let fits = |c: u64| {
            v.mem
                .object_bounds(c)
                .is_some_and(|(base, size)| c >= base && c.saturating_add(n as u64) <= base + size)
        };
        if !all.contains(&addr) || !fits(addr) {
            return None;
        }
        let valid: Vec<u64> = all.iter().copied().filter(|&c| fits(c)).collect();
        let some_invalid = valid.len() < all.len();
        Some((valid, some_invalid))
    }

    /// The path condition that the pointer picks one of the `valid` choices.
    fn require_choice(&mut self, v: &View, site: (FuncId, BlockId), addr_e: ExprId, valid: &[u64]) {
        let (yes, no) = (self.pool.constant(1, 1), self.pool.constant(1, 0));
        let ok = super::choices::select(self.pool, addr_e, &|c| {
            if valid.contains(&c) { yes } else { no }
        });
        self.check(v, site, ok, true);
    }

    /// A load through a pointer that chooses among known addresses: the value at each,
    /// chosen by the same conditions.
    fn load_from_choices(
        &mut self,
        v: &View,
        site: (FuncId, BlockId),
        addr_e: ExprId,
        addr: u64,
        n: u32,
    ) -> Option<ExprId> {
        let (valid, some_invalid) = self.choices(v, addr_e, addr, n)?;
        if some_invalid {
            self.require_choice(v, site, addr_e, &valid);
        }
        let values: std::collections::HashMap<u64, ExprId> = valid
            .iter()
            .map(|&c| (c, self.value_at(v, c, n, addr)))
            .collect();
        // A choice the check above excludes reads as 0.
        let none = self.pool.constant((n * 8) as u8, 0);
        Some(super::choices::select(self.pool, addr_e, &|c| {
            values.get(&c).copied().unwrap_or(none)
        }))
    }

    /// A store through a pointer that chooses among known addresses: each place it can write
    /// becomes "the stored value if the pointer picks it, else the old value". False when the
    /// pointer is no such choice or the budget of symbolic stores is spent.
    fn store_through_choices(
        &mut self,
        v: &View,
        site: (FuncId, BlockId),
        addr_e: ExprId,
        addr: u64,
        n: u32,
        val: ExprId,
    ) -> bool {
        if self.symbolic_stores >= MAX_SYMBOLIC_STORES {
            return false;
        }
        let Some((valid, some_invalid)) = self.choices(v, addr_e, addr, n) else {
            return false;
        };
        let bases: Vec<u64> = valid
            .iter()
            .filter_map(|&c| v.mem.object_bounds(c).map(|o| o.0))
            .collect();
        if bases
            .iter()
            .any(|b| self.symbolic_stores_into.get(b) >= Some(&MAX_SYMBOLIC_STORES_PER_OBJECT))
        {
            return false;
        }
        if some_invalid {
            self.require_choice(v, site, addr_e, &valid);
        }
        self.symbolic_stores += 1;
        for base in bases {
            *self.symbolic_stores_into.entry(base).or_default() += 1;
        }
        let aw = self.pool.width(addr_e);
        for c in valid {
            let cc = self.pool.constant(aw, c);
            let hit = self.pool.cmp(IPred::Eq, addr_e, cc);
            for i in 0..n as u64 {
                let old = self.byte_at(v, c + i);
                let byte = self.pool.extract(8, (8 * i) as u8, val);
                let e = self.byte_ite(hit, byte, old, addr == c);
                self.set_byte(c + i, e);
            }
        }
        true
    }

    /// A load through a symbolic pointer: an if-then-else over the elements of the object.
    fn symbolic_load(&mut self, v: &View, addr_e: ExprId, addr: u64, n: u32) -> ExprId {
        let Some((base, size)) = v.mem.object_bounds(addr) else {
            self.concretize();
            return self.mem_expr(v, addr, n);
        };
        if size > MAX_SYMBOLIC_OBJECT || n == 0 {
            self.concretize();
            return self.mem_expr(v, addr, n);
        }
        let aw = v.ptr_bits as u8;
        let stride = if (addr - base).is_multiple_of(n as u64) {
            n as u64
        } else {
            1
        };
        let mut elems: Vec<(u64, ExprId)> = vec![];
        let mut off = 0u64;
        while off + n as u64 <= size {
            let val = self.value_at(v, base + off, n, addr);
            elems.push((base + off, val));
            off += stride;
        }
        // A balanced tree of comparisons on the address: solvers handle depth log(n) far
        // better than a chain of n if-then-elses.
        fn tree(pool: &mut Pool, a: ExprId, aw: u8, e: &[(u64, ExprId)]) -> ExprId {
            if e.len() == 1 {
                return e[0].1;
            }
            let mid = e.len() / 2;
            let k = pool.constant(aw, e[mid].0);
            let c = pool.cmp(IPred::Ult, a, k);
            let l = tree(pool, a, aw, &e[..mid]);
            let r = tree(pool, a, aw, &e[mid..]);
            pool.ite(c, l, r)
        }
        let result = if elems.is_empty() {
            None
        } else {
            Some(tree(&mut *self.pool, addr_e, aw, &elems))
        };
        result.unwrap_or(NONE)
    }

    /// The branches a run flipped to `edge` (outcome `o` of a decision on `cond`) takes at once,
    /// as far as this run's values tell: a condition computed from registers this frame already
    /// holds (their definitions dominate the decision) and from the chain's own arithmetic, none
    /// depending on an input of `cond` — the solver changes only those. On tcas, flipping
    /// `tcas_equipped` reaches `tcas_equipped && intent_not_known`, whose second operand was
    /// computed before: the flip is sure to take the branch that operand decides.
    fn predict(
        &mut self,
        v: &View,
        at: Site,
        cond: ExprId,
        edge: &Edge,
        o: u32,
    ) -> Vec<(u32, BlockId, u32, BlockId)> {
        const CHAIN: usize = 8;
        if !self.predict_flips {
            return vec![];
        }
        let f = &v.module.functions[at.func as usize];
        // The flipped condition's inputs, when a symbolic register needs them.
        let flip_vars = std::cell::OnceCell::new();
        // Registers the chain sets, with their values when known.
        let mut set: BTreeMap<Reg, Option<u64>> = BTreeMap::new();
        let value = |s: &mut Self, r: Reg, set: &BTreeMap<Reg, Option<u64>>| -> Option<u64> {
            if let Some(x) = set.get(&r) {
                return *x;
            }
            if f.reg_tys.get(r as usize) == Some(&Ty::Void) {
                return f.reg_init.get(r as usize).copied();
            }
            let e = s.reg(at.rb, r);
            let independent = e == NONE || {
                let flip: &std::rc::Rc<Vec<u32>> = flip_vars.get_or_init(|| s.pool.vars_of(cond));
                let vars = s.pool.vars_of(e);
                !vars.iter().any(|x| flip.binary_search(x).is_ok())
            };
            independent.then(|| v.reg(at.rb, r))
        };
        let mut out = vec![];
        let mut edge = edge;
        for _ in 0..CHAIN {
            let moved: Vec<(Reg, Option<u64>)> = edge
                .moves
                .regs
                .iter()
                .map(|&(d, src)| (d, value(self, src, &set)))
                .collect();
            set.extend(moved);
            let block = &f.blocks[edge.target as usize];
            for inst in &block.insts {
                // A call runs branches of its own first; other effects end the prediction.
                let mut val = |r: Reg| value(self, r, &set);
                let Some((dst, x)) = crate::ir::ops::eval_int(inst, &mut val, v.ptr_bits) else {
                    return out;
                };
                set.insert(dst, x);
            }
            let (decided, next) = match &block.term {
                Terminator::Br { edge: next } => {
                    edge = next;
                    continue;
                }
                Terminator::CondBr {
                    cond,
                    then_edge,
                    else_edge,
                    ..
                } => match value(self, *cond, &set) {
                    Some(x) if x & 1 == 1 => (0, then_edge),
                    Some(_) => (1, else_edge),
                    None => return out,
                },
                Terminator::Switch {
                    val,
                    w,
                    cases,
                    default,
                    ..
                } => {
                    let Some(x) = value(self, *val, &set) else {
                        return out;
                    };
                    let m = crate::ir::ops::mask(x, *w as u32);
                    match cases
                        .iter()
                        .position(|c| crate::ir::ops::mask(c.0, *w as u32) == m)
                    {
                        Some(k) => (k as u32, &cases[k].1),
                        None => (cases.len() as u32, default),
                    }
                }
                _ => return out,
            };
            out.push((o, edge.target, decided, next.target));
            edge = next;
        }
        out
    }

    /// Records a symbolic branch decision (conditional branch or switch) of the current block.
    fn shadow_branch(&mut self, v: &View, term: &Terminator, at: Site) {
        let (rb, func, block) = (at.rb, at.func, at.block);
        if !self.opaque_frames.is_empty() {
            return;
        }
        match term {
            Terminator::CondBr {
                cond,
                then_edge,
                else_edge,
                then_goal,
                else_goal,
            } => {
                let c = self.reg(rb, *cond);
                if c == NONE || self.undecidable(v, c, Some((func, block))) || self.path_full() {
                    return;
                }
                let taken = if v.regs[rb + *cond as usize] & 1 != 0 {
                    0
                } else {
                    1
                };
                let flipped = if taken == 0 { else_edge } else { then_edge };
                let ahead = self
                    .predict(v, at, c, flipped, 1 - taken as u32)
                    .into_boxed_slice();
                let pool = &mut *self.pool;
                let c = pool.extract(1, 0, c);
                let nc = pool.not(c);
                let rec = BranchRecord {
                    func,
                    block,
                    taken,
                    outcomes: vec![
                        (c, *then_goal, then_edge.target),
                        (nc, *else_goal, else_edge.target),
                    ],
                    ctx: v.ctx,
                    step: v.steps,
                    ahead,
                };
                self.record(rec);
            }
            Terminator::Switch {
                val,
                w,
                cases,
                default,
                default_goal,
            } => {
                let sv = self.reg(rb, *val);
                if sv == NONE || self.undecidable(v, sv, Some((func, block))) || self.path_full() {
                    return;
                }
                let value = v.reg(rb, *val);
                let pool = &mut *self.pool;
                let mut outcomes = vec![];
                let mut none_match = pool.constant(1, 1);
                let mut taken = cases.len();
                for (i, (c, e, g)) in cases.iter().enumerate() {
                    let k = pool.constant(*w, *c);
                    let eq = pool.cmp(IPred::Eq, sv, k);
                    let ne = pool.not(eq);
                    none_match = pool.and(none_match, ne);
                    outcomes.push((eq, *g, e.target));
                    if *c == value && taken == cases.len() {
                        taken = i;
                    }
                }
                outcomes.push((none_match, *default_goal, default.target));
                let mut ahead = vec![];
                let edges = cases.iter().map(|c| &c.1).chain([default]);
                for (o, e) in edges.enumerate().filter(|(o, _)| *o != taken) {
                    ahead.extend(self.predict(v, at, sv, e, o as u32));
                }
                let rec = BranchRecord {
                    func,
                    block,
                    taken,
                    outcomes,
                    ctx: v.ctx,
                    step: v.steps,
                    ahead: ahead.into_boxed_slice(),
                };
                self.record(rec);
            }
            _ => {}
        }
    }
}

/// The sum of the constants added into address `e` (`&table[i]`: the table's address), looking
/// `depth` additions deep; None when no constant is added.
fn constant_part(pool: &Pool, e: ExprId, depth: u32) -> Option<u64> {
    match pool.node(e) {
        Node::Const { v, .. } => Some(*v),
        Node::Bin {
            op: BinOp::Add,
            a,
            b,
            ..
        } if depth > 0 => {
            let (a, b) = (
                constant_part(pool, *a, depth - 1),
                constant_part(pool, *b, depth - 1),
            );
            match (a, b) {
                (Some(x), Some(y)) => Some(x.wrapping_add(y)),
                (x, None) | (None, x) => x,
            }
        }
        _ => None,
    }
}

/// `llvm.is.fpclass(x, mask)` on the bits of `w`-bit float `x`: whether `x` is of a class `mask`
/// names (bit 0 signalling NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0,
/// 7 +subnormal, 8 +normal, 9 +inf), as `Machine` computes it.
fn fp_class_test(pool: &mut Pool, x: ExprId, w: u8, mask: u64) -> ExprId {
    let (e, f) = if w == 32 { (8, 23) } else { (11, 52) };
    let exp = pool.extract(e, f, x);
    let frac = pool.extract(f, 0, x);
    let (ones, zero_e, zero_f) = (
        pool.constant(e, (1u64 << e) - 1),
        pool.constant(e, 0),
        pool.constant(f, 0),
    );
    let exp_max = pool.cmp(IPred::Eq, exp, ones);
    let exp_zero = pool.cmp(IPred::Eq, exp, zero_e);
    let frac_zero = pool.cmp(IPred::Eq, frac, zero_f);
    let one = pool.constant(1, 1);
    let not = |pool: &mut Pool, c: ExprId| pool.bin(BinOp::Xor, 1, c, one);
    let and = |pool: &mut Pool, a: ExprId, b: ExprId| pool.bin(BinOp::And, 1, a, b);
    let (frac_set, exp_mid) = {
        let n = not(pool, frac_zero);
        let m = not(pool, exp_max);
        let z = not(pool, exp_zero);
        (n, and(pool, m, z))
    };
    let nan = and(pool, exp_max, frac_set);
    let quiet = pool.extract(1, f - 1, x);
    let signalling = not(pool, quiet);
    let negative = pool.extract(1, w - 1, x);
    let positive = not(pool, negative);
    let infinite = and(pool, exp_max, frac_zero);
    let zero = and(pool, exp_zero, frac_zero);
    let subnormal = and(pool, exp_zero, frac_set);
    let classes = [
        and(pool, nan, signalling),
        and(pool, nan, quiet),
        and(pool, infinite, negative),
        and(pool, exp_mid, negative),
        and(pool, subnormal, negative),
        and(pool, zero, negative),
        and(pool, zero, positive),
        and(pool, subnormal, positive),
        and(pool, exp_mid, positive),
        and(pool, infinite, positive),
    ];
    let mut any = pool.constant(1, 0);
    for (i, c) in classes.into_iter().enumerate() {
        if mask >> i & 1 == 1 {
            any = pool.bin(BinOp::Or, 1, any, c);
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::input::Replay;
    use crate::exec::{Config, Program};
    use crate::ir::frontend::{CompileOptions, TempDir, load};

    /// Twelve decisions on inputs, then a decision on an uninitialized local.
    const SRC: &str = "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = 0, u;
  for (int i = 0; i < 12; i++)
    if (__VERIFIER_nondet_int() > i)
      n++;
  if (u > n)
    return 1;
  return 0;
}
";

    fn run(shadow: &mut Shadow) -> crate::exec::machine::RunResult {
        let dir = TempDir::new("shadow").unwrap();
        let p = dir.path().join("t.c");
        std::fs::write(&p, SRC).unwrap();
        let program = Program::new(load(&[p], &CompileOptions::default()).unwrap());
        let inputs = (0..12).map(|i| (i % 3).to_string()).collect();
        let mut r = program.run_observed(&mut Replay::new(inputs), &Config::default(), shadow);
        shadow.annotate(&mut r);
        r
    }

    /// tcas's shape: `ready` is computed first; the flip of `armed` reaches `armed && ready`,
    /// which the flip cannot change (the solver changes `a` only), nor the `limit` check after
    /// it that reads `a`'s untouched neighbour `b`.
    const FLAGS: &str = "
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  int ready = b > 3 && c == 2;
  int armed = a == 7;
  int r = 0;
  if (armed) {
    if (ready) {
      r = 1;
    }
    if (b < 100) {
      r = r + 2;
    }
  }
  return r;
}
";

    #[test]
    fn a_flip_predicts_the_branches_that_values_computed_before_it_decide() {
        let dir = TempDir::new("shadow").unwrap();
        let p = dir.path().join("flags.c");
        std::fs::write(&p, FLAGS).unwrap();
        let program = Program::new(load(&[p], &CompileOptions::default()).unwrap());
        let m = &program.module;
        let goal_line = |g: GoalId| m.branch_goals[g as usize].loc.line;
        for (b, c, ready) in [("5", "2", true), ("5", "3", false), ("1", "2", false)] {
            let mut pool = Pool::new();
            let mut shadow = Shadow::for_search(&mut pool);
            let inputs = vec!["0".to_string(), b.to_string(), c.to_string()];
            program.run_observed(&mut Replay::new(inputs), &Config::default(), &mut shadow);
            // The decision on `armed` (line 10), not taken: its flip goes through line 11.
            let rec = shadow
                .path
                .iter()
                .find(|r| r.outcomes.iter().any(|o| goal_line(o.1) == 10))
                .expect("a decision on `armed`");
            let f = &m.functions[rec.func as usize];
            let predicted: Vec<(u32, bool)> = rec
                .ahead
                .iter()
                .map(|&(o, blk, out, _)| {
                    assert_eq!(o as usize, 1 - rec.taken, "only the untaken outcome");
                    let Terminator::CondBr { then_goal, .. } = &f.blocks[blk as usize].term else {
                        panic!("a conditional branch")
                    };
                    (goal_line(*then_goal), out == 0)
                })
                .collect();
            assert_eq!(predicted, vec![(11, ready), (14, true)], "b = {b}, c = {c}");
        }
        // A shadow outside search predicts nothing.
        let mut pool = Pool::new();
        let mut shadow = Shadow::new(&mut pool);
        let inputs = vec!["0".to_string(), "5".to_string(), "2".to_string()];
        program.run_observed(&mut Replay::new(inputs), &Config::default(), &mut shadow);
        assert!(shadow.path.iter().all(|r| r.ahead.is_empty()));
    }

    #[test]
    fn a_search_shadow_rests_once_its_path_is_full() {
        let mut pool = Pool::new();
        let mut shadow = Shadow::for_search(&mut pool);
        shadow.max_path = 5;
        let r = run(&mut shadow);
        assert_eq!(shadow.path.len(), 5);
        assert_eq!(shadow.exactness.truncated, 1, "counted once, then resting");
        // The decision on `u` went unseen: the run must be watched before it is claimed.
        assert!(!r.uninitialized_checked);
        assert_eq!(r.uninitialized_at, None);

        // A shadow that does not rest records as many, sees every later decision and finds
        // the one on uninitialized memory.
        let mut pool = Pool::new();
        let mut shadow = Shadow::new(&mut pool);
        shadow.max_path = 5;
        let r = run(&mut shadow);
        assert_eq!(shadow.path.len(), 5);
        assert!(shadow.exactness.truncated > 1);
        assert!(r.uninitialized_checked);
        assert!(r.uninitialized_at.is_some());
    }

    /// An offset is sure only where no address a process may give the object wraps it.
    #[test]
    fn an_offset_that_wraps_some_address_leaves_the_outcome_to_the_layout() {
        let base = 0x5555_5555_0000;
        assert!(same_in_every_layout(IPred::Ult, 64, 999, 0, base));
        assert!(same_in_every_layout(
            IPred::Ult,
            64,
            0u64.wrapping_sub(8),
            0,
            base
        ));
        // A - 1 MiB wraps for objects below 1 MiB.
        assert!(!same_in_every_layout(
            IPred::Ult,
            64,
            0u64.wrapping_sub(1 << 20),
            0,
            base
        ));
        // A signed order changes where A + p passes 2^63.
        assert!(!same_in_every_layout(
            IPred::Slt,
            64,
            (1 << 63) - (1 << 30),
            0,
            base
        ));
        assert!(same_in_every_layout(IPred::Slt, 64, 1 << 30, 0, base));
        // 32-bit addresses may lie anywhere; an interpreter's base outside the range: unsure.
        assert!(!same_in_every_layout(IPred::Ult, 32, 999, 0, 0x5555_0000));
        assert!(!same_in_every_layout(IPred::Ult, 64, 999, 0, 16));
    }
}
