//! Revisited states. A search's run that enters a loop header of the entry function in a
//! *concrete* state (no register live there and no memory byte depends on an input, nothing
//! is indeterminate, every input so far was a value a call returned) is in a state some earlier
//! run of the same search may have been in at the same header. What follows depends only on
//! that state and on inputs not read yet, so the earlier run's decisions from there on, which
//! the search flips like any others, explore every continuation: the later run's decisions past
//! the header add nothing, and the search stops recording them (the run itself goes on, and
//! covers what it covers). The execution tree stays exact, and a program that reads inputs in an
//! endless loop over finitely many states (an event-condition-action system) can be explored to
//! its end, which proves every goal no run reached — explicit-state search over the states,
//! with the concolic tree for the paths between two visits of a header.
//!
//! The state is compared by a 128-bit fingerprint of everything a continuation can read: the
//! live registers of the entry frame, every object of memory (bytes, bounds, whether alive),
//! where the allocators stand, and the rounding mode.

use super::memory::Memory;
use crate::analysis::dominators::Dominators;
use crate::ir::operands::{edges, inst_dst, inst_operands, term_operands};
use crate::ir::rounding::Rounding;
use crate::ir::{BlockId, FuncId, Function, Module, Reg, Val};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// The loop headers of the entry function (targets of edges from blocks they dominate), each
/// with the registers live on entry to it.
pub struct LoopHeads {
    pub func: FuncId,
    /// How many frames are active when the entry function runs: 2 for `main`, which the
    /// runtime's start calls and then only exits with its result (the frame below holds
    /// nothing a continuation reads), 1 for a unit's entry or a `main` without the start.
    depth: usize,
    heads: HashMap<BlockId, Vec<Reg>>,
}

impl LoopHeads {
    /// Of the program's entry function; None when it has no loop or has aggregate registers
    /// (their slots are not compared).
    pub fn of_entry(m: &Module, entry: &str) -> Option<LoopHeads> {
        let f = &m.functions[*m.func_by_name.get(entry)? as usize];
        let started = entry == "main" && m.func_by_name.contains_key(super::machine::START_FN);
        let mut heads = LoopHeads::of(f)?;
        heads.depth = if started { 2 } else { 1 };
        Some(heads)
    }

    fn of(f: &Function) -> Option<LoopHeads> {
        if !f.agg_init.is_empty() || f.blocks.is_empty() {
            return None;
        }
        let dom = Dominators::of(f);
        let mut heads: HashMap<BlockId, Vec<Reg>> = HashMap::new();
        for (b, blk) in f.blocks.iter().enumerate() {
            for s in blk.term.successors() {
                if dom.dominates(s, b as BlockId) {
                    heads.insert(s, vec![]);
                }
            }
        }
        if heads.is_empty() {
            return None;
        }
        let live = live_in(f);
        for (b, regs) in heads.iter_mut() {
            *regs = live[*b as usize].iter().copied().collect();
            regs.sort_unstable();
        }
        Some(LoopHeads {
            func: f.id,
            depth: 1,
            heads,
        })
    }

    /// The registers live on entry to `block` if it is a loop header of the entry function
    /// running in its own frame over the start's (`depth` frames active).
    pub fn live_in(&self, func: FuncId, depth: usize, block: BlockId) -> Option<&[Reg]> {
        (func == self.func && depth == self.depth)
            .then(|| self.heads.get(&block).map(Vec::as_slice))
            .flatten()
    }
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

/// A 128-bit fingerprint of the state at `(func, block)`: the live registers' values, memory
/// and the rounding mode.
pub fn fingerprint(
    func: FuncId,
    block: BlockId,
    live: &[(Reg, u64)],
    mem: &Memory,
    rounding: Rounding,
) -> u128 {
    let mut h = Fingerprinter::default();
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
