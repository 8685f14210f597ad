//! Stack slots a load may read before anything is stored in them, for
//! `--uninitialized-inputs`. Found on the bitcode before `mem2reg`, in `normalize`, which the
//! interpreter's build and the native one share: both make the same slots inputs, in the same
//! order, so a test's values reach the same locals in either.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use std::collections::HashMap;

/// The allocas of `f`'s entry block that a load may read before any store on some path from
/// the entry (a must-be-set analysis over the blocks). Only slots whose address is used by
/// loads and stores alone: a slot whose address is passed, offset or stored may be written
/// out of sight, and stays indeterminate.
///
/// # Safety
/// `f` is a function of a live LLVM module.
pub unsafe fn read_before_set(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        let entry = LLVMGetFirstBasicBlock(f);
        if entry.is_null() {
            return vec![];
        }
        let slots: Vec<LLVMValueRef> = instructions(entry)
            .into_iter()
            .filter(|&i| !LLVMIsAAllocaInst(i).is_null() && only_loaded_and_stored(i))
            .collect();
        if slots.is_empty() {
            return vec![];
        }
        let slot_of: HashMap<LLVMValueRef, usize> =
            slots.iter().enumerate().map(|(k, &s)| (s, k)).collect();
        let mut blocks = vec![];
        let mut bb = entry;
        while !bb.is_null() {
            blocks.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
        let index: HashMap<LLVMBasicBlockRef, usize> =
            blocks.iter().enumerate().map(|(k, &b)| (b, k)).collect();
        let n = slots.len();
        // Per block: the slots it stores, and those it loads before storing them.
        let mut stores = vec![Bits::empty(n); blocks.len()];
        let mut reads_first = vec![Bits::empty(n); blocks.len()];
        let mut succs: Vec<Vec<usize>> = vec![vec![]; blocks.len()];
        for (b, &bb) in blocks.iter().enumerate() {
            for i in instructions(bb) {
                if !LLVMIsALoadInst(i).is_null() {
                    if let Some(&k) = slot_of.get(&LLVMGetOperand(i, 0))
                        && !stores[b].has(k)
                    {
                        reads_first[b].set(k);
                    }
                } else if !LLVMIsAStoreInst(i).is_null()
                    && let Some(&k) = slot_of.get(&LLVMGetOperand(i, 1))
                {
                    stores[b].set(k);
                }
            }
            let t = LLVMGetBasicBlockTerminator(bb);
            if !t.is_null() {
                for s in 0..LLVMGetNumSuccessors(t) {
                    if let Some(&to) = index.get(&LLVMGetSuccessor(t, s)) {
                        succs[b].push(to);
                    }
                }
            }
        }
        let mut preds: Vec<Vec<usize>> = vec![vec![]; blocks.len()];
        for (b, ss) in succs.iter().enumerate() {
            for &to in ss {
                preds[to].push(b);
            }
        }
        // Set on entry to a block: what every predecessor has set by its end. Unreachable
        // blocks keep "everything set" and report nothing.
        let mut set_in = vec![Bits::full(n); blocks.len()];
        set_in[0] = Bits::empty(n);
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..blocks.len() {
                let mut meet = Bits::full(n);
                for &p in &preds[b] {
                    meet.and(&set_in[p].or(&stores[p]));
                }
                if meet != set_in[b] {
                    set_in[b] = meet;
                    changed = true;
                }
            }
        }
        let reachable = reachable(&succs);
        (0..n)
            .filter(|&k| {
                (0..blocks.len())
                    .any(|b| reachable[b] && reads_first[b].has(k) && !set_in[b].has(k))
            })
            .map(|k| slots[k])
            .collect()
    }
}

unsafe fn instructions(bb: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    unsafe {
        let mut v = vec![];
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            v.push(i);
            i = LLVMGetNextInstruction(i);
        }
        v
    }
}

/// Every use of `slot` is a load from it or a store into it (not of it).
unsafe fn only_loaded_and_stored(slot: LLVMValueRef) -> bool {
    unsafe {
        let mut u = LLVMGetFirstUse(slot);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            let ok = !LLVMIsALoadInst(user).is_null()
                || (!LLVMIsAStoreInst(user).is_null()
                    && LLVMGetOperand(user, 1) == slot
                    && LLVMGetOperand(user, 0) != slot);
            if !ok {
                return false;
            }
            u = LLVMGetNextUse(u);
        }
        true
    }
}

/// The blocks a path from the entry (block 0) reaches.
fn reachable(succs: &[Vec<usize>]) -> Vec<bool> {
    let mut seen = vec![false; succs.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        for &to in &succs[b] {
            if !seen[to] {
                seen[to] = true;
                stack.push(to);
            }
        }
    }
    seen
}

/// A set of slot numbers.
#[derive(Clone, PartialEq)]
struct Bits(Vec<u64>);

impl Bits {
    fn empty(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn full(n: usize) -> Bits {
        Bits(vec![u64::MAX; n.div_ceil(64)])
    }
    fn has(&self, k: usize) -> bool {
        self.0[k / 64] >> (k % 64) & 1 == 1
    }
    fn set(&mut self, k: usize) {
        self.0[k / 64] |= 1 << (k % 64);
    }
    fn and(&mut self, o: &Bits) {
        self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a &= b);
    }
    fn or(&self, o: &Bits) -> Bits {
        Bits(self.0.iter().zip(&o.0).map(|(a, b)| a | b).collect())
    }
}
