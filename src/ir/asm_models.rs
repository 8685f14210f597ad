//! Models of the inline assembly systems code writes, so the interpreter runs on through it.
//!
//! An inline assembly statement is opaque to LLVM's C API users but its text and constraints
//! are not: a statement whose instructions are one of a few idioms is rewritten into plain
//! code before lowering. Native builds keep the assembly (they run it), and the rewrite keeps
//! every block, so the interpreter's blocks stay the native build's (`probes`).
//! - Barriers and hints (`""`, `mfence`, `lfence`, `sfence`, `pause`, `nop`, `rep; nop`):
//!   nothing a single-threaded run can observe; the statement goes.
//! - `bsr`/`bsf` (and `rep; bsf`): the index of the highest or lowest set bit, a call of the
//!   runtime's `__cairn_asm_scan`. Of 0 the destination keeps its value: the tied input's
//!   when there is one (Linux's `fls`), else the run stops there as unsupported.
//! - `bt`, `bts`, `btr`, `btc` (with `lock`): on a register, the bit (offset modulo the
//!   width); on memory, the bit string from the address (a register offset is signed and may
//!   leave the word), a call of the runtime's `__cairn_asm_bit`. The carry (the old bit)
//!   reaches the program through a flag output (`=@ccc`, `=@ccnc`), `setc` or `sbb`.
//!
//! Any other statement stays, and an interpreted run stops at it (`Ext::InlineAsm`).

use llvm_sys::LLVMTypeKind;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use std::ffi::CString;

/// The runtime's models (`cairn_runtime.c`).
const SCAN_FN: &str = "__cairn_asm_scan";
const BIT_FN: &str = "__cairn_asm_bit";

/// What a bit-test instruction does to the bit after reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    Test = 0,
    Set = 1,
    Reset = 2,
    Complement = 3,
}

/// How an output receives the carry flag (the bit read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carry {
    /// `setc`, `=@ccc`: 1 when set.
    Bit,
    /// `=@ccnc`: 1 when clear.
    NotBit,
    /// `sbb r, r`: all ones when set.
    AllOnes,
}

/// A statement Cairn models; operands are the statement's numbers (`$N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Idiom {
    Nothing,
    Scan {
        highest: bool,
        width: Option<u32>,
        src: usize,
        dst: usize,
    },
    BitTest {
        op: BitOp,
        width: Option<u32>,
        bit: usize,
        base: usize,
        carry: Vec<(usize, Carry)>,
    },
}

/// One operand as its constraint describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    pub output: bool,
    /// Passed as a pointer (`*m`): memory.
    pub indirect: bool,
    /// An input tied to output N (`"0"`).
    pub tied_to: Option<usize>,
    /// A flag output (`={@ccc}`, `={@ccnc}`).
    pub flag: Option<Carry>,
    /// An input that may be an immediate (`I`, `i`, `N`...).
    pub immediate: bool,
}

/// The operands of a constraint string, clobbers left out.
pub fn operands(constraints: &str) -> Vec<Operand> {
    let mut out = vec![];
    for c in constraints.split(',') {
        if c.starts_with('~') {
            continue;
        }
        let output = c.starts_with('=');
        let body = c.trim_start_matches(['=', '&', '+']);
        let indirect = body.starts_with('*');
        let body = body.trim_start_matches('*');
        let flag = match body {
            "{@ccc}" => Some(Carry::Bit),
            "{@ccnc}" => Some(Carry::NotBit),
            _ => None,
        };
        let tied_to = body.parse::<usize>().ok().filter(|_| !output);
        let immediate =
            !output && flag.is_none() && body.chars().any(|ch| "iINnJKLMe".contains(ch));
        out.push(Operand {
            output,
            indirect,
            tied_to,
            flag,
            immediate,
        });
    }
    out
}

/// The idiom `asm` (LLVM's text of the statement: `$N` operands) with `ops` is, if any.
pub fn recognize(asm: &str, ops: &[Operand]) -> Option<Idiom> {
    let insts = instructions(asm);
    let is_output = |n: usize| ops.get(n).is_some_and(|o| o.output);
    let flags: Vec<(usize, Carry)> = ops
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.flag.map(|f| (i, f)))
        .collect();
    match insts.as_slice() {
        [] if !ops.iter().any(|o| o.output) => return Some(Idiom::Nothing),
        all if all.iter().all(|i| is_hint(i)) && !ops.iter().any(|o| o.output) => {
            return Some(Idiom::Nothing);
        }
        _ => {}
    }
    let (first, rest) = insts.split_first()?;
    let (mnemonic, args) = first.split_first()?;
    let (src, dst) = match args {
        [a, b] => (operand_number(a)?, operand_number(b)?),
        _ => return None,
    };
    if let Some((highest, width)) = scan(mnemonic) {
        if !rest.is_empty() || !flags.is_empty() || !is_output(dst) || is_output(src) {
            return None;
        }
        return Some(Idiom::Scan {
            highest,
            width,
            src,
            dst,
        });
    }
    let (op, width) = bit_test(mnemonic)?;
    let mut carry = flags;
    match rest {
        [] => {}
        [then] => match then.as_slice() {
            [setc, r] if setc == "setc" => carry.push((operand_number(r)?, Carry::Bit)),
            [sbb, a, b] if sbb.strip_prefix("sbb").is_some_and(suffix_only) && a == b => {
                carry.push((operand_number(a)?, Carry::AllOnes))
            }
            _ => return None,
        },
        _ => return None,
    }
    if is_output(src) || carry.iter().any(|&(n, _)| !is_output(n)) {
        return None;
    }
    Some(Idiom::BitTest {
        op,
        width,
        bit: src,
        base: dst,
        carry,
    })
}

/// The statement's instructions, each its mnemonic and operands; `lock` dropped, `rep` kept
/// only before `nop` (`rep; nop` is `pause`) — `rep; bsf` is `bsf` or `tzcnt`, the same but
/// of 0, where the model stops the run.
fn instructions(asm: &str) -> Vec<Vec<String>> {
    let mut text = String::new();
    let mut rest = asm;
    while let Some(i) = rest.find("/*") {
        text.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    text.push_str(rest);
    let mut out: Vec<Vec<String>> = vec![];
    let mut prefix: Option<String> = None;
    for line in text.split(['\n', ';']) {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words = line.split_whitespace();
        let Some(mut mnemonic) = words.next() else {
            continue;
        };
        let mut rest_words: Vec<&str> = words.collect();
        while matches!(mnemonic, "lock" | "rep" | "repz" | "repe") {
            prefix = Some(mnemonic.to_string());
            if rest_words.is_empty() {
                break;
            }
            mnemonic = rest_words.remove(0);
        }
        if matches!(mnemonic, "lock" | "rep" | "repz" | "repe") {
            continue;
        }
        let mnemonic = match (prefix.take().as_deref(), mnemonic) {
            (Some("rep"), "nop") => "pause".to_string(),
            (_, m) => m.to_string(),
        };
        let args = rest_words.join("");
        let mut inst = vec![mnemonic];
        inst.extend(
            args.split(',')
                .filter(|a| !a.is_empty())
                .map(str::to_string),
        );
        out.push(inst);
    }
    out
}

fn is_hint(inst: &[String]) -> bool {
    inst.len() == 1
        && matches!(
            inst[0].as_str(),
            "nop" | "pause" | "mfence" | "lfence" | "sfence"
        )
}

/// `$N` or `${N:modifier}`.
fn operand_number(a: &str) -> Option<usize> {
    let a = a.strip_prefix('$')?;
    let a = a
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .map_or(a, |b| b.split(':').next().unwrap_or(""));
    a.parse().ok()
}

fn suffix_only(s: &str) -> bool {
    matches!(s, "" | "w" | "l" | "q")
}

fn suffix_width(s: &str) -> Option<Option<u32>> {
    match s {
        "" => Some(None),
        "w" => Some(Some(16)),
        "l" => Some(Some(32)),
        "q" => Some(Some(64)),
        _ => None,
    }
}

/// `bsr`/`bsf` with an optional size suffix: (highest, width).
fn scan(m: &str) -> Option<(bool, Option<u32>)> {
    let (highest, s) = match (m.strip_prefix("bsr"), m.strip_prefix("bsf")) {
        (Some(s), _) => (true, s),
        (_, Some(s)) => (false, s),
        _ => return None,
    };
    Some((highest, suffix_width(s)?))
}

/// `bt`, `bts`, `btr`, `btc` with an optional size suffix.
fn bit_test(m: &str) -> Option<(BitOp, Option<u32>)> {
    let s = m.strip_prefix("bt")?;
    let (op, s) = match s.chars().next() {
        Some('s') if suffix_width(&s[1..]).is_some() => (BitOp::Set, &s[1..]),
        Some('r') => (BitOp::Reset, &s[1..]),
        Some('c') => (BitOp::Complement, &s[1..]),
        _ => (BitOp::Test, s),
    };
    Some((op, suffix_width(s)?))
}

/// Rewrites every inline assembly statement of `m` that is an idiom (see the module comment)
/// when the runtime's models are in `m`; returns how many.
///
/// # Safety
/// `ctx` and `m` must be a live LLVM context and a module created in it.
pub unsafe fn model_inline_asm(ctx: LLVMContextRef, m: LLVMModuleRef) -> usize {
    unsafe {
        let named = |n: &str| {
            let c = CString::new(n).unwrap();
            LLVMGetNamedFunction(m, c.as_ptr())
        };
        let (scan_fn, bit_fn) = (named(SCAN_FN), named(BIT_FN));
        if scan_fn.is_null() || bit_fn.is_null() {
            return 0;
        }
        let mut calls = vec![];
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
                    }
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            f = LLVMGetNextFunction(f);
        }
        let builder = LLVMCreateBuilderInContext(ctx);
        let models = Models {
            ctx,
            builder,
            scan_fn,
            bit_fn,
        };
        let mut n = 0;
        for call in calls {
            let asm = LLVMGetCalledValue(call);
            let text = |s: *const libc::c_char, len: usize| {
                String::from_utf8_lossy(std::slice::from_raw_parts(s as *const u8, len))
                    .into_owned()
            };
            let mut len = 0;
            let s = LLVMGetInlineAsmAsmString(asm, &mut len);
            let asm_text = text(s, len);
            let s = LLVMGetInlineAsmConstraintString(asm, &mut len);
            let ops = operands(&text(s, len));
            let Some(idiom) = recognize(&asm_text, &ops) else {
                continue;
            };
            if models.replace(call, &idiom, &ops) {
                n += 1;
            }
        }
        LLVMDisposeBuilder(builder);
        n
    }
}

struct Models {
    ctx: LLVMContextRef,
    builder: LLVMBuilderRef,
    scan_fn: LLVMValueRef,
    bit_fn: LLVMValueRef,
}

/// Where an operand's value is: the statement's result (output N of the direct ones) or its
/// call's argument.
#[derive(Clone, Copy)]
enum Slot {
    Result(usize),
    Arg(u32),
}

impl Models {
    /// Replaces `call` by the idiom's code; false (nothing changed) when its operands are not
    /// of the kinds the model reads. Everything is checked before anything is built.
    unsafe fn replace(&self, call: LLVMValueRef, idiom: &Idiom, ops: &[Operand]) -> bool {
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
                return false;
            }
            // An integer passed by value, a pointer (memory), a direct output.
            let value = |n: usize| match slots.get(n) {
                Some(Slot::Arg(a)) if !ops[n].indirect => {
                    Some(LLVMGetOperand(call, *a)).filter(|&v| is_int(v))
                }
                _ => None,
            };
            let pointer = |n: usize| match slots.get(n) {
                Some(Slot::Arg(a)) if ops[n].indirect => Some(LLVMGetOperand(call, *a)),
                _ => None,
            };
            let result = |n: usize| match slots.get(n) {
                Some(Slot::Result(r)) => Some(*r),
                _ => None,
            };
            // Which outputs the idiom writes (all direct ones must be).
            let written: Vec<usize> = match idiom {
                Idiom::Nothing => vec![],
                Idiom::Scan { src, dst, .. } => {
                    let tied = ops.iter().position(|o| o.tied_to == Some(*dst));
                    if value(*src).is_none() || tied.is_some_and(|t| value(t).is_none()) {
                        return false;
                    }
                    result(*dst).into_iter().collect()
                }
                Idiom::BitTest {
                    op,
                    bit,
                    base,
                    carry,
                    ..
                } => {
                    let on_register = value(*base).is_some() && *op == BitOp::Test;
                    if value(*bit).is_none() || !(pointer(*base).is_some() || on_register) {
                        return false;
                    }
                    carry.iter().filter_map(|&(n, _)| result(n)).collect()
                }
            };
            let mut all: Vec<usize> = written.clone();
            all.sort();
            all.dedup();
            if all != (0..results).collect::<Vec<_>>() || written.len() != results {
                return false;
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
                _ => return false,
            };
            if fields.len() != results || fields.iter().any(|&t| !is_int_type(t)) {
                return false;
            }
            let mut outputs: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); results];
            self.emit(call, idiom, ops, &value, &pointer, &result, &mut outputs);
            let b = self.builder;
            let replacement = match fields.as_slice() {
                [] => None,
                [t] if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind => {
                    Some(int_cast(b, outputs[0], *t, true))
                }
                _ => {
                    let mut agg = LLVMGetUndef(ty);
                    for (k, (v, t)) in outputs.iter().zip(&fields).enumerate() {
                        let v = int_cast(b, *v, *t, true);
                        agg = LLVMBuildInsertValue(b, agg, v, k as u32, c"".as_ptr());
                    }
                    Some(agg)
                }
            };
            if let Some(v) = replacement {
                LLVMReplaceAllUsesWith(call, v);
            }
            LLVMInstructionEraseFromParent(call);
            true
        }
    }

    /// Builds the idiom's code before `call` (checked by `replace`), its outputs' values into
    /// `outputs`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn emit(
        &self,
        call: LLVMValueRef,
        idiom: &Idiom,
        ops: &[Operand],
        value: &dyn Fn(usize) -> Option<LLVMValueRef>,
        pointer: &dyn Fn(usize) -> Option<LLVMValueRef>,
        result: &dyn Fn(usize) -> Option<usize>,
        outputs: &mut [LLVMValueRef],
    ) {
        unsafe {
            let i64t = LLVMInt64TypeInContext(self.ctx);
            let i32t = LLVMInt32TypeInContext(self.ctx);
            let b = self.builder;
            LLVMPositionBuilderBefore(b, call);
            match idiom {
                Idiom::Nothing => {}
                Idiom::Scan {
                    highest, src, dst, ..
                } => {
                    // Zero-extended, so the index is the operand's own.
                    let wide = |v: LLVMValueRef| int_cast(b, v, i64t, false);
                    let if_zero = ops
                        .iter()
                        .position(|o| o.tied_to == Some(*dst))
                        .and_then(value);
                    let mut args = [
                        wide(value(*src).unwrap()),
                        LLVMConstInt(i32t, *highest as u64, 0),
                        LLVMConstInt(i32t, if_zero.is_some() as u64, 0),
                        if_zero.map_or(LLVMConstInt(i64t, 0, 0), wide),
                    ];
                    // The scan's index is small: its result type holds it sign-extended.
                    let index = self.call(self.scan_fn, &mut args);
                    if let Some(r) = result(*dst) {
                        outputs[r] = index;
                    }
                }
                Idiom::BitTest {
                    op,
                    width,
                    bit,
                    base,
                    carry,
                } => {
                    let nr = value(*bit).unwrap();
                    let width = width.unwrap_or_else(|| LLVMGetIntTypeWidth(LLVMTypeOf(nr)));
                    // An immediate offset counts modulo the width; a register one is signed.
                    let nr = if ops[*bit].immediate
                        && !LLVMIsAConstantInt(nr).is_null()
                        && LLVMConstIntGetZExtValue(nr) < 256
                    {
                        LLVMConstInt(i64t, LLVMConstIntGetZExtValue(nr) % width as u64, 0)
                    } else {
                        let narrow = int_cast(b, nr, LLVMIntTypeInContext(self.ctx, width), false);
                        int_cast(b, narrow, i64t, true)
                    };
                    let old = match pointer(*base) {
                        Some(p) => {
                            let mut args = [p, nr, LLVMConstInt(i32t, *op as u64, 0)];
                            self.call(self.bit_fn, &mut args)
                        }
                        None => {
                            let word = int_cast(b, value(*base).unwrap(), i64t, false);
                            let mask = LLVMConstInt(i64t, width as u64 - 1, 0);
                            let at = LLVMBuildAnd(b, nr, mask, c"".as_ptr());
                            let shifted = LLVMBuildLShr(b, word, at, c"".as_ptr());
                            let one = LLVMConstInt(i64t, 1, 0);
                            let bit = LLVMBuildAnd(b, shifted, one, c"".as_ptr());
                            int_cast(b, bit, i32t, false)
                        }
                    };
                    for &(n, how) in carry {
                        let v = match how {
                            Carry::Bit => old,
                            Carry::NotBit => {
                                LLVMBuildXor(b, old, LLVMConstInt(i32t, 1, 0), c"".as_ptr())
                            }
                            Carry::AllOnes => LLVMBuildNeg(b, old, c"".as_ptr()),
                        };
                        if let Some(r) = result(n) {
                            outputs[r] = v;
                        }
                    }
                }
            }
        }
    }

    unsafe fn call(&self, f: LLVMValueRef, args: &mut [LLVMValueRef]) -> LLVMValueRef {
        unsafe {
            LLVMBuildCall2(
                self.builder,
                LLVMGlobalGetValueType(f),
                f,
                args.as_mut_ptr(),
                args.len() as u32,
                c"".as_ptr(),
            )
        }
    }
}

unsafe fn is_int_type(t: LLVMTypeRef) -> bool {
    unsafe { LLVMGetTypeKind(t) == LLVMTypeKind::LLVMIntegerTypeKind }
}

unsafe fn is_int(v: LLVMValueRef) -> bool {
    unsafe { is_int_type(LLVMTypeOf(v)) }
}

/// `v` as an integer of type `to` (truncated, or extended with its sign when `signed`).
unsafe fn int_cast(
    b: LLVMBuilderRef,
    v: LLVMValueRef,
    to: LLVMTypeRef,
    signed: bool,
) -> LLVMValueRef {
    unsafe { LLVMBuildIntCast2(b, v, to, signed as i32, c"".as_ptr()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idiom(asm: &str, constraints: &str) -> Option<Idiom> {
        recognize(asm, &operands(constraints))
    }

    const CLOBBERS: &str = "~{dirflag},~{fpsr},~{flags}";

    #[test]
    fn barriers_and_hints_are_nothing() {
        for asm in [
            "",
            "mfence",
            "rep; nop",
            "pause",
            "lfence\n\tsfence",
            "/* barrier */",
        ] {
            let c = format!("~{{memory}},{CLOBBERS}");
            assert_eq!(idiom(asm, &c), Some(Idiom::Nothing), "{asm}");
        }
        // An output is something.
        assert_eq!(idiom("nop", "=r"), None);
        assert_eq!(idiom("cpuid", "={ax},={bx},={cx},={dx},0,2"), None);
        assert_eq!(idiom("rdtsc", "={ax},={dx}"), None);
    }

    #[test]
    fn bit_scans_as_clang_writes_them() {
        assert_eq!(
            idiom("bsrl $1,$0", &format!("=r,rm,0,{CLOBBERS}")),
            Some(Idiom::Scan {
                highest: true,
                width: Some(32),
                src: 1,
                dst: 0
            })
        );
        let ops = operands(&format!("=r,rm,0,{CLOBBERS}"));
        assert_eq!(ops[2].tied_to, Some(0));
        assert_eq!(
            idiom("rep; bsf $1,$0", &format!("=r,rm,{CLOBBERS}")),
            Some(Idiom::Scan {
                highest: false,
                width: None,
                src: 1,
                dst: 0
            })
        );
        // A scan into an input, or followed by more, is not the idiom.
        assert_eq!(idiom("bsr $0,$1", "=r,rm"), None);
        assert_eq!(idiom("bsr $1,$0\n\tinc $0", "=r,rm"), None);
    }

    #[test]
    fn bit_tests_with_their_carry_outputs() {
        assert_eq!(
            idiom(
                "btq $2,$1\n\t/* output condition code c*/\n",
                &format!("={{@ccc}},*m,Ir,~{{memory}},{CLOBBERS}")
            ),
            Some(Idiom::BitTest {
                op: BitOp::Test,
                width: Some(64),
                bit: 2,
                base: 1,
                carry: vec![(0, Carry::Bit)]
            })
        );
        assert_eq!(
            idiom(
                "lock; btsq $2,$0",
                &format!("=*m,={{@ccc}},Ir,*m,{CLOBBERS}")
            ),
            Some(Idiom::BitTest {
                op: BitOp::Set,
                width: Some(64),
                bit: 2,
                base: 0,
                carry: vec![(1, Carry::Bit)]
            })
        );
        assert_eq!(
            idiom("btl $2,$1\n\tsbbl $0,$0", &format!("=r,r,r,{CLOBBERS}")),
            Some(Idiom::BitTest {
                op: BitOp::Test,
                width: Some(32),
                bit: 2,
                base: 1,
                carry: vec![(0, Carry::AllOnes)]
            })
        );
        assert_eq!(
            idiom("btrl $1,$0", "=*m,Ir,*m"),
            Some(Idiom::BitTest {
                op: BitOp::Reset,
                width: Some(32),
                bit: 1,
                base: 0,
                carry: vec![]
            })
        );
        let ops = operands("=*m,Ir,*m");
        assert!(ops[0].output && ops[0].indirect && ops[1].immediate && !ops[2].output);
        assert_eq!(
            idiom("btq $2, $1\n\tsetc ${0:b}", "=q,r,r").map(|_| ()),
            Some(())
        );
        // `bt` then anything but setc/sbb is not modelled.
        assert_eq!(idiom("btq $2,$1\n\tadcq $0,$0", "=r,r,r"), None);
        assert_eq!(idiom("btx $1,$0", "=*m,Ir"), None);
    }
}
