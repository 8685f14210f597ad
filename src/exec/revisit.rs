//! Revisited states. A search's run that enters a loop header (nothing indeterminate, no
//! character of stdin read so far) is in a state some earlier run of the same search may have
//! been in at the same header. What follows depends only on that state and on inputs not read
//! yet, so the earlier run's decisions from there on, which the search flips like any others,
//! explore every continuation: the later run's decisions past the header add nothing, and the
//! run ends there (`Outcome::Revisited`: what it took so far is its own). The execution tree
//! stays exact, and a program that reads inputs in an endless loop over finitely many states
//! (an event-condition-action system, a scheduler looping in a function `main` calls, a token
//! ring holding an input) can be explored to its end, which proves every goal no run reached —
//! explicit-state search over the states, with the concolic tree for the paths between two
//! visits of a header.
//!
//! The state is compared by a 128-bit fingerprint of everything a continuation can read: the
//! live registers of the current frame, each frame below it (where it resumes, the registers
//! live there, its stack mark), every frame's variable arguments, every object of memory
//! (bytes, bounds, whether alive), where the allocators stand, and the rounding mode. Values
//! that depend on inputs are fingerprinted as their expressions with the path's conditions
//! on them, up to a renaming of the inputs (`Canonical`).

use super::fingerprint::Fingerprinter;
use super::machine::{Frame, START_FN, VarArg};
use super::memory::Memory;
use super::shadow::LOST_INPUT;
use crate::analysis::dominators::Dominators;
use crate::ir::operands::{edges, inst_dst, inst_operands, term_operands};
use crate::ir::rounding::Rounding;
use crate::ir::{BlockId, FuncId, Function, Module, Reg, Val};
use crate::smt::expr::{ExprId, Node, Pool};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// Where a frame waiting on a call resumes: the call's block and the instruction after it.
type ResumePoint = (FuncId, BlockId, usize);

/// The loop headers of the program's functions (targets of edges from blocks they dominate),
/// each with the registers live on entry to it; and, computed when first asked, the registers
/// live where a caller resumes.
pub struct LoopHeads {
    heads: HashMap<(FuncId, BlockId), Vec<Reg>>,
    /// The runtime's start, which calls `main` and then only exits with its result: its frame
    /// holds nothing a continuation reads.
    start: Option<FuncId>,
    /// Registers live on entry to each block, per function asked about.
    live: RefCell<HashMap<FuncId, Rc<[HashSet<Reg>]>>>,
    /// Registers live after each call a frame was found waiting on (the call's result left
    /// out: the return writes it).
    resume: RefCell<HashMap<ResumePoint, Rc<[Reg]>>>,
}

impl LoopHeads {
    /// Of every function of `m` with a loop and without aggregate registers (their slots are
    /// not compared); None when there is none.
    pub fn of(m: &Module) -> Option<LoopHeads> {
        let mut heads = HashMap::new();
        let mut live = HashMap::new();
        for f in &m.functions {
            if let Some((loops, blocks)) = loop_heads(f) {
                heads.extend(loops.into_iter().map(|(b, regs)| ((f.id, b), regs)));
                live.insert(f.id, blocks);
            }
        }
        (!heads.is_empty()).then(|| LoopHeads {
            heads,
            start: m.func_by_name.get(START_FN).copied(),
            live: RefCell::new(live),
            resume: RefCell::default(),
        })
    }

    /// The registers live on entry to `block` of `func` if it is a loop header.
    pub fn live_in(&self, func: FuncId, block: BlockId) -> Option<&[Reg]> {
        self.heads.get(&(func, block)).map(Vec::as_slice)
    }

    /// The active frames whose state a continuation can read (the start's frame is left out),
    /// the current one last; None when there are none or too many (deep recursion), or when
    /// one of them has aggregate slots (not compared).
    pub fn compared_frames<'f>(&self, m: &Module, frames: &'f [Frame]) -> Option<&'f [Frame]> {
        let frames = match frames.first() {
            Some(f) if Some(f.func) == self.start => &frames[1..],
            _ => frames,
        };
        (!frames.is_empty() && frames.len() <= MAX_COMPARED_FRAMES)
            .then_some(frames)
            .filter(|fs| {
                fs.iter()
                    .all(|f| m.functions[f.func as usize].agg_init.is_empty())
            })
    }

    /// The registers of `caller` (a frame waiting on a call) that its continuation reads.
    pub fn live_at_resume(&self, m: &Module, caller: &Frame) -> Rc<[Reg]> {
        let key = (caller.func, caller.block, caller.ip);
        if let Some(regs) = self.resume.borrow().get(&key) {
            return regs.clone();
        }
        let f = &m.functions[caller.func as usize];
        let live = self
            .live
            .borrow_mut()
            .entry(f.id)
            .or_insert_with(|| live_in(f).into())
            .clone();
        let regs: Rc<[Reg]> = live_after_call(f, &live, caller.block, caller.ip).into();
        self.resume.borrow_mut().insert(key, regs.clone());
        regs
    }
}

/// The registers live before instruction `ip` of `block`, `ip - 1` being a call whose result
/// the return writes (so it is left out), given the registers live on entry to each block.
fn live_after_call(f: &Function, live_in: &[HashSet<Reg>], block: BlockId, ip: usize) -> Vec<Reg> {
    let blk = &f.blocks[block as usize];
    let mut live: HashSet<Reg> = term_operands(&blk.term).into_iter().collect();
    for e in edges(&blk.term) {
        let written: HashSet<Reg> = e.moves.regs.iter().map(|(d, _)| *d).collect();
        live.extend(
            live_in[e.target as usize]
                .iter()
                .filter(|r| !written.contains(r)),
        );
    }
    for inst in blk.insts[ip.min(blk.insts.len())..].iter().rev() {
        if let Some(Val::Reg(r, _)) = inst_dst(inst) {
            live.remove(&r);
        }
        live.extend(inst_operands(inst));
    }
    if let Some(Val::Reg(r, _)) = ip.checked_sub(1).and_then(|i| inst_dst(&blk.insts[i])) {
        live.remove(&r);
    }
    let mut regs: Vec<Reg> = live.into_iter().collect();
    regs.sort_unstable();
    regs
}

/// A function's loop headers with the registers live on entry to each, and the registers
/// live on entry to every block.
type FuncLoops = (Vec<(BlockId, Vec<Reg>)>, Rc<[HashSet<Reg>]>);

/// `f`'s loops (the block liveness kept for `live_at_resume`); None when `f` has none or has
/// aggregate registers. Dominators are computed only for functions with an edge to an earlier
/// block (where the machine reports a back edge).
fn loop_heads(f: &Function) -> Option<FuncLoops> {
    if !f.agg_init.is_empty() || f.blocks.is_empty() {
        return None;
    }
    let backwards = f
        .blocks
        .iter()
        .enumerate()
        .any(|(b, blk)| blk.term.successors().into_iter().any(|s| s as usize <= b));
    if !backwards {
        return None;
    }
    let dom = Dominators::of(f);
    let mut heads: HashSet<BlockId> = HashSet::new();
    for (b, blk) in f.blocks.iter().enumerate() {
        for s in blk.term.successors() {
            if dom.dominates(s, b as BlockId) {
                heads.insert(s);
            }
        }
    }
    if heads.is_empty() {
        return None;
    }
    let live = live_in(f);
    let heads = heads
        .into_iter()
        .map(|b| {
            let mut regs: Vec<Reg> = live[b as usize].iter().copied().collect();
            regs.sort_unstable();
            (b, regs)
        })
        .collect();
    Some((heads, live.into()))
}

/// Registers live on entry to each block: read there (or on an edge's moves out of it) before
/// the block writes them, or live after it and not written in it. Phi moves belong to their
/// edge: their sources are read at the end of the block they leave, their destinations written
/// before the block they enter.
fn live_in(f: &Function) -> Vec<HashSet<Reg>> {
    let n = f.blocks.len();
    let mut uses: Vec<HashSet<Reg>> = vec![HashSet::new(); n];
    let mut defs: Vec<HashSet<Reg>> = vec![HashSet::new(); n];
    for (b, blk) in f.blocks.iter().enumerate() {
        for inst in &blk.insts {
            for r in inst_operands(inst) {
                if !defs[b].contains(&r) {
                    uses[b].insert(r);
                }
            }
            if let Some(Val::Reg(r, _)) = inst_dst(inst) {
                defs[b].insert(r);
            }
        }
        for r in term_operands(&blk.term) {
            if !defs[b].contains(&r) {
                uses[b].insert(r);
            }
        }
    }
    let mut live: Vec<HashSet<Reg>> = uses.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut out: HashSet<Reg> = HashSet::new();
            for e in edges(&f.blocks[b].term) {
                let written: HashSet<Reg> = e.moves.regs.iter().map(|(d, _)| *d).collect();
                out.extend(
                    live[e.target as usize]
                        .iter()
                        .filter(|r| !written.contains(r)),
                );
            }
            let before = live[b].len();
            let add: Vec<Reg> = out.into_iter().filter(|r| !defs[b].contains(r)).collect();
            live[b].extend(add);
            changed |= live[b].len() != before;
        }
    }
    live
}

/// The states a search's runs were in at loop headers (by fingerprint), each with where in the
/// execution tree the first run to reach it was then (its recorded decisions, by
/// `prefix_key`): the runs that explore that run's continuation reach the state there again.
#[derive(Default)]
pub struct Visited {
    seen: HashMap<u128, u64>,
    /// Runs whose recording stopped at a state seen before.
    pub revisits: u64,
    /// States seen that hold symbolic values, and runs stopped at one.
    symbolic_states: usize,
    symbolic_revisits: u64,
}

/// Active frames past which states are not compared: each comparison reads every frame, and
/// states deep in a recursion seldom repeat.
const MAX_COMPARED_FRAMES: usize = 64;
/// Memory (object contents) past which states are not compared: a fingerprint reads all of it.
const MAX_COMPARED_MEMORY: u64 = 1 << 20;
/// States seen, none of them twice, after which a search stops comparing: its states do not
/// repeat (a counter, say), and each comparison costs a pass over memory.
const GIVE_UP_AFTER: usize = 20_000;
/// The same for states holding symbolic values, whose comparison writes their expressions
/// and the path's conditions on them: a loop storing inputs makes a new one at each step.
const SYMBOLIC_GIVE_UP_AFTER: usize = 2_000;

impl Visited {
    /// Whether states are worth comparing in a run holding `mem`.
    pub fn compares(&self, mem: &Memory) -> bool {
        mem.contents() <= MAX_COMPARED_MEMORY
            && (self.revisits > 0 || self.seen.len() < GIVE_UP_AFTER)
    }

    /// Whether states holding symbolic values are worth comparing.
    pub fn compares_symbolic(&self) -> bool {
        self.symbolic_revisits > 0 || self.symbolic_states < SYMBOLIC_GIVE_UP_AFTER
    }

    /// Whether a run with recorded decisions `prefix` reaches a state (`symbolic`: holding
    /// symbolic values) an earlier run reached elsewhere in the tree (the first to reach it is
    /// remembered); counted in `revisits` if so.
    pub fn reached_elsewhere(&mut self, fingerprint: u128, prefix: u64, symbolic: bool) -> bool {
        let seen = self.seen.len();
        let elsewhere = *self.seen.entry(fingerprint).or_insert(prefix) != prefix;
        self.revisits += elsewhere as u64;
        if symbolic {
            self.symbolic_states += self.seen.len() - seen;
            self.symbolic_revisits += elsewhere as u64;
        }
        elsewhere
    }

    pub fn states(&self) -> usize {
        self.seen.len()
    }
}

/// A 128-bit fingerprint of the state at `(func, block)`: the live registers' values; the
/// frames (`LoopHeads::compared_frames`, the current one last): each one's variable arguments
/// and stack mark, where each one below resumes and the values of its registers live there
/// (`resumes`, one list per frame below); memory and the rounding mode. Registers and memory
/// bytes with a shadow are written as 0 here (`symbolic_bytes`, the memory's): `symbolic` says
/// what they hold.
pub fn fingerprint<T>(
    (func, block): (FuncId, BlockId),
    live: &[(Reg, u64)],
    frames: &[Frame],
    resumes: &[Vec<u64>],
    (mem, symbolic_bytes): (&Memory, &std::collections::BTreeMap<u64, T>),
    rounding: Rounding,
    symbolic: &Canonical,
) -> u128 {
    let mut h = Fingerprinter::default();
    for (i, f) in frames.iter().enumerate() {
        for a in &f.varargs {
            match a {
                VarArg::Scalar(v, _) => h.write_u64(*v),
                VarArg::Agg(bytes) => h.write(bytes),
            }
        }
        h.write_usize(f.varargs.len());
        h.write_usize(f.stack_mark);
        if let Some(values) = resumes.get(i) {
            h.write_u32(f.func);
            h.write_u32(f.block);
            h.write_usize(f.ip);
            values.iter().for_each(|v| h.write_u64(*v));
        }
    }
    h.write_usize(frames.len());
    h.write_u32(func);
    h.write_u32(block);
    for (r, v) in live {
        h.write_u32(*r);
        h.write_u64(*v);
    }
    h.write_u8(rounding as u8);
    mem.fingerprint(&mut h, symbolic_bytes);
    symbolic.nodes.hash(&mut h);
    symbolic.roots.hash(&mut h);
    h.finish128()
}

/// Where a state holds a symbolic value.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Place {
    /// A register of the `frame`-th compared frame (the current one last).
    Reg {
        frame: usize,
        reg: Reg,
    },
    Byte(u64),
    /// A condition of the path over the variables the state holds (see `Canonical`).
    Constraint,
}

/// The symbolic part of a state, written so that two states that differ only in which input
/// variables they hold are written alike: each expression as its nodes in post-order, children
/// by position in that order, variables numbered in the order they first appear. Equal writings
/// mean a renaming of variables that maps one state's symbolic values and the path's conditions
/// over them (`Place::Constraint`, added last, as a set: `add_conditions`) onto the other's. The rest of
/// either path shares no variable with them and holds on the run, so both states stand for the
/// same set of concrete states: what can follow one can follow the other.
#[derive(Default)]
pub struct Canonical {
    ids: FxHashMap<ExprId, u32>,
    renamed: FxHashMap<u32, u32>,
    /// The pool's variables, in the order they first appeared.
    pub vars: Vec<u32>,
    nodes: Vec<Node>,
    roots: Vec<(Place, u32)>,
}

/// Nodes past which a state's symbolic part is not written (the state is not compared).
const MAX_CANONICAL_NODES: usize = 1 << 14;

impl Canonical {
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// Nodes written so far.
    pub fn written(&self) -> usize {
        self.nodes.len()
    }

    /// Writes `e` as held at `place`; false when it holds something a renaming cannot map: a
    /// variable that is no input (an indeterminate value, an address, a value a library model
    /// lost track of), an opaque call, or no expression at all (the shadow's mark of a byte
    /// never written); or when the state grows too large to compare.
    pub fn add(&mut self, pool: &Pool, place: Place, e: ExprId) -> bool {
        let Some(new) = post_order(pool, e, |x| self.ids.contains_key(&x)) else {
            return false;
        };
        for x in new {
            if self.nodes.len() >= MAX_CANONICAL_NODES {
                return false;
            }
            let (renamed, vars) = (&mut self.renamed, &mut self.vars);
            let var = &mut |v| {
                let next = renamed.len() as u32;
                *renamed.entry(v).or_insert_with(|| {
                    vars.push(v);
                    next
                })
            };
            let ids = &self.ids;
            let Some(node) = renamed_node(pool, x, &|c| ExprId(ids[&c]), var) else {
                return false;
            };
            self.ids.insert(x, self.nodes.len() as u32);
            self.nodes.push(node);
        }
        self.roots.push((place, self.ids[&e]));
        true
    }

    /// Writes the path's conditions over the state's variables (`Place::Constraint`), after
    /// everything else: as a set, so that the same conditions met in another order or more
    /// than once are written alike. Each is ordered by its own writing, with the state's
    /// variables and nodes by their names and its other variables by order of appearance in
    /// it (the path's order breaks ties). Any order is sound: a writing still lists every
    /// condition up to one renaming; the sort only makes more states compare equal.
    pub fn add_conditions(&mut self, pool: &Pool, conditions: &[ExprId]) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut distinct: Vec<ExprId> = conditions.to_vec();
        distinct.retain(|&c| seen.insert(c));
        // One condition has one order: its key would be written for nothing.
        if distinct.len() > 1 {
            let mut keyed = Vec::with_capacity(distinct.len());
            for c in distinct.drain(..) {
                let Some(key) = self.key_of(pool, c) else {
                    return false;
                };
                keyed.push((key, c));
            }
            keyed.sort_by_key(|&(key, _)| key);
            distinct.extend(keyed.into_iter().map(|(_, c)| c));
        }
        (distinct.into_iter()).all(|c| self.add(pool, Place::Constraint, c))
    }

    /// `e` written on its own, as a fingerprint: nodes the state has written by their
    /// position, its variables by their names, the others numbered apart.
    fn key_of(&self, pool: &Pool, e: ExprId) -> Option<u128> {
        const APART: u32 = 1 << 31;
        let (mut local, mut fresh) = (FxHashMap::default(), FxHashMap::default());
        let mut h = Fingerprinter::default();
        for x in post_order(pool, e, |x| self.ids.contains_key(&x))? {
            let operand = |c| match self.ids.get(&c) {
                Some(&at) => ExprId(APART | at),
                None => ExprId(local[&c]),
            };
            let var = &mut |v| match self.renamed.get(&v) {
                Some(&k) => k,
                None => {
                    let next = fresh.len() as u32;
                    APART | *fresh.entry(v).or_insert(next)
                }
            };
            renamed_node(pool, x, &operand, var)?.hash(&mut h);
            local.insert(x, local.len() as u32);
        }
        h.write_u32(self.ids.get(&e).map_or(u32::MAX, |&at| at));
        Some(h.finish128())
    }
}

/// The expressions of `e` not `written` yet, operands first (in order), each once; None when
/// one is no expression (the shadow's mark of a byte never written) or there are too many.
fn post_order(pool: &Pool, e: ExprId, written: impl Fn(ExprId) -> bool) -> Option<Vec<ExprId>> {
    let (mut out, mut seen) = (vec![], rustc_hash::FxHashSet::default());
    let mut stack = vec![(e, false)];
    while let Some((x, expanded)) = stack.pop() {
        if written(x) || (!expanded && seen.contains(&x)) {
            continue;
        }
        if x.0 as usize >= pool.len() {
            return None;
        }
        if expanded {
            out.push(x);
            if out.len() > MAX_CANONICAL_NODES {
                return None;
            }
            continue;
        }
        seen.insert(x);
        stack.push((x, true));
        // Reversed, so that the first operand comes first.
        stack.extend(pool.children(x).into_iter().rev().map(|c| (c, false)));
    }
    Some(out)
}

/// `x`'s node with its operands as `operand` names them and its variable as `var` does; None
/// for what no renaming maps (an opaque call, a variable that is no input).
fn renamed_node(
    pool: &Pool,
    x: ExprId,
    operand: &dyn Fn(ExprId) -> ExprId,
    var: &mut dyn FnMut(u32) -> u32,
) -> Option<Node> {
    let id = |e: &ExprId| operand(*e);
    Some(match pool.node(x).clone() {
        Node::Var { w, id: v } => {
            if pool.vars[v as usize].input >= LOST_INPUT {
                return None;
            }
            Node::Var { w, id: var(v) }
        }
        Node::Opaque { .. } => return None,
        Node::Const { w, v } => Node::Const { w, v },
        Node::Bin { op, w, a, b } => Node::Bin {
            op,
            w,
            a: id(&a),
            b: id(&b),
        },
        Node::Cmp { pred, a, b } => Node::Cmp {
            pred,
            a: id(&a),
            b: id(&b),
        },
        Node::Ite { w, c, t, f } => Node::Ite {
            w,
            c: id(&c),
            t: id(&t),
            f: id(&f),
        },
        Node::ZExt { w, a } => Node::ZExt { w, a: id(&a) },
        Node::SExt { w, a } => Node::SExt { w, a: id(&a) },
        Node::Extract { w, lo, a } => Node::Extract { w, lo, a: id(&a) },
        Node::Concat { w, hi, lo } => Node::Concat {
            w,
            hi: id(&hi),
            lo: id(&lo),
        },
        Node::FBin { op, w, a, b, rm } => Node::FBin {
            op,
            w,
            a: id(&a),
            b: id(&b),
            rm,
        },
        Node::FCmp { pred, w, a, b } => Node::FCmp {
            pred,
            w,
            a: id(&a),
            b: id(&b),
        },
        Node::FCast { op, w, a } => Node::FCast { op, w, a: id(&a) },
    })
}

/// The key of a run's position in the execution tree after recording the decision at
/// `(func, block)` that took outcome `taken`, from the key before it.
pub fn prefix_key(before: u64, func: FuncId, block: BlockId, taken: usize) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (before, func, block, taken).hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, IPred};
    use crate::smt::expr::VarKey;

    fn input(p: &mut Pool, input: u32) -> ExprId {
        p.var(VarKey {
            input,
            byte: 0,
            w: 32,
        })
    }

    /// The writing of a state holding `token` in a register and `copy` in a byte, with the
    /// path's conditions `slice`.
    fn written(p: &Pool, token: ExprId, copy: ExprId, slice: &[ExprId]) -> Option<Canonical> {
        let mut c = Canonical::default();
        let reg = Place::Reg { frame: 0, reg: 3 };
        let ok = c.add(p, reg, token)
            && c.add(p, Place::Byte(0x1000), copy)
            && c.add_conditions(p, slice);
        ok.then_some(c)
    }

    fn same(a: &Canonical, b: &Canonical) -> bool {
        a.nodes == b.nodes && a.roots == b.roots
    }

    #[test]
    fn states_alike_up_to_which_inputs_they_hold_are_written_alike() {
        let mut p = Pool::default();
        let (a, b) = (input(&mut p, 0), input(&mut p, 9));
        let one = p.constant(32, 1);
        let hundred = p.constant(32, 100);
        let (a1, b1) = (p.bin(BinOp::Add, 32, a, one), p.bin(BinOp::Add, 32, b, one));
        let (a_big, b_big) = (p.cmp(IPred::Sgt, a, hundred), p.cmp(IPred::Sgt, b, hundred));
        let b_small = p.not(b_big);
        let first = written(&p, a1, a, &[a_big]).unwrap();
        // Another input in the same relation, under the same condition: the same state.
        assert!(same(&first, &written(&p, b1, b, &[b_big]).unwrap()));
        // Under the other condition, or none: not the same.
        assert!(!same(&first, &written(&p, b1, b, &[b_small]).unwrap()));
        assert!(!same(&first, &written(&p, b1, b, &[]).unwrap()));
        // Two inputs where there was one: not the same.
        assert!(!same(&first, &written(&p, a1, b, &[a_big]).unwrap()));
        // Where a renaming cannot go: an indeterminate value, an address.
        for special in [
            super::super::shadow::UNINIT_INPUT,
            super::super::shadow::ADDRESS_INPUT,
        ] {
            let x = input(&mut p, special);
            assert!(written(&p, x, a, &[]).is_none());
        }
    }

    /// The same conditions met in another order, or one of them twice, are one state; a
    /// condition tying the state's input to another input is kept apart from one tying it to
    /// a third input in another way.
    #[test]
    fn a_states_conditions_are_written_as_a_set() {
        let mut p = Pool::default();
        let (a, b, x, y) = (
            input(&mut p, 0),
            input(&mut p, 9),
            input(&mut p, 4),
            input(&mut p, 5),
        );
        let (three, seven) = (p.constant(32, 3), p.constant(32, 7));
        let ne = |p: &mut Pool, v, k| {
            let eq = p.cmp(IPred::Eq, v, k);
            p.not(eq)
        };
        let (a3, a7) = (ne(&mut p, a, three), ne(&mut p, a, seven));
        let (b3, b7) = (ne(&mut p, b, three), ne(&mut p, b, seven));
        let first = written(&p, a, a, &[a3, a7]).unwrap();
        assert!(same(&first, &written(&p, b, b, &[b7, b3]).unwrap()));
        assert!(same(&first, &written(&p, b, b, &[b7, b3, b7]).unwrap()));
        assert!(!same(&first, &written(&p, b, b, &[b7]).unwrap()));
        // Conditions through inputs the state does not hold: `a < x` and `x < y` against
        // `b < y` and `x < y` (another relation), in either order.
        let (ax, xy) = (p.cmp(IPred::Slt, a, x), p.cmp(IPred::Slt, x, y));
        let (bx, by) = (p.cmp(IPred::Slt, b, x), p.cmp(IPred::Slt, b, y));
        let chain = written(&p, a, a, &[ax, xy]).unwrap();
        assert!(same(&chain, &written(&p, b, b, &[xy, bx]).unwrap()));
        assert!(!same(&chain, &written(&p, b, b, &[xy, by]).unwrap()));
    }
}
