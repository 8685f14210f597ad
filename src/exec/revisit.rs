//! Revisited states. A search's run that enters a loop header in a *concrete* state (no
//! register of any active frame live there and no memory byte depends on an input, nothing is
//! indeterminate, every input so far was a value a call returned) is in a state some earlier
//! run of the same search may have been in at the same header. What follows depends only on
//! that state and on inputs not read yet, so the earlier run's decisions from there on, which
//! the search flips like any others, explore every continuation: the later run's decisions past
//! the header add nothing, and the run ends there (`Outcome::Revisited`: what it took so far
//! is its own). The execution tree stays exact, and a program that reads inputs in an
//! endless loop over finitely many states (an event-condition-action system, a scheduler
//! looping in a function `main` calls) can be explored to its end, which proves every goal no
//! run reached — explicit-state search over the states, with the concolic tree for the paths
//! between two visits of a header.
//!
//! The state is compared by a 128-bit fingerprint of everything a continuation can read: the
//! live registers of the current frame, each frame below it (where it resumes, the registers
//! live there, its stack mark), every frame's variable arguments, every object of memory
//! (bytes, bounds, whether alive), where the allocators stand, and the rounding mode.

use super::machine::{Frame, START_FN, VarArg};
use super::memory::Memory;
use crate::analysis::dominators::Dominators;
use crate::ir::operands::{edges, inst_dst, inst_operands, term_operands};
use crate::ir::rounding::Rounding;
use crate::ir::{BlockId, FuncId, Function, Module, Reg, Val};
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
}

/// Active frames past which states are not compared: each comparison reads every frame, and
/// states deep in a recursion seldom repeat.
const MAX_COMPARED_FRAMES: usize = 64;
/// Memory (object contents) past which states are not compared: a fingerprint reads all of it.
const MAX_COMPARED_MEMORY: u64 = 1 << 20;
/// States seen, none of them twice, after which a search stops comparing: its states do not
/// repeat (a counter, say), and each comparison costs a pass over memory.
const GIVE_UP_AFTER: usize = 20_000;

impl Visited {
    /// Whether states are worth comparing in a run holding `mem`.
    pub fn compares(&self, mem: &Memory) -> bool {
        mem.contents() <= MAX_COMPARED_MEMORY
            && (self.revisits > 0 || self.seen.len() < GIVE_UP_AFTER)
    }

    /// Whether a run with recorded decisions `prefix` reaches a state an earlier run reached
    /// elsewhere in the tree (the first to reach it is remembered).
    pub fn reached_elsewhere(&mut self, fingerprint: u128, prefix: u64) -> bool {
        *self.seen.entry(fingerprint).or_insert(prefix) != prefix
    }

    pub fn states(&self) -> usize {
        self.seen.len()
    }
}

/// A 128-bit fingerprint of the state at `(func, block)`: the live registers' values; the
/// frames (`LoopHeads::compared_frames`, the current one last): each one's variable arguments
/// and stack mark, where each one below resumes and the values of its registers live there
/// (`resumes`, one list per frame below); memory and the rounding mode.
pub fn fingerprint(
    (func, block): (FuncId, BlockId),
    live: &[(Reg, u64)],
    frames: &[Frame],
    resumes: &[Vec<u64>],
    mem: &Memory,
    rounding: Rounding,
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
    mem.fingerprint(&mut h);
    h.finish128()
}

/// Two hashes of the same bytes: SipHash (64 bits) and a multiplicative one over 8-byte words
/// (64 more, at a fraction of the cost): states are told apart unless both collide.
#[derive(Default)]
struct Fingerprinter {
    sip: std::collections::hash_map::DefaultHasher,
    words: u64,
}

impl Fingerprinter {
    fn finish128(&self) -> u128 {
        (self.sip.finish() as u128) << 64 | self.words as u128
    }
}

impl Hasher for Fingerprinter {
    fn write(&mut self, bytes: &[u8]) {
        self.sip.write(bytes);
        let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.words = mix(self.words, u64::from_le_bytes(c.try_into().unwrap()));
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        // The length too, so that trailing zeros are not lost.
        self.words = mix(
            self.words,
            u64::from_le_bytes(tail) ^ (bytes.len() as u64) << 56,
        );
    }

    fn finish(&self) -> u64 {
        self.sip.finish()
    }
}

/// The key of a run's position in the execution tree after recording the decision at
/// `(func, block)` that took outcome `taken`, from the key before it.
pub fn prefix_key(before: u64, func: FuncId, block: BlockId, taken: usize) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (before, func, block, taken).hash(&mut h);
    h.finish()
}
