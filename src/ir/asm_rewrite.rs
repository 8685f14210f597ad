//! Rewrites the inline assembly statements `asm_models` recognises, and the intrinsics that
//! read the time-stamp counter, into plain code: calls of
//! the runtime's models (`__cairn_asm_*` in `cairn_runtime.c`, which do every memory access)
//! and integer arithmetic on their results. Each statement is one call replaced by a call and
//! casts in the same block, so the blocks stay the native build's (`probes`).

use super::asm_models::{
    Arith, CounterPart, Flag, FlagRead, Idiom, Op, Operand, operands, recognize,
};
use llvm_sys::LLVMIntPredicate;
use llvm_sys::LLVMTypeKind;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use std::ffi::CString;

/// The runtime's models, in `MODELS`' order.
#[derive(Clone, Copy)]
enum Model {
    Scan,
    Bit,
    ReadModifyWrite,
    Exchange,
    CompareExchange,
    ByteSwap,
    Store,
    CpuId,
    TimeStampCounter,
}

const MODELS: [&str; 9] = [
    "__cairn_asm_scan",
    "__cairn_asm_bit",
    "__cairn_asm_rmw",
    "__cairn_asm_xchg",
    "__cairn_asm_cmpxchg",
    "__cairn_asm_bswap",
    "__cairn_asm_store",
    "__cairn_asm_cpuid",
    "__cairn_asm_rdtsc",
];

/// Rewrites every inline assembly statement of `m` that is an idiom when the runtime's models
/// are in `m` (not in a native build); returns how many.
///
/// # Safety
/// `ctx` and `m` must be a live LLVM context and a module created in it.
pub unsafe fn model_inline_asm(ctx: LLVMContextRef, m: LLVMModuleRef) -> usize {
    unsafe {
        let mut models = [std::ptr::null_mut(); MODELS.len()];
        for (f, name) in models.iter_mut().zip(MODELS) {
            let c = CString::new(name).unwrap();
            *f = LLVMGetNamedFunction(m, c.as_ptr());
            if f.is_null() {
                return 0;
            }
        }
        let layout = llvm_sys::target::LLVMGetModuleDataLayout(m);
        let pointer_bits = llvm_sys::target::LLVMPointerSize(layout) * 8;
        let (mut calls, mut counter_reads) = (vec![], vec![]);
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    if !LLVMIsACallInst(i).is_null()
                        && !LLVMIsAInlineAsm(LLVMGetCalledValue(i)).is_null()
                    {
                        calls.push(i);
                    } else if !LLVMIsACallInst(i).is_null() && reads_counter(i) {
                        counter_reads.push(i);
                    }
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            f = LLVMGetNextFunction(f);
        }
        let builder = LLVMCreateBuilderInContext(ctx);
        let mut n = 0;
        let text = |s: *const libc::c_char, len: usize| {
            String::from_utf8_lossy(std::slice::from_raw_parts(s as *const u8, len)).into_owned()
        };
        for call in calls {
            let asm = LLVMGetCalledValue(call);
            let mut len = 0;
            let s = LLVMGetInlineAsmAsmString(asm, &mut len);
            let asm_text = text(s, len);
            let s = LLVMGetInlineAsmConstraintString(asm, &mut len);
            let ops = operands(&text(s, len));
            let Some(idiom) = recognize(&asm_text, &ops) else {
                continue;
            };
            let Some(stmt) = Statement::of(call, &ops, &idiom) else {
                continue;
            };
            let r = Rewrite {
                ctx,
                b: builder,
                models,
                stmt: &stmt,
                pointer_bits,
            };
            r.replace(&idiom);
            n += 1;
        }
        for call in counter_reads {
            LLVMPositionBuilderBefore(builder, call);
            let f = models[Model::TimeStampCounter as usize];
            let ty = LLVMGlobalGetValueType(f);
            let tsc = LLVMBuildCall2(builder, ty, f, std::ptr::null_mut(), 0, c"".as_ptr());
            // `rdtscp`'s { counter, processor number }.
            let value = match LLVMGetTypeKind(LLVMTypeOf(call)) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let agg = LLVMGetUndef(LLVMTypeOf(call));
                    let agg = LLVMBuildInsertValue(builder, agg, tsc, 0, c"".as_ptr());
                    let zero = LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0);
                    LLVMBuildInsertValue(builder, agg, zero, 1, c"".as_ptr())
                }
                _ => tsc,
            };
            LLVMReplaceAllUsesWith(call, value);
            LLVMInstructionEraseFromParent(call);
            n += 1;
        }
        LLVMDisposeBuilder(builder);
        n
    }
}

/// A call of an intrinsic that reads the time-stamp counter (`__rdtsc()`, `__rdtscp(&p)`,
/// `__builtin_readcyclecounter()`).
unsafe fn reads_counter(call: LLVMValueRef) -> bool {
    unsafe {
        let f = LLVMGetCalledValue(call);
        if LLVMIsAFunction(f).is_null() {
            return false;
        }
        let mut len = 0;
        let name = LLVMGetValueName2(f, &mut len);
        let name = std::slice::from_raw_parts(name as *const u8, len);
        matches!(
            name,
            b"llvm.x86.rdtsc" | b"llvm.x86.rdtscp" | b"llvm.readcyclecounter"
        )
    }
}

/// A call of an inline assembly statement, its operands resolved to the call's values.
struct Statement<'o> {
    call: LLVMValueRef,
    ops: &'o [Operand],
    /// Per operand: the argument (inputs and memory outputs) or the direct output's index.
    slots: Vec<Slot>,
    /// The statement's result fields (none, one, or a struct's), all integers.
    fields: Vec<LLVMTypeRef>,
    /// The operation's width in bits.
    width: u32,
    /// The input holding the memory operand's address (`($N)`).
    address_in: Option<usize>,
}

#[derive(Clone, Copy)]
enum Slot {
    Result(usize),
    Arg(u32),
}

impl<'o> Statement<'o> {
    /// The statement, when its operands are of the kinds `idiom` reads and every direct output
    /// gets a value; None (nothing is changed) otherwise.
    unsafe fn of(call: LLVMValueRef, ops: &'o [Operand], idiom: &Idiom) -> Option<Self> {
        unsafe {
            let (mut results, mut args) = (0, 0);
            let slots: Vec<Slot> = ops
                .iter()
                .map(|o| {
                    if o.output && !o.indirect {
                        results += 1;
                        Slot::Result(results - 1)
                    } else {
                        args += 1;
                        Slot::Arg(args - 1)
                    }
                })
                .collect();
            if args != LLVMGetNumArgOperands(call) {
                return None;
            }
            let ty = LLVMTypeOf(call);
            let fields: Vec<LLVMTypeRef> = match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMVoidTypeKind => vec![],
                LLVMTypeKind::LLVMIntegerTypeKind => vec![ty],
                LLVMTypeKind::LLVMStructTypeKind => {
                    let n = LLVMCountStructElementTypes(ty) as usize;
                    let mut fields = vec![std::ptr::null_mut(); n];
                    LLVMGetStructElementTypes(ty, fields.as_mut_ptr());
                    fields
                }
                _ => return None,
            };
            if fields.len() != results || fields.iter().any(|&t| !is_int_type(t)) {
                return None;
            }
            let mut s = Statement {
                call,
                ops,
                slots,
                fields,
                width: 0,
                address_in: idiom.address_in,
            };
            // Outputs the operation writes, then the flag reads.
            let mut written: Vec<usize> = vec![];
            let register_width = match &idiom.op {
                Op::Nothing => Some(64),
                Op::Scan {
                    src, dst, if_zero, ..
                } => {
                    let tied = ops.iter().position(|o| o.tied_to == Some(*dst));
                    let default = if_zero.or(tied);
                    if s.value(*src).is_none() || default.is_some_and(|d| s.value(d).is_none()) {
                        return None;
                    }
                    written.push(*dst);
                    s.value(*src).map(|v| LLVMGetIntTypeWidth(LLVMTypeOf(v)))
                }
                Op::BitTest { op, bit, base } => {
                    let on_register = s.value(*base).is_some()
                        && !ops[*base].output
                        && *op == super::asm_models::BitOp::Test;
                    if s.value(*bit).is_none() || !(s.pointer(*base).is_some() || on_register) {
                        return None;
                    }
                    s.value(*bit).map(|v| LLVMGetIntTypeWidth(LLVMTypeOf(v)))
                }
                Op::ReadModifyWrite { src, mem, .. } => {
                    s.pointer(*mem)?;
                    match src {
                        Some(x) => Some(LLVMGetIntTypeWidth(LLVMTypeOf(s.value(*x)?))),
                        None => idiom.width,
                    }
                }
                Op::ExchangeAdd { reg, mem } | Op::Exchange { reg, mem } => {
                    s.pointer(*mem)?;
                    written.push(*reg);
                    Some(LLVMGetIntTypeWidth(LLVMTypeOf(s.value(*reg)?)))
                }
                Op::CompareExchange { new, mem } => {
                    s.pointer(*mem)?;
                    let acc = ops.iter().position(|o| o.accumulator() && o.output)?;
                    s.value(acc)?;
                    written.push(acc);
                    Some(LLVMGetIntTypeWidth(LLVMTypeOf(s.value(*new)?)))
                }
                Op::ByteSwap { reg } => {
                    written.push(*reg);
                    Some(LLVMGetIntTypeWidth(LLVMTypeOf(s.value(*reg)?)))
                }
                Op::CpuId {
                    leaf,
                    subleaf,
                    outputs,
                } => {
                    s.value(*leaf)?;
                    if subleaf.is_some_and(|c| s.value(c).is_none()) {
                        return None;
                    }
                    written.extend(outputs);
                    Some(32)
                }
                Op::TimeStampCounter { parts } => {
                    written.extend(parts.iter().map(|&(n, _)| n));
                    Some(64)
                }
            };
            s.width = idiom.width.or(register_width)?;
            if !matches!(s.width, 8 | 16 | 32 | 64) {
                return None;
            }
            // A flag read into memory (`setcc` of a `=*qm` byte) is a store, not an output.
            written.extend(
                idiom
                    .reads
                    .iter()
                    .map(|&(n, _)| n)
                    .filter(|&n| s.pointer(n).is_none()),
            );
            let mut indices: Vec<usize> = written
                .iter()
                .map(|&n| s.result(n))
                .collect::<Option<_>>()?;
            indices.sort();
            if indices != (0..results).collect::<Vec<_>>() {
                return None;
            }
            Some(s)
        }
    }

    /// The integer value operand `n` reads: an input's argument, or an output's tied input.
    unsafe fn value(&self, n: usize) -> Option<LLVMValueRef> {
        unsafe {
            let o = self.ops.get(n)?;
            if o.indirect {
                return None;
            }
            let arg = match self.slots[n] {
                Slot::Arg(a) => a,
                Slot::Result(_) => {
                    let tied = self.ops.iter().position(|i| i.tied_to == Some(n))?;
                    match self.slots[tied] {
                        Slot::Arg(a) => a,
                        Slot::Result(_) => return None,
                    }
                }
            };
            let v = LLVMGetOperand(self.call, arg);
            is_int_type(LLVMTypeOf(v)).then_some(v)
        }
    }

    /// The address a memory operand names.
    unsafe fn pointer(&self, n: usize) -> Option<LLVMValueRef> {
        unsafe {
            let through = self.address_in == Some(n);
            match (self.ops.get(n)?.indirect || through, self.slots[n]) {
                (true, Slot::Arg(a)) => {
                    let p = LLVMGetOperand(self.call, a);
                    let kind = LLVMGetTypeKind(LLVMTypeOf(p));
                    (kind == LLVMTypeKind::LLVMPointerTypeKind).then_some(p)
                }
                _ => None,
            }
        }
    }

    fn result(&self, n: usize) -> Option<usize> {
        match self.slots.get(n)? {
            Slot::Result(r) => Some(*r),
            Slot::Arg(_) => None,
        }
    }
}

struct Rewrite<'s, 'o> {
    ctx: LLVMContextRef,
    b: LLVMBuilderRef,
    models: [LLVMValueRef; MODELS.len()],
    stmt: &'s Statement<'o>,
    /// `=A` is edx:eax only on a 32-bit target.
    pointer_bits: u32,
}

/// The flags an operation left, as `i1` values.
#[derive(Default)]
struct Flags {
    carry: Option<LLVMValueRef>,
    zero: Option<LLVMValueRef>,
    sign: Option<LLVMValueRef>,
}

impl Rewrite<'_, '_> {
    /// Builds the idiom's code before the call (checked by `Statement::of`) and replaces it.
    unsafe fn replace(&self, idiom: &Idiom) {
        unsafe {
            let s = self.stmt;
            LLVMPositionBuilderBefore(self.b, s.call);
            let mut outputs: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); s.fields.len()];
            // Through the runtime, so the block's stores stay the native build's.
            let mut set = |n: usize, v: LLVMValueRef| match (s.result(n), s.pointer(n)) {
                (Some(r), _) => outputs[r] = v,
                (None, Some(p)) => {
                    let v = self.int_cast(v, self.i64(), false);
                    self.call(Model::Store, &[p, self.i32(1), v]);
                }
                (None, None) => {}
            };
            let flags = self.operation(&idiom.op, &mut set);
            for &(n, read) in &idiom.reads {
                let v = match read {
                    FlagRead::Is { flag, set: true } => self.flag(&flags, flag),
                    FlagRead::Is { flag, set: false } => {
                        LLVMBuildNot(self.b, self.flag(&flags, flag), c"".as_ptr())
                    }
                    FlagRead::AllOnesOnCarry => {
                        let c = self.flag(&flags, Flag::Carry);
                        LLVMBuildSExt(self.b, c, self.i64(), c"".as_ptr())
                    }
                };
                set(n, v);
            }
            let ty = LLVMTypeOf(s.call);
            let replacement = match s.fields.as_slice() {
                [] => None,
                [t] if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind => {
                    Some(self.cast(outputs[0], *t))
                }
                fields => {
                    let mut agg = LLVMGetUndef(ty);
                    for (k, (v, t)) in outputs.iter().zip(fields).enumerate() {
                        let v = self.cast(*v, *t);
                        agg = LLVMBuildInsertValue(self.b, agg, v, k as u32, c"".as_ptr());
                    }
                    Some(agg)
                }
            };
            if let Some(v) = replacement {
                LLVMReplaceAllUsesWith(s.call, v);
            }
            LLVMInstructionEraseFromParent(s.call);
        }
    }

    /// The operation's code; the outputs it writes through `set`; the flags it leaves.
    unsafe fn operation(&self, op: &Op, set: &mut dyn FnMut(usize, LLVMValueRef)) -> Flags {
        unsafe {
            let s = self.stmt;
            let b = self.b;
            let w = s.width;
            let bytes = self.i32(w as u64 / 8);
            let mask = self.c64(if w == 64 { u64::MAX } else { (1 << w) - 1 });
            // Operand `n`'s value at the operation's width, zero-extended to 64 bits.
            let value = |n: usize| {
                let v = s.value(n).unwrap();
                let narrow = self.int_cast(v, LLVMIntTypeInContext(self.ctx, w), false);
                self.int_cast(narrow, self.i64(), false)
            };
            let eq = |a, b_| LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntEQ, a, b_, c"".as_ptr());
            let ult = |a, b_| LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntULT, a, b_, c"".as_ptr());
            let sign_of = |v| {
                let top = LLVMBuildLShr(b, v, self.c64(w as u64 - 1), c"".as_ptr());
                LLVMBuildTrunc(b, top, LLVMInt1TypeInContext(self.ctx), c"".as_ptr())
            };
            let mut flags = Flags::default();
            match op {
                Op::Nothing => {}
                Op::Scan {
                    highest,
                    src,
                    dst,
                    if_zero,
                } => {
                    let x = value(*src);
                    let tied = s.ops.iter().position(|o| o.tied_to == Some(*dst));
                    let default = if_zero.or(tied);
                    let args = [
                        x,
                        self.i32(*highest as u64),
                        self.i32(default.is_some() as u64),
                        default.map_or(self.c64(0), value),
                    ];
                    set(*dst, self.call(Model::Scan, &args));
                    flags.zero = Some(eq(x, self.c64(0)));
                }
                Op::BitTest { op, bit, base } => {
                    let nr = s.value(*bit).unwrap();
                    // An immediate offset counts modulo the width; a register one is signed.
                    let nr = if s.ops[*bit].immediate
                        && !LLVMIsAConstantInt(nr).is_null()
                        && LLVMConstIntGetZExtValue(nr) < 256
                    {
                        self.c64(LLVMConstIntGetZExtValue(nr) % w as u64)
                    } else {
                        let narrow = self.int_cast(nr, LLVMIntTypeInContext(self.ctx, w), false);
                        self.int_cast(narrow, self.i64(), true)
                    };
                    let old = match s.pointer(*base) {
                        Some(p) => {
                            let old = self.call(Model::Bit, &[p, nr, self.i32(*op as u64)]);
                            self.int_cast(old, self.i64(), false)
                        }
                        None => {
                            let at = LLVMBuildAnd(b, nr, self.c64(w as u64 - 1), c"".as_ptr());
                            LLVMBuildLShr(b, value(*base), at, c"".as_ptr())
                        }
                    };
                    let one = LLVMBuildAnd(b, old, self.c64(1), c"".as_ptr());
                    flags.carry = Some(LLVMBuildTrunc(
                        b,
                        one,
                        LLVMInt1TypeInContext(self.ctx),
                        c"".as_ptr(),
                    ));
                }
                Op::ReadModifyWrite { op, src, mem } => {
                    let x = src.map_or(self.c64(0), value);
                    let args = [s.pointer(*mem).unwrap(), bytes, self.i32(*op as u64), x];
                    let new = self.call(Model::ReadModifyWrite, &args);
                    flags.zero = Some(eq(new, self.c64(0)));
                    flags.sign = Some(sign_of(new));
                    flags.carry = match op {
                        Arith::Add => Some(ult(new, x)),
                        Arith::Sub => {
                            let old = LLVMBuildAdd(b, new, x, c"".as_ptr());
                            let old = LLVMBuildAnd(b, old, mask, c"".as_ptr());
                            Some(ult(old, x))
                        }
                        Arith::And | Arith::Or | Arith::Xor => {
                            Some(LLVMConstInt(LLVMInt1TypeInContext(self.ctx), 0, 0))
                        }
                        Arith::Inc | Arith::Dec => None,
                    };
                }
                Op::ExchangeAdd { reg, mem } => {
                    let x = value(*reg);
                    let args = [
                        s.pointer(*mem).unwrap(),
                        bytes,
                        self.i32(Arith::Add as u64),
                        x,
                    ];
                    let new = self.call(Model::ReadModifyWrite, &args);
                    let old = LLVMBuildSub(b, new, x, c"".as_ptr());
                    set(*reg, LLVMBuildAnd(b, old, mask, c"".as_ptr()));
                    flags.zero = Some(eq(new, self.c64(0)));
                    flags.sign = Some(sign_of(new));
                    flags.carry = Some(ult(new, x));
                }
                Op::Exchange { reg, mem } => {
                    let args = [s.pointer(*mem).unwrap(), bytes, value(*reg)];
                    set(*reg, self.call(Model::Exchange, &args));
                }
                Op::CompareExchange { new, mem } => {
                    let acc = s
                        .ops
                        .iter()
                        .position(|o| o.accumulator() && o.output)
                        .unwrap();
                    let expected = value(acc);
                    let args = [s.pointer(*mem).unwrap(), bytes, expected, value(*new)];
                    let old = self.call(Model::CompareExchange, &args);
                    set(acc, old);
                    flags.zero = Some(eq(old, expected));
                }
                Op::CpuId {
                    leaf,
                    subleaf,
                    outputs,
                } => {
                    let sub = subleaf.map_or(self.c64(0), value);
                    for (k, &out) in outputs.iter().enumerate() {
                        let args = [value(*leaf), sub, self.i32(k as u64)];
                        set(out, self.call(Model::CpuId, &args));
                    }
                }
                Op::ByteSwap { reg } => {
                    set(*reg, self.call(Model::ByteSwap, &[value(*reg), bytes]));
                }
                Op::TimeStampCounter { parts } => {
                    let tsc = self.call(Model::TimeStampCounter, &[]);
                    let low = LLVMBuildAnd(b, tsc, self.c64(u32::MAX as u64), c"".as_ptr());
                    for &(n, part) in parts {
                        let v = match part {
                            CounterPart::Low => low,
                            CounterPart::High => LLVMBuildLShr(b, tsc, self.c64(32), c"".as_ptr()),
                            CounterPart::Pair if self.pointer_bits == 32 => tsc,
                            CounterPart::Pair => low,
                            CounterPart::Processor => self.c64(0),
                        };
                        set(n, v);
                    }
                }
            }
            flags
        }
    }

    unsafe fn flag(&self, flags: &Flags, f: Flag) -> LLVMValueRef {
        let v = match f {
            Flag::Carry => flags.carry,
            Flag::Zero => flags.zero,
            Flag::Sign => flags.sign,
        };
        // `recognize` accepts only reads of the flags the operation defines.
        v.expect("a flag the operation defines")
    }

    unsafe fn call(&self, model: Model, args: &[LLVMValueRef]) -> LLVMValueRef {
        unsafe {
            let f = self.models[model as usize];
            let mut args = args.to_vec();
            LLVMBuildCall2(
                self.b,
                LLVMGlobalGetValueType(f),
                f,
                args.as_mut_ptr(),
                args.len() as u32,
                c"".as_ptr(),
            )
        }
    }

    /// An output's value as its field's type: truncated, or extended (a flag read's `i1` with
    /// zeros, anything else with its sign: `sbb`'s all ones stay all ones).
    unsafe fn cast(&self, v: LLVMValueRef, to: LLVMTypeRef) -> LLVMValueRef {
        unsafe {
            let one_bit = LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1;
            self.int_cast(v, to, !one_bit)
        }
    }

    unsafe fn int_cast(&self, v: LLVMValueRef, to: LLVMTypeRef, signed: bool) -> LLVMValueRef {
        unsafe { LLVMBuildIntCast2(self.b, v, to, signed as i32, c"".as_ptr()) }
    }

    unsafe fn i64(&self) -> LLVMTypeRef {
        unsafe { LLVMInt64TypeInContext(self.ctx) }
    }

    unsafe fn c64(&self, v: u64) -> LLVMValueRef {
        unsafe { LLVMConstInt(self.i64(), v, 0) }
    }

    unsafe fn i32(&self, v: u64) -> LLVMValueRef {
        unsafe { LLVMConstInt(LLVMInt32TypeInContext(self.ctx), v, 0) }
    }
}

unsafe fn is_int_type(t: LLVMTypeRef) -> bool {
    unsafe { LLVMGetTypeKind(t) == LLVMTypeKind::LLVMIntegerTypeKind }
}
