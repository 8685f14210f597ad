//! Integers of 65 to 128 bits, split into two words before lowering (as LLVM's type
//! legalization does for a 64-bit target): each such value becomes a low `i64` and a high
//! `i(W-64)`, and each operation on it a few operations on the words. Cairn's IR, interpreter,
//! symbolic shadow and model checker then see only integers of at most 64 bits.
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

/// Width of `ty` if it is an integer of 65..=128 bits.
unsafe fn wide_width(ty: LLVMTypeRef) -> Option<u32> {
    unsafe {
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMIntegerTypeKind {
            return None;
        }
        let w = LLVMGetIntTypeWidth(ty);
        (65..=128).contains(&w).then_some(w)
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
                | Op::LLVMMul
                | Op::LLVMShl
                | Op::LLVMLShr
                | Op::LLVMAShr
                | Op::LLVMICmp
                | Op::LLVMTrunc
                | Op::LLVMZExt
                | Op::LLVMSExt
                | Op::LLVMPHI
                | Op::LLVMFreeze => true,
                Op::LLVMSelect => !is_wide(LLVMGetOperand(i, 0)),
                // The seed of a wide local (normalize.rs), split into two seeds.
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

/// A wide value as two words: `lo` (`i64`) and `hi` (`i(W-64)`).
#[derive(Clone, Copy)]
struct Pair {
    lo: LLVMValueRef,
    hi: LLVMValueRef,
}

struct Splitter {
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    b: LLVMBuilderRef,
    i64t: LLVMTypeRef,
    split: HashMap<LLVMValueRef, Pair>,
}

const NO_NAME: &std::ffi::CStr = c"";

type BuildBinary = unsafe extern "C" fn(
    LLVMBuilderRef,
    LLVMValueRef,
    LLVMValueRef,
    *const libc::c_char,
) -> LLVMValueRef;

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

    /// The high word's type of a wide value of type `ty`.
    unsafe fn hi_ty(&self, ty: LLVMTypeRef) -> LLVMTypeRef {
        unsafe { self.int(wide_width(ty).expect("wide type") - 64) }
    }

    /// The words of a wide operand: already split, or a constant, or undef.
    unsafe fn words(&self, v: LLVMValueRef) -> Pair {
        unsafe {
            if let Some(p) = self.split.get(&v) {
                return *p;
            }
            let hty = self.hi_ty(LLVMTypeOf(v));
            if !LLVMIsAConstantInt(v).is_null() {
                // The C API reads at most 64 bits of a constant; its printed form has them all.
                let text = LLVMPrintValueToString(v);
                let s = std::ffi::CStr::from_ptr(text)
                    .to_string_lossy()
                    .into_owned();
                LLVMDisposeMessage(text);
                let digits = s.split_whitespace().last().unwrap_or("0");
                let n: u128 = match digits {
                    "true" => 1,
                    "false" => 0,
                    d => d
                        .parse::<i128>()
                        .map(|x| x as u128)
                        .or_else(|_| d.parse::<u128>())
                        .unwrap_or(0),
                };
                return Pair {
                    lo: self.konst(self.i64t, n as u64),
                    hi: self.konst(hty, (n >> 64) as u64),
                };
            }
            // Undef, poison, or a value only unreachable code defines.
            Pair {
                lo: LLVMGetUndef(self.i64t),
                hi: LLVMGetUndef(hty),
            }
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
                let p = self.split[&phi];
                for k in 0..LLVMCountIncoming(phi) {
                    let w = self.words(LLVMGetIncomingValue(phi, k));
                    let mut from = LLVMGetIncomingBlock(phi, k);
                    LLVMAddIncoming(p.lo, &mut { w.lo }, &mut from, 1);
                    LLVMAddIncoming(p.hi, &mut { w.hi }, &mut from, 1);
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
            let wide = match LLVMGetInstructionOpcode(i) {
                Op::LLVMLoad => {
                    let addr = op(0);
                    let hty = self.hi_ty(ty);
                    let (lo_addr, hi_addr) = self.word_addresses(addr);
                    let lo = LLVMBuildLoad2(b, self.i64t, lo_addr, n);
                    let hi = LLVMBuildLoad2(b, hty, hi_addr, n);
                    self.copy_access(i, &[lo, hi]);
                    Some(Pair { lo, hi })
                }
                Op::LLVMStore => {
                    let v = self.words(op(0));
                    let (lo_addr, hi_addr) = self.word_addresses(op(1));
                    let lo = LLVMBuildStore(b, v.lo, lo_addr);
                    let hi = LLVMBuildStore(b, v.hi, hi_addr);
                    self.copy_access(i, &[lo, hi]);
                    None
                }
                Op::LLVMAnd | Op::LLVMOr | Op::LLVMXor => {
                    let (x, y) = (self.words(op(0)), self.words(op(1)));
                    let build: BuildBinary = match LLVMGetInstructionOpcode(i) {
                        Op::LLVMAnd => LLVMBuildAnd,
                        Op::LLVMOr => LLVMBuildOr,
                        _ => LLVMBuildXor,
                    };
                    Some(Pair {
                        lo: build(b, x.lo, y.lo, n),
                        hi: build(b, x.hi, y.hi, n),
                    })
                }
                Op::LLVMAdd => {
                    let (x, y) = (self.words(op(0)), self.words(op(1)));
                    let hty = self.hi_ty(ty);
                    let lo = LLVMBuildAdd(b, x.lo, y.lo, n);
                    let carry = LLVMBuildICmp(b, P::LLVMIntULT, lo, x.lo, n);
                    let carry = LLVMBuildZExt(b, carry, hty, n);
                    let hi = LLVMBuildAdd(b, x.hi, y.hi, n);
                    Some(Pair {
                        lo,
                        hi: LLVMBuildAdd(b, hi, carry, n),
                    })
                }
                Op::LLVMSub => {
                    let (x, y) = (self.words(op(0)), self.words(op(1)));
                    let hty = self.hi_ty(ty);
                    let borrow = LLVMBuildICmp(b, P::LLVMIntULT, x.lo, y.lo, n);
                    let borrow = LLVMBuildZExt(b, borrow, hty, n);
                    let hi = LLVMBuildSub(b, x.hi, y.hi, n);
                    Some(Pair {
                        lo: LLVMBuildSub(b, x.lo, y.lo, n),
                        hi: LLVMBuildSub(b, hi, borrow, n),
                    })
                }
                Op::LLVMMul => Some(self.mul(ty, self.words(op(0)), self.words(op(1)))),
                kind @ (Op::LLVMShl | Op::LLVMLShr | Op::LLVMAShr) => {
                    let x = self.words(op(0));
                    Some(if LLVMIsAConstantInt(op(1)).is_null() {
                        self.variable_shift(kind, ty, x, self.words(op(1)).lo)
                    } else {
                        self.shift(kind, ty, x, LLVMConstIntGetZExtValue(op(1)) as u32)
                    })
                }
                Op::LLVMICmp => {
                    let r = self.compare(
                        LLVMGetICmpPredicate(i),
                        self.words(op(0)),
                        self.words(op(1)),
                    );
                    LLVMReplaceAllUsesWith(i, r);
                    None
                }
                Op::LLVMTrunc => {
                    let x = self.words(op(0));
                    match wide_width(ty) {
                        Some(_) => Some(Pair {
                            lo: x.lo,
                            hi: self.resize(x.hi, self.hi_ty(ty), false),
                        }),
                        None => {
                            LLVMReplaceAllUsesWith(i, self.resize(x.lo, ty, false));
                            None
                        }
                    }
                }
                Op::LLVMZExt | Op::LLVMSExt => {
                    let signed = LLVMGetInstructionOpcode(i) == Op::LLVMSExt;
                    let hty = self.hi_ty(ty);
                    let src = op(0);
                    if is_wide(src) {
                        let x = self.words(src);
                        Some(Pair {
                            lo: x.lo,
                            hi: self.resize(x.hi, hty, signed),
                        })
                    } else {
                        let lo = self.resize(src, self.i64t, signed);
                        let hi = if signed {
                            let sign = LLVMBuildAShr(b, lo, self.konst(self.i64t, 63), n);
                            self.resize(sign, hty, true)
                        } else {
                            self.konst(hty, 0)
                        };
                        Some(Pair { lo, hi })
                    }
                }
                Op::LLVMSelect => {
                    let (x, y) = (self.words(op(1)), self.words(op(2)));
                    Some(Pair {
                        lo: LLVMBuildSelect(b, op(0), x.lo, y.lo, n),
                        hi: LLVMBuildSelect(b, op(0), x.hi, y.hi, n),
                    })
                }
                Op::LLVMPHI => Some(Pair {
                    lo: LLVMBuildPhi(b, self.i64t, n),
                    hi: LLVMBuildPhi(b, self.hi_ty(ty), n),
                }),
                Op::LLVMFreeze => Some(self.words(op(0))),
                Op::LLVMCall => {
                    let hty = self.hi_ty(ty);
                    Some(Pair {
                        lo: self.seed(self.i64t),
                        hi: self.seed(hty),
                    })
                }
                other => unreachable!("checked by `splittable`: {other:?}"),
            };
            if let Some(p) = wide {
                self.split.insert(i, p);
            }
        }
    }

    /// The addresses of a wide value's words in memory (little-endian: low word first).
    unsafe fn word_addresses(&self, addr: LLVMValueRef) -> (LLVMValueRef, LLVMValueRef) {
        unsafe {
            let i8t = self.int(8);
            let mut idx = [self.konst(self.i64t, 8)];
            let hi = LLVMBuildGEP2(self.b, i8t, addr, idx.as_mut_ptr(), 1, NO_NAME.as_ptr());
            (addr, hi)
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

    /// Shifts by a variable amount: a barrel shifter, one stage per bit of the amount, each
    /// stage a constant shift taken or not (an amount of W or more is poison in LLVM).
    unsafe fn variable_shift(&self, kind: Op, ty: LLVMTypeRef, x: Pair, amount: LLVMValueRef) -> Pair {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let mut v = x;
            for bit in 0..7 {
                let set = LLVMBuildAnd(b, amount, self.konst(self.i64t, 1 << bit), n);
                let set = LLVMBuildICmp(b, P::LLVMIntNE, set, self.konst(self.i64t, 0), n);
                let shifted = self.shift(kind, ty, v, 1 << bit);
                v = Pair {
                    lo: LLVMBuildSelect(b, set, shifted.lo, v.lo, n),
                    hi: LLVMBuildSelect(b, set, shifted.hi, v.hi, n),
                };
            }
            v
        }
    }

    /// Shifts by a constant `c` (< W; LLVM makes larger shifts poison, so any value does).
    unsafe fn shift(&self, kind: Op, ty: LLVMTypeRef, x: Pair, c: u32) -> Pair {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let hty = self.hi_ty(ty);
            let h = LLVMGetIntTypeWidth(hty);
            let w = h + 64;
            if c == 0 || c >= w {
                return x;
            }
            let k64 = |v: u32| self.konst(self.i64t, v as u64);
            let kh = |v: u32| self.konst(hty, v as u64);
            match kind {
                Op::LLVMShl if c < 64 => {
                    let lo = LLVMBuildShl(b, x.lo, k64(c), n);
                    let carried = LLVMBuildLShr(b, x.lo, k64(64 - c), n);
                    let carried = self.resize(carried, hty, false);
                    let hi = if c < h {
                        let moved = LLVMBuildShl(b, x.hi, kh(c), n);
                        LLVMBuildOr(b, moved, carried, n)
                    } else {
                        carried
                    };
                    Pair { lo, hi }
                }
                Op::LLVMShl => {
                    let moved = LLVMBuildShl(b, x.lo, k64(c - 64), n);
                    Pair {
                        lo: k64(0),
                        hi: self.resize(moved, hty, false),
                    }
                }
                Op::LLVMLShr | Op::LLVMAShr => {
                    let signed = kind == Op::LLVMAShr;
                    let shr: BuildBinary = if signed { LLVMBuildAShr } else { LLVMBuildLShr };
                    // The high word shifted by `s` (at most its width less one when signed:
                    // what is left is copies of the sign).
                    let hi_shifted = |s: u32| {
                        if s < h {
                            shr(b, x.hi, kh(s), n)
                        } else if signed {
                            shr(b, x.hi, kh(h - 1), n)
                        } else {
                            kh(0)
                        }
                    };
                    if c < 64 {
                        let low = LLVMBuildLShr(b, x.lo, k64(c), n);
                        let up = self.resize(x.hi, self.i64t, signed);
                        let up = LLVMBuildShl(b, up, k64(64 - c), n);
                        Pair {
                            lo: LLVMBuildOr(b, low, up, n),
                            hi: hi_shifted(c),
                        }
                    } else {
                        let down = shr(b, x.hi, kh(c - 64), n);
                        Pair {
                            lo: self.resize(down, self.i64t, signed),
                            hi: hi_shifted(h),
                        }
                    }
                }
                _ => unreachable!(),
            }
        }
    }

    /// The product's low W bits: the full 128-bit product of the low words, plus the cross
    /// products of low and high words (their high halves fall beyond W).
    unsafe fn mul(&self, ty: LLVMTypeRef, x: Pair, y: Pair) -> Pair {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            let hty = self.hi_ty(ty);
            let k = |v: u64| self.konst(self.i64t, v);
            let lo = LLVMBuildMul(b, x.lo, y.lo, n);
            // High 64 bits of x.lo * y.lo from 32-bit halves.
            let m32 = k(0xffff_ffff);
            let (x0, x1) = (
                LLVMBuildAnd(b, x.lo, m32, n),
                LLVMBuildLShr(b, x.lo, k(32), n),
            );
            let (y0, y1) = (
                LLVMBuildAnd(b, y.lo, m32, n),
                LLVMBuildLShr(b, y.lo, k(32), n),
            );
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
            let cross1 = LLVMBuildMul(b, self.resize(x.lo, hty, false), y.hi, n);
            let cross2 = LLVMBuildMul(b, x.hi, self.resize(y.lo, hty, false), n);
            let hi = LLVMBuildAdd(b, high, cross1, n);
            Pair {
                lo,
                hi: LLVMBuildAdd(b, hi, cross2, n),
            }
        }
    }

    /// A comparison: equality word by word; an order by the high words (signed or not), the
    /// low words (unsigned) deciding when the high words are equal.
    unsafe fn compare(&self, pred: P, x: Pair, y: Pair) -> LLVMValueRef {
        unsafe {
            let b = self.b;
            let n = NO_NAME.as_ptr();
            match pred {
                P::LLVMIntEQ | P::LLVMIntNE => {
                    let lo = LLVMBuildICmp(b, pred, x.lo, y.lo, n);
                    let hi = LLVMBuildICmp(b, pred, x.hi, y.hi, n);
                    if pred == P::LLVMIntEQ {
                        LLVMBuildAnd(b, lo, hi, n)
                    } else {
                        LLVMBuildOr(b, lo, hi, n)
                    }
                }
                _ => {
                    let (strict, low) = match pred {
                        P::LLVMIntULT => (P::LLVMIntULT, P::LLVMIntULT),
                        P::LLVMIntULE => (P::LLVMIntULT, P::LLVMIntULE),
                        P::LLVMIntUGT => (P::LLVMIntUGT, P::LLVMIntUGT),
                        P::LLVMIntUGE => (P::LLVMIntUGT, P::LLVMIntUGE),
                        P::LLVMIntSLT => (P::LLVMIntSLT, P::LLVMIntULT),
                        P::LLVMIntSLE => (P::LLVMIntSLT, P::LLVMIntULE),
                        P::LLVMIntSGT => (P::LLVMIntSGT, P::LLVMIntUGT),
                        _ => (P::LLVMIntSGT, P::LLVMIntUGE),
                    };
                    let hi = LLVMBuildICmp(b, strict, x.hi, y.hi, n);
                    let tie = LLVMBuildICmp(b, P::LLVMIntEQ, x.hi, y.hi, n);
                    let lo = LLVMBuildICmp(b, low, x.lo, y.lo, n);
                    let lo = LLVMBuildAnd(b, tie, lo, n);
                    LLVMBuildOr(b, hi, lo, n)
                }
            }
        }
    }
}
