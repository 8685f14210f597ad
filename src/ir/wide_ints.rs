//! Integers wider than 64 bits, split into words before lowering (as LLVM's type legalization
//! does for a 64-bit target): a `W`-bit value becomes `i64` words, low first, the last one
//! `i(W mod 64)` when 64 does not divide `W`, and each operation on it a few operations on
//! the words. Cairn's IR, interpreter, symbolic shadow and model checker then see only
//! integers of at most 64 bits.
//!
//! Clang makes such values from runs of bit-fields that share one storage unit (Csmith's
//! `struct { int a : 31; unsigned b : 29; ... }` loads an `i72` and shifts and masks it) and
//! from `__int128`. Loads, stores, bitwise operations, shifts, additions, subtractions,
//! multiplications, comparisons, casts, selects and phis are split; a function using a wide
//! integer any other way (a division, an argument, a return value) is left as it is, and the
//! lowering names the construct and its place.

use llvm_sys::LLVMIntPredicate as P;
use llvm_sys::LLVMOpcode as Op;
use llvm_sys::core::*;
use llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMAtomicOrdering, LLVMTypeKind};
use std::collections::{HashMap, HashSet};

/// Splits the wide integers of every function of `m` that uses them only in supported ways.
///
/// # Safety
/// `ctx` and `m` must be a live LLVM context and a module created in it.
pub unsafe fn legalize(ctx: LLVMContextRef, m: LLVMModuleRef) {
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if !LLVMGetFirstBasicBlock(f).is_null() && uses_wide(f) && splittable(f) {
                let mut s = Splitter::new(ctx, m);
                s.function(f);
                LLVMDisposeBuilder(s.b);
            }
            f = LLVMGetNextFunction(f);
        }
        // The wide seeds' declarations, now unused.
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let next = LLVMGetNextFunction(f);
            if LLVMGetFirstBasicBlock(f).is_null()
                && LLVMGetFirstUse(f).is_null()
                && wide_width(LLVMGetReturnType(LLVMGlobalGetValueType(f))).is_some()
            {
                LLVMDeleteFunction(f);
            }
            f = next;
        }
    }
}

/// Width of `ty` if it is an integer wider than 64 bits.
unsafe fn wide_width(ty: LLVMTypeRef) -> Option<u32> {
    unsafe {
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMIntegerTypeKind {
            return None;
        }
        let w = LLVMGetIntTypeWidth(ty);
        (w > 64).then_some(w)
    }
}

unsafe fn is_wide(v: LLVMValueRef) -> bool {
    unsafe { wide_width(LLVMTypeOf(v)).is_some() }
}

unsafe fn instructions(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = vec![];
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            let mut i = LLVMGetFirstInstruction(b);
            while !i.is_null() {
                out.push(i);
                i = LLVMGetNextInstruction(i);
            }
            b = LLVMGetNextBasicBlock(b);
        }
    }
    out
}

unsafe fn operands(i: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        (0..LLVMGetNumOperands(i).max(0) as u32)
            .map(|k| LLVMGetOperand(i, k))
            .collect()
    }
}

/// Whether an instruction of `f` produces or reads a wide integer.
unsafe fn involves_wide(i: LLVMValueRef) -> bool {
    unsafe { is_wide(i) || operands(i).into_iter().any(|o| is_wide(o)) }
}

unsafe fn uses_wide(f: LLVMValueRef) -> bool {
    unsafe { instructions(f).into_iter().any(|i| involves_wide(i)) }
}

/// The name of a called function, if the call is direct.
unsafe fn callee_name(i: LLVMValueRef) -> String {
    unsafe {
        let c = LLVMGetCalledValue(i);
        if c.is_null() || LLVMIsAFunction(c).is_null() {
            return String::new();
        }
        let mut len = 0usize;
        let p = LLVMGetValueName2(c, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Whether every use of a wide integer in `f` is one this pass splits. Wide operands must be
/// instructions, integer constants or undef (no arguments, no constant expressions).
unsafe fn splittable(f: LLVMValueRef) -> bool {
    unsafe {
        for i in instructions(f) {
            if !involves_wide(i) {
                continue;
            }
            let ok = match LLVMGetInstructionOpcode(i) {
                Op::LLVMLoad | Op::LLVMStore => {
                    LLVMGetOrdering(i) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
                }
                Op::LLVMAnd
                | Op::LLVMOr
                | Op::LLVMXor
                | Op::LLVMAdd
                | Op::LLVMSub
                | Op::LLVMShl
                | Op::LLVMLShr
                | Op::LLVMAShr
                | Op::LLVMICmp
                | Op::LLVMTrunc
                | Op::LLVMZExt
                | Op::LLVMSExt
                | Op::LLVMPHI
                | Op::LLVMFreeze => true,
                Op::LLVMMul => wide_width(LLVMTypeOf(i)).is_some_and(|w| w <= 128),
                Op::LLVMSelect => !is_wide(LLVMGetOperand(i, 0)),
                // The seed of a wide local (normalize.rs), one seed per word.
                Op::LLVMCall => {
                    LLVMGetNumOperands(i) == 1
                        && callee_name(i).starts_with(super::normalize::INDETERMINATE)
                }
                _ => false,
            };
            if !ok {
                return false;
            }
            for o in operands(i) {
                let inner = !LLVMIsAInstruction(o).is_null()
                    || !LLVMIsAConstantInt(o).is_null()
                    || LLVMIsUndef(o) != 0
                    || !LLVMIsABasicBlock(o).is_null();
                if is_wide(o) && !inner {
                    return false;
                }
            }
        }
        true
    }
}

/// A wide value's words, low first.
#[derive(Clone)]
struct Words(Vec<LLVMValueRef>);

/// What the bits above a value are: zeros, or copies of its sign bit.
#[derive(Clone, Copy, PartialEq)]
enum Fill {
    Zero,
    Sign,
}

struct Splitter {
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    b: LLVMBuilderRef,
    i64t: LLVMTypeRef,
    split: HashMap<LLVMValueRef, Words>,
}

const NO_NAME: &std::ffi::CStr = c"";

type BuildBinary = unsafe extern "C" fn(
    LLVMBuilderRef,
    LLVMValueRef,
    LLVMValueRef,
    *const libc::c_char,
) -> LLVMValueRef;

/// Widths of the words of a `w`-bit value.
fn word_widths(w: u32) -> Vec<u32> {
    (0..w.div_ceil(64)).map(|k| (w - 64 * k).min(64)).collect()
}

/// The words of the two's complement of a decimal literal (as LLVM prints it) in `n` words.
fn parse_words(text: &str, n: usize) -> Vec<u64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text),
    };
    let mut words = vec![0u64; n];
    for d in digits.bytes().filter(u8::is_ascii_digit) {
        let mut carry = (d - b'0') as u128;
        for w in words.iter_mut() {
            let v = (*w as u128) * 10 + carry;
            *w = v as u64;
            carry = v >> 64;
        }
    }
    if neg {
        let mut carry = 1u128;
        for w in words.iter_mut() {
            let v = (!*w) as u128 + carry;
            *w = v as u64;
            carry = v >> 64;
        }
    }
    words
}

impl Splitter {
    unsafe fn new(ctx: LLVMContextRef, m: LLVMModuleRef) -> Splitter {
        unsafe {
            Splitter {
                ctx,
                m,
                b: LLVMCreateBuilderInContext(ctx),
                i64t: LLVMInt64TypeInContext(ctx),
                split: HashMap::new(),
            }
        }
    }

    unsafe fn int(&self, bits: u32) -> LLVMTypeRef {
        unsafe { LLVMIntTypeInContext(self.ctx, bits) }
    }

    unsafe fn konst(&self, ty: LLVMTypeRef, v: u64) -> LLVMValueRef {
        unsafe { LLVMConstInt(ty, v, 0) }
    }

    unsafe fn k64(&self, v: u64) -> LLVMValueRef {
        unsafe { self.konst(self.i64t, v) }
    }

    /// The types of the words of a wide value of type `ty`.
    unsafe fn word_types(&self, ty: LLVMTypeRef) -> Vec<LLVMTypeRef> {
        unsafe {
            word_widths(wide_width(ty).expect("wide type"))
                .into_iter()
                .map(|w| self.int(w))
                .collect()
        }
    }

    /// The words of a wide operand: already split, or a constant, or undef.
    unsafe fn words(&self, v: LLVMValueRef) -> Words {
        unsafe {
            if let Some(p) = self.split.get(&v) {
                return p.clone();
            }
            let tys = self.word_types(LLVMTypeOf(v));
            if !LLVMIsAConstantInt(v).is_null() {
                // The C API reads at most 64 bits of a constant; its printed form has them all.
                let text = LLVMPrintValueToString(v);
                let s = std::ffi::CStr::from_ptr(text)
                    .to_string_lossy()
                    .into_owned();
                LLVMDisposeMessage(text);
                let digits = s.split_whitespace().last().unwrap_or("0");
                let values = parse_words(digits, tys.len());
                return Words(
                    tys.iter()
                        .zip(values)
                        .map(|(&t, v)| self.konst(t, v))
                        .collect(),
                );
            }
            // Undef, poison, or a value only unreachable code defines.
            Words(tys.iter().map(|&t| LLVMGetUndef(t)).collect())
        }
    }

    /// Reverse post-order of the blocks from the entry, then any unreachable ones: every
    /// value is split before its uses, phis aside.
    unsafe fn block_order(f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
        unsafe {
            let entry = LLVMGetEntryBasicBlock(f);
            let mut seen = HashSet::new();
            let mut post = vec![];
            let mut stack = vec![(entry, 0u32)];
            seen.insert(entry);
            while let Some((b, k)) = stack.pop() {
                let t = LLVMGetBasicBlockTerminator(b);
                let n = if t.is_null() {
                    0
                } else {
                    LLVMGetNumSuccessors(t)
                };
                if k < n {
                    stack.push((b, k + 1));
                    let s = LLVMGetSuccessor(t, k);
                    if seen.insert(s) {
                        stack.push((s, 0));
                    }
                } else {
                    post.push(b);
                }
            }
            post.reverse();
            let mut b = LLVMGetFirstBasicBlock(f);
            while !b.is_null() {
                if !seen.contains(&b) {
                    post.push(b);
                }
                b = LLVMGetNextBasicBlock(b);
            }
            post
        }
    }

    unsafe fn function(&mut self, f: LLVMValueRef) {
        unsafe {
            let mut done = vec![];
            let mut phis = vec![];
            for block in Self::block_order(f) {
                let mut i = LLVMGetFirstInstruction(block);
                while !i.is_null() {
                    let next = LLVMGetNextInstruction(i);
                    if involves_wide(i) {
                        LLVMPositionBuilderBefore(self.b, i);
                        LLVMSetCurrentDebugLocation2(self.b, LLVMInstructionGetDebugLoc(i));
                        if LLVMGetInstructionOpcode(i) == Op::LLVMPHI {
                            phis.push(i);
                        }
                        self.instruction(i);
                        done.push(i);
                    }
                    i = next;
                }
            }
            for phi in phis {
                let p = self.split[&phi].clone();
                for k in 0..LLVMCountIncoming(phi) {
                    let w = self.words(LLVMGetIncomingValue(phi, k));
                    let mut from = LLVMGetIncomingBlock(phi, k);
                    for (&dst, &src) in p.0.iter().zip(&w.0) {
                        LLVMAddIncoming(dst, &mut { src }, &mut from, 1);
                    }
                }
            }
            for i in done.into_iter().rev() {
                if LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMTypeKind::LLVMVoidTypeKind {
                    LLVMReplaceAllUsesWith(i, LLVMGetUndef(LLVMTypeOf(i)));
                }
                LLVMInstructionEraseFromParent(i);
            }
        }
    }

    /// Builds the split form of `i` before it; a narrow result replaces `i`'s uses, a wide one
    /// is recorded for the instructions that read it.
    unsafe fn instruction(&mut self, i: LLVMValueRef) {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let ty = LLVMTypeOf(i);
            let op = |k| LLVMGetOperand(i, k);
            let pairwise = |x: &Words, y: &Words, build: BuildBinary| {
                Words(
                    x.0.iter()
                        .zip(&y.0)
                        .map(|(&p, &q)| build(b, p, q, n))
                        .collect(),
                )
            };
            let wide = match LLVMGetInstructionOpcode(i) {
                Op::LLVMLoad => {
                    let tys = self.word_types(ty);
                    let addrs = self.word_addresses(op(0), tys.len());
                    let words: Vec<_> = tys
                        .iter()
                        .zip(addrs)
                        .map(|(&t, a)| LLVMBuildLoad2(b, t, a, n))
                        .collect();
                    self.copy_access(i, &words);
                    Some(Words(words))
                }
                Op::LLVMStore => {
                    let v = self.words(op(0));
                    let addrs = self.word_addresses(op(1), v.0.len());
                    let stores: Vec<_> =
                        v.0.iter()
                            .zip(addrs)
                            .map(|(&w, a)| LLVMBuildStore(b, w, a))
                            .collect();
                    self.copy_access(i, &stores);
                    None
                }
                Op::LLVMAnd => Some(pairwise(
                    &self.words(op(0)),
                    &self.words(op(1)),
                    LLVMBuildAnd,
                )),
                Op::LLVMOr => Some(pairwise(
                    &self.words(op(0)),
                    &self.words(op(1)),
                    LLVMBuildOr,
                )),
                Op::LLVMXor => Some(pairwise(
                    &self.words(op(0)),
                    &self.words(op(1)),
                    LLVMBuildXor,
                )),
                Op::LLVMAdd => Some(self.add_sub(true, &self.words(op(0)), &self.words(op(1)))),
                Op::LLVMSub => Some(self.add_sub(false, &self.words(op(0)), &self.words(op(1)))),
                Op::LLVMMul => Some(self.mul(ty, &self.words(op(0)), &self.words(op(1)))),
                kind @ (Op::LLVMShl | Op::LLVMLShr | Op::LLVMAShr) => {
                    let x = self.words(op(0));
                    Some(if LLVMIsAConstantInt(op(1)).is_null() {
                        self.variable_shift(kind, ty, &x, self.words(op(1)).0[0])
                    } else {
                        self.shift(kind, ty, &x, LLVMConstIntGetZExtValue(op(1)))
                    })
                }
                Op::LLVMICmp => {
                    let r = self.compare(
                        LLVMGetICmpPredicate(i),
                        &self.words(op(0)),
                        &self.words(op(1)),
                    );
                    LLVMReplaceAllUsesWith(i, r);
                    None
                }
                Op::LLVMTrunc => {
                    let x = self.words(op(0));
                    if is_wide(i) {
                        let tys = self.word_types(ty);
                        Some(Words(
                            tys.iter()
                                .zip(&x.0)
                                .map(|(&t, &w)| self.resize(w, t, false))
                                .collect(),
                        ))
                    } else {
                        LLVMReplaceAllUsesWith(i, self.resize(x.0[0], ty, false));
                        None
                    }
                }
                Op::LLVMZExt | Op::LLVMSExt => {
                    let fill = if LLVMGetInstructionOpcode(i) == Op::LLVMSExt {
                        Fill::Sign
                    } else {
                        Fill::Zero
                    };
                    let src = op(0);
                    let x = if is_wide(src) {
                        self.words(src)
                    } else {
                        Words(vec![src])
                    };
                    Some(self.extend(&x, ty, fill))
                }
                Op::LLVMSelect => {
                    let (x, y) = (self.words(op(1)), self.words(op(2)));
                    Some(Words(
                        x.0.iter()
                            .zip(&y.0)
                            .map(|(&p, &q)| LLVMBuildSelect(b, op(0), p, q, n))
                            .collect(),
                    ))
                }
                Op::LLVMPHI => Some(Words(
                    self.word_types(ty)
                        .into_iter()
                        .map(|t| LLVMBuildPhi(b, t, n))
                        .collect(),
                )),
                Op::LLVMFreeze => Some(self.words(op(0))),
                Op::LLVMCall => Some(Words(
                    self.word_types(ty)
                        .into_iter()
                        .map(|t| self.seed(t))
                        .collect(),
                )),
                other => unreachable!("checked by `splittable`: {other:?}"),
            };
            if let Some(w) = wide {
                self.split.insert(i, w);
            }
        }
    }

    /// The addresses of a wide value's `n` words in memory (little-endian: low word first).
    unsafe fn word_addresses(&self, addr: LLVMValueRef, n: usize) -> Vec<LLVMValueRef> {
        unsafe {
            let i8t = self.int(8);
            (0..n)
                .map(|k| {
                    if k == 0 {
                        return addr;
                    }
                    let mut idx = [self.k64(8 * k as u64)];
                    LLVMBuildGEP2(self.b, i8t, addr, idx.as_mut_ptr(), 1, NO_NAME.as_ptr())
                })
                .collect()
        }
    }

    /// Volatility and alignment of the original access on the split ones.
    unsafe fn copy_access(&self, orig: LLVMValueRef, parts: &[LLVMValueRef]) {
        unsafe {
            let align = LLVMGetAlignment(orig).clamp(1, 8);
            for &p in parts {
                LLVMSetVolatile(p, LLVMGetVolatile(orig));
                LLVMSetAlignment(p, align);
            }
        }
    }

    /// `v` truncated or extended to `ty` (the identity if the widths agree).
    unsafe fn resize(&self, v: LLVMValueRef, ty: LLVMTypeRef, signed: bool) -> LLVMValueRef {
        unsafe {
            let from = LLVMGetIntTypeWidth(LLVMTypeOf(v));
            let to = LLVMGetIntTypeWidth(ty);
            let n = NO_NAME.as_ptr();
            match from.cmp(&to) {
                std::cmp::Ordering::Equal => v,
                std::cmp::Ordering::Greater => LLVMBuildTrunc(self.b, v, ty, n),
                std::cmp::Ordering::Less if signed => LLVMBuildSExt(self.b, v, ty, n),
                std::cmp::Ordering::Less => LLVMBuildZExt(self.b, v, ty, n),
            }
        }
    }

    /// A fresh indeterminate value of `ty` (see `normalize::INDETERMINATE`).
    unsafe fn seed(&self, ty: LLVMTypeRef) -> LLVMValueRef {
        unsafe {
            let name = format!(
                "{}i{}",
                super::normalize::INDETERMINATE,
                LLVMGetIntTypeWidth(ty)
            );
            let cname = std::ffi::CString::new(name).unwrap();
            let fty = LLVMFunctionType(ty, std::ptr::null_mut(), 0, 0);
            let mut callee = LLVMGetNamedFunction(self.m, cname.as_ptr());
            if callee.is_null() {
                callee = LLVMAddFunction(self.m, cname.as_ptr(), fty);
            }
            LLVMBuildCall2(
                self.b,
                fty,
                callee,
                std::ptr::null_mut(),
                0,
                NO_NAME.as_ptr(),
            )
        }
    }

    /// Word `k` of `x` as an `i64`, with the bits beyond `x` as `fill` says (`k` may be
    /// negative or past the last word).
    unsafe fn word64(&self, x: &Words, k: i64, fill: Fill) -> LLVMValueRef {
        unsafe {
            let last = x.0.len() as i64 - 1;
            if k < 0 {
                return self.k64(0);
            }
            if k > last {
                return match fill {
                    Fill::Zero => self.k64(0),
                    Fill::Sign => {
                        let top = self.resize(x.0[last as usize], self.i64t, true);
                        LLVMBuildAShr(self.b, top, self.k64(63), NO_NAME.as_ptr())
                    }
                };
            }
            self.resize(x.0[k as usize], self.i64t, fill == Fill::Sign && k == last)
        }
    }

    /// The 64 bits of `x` from bit `pos` on (any position: bits outside are `fill`).
    unsafe fn bits64(&self, x: &Words, pos: i64, fill: Fill) -> LLVMValueRef {
        unsafe {
            let (k, r) = (pos.div_euclid(64), pos.rem_euclid(64) as u64);
            let low = self.word64(x, k, fill);
            if r == 0 {
                return low;
            }
            let n = NO_NAME.as_ptr();
            let low = LLVMBuildLShr(self.b, low, self.k64(r), n);
            let high = LLVMBuildShl(self.b, self.word64(x, k + 1, fill), self.k64(64 - r), n);
            LLVMBuildOr(self.b, low, high, n)
        }
    }

    /// Shifts by a constant `c` (< W; LLVM makes larger shifts poison, so any value does):
    /// each word of the result is 64 bits of the operand from a shifted position.
    unsafe fn shift(&self, kind: Op, ty: LLVMTypeRef, x: &Words, c: u64) -> Words {
        unsafe {
            let w = wide_width(ty).expect("wide type") as u64;
            if c == 0 || c >= w {
                return x.clone();
            }
            let c = c as i64;
            let tys = self.word_types(ty);
            let words = tys
                .iter()
                .enumerate()
                .map(|(j, &t)| {
                    let j = 64 * j as i64;
                    let bits = match kind {
                        Op::LLVMShl => self.bits64(x, j - c, Fill::Zero),
                        Op::LLVMLShr => self.bits64(x, j + c, Fill::Zero),
                        _ => self.bits64(x, j + c, Fill::Sign),
                    };
                    self.resize(bits, t, false)
                })
                .collect();
            Words(words)
        }
    }

    /// Shifts by a variable amount: a barrel shifter, one stage per bit of the amount, each
    /// stage a constant shift taken or not (an amount of W or more is poison in LLVM).
    unsafe fn variable_shift(
        &self,
        kind: Op,
        ty: LLVMTypeRef,
        x: &Words,
        amount: LLVMValueRef,
    ) -> Words {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let w = wide_width(ty).expect("wide type");
            let amount = self.resize(amount, self.i64t, false);
            let mut v = x.clone();
            for bit in 0..(32 - (w - 1).leading_zeros()) {
                let set = LLVMBuildAnd(b, amount, self.k64(1 << bit), n);
                let set = LLVMBuildICmp(b, P::LLVMIntNE, set, self.k64(0), n);
                let shifted = self.shift(kind, ty, &v, 1 << bit);
                v = Words(
                    shifted
                        .0
                        .iter()
                        .zip(&v.0)
                        .map(|(&s, &o)| LLVMBuildSelect(b, set, s, o, n))
                        .collect(),
                );
            }
            v
        }
    }

    /// `x` (its top word extended as `fill` says) to the wide type `ty`.
    unsafe fn extend(&self, x: &Words, ty: LLVMTypeRef, fill: Fill) -> Words {
        unsafe {
            let top = x.0.len() - 1;
            let words = self
                .word_types(ty)
                .into_iter()
                .enumerate()
                .map(|(k, t)| {
                    let w = if k < top {
                        x.0[k]
                    } else {
                        self.word64(x, k.min(top + 1) as i64, fill)
                    };
                    self.resize(w, t, false)
                })
                .collect();
            Words(words)
        }
    }

    /// Addition or subtraction word by word, the carry (or borrow) passed up.
    unsafe fn add_sub(&self, add: bool, x: &Words, y: &Words) -> Words {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let mut carry: Option<LLVMValueRef> = None; // i1
            let mut out = vec![];
            for (k, (&p, &q)) in x.0.iter().zip(&y.0).enumerate() {
                let t = LLVMTypeOf(p);
                let (sum, out1) = if add {
                    let s = LLVMBuildAdd(b, p, q, n);
                    (s, LLVMBuildICmp(b, P::LLVMIntULT, s, p, n))
                } else {
                    (
                        LLVMBuildSub(b, p, q, n),
                        LLVMBuildICmp(b, P::LLVMIntULT, p, q, n),
                    )
                };
                let (sum, out2) = match carry {
                    None => (sum, None),
                    Some(c) => {
                        let c = LLVMBuildZExt(b, c, t, n);
                        if add {
                            let s = LLVMBuildAdd(b, sum, c, n);
                            (s, Some(LLVMBuildICmp(b, P::LLVMIntULT, s, sum, n)))
                        } else {
                            let s = LLVMBuildSub(b, sum, c, n);
                            (s, Some(LLVMBuildICmp(b, P::LLVMIntULT, sum, c, n)))
                        }
                    }
                };
                out.push(sum);
                if k + 1 < x.0.len() {
                    carry = Some(match out2 {
                        Some(o) => LLVMBuildOr(b, out1, o, n),
                        None => out1,
                    });
                }
            }
            Words(out)
        }
    }

    /// The product's low W bits (W <= 128): the full 128-bit product of the low words, plus
    /// the cross products of low and high words (their high halves fall beyond W).
    unsafe fn mul(&self, ty: LLVMTypeRef, x: &Words, y: &Words) -> Words {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let hty = self.word_types(ty)[1];
            let k = |v: u64| self.k64(v);
            let (xl, xh, yl, yh) = (x.0[0], x.0[1], y.0[0], y.0[1]);
            let lo = LLVMBuildMul(b, xl, yl, n);
            // High 64 bits of xl * yl from 32-bit halves.
            let m32 = k(0xffff_ffff);
            let (x0, x1) = (LLVMBuildAnd(b, xl, m32, n), LLVMBuildLShr(b, xl, k(32), n));
            let (y0, y1) = (LLVMBuildAnd(b, yl, m32, n), LLVMBuildLShr(b, yl, k(32), n));
            let p00 = LLVMBuildMul(b, x0, y0, n);
            let p01 = LLVMBuildMul(b, x0, y1, n);
            let p10 = LLVMBuildMul(b, x1, y0, n);
            let p11 = LLVMBuildMul(b, x1, y1, n);
            let mid = LLVMBuildLShr(b, p00, k(32), n);
            let mid = LLVMBuildAdd(b, mid, LLVMBuildAnd(b, p01, m32, n), n);
            let mid = LLVMBuildAdd(b, mid, LLVMBuildAnd(b, p10, m32, n), n);
            let high = LLVMBuildAdd(b, p11, LLVMBuildLShr(b, p01, k(32), n), n);
            let high = LLVMBuildAdd(b, high, LLVMBuildLShr(b, p10, k(32), n), n);
            let high = LLVMBuildAdd(b, high, LLVMBuildLShr(b, mid, k(32), n), n);
            let high = self.resize(high, hty, false);
            let cross1 = LLVMBuildMul(b, self.resize(xl, hty, false), yh, n);
            let cross2 = LLVMBuildMul(b, xh, self.resize(yl, hty, false), n);
            let hi = LLVMBuildAdd(b, high, cross1, n);
            Words(vec![lo, LLVMBuildAdd(b, hi, cross2, n)])
        }
    }

    /// A comparison: equality word by word; an order decided by the highest word that differs
    /// (the top word signed or not, the others unsigned).
    unsafe fn compare(&self, pred: P, x: &Words, y: &Words) -> LLVMValueRef {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let pairs = x.0.iter().zip(&y.0);
            match pred {
                P::LLVMIntEQ | P::LLVMIntNE => {
                    let join: BuildBinary = if pred == P::LLVMIntEQ {
                        LLVMBuildAnd
                    } else {
                        LLVMBuildOr
                    };
                    pairs
                        .map(|(&p, &q)| LLVMBuildICmp(b, pred, p, q, n))
                        .reduce(|a, c| join(b, a, c, n))
                        .expect("words")
                }
                _ => {
                    // (strict on the top word, strict on the others, the lowest word's own)
                    let (top, mid, low) = match pred {
                        P::LLVMIntULT => (P::LLVMIntULT, P::LLVMIntULT, P::LLVMIntULT),
                        P::LLVMIntULE => (P::LLVMIntULT, P::LLVMIntULT, P::LLVMIntULE),
                        P::LLVMIntUGT => (P::LLVMIntUGT, P::LLVMIntUGT, P::LLVMIntUGT),
                        P::LLVMIntUGE => (P::LLVMIntUGT, P::LLVMIntUGT, P::LLVMIntUGE),
                        P::LLVMIntSLT => (P::LLVMIntSLT, P::LLVMIntULT, P::LLVMIntULT),
                        P::LLVMIntSLE => (P::LLVMIntSLT, P::LLVMIntULT, P::LLVMIntULE),
                        P::LLVMIntSGT => (P::LLVMIntSGT, P::LLVMIntUGT, P::LLVMIntUGT),
                        _ => (P::LLVMIntSGT, P::LLVMIntUGT, P::LLVMIntUGE),
                    };
                    let last = x.0.len() - 1;
                    let mut acc = LLVMBuildICmp(b, low, x.0[0], y.0[0], n);
                    for k in 1..=last {
                        let strict = if k == last { top } else { mid };
                        let s = LLVMBuildICmp(b, strict, x.0[k], y.0[k], n);
                        let tie = LLVMBuildICmp(b, P::LLVMIntEQ, x.0[k], y.0[k], n);
                        let rest = LLVMBuildAnd(b, tie, acc, n);
                        acc = LLVMBuildOr(b, s, rest, n);
                    }
                    acc
                }
            }
        }
    }
}
