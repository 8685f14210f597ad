//! Short-circuit evaluation branched on as gcc does.
//!
//! clang evaluates the last operand of `a || b` and `a && b` into a value and joins the
//! outcomes in a phi (`phi i1 [true, %lhs], [%b, %rhs]`), then branches on the phi (`while
//! (i < n && ok(i))`) or uses it as a value (`return c == 'x' || c == '_';`). gcc branches on
//! every operand, and gcov counts those branches: a suite could cover every goal of Cairn's and
//! leave a native branch uncovered (the peer comparison's tokenizer: 116 of 116 goals, 123 of
//! 124 gcov branches; `b` false is not the phi false, which `a` false also reaches). So:
//! - in a branch context, each edge into the join goes straight to the branch's target
//!   (constants pick their side, the computed operand is branched on where it is computed)
//!   and the join block goes;
//! - in a value context, the computed operand is branched on, to two blocks feeding `true` and
//!   `false` into the phi;
//! - clang's ternary with cheap arms (`return v > 100 ? 3 : 0;`) is a `select`, where gcc
//!   branches: it becomes a branch to two blocks joining in a phi (not `c ? 1 : 0`, which gcc
//!   folds into `c`).
//!
//! The values are the same; the goals are then gcc's branches, one per operand. Functions of
//! Cairn's own runtime are left as they are (their branches are no goals, only more paths).

use llvm_sys::LLVMTypeKind;
use llvm_sys::core::*;
use llvm_sys::debuginfo::{
    LLVMDIFileGetFilename, LLVMDIScopeGetFile, LLVMGetSubprogram, LLVMInstructionGetDebugLoc,
    LLVMInstructionSetDebugLoc,
};
use llvm_sys::prelude::*;

/// Rewrites the short-circuit evaluations and ternary selects of `m` into gcc's branches (see the module comment);
/// returns how many rewrites were made.
///
/// # Safety
/// `ctx` and `m` must be a live LLVM context and a module created in it.
pub unsafe fn branch_as_gcc(ctx: LLVMContextRef, m: LLVMModuleRef) -> usize {
    let mut n = 0;
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if in_runtime(f) {
                f = LLVMGetNextFunction(f);
                continue;
            }
            for sel in selects(f) {
                split_select(ctx, f, sel);
                n += 1;
            }
            // Nested evaluations (`a && (b || c)`) take a few rounds: an inner join that a
            // value split turned into a branch on its phi is threaded in the next.
            for _ in 0..64 {
                let before = n;
                let mut bb = LLVMGetFirstBasicBlock(f);
                while !bb.is_null() {
                    let next = LLVMGetNextBasicBlock(bb);
                    if let Some(phi) = joining_phi(bb) {
                        if thread(bb, phi) {
                            n += 1;
                        } else if let Some(i) = computed_incoming(bb, phi) {
                            split(ctx, f, bb, phi, i);
                            n += 1;
                        }
                    }
                    bb = next;
                }
                if n == before {
                    break;
                }
            }
            f = LLVMGetNextFunction(f);
        }
    }
    n
}

/// Whether `f` is one of Cairn's runtime functions (by its debug information's file).
pub(super) unsafe fn in_runtime(f: LLVMValueRef) -> bool {
    unsafe {
        let sp = LLVMGetSubprogram(f);
        if sp.is_null() {
            return false;
        }
        let file = LLVMDIScopeGetFile(sp);
        if file.is_null() {
            return false;
        }
        let mut len = 0;
        let name = LLVMDIFileGetFilename(file, &mut len);
        let name = std::slice::from_raw_parts(name as *const u8, len as usize);
        name.ends_with(super::frontend::RUNTIME_FILE.as_bytes())
    }
}

/// The `select`s of `f` on a scalar `i1` that is not a constant.
unsafe fn selects(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        let mut v = vec![];
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if !LLVMIsASelectInst(i).is_null() {
                    let c = LLVMGetOperand(i, 0);
                    let ty = LLVMTypeOf(c);
                    let vector = LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMTypeKind::LLVMVectorTypeKind;
                    if LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind
                        && LLVMIsConstant(c) == 0
                        && !vector
                        && !is_zero_one(i)
                        && is_ternary(i)
                    {
                        v.push(i);
                    }
                }
                i = LLVMGetNextInstruction(i);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        v
    }
}

/// clang names the select of a source ternary `cond`, `cond12`, ... (the front end keeps value
/// names); the selects it expands builtins into (`__builtin_ffs`, `isinf`) are named after them
/// or not at all, and gcc does not branch there.
fn is_ternary(sel: LLVMValueRef) -> bool {
    let name = name_of(sel);
    name.strip_prefix(b"cond")
        .is_some_and(|rest| rest.iter().all(u8::is_ascii_digit))
}

/// `c ? 1 : 0` and `c ? 0 : 1`: gcc folds these into the condition's value (no branch).
unsafe fn is_zero_one(sel: LLVMValueRef) -> bool {
    unsafe {
        let arm = |k| {
            let v = LLVMGetOperand(sel, k);
            match LLVMIsAConstantInt(v).is_null() {
                true => None,
                false => Some(LLVMConstIntGetZExtValue(v)),
            }
        };
        matches!((arm(1), arm(2)), (Some(1), Some(0)) | (Some(0), Some(1)))
    }
}

/// `%r = select i1 %c, %a, %b` in `bb` becomes `bb: br i1 %c, %t, %f`, `t` and `f` jumping to
/// a new block that starts with `%r = phi [%a, %t], [%b, %f]` and holds the rest of `bb`.
unsafe fn split_select(ctx: LLVMContextRef, f: LLVMValueRef, sel: LLVMValueRef) {
    unsafe {
        let bb = LLVMGetInstructionParent(sel);
        let loc = LLVMInstructionGetDebugLoc(sel);
        let b = LLVMCreateBuilderInContext(ctx);
        let block = |name: &std::ffi::CStr, after: LLVMBasicBlockRef| {
            let blk = LLVMAppendBasicBlockInContext(ctx, f, name.as_ptr());
            LLVMMoveBasicBlockAfter(blk, after);
            blk
        };
        let tail = block(c"sel.end", bb);
        LLVMPositionBuilderAtEnd(b, tail);
        let mut i = LLVMGetNextInstruction(sel);
        while !i.is_null() {
            let next = LLVMGetNextInstruction(i);
            let name = name_of(i);
            LLVMInstructionRemoveFromParent(i);
            let name = std::ffi::CString::new(name).unwrap_or_default();
            LLVMInsertIntoBuilderWithName(b, i, name.as_ptr());
            i = next;
        }
        // The successors' phis now come from the tail.
        let term = LLVMGetBasicBlockTerminator(tail);
        for s in 0..LLVMGetNumSuccessors(term) {
            let succ = LLVMGetSuccessor(term, s);
            let mut phi = LLVMGetFirstInstruction(succ);
            while !phi.is_null() && !LLVMIsAPHINode(phi).is_null() {
                let next = LLVMGetNextInstruction(phi);
                rebuild_phi(b, phi, |v, from| match from == bb {
                    true => vec![(v, tail)],
                    false => vec![(v, from)],
                });
                phi = next;
            }
        }
        let on_false = block(c"sel.false", bb);
        let on_true = block(c"sel.true", bb);
        for arm in [on_true, on_false] {
            LLVMPositionBuilderAtEnd(b, arm);
            set_loc(LLVMBuildBr(b, tail), loc);
        }
        LLVMPositionBuilderAtEnd(b, bb);
        set_loc(
            LLVMBuildCondBr(b, LLVMGetOperand(sel, 0), on_true, on_false),
            loc,
        );
        let first = LLVMGetFirstInstruction(tail);
        LLVMPositionBuilderBefore(b, first);
        let phi = LLVMBuildPhi(b, LLVMTypeOf(sel), c"".as_ptr());
        let mut vals = [LLVMGetOperand(sel, 1), LLVMGetOperand(sel, 2)];
        let mut blocks = [on_true, on_false];
        LLVMAddIncoming(phi, vals.as_mut_ptr(), blocks.as_mut_ptr(), 2);
        replace(sel, phi);
        LLVMDisposeBuilder(b);
    }
}

fn name_of(v: LLVMValueRef) -> Vec<u8> {
    unsafe {
        let mut len = 0;
        let name = LLVMGetValueName2(v, &mut len);
        std::slice::from_raw_parts(name as *const u8, len).to_vec()
    }
}

/// Replaces `phi` by one whose incoming pairs are each `map`ped to some pairs (the C API can
/// neither remove nor retarget them).
unsafe fn rebuild_phi(
    b: LLVMBuilderRef,
    phi: LLVMValueRef,
    map: impl Fn(LLVMValueRef, LLVMBasicBlockRef) -> Vec<(LLVMValueRef, LLVMBasicBlockRef)>,
) -> LLVMValueRef {
    unsafe {
        let mut vals = vec![];
        let mut blocks = vec![];
        for i in 0..LLVMCountIncoming(phi) {
            for (v, from) in map(LLVMGetIncomingValue(phi, i), LLVMGetIncomingBlock(phi, i)) {
                vals.push(v);
                blocks.push(from);
            }
        }
        LLVMPositionBuilderBefore(b, phi);
        let new = LLVMBuildPhi(b, LLVMTypeOf(phi), c"".as_ptr());
        LLVMAddIncoming(
            new,
            vals.as_mut_ptr(),
            blocks.as_mut_ptr(),
            vals.len() as u32,
        );
        replace(phi, new);
        new
    }
}

/// `new` takes `old`'s uses and name; `old` goes.
unsafe fn replace(old: LLVMValueRef, new: LLVMValueRef) {
    unsafe {
        let name = name_of(old);
        LLVMReplaceAllUsesWith(old, new);
        LLVMInstructionEraseFromParent(old);
        LLVMSetValueName2(new, name.as_ptr() as *const libc::c_char, name.len());
    }
}

/// The only phi of `bb`, when it is an `i1` with at least one constant incoming value (the
/// short-circuit result) and one use.
unsafe fn joining_phi(bb: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    unsafe {
        let phi = LLVMGetFirstInstruction(bb);
        if phi.is_null() || LLVMIsAPHINode(phi).is_null() {
            return None;
        }
        let second = LLVMGetNextInstruction(phi);
        if !second.is_null() && !LLVMIsAPHINode(second).is_null() {
            return None;
        }
        let ty = LLVMTypeOf(phi);
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMIntegerTypeKind || LLVMGetIntTypeWidth(ty) != 1
        {
            return None;
        }
        let n = LLVMCountIncoming(phi);
        let constant = (0..n).any(|i| LLVMIsConstant(LLVMGetIncomingValue(phi, i)) != 0);
        let use_ = LLVMGetFirstUse(phi);
        if n < 2 || !constant || use_.is_null() || !LLVMGetNextUse(use_).is_null() {
            return None;
        }
        Some(phi)
    }
}

/// `from`'s unconditional jump to `to`, if that is how `from` ends.
unsafe fn jumps_to(from: LLVMBasicBlockRef, to: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    unsafe {
        let br = LLVMGetBasicBlockTerminator(from);
        (!br.is_null()
            && !LLVMIsABranchInst(br).is_null()
            && LLVMIsConditional(br) == 0
            && LLVMGetSuccessor(br, 0) == to)
            .then_some(br)
    }
}

/// In a branch context (`while (a && b)`: the join block is the phi and a branch on it), every
/// edge into the join goes straight to the branch's target instead: constants pick their side,
/// a computed operand is branched on where it is computed. The join block is deleted.
unsafe fn thread(join: LLVMBasicBlockRef, phi: LLVMValueRef) -> bool {
    unsafe {
        let br = LLVMGetNextInstruction(phi);
        if br.is_null()
            || LLVMIsABranchInst(br).is_null()
            || LLVMIsConditional(br) == 0
            || LLVMGetCondition(br) != phi
        {
            return false;
        }
        let (on_true, on_false) = (LLVMGetSuccessor(br, 0), LLVMGetSuccessor(br, 1));
        let starts_with_phi = |b: LLVMBasicBlockRef| {
            let first = LLVMGetFirstInstruction(b);
            !first.is_null() && !LLVMIsAPHINode(first).is_null()
        };
        if on_true == join
            || on_false == join
            || starts_with_phi(on_true)
            || starts_with_phi(on_false)
        {
            return false;
        }
        let n = LLVMCountIncoming(phi);
        let threadable = (0..n).all(|i| {
            let v = LLVMGetIncomingValue(phi, i);
            let from = LLVMGetIncomingBlock(phi, i);
            let term = LLVMGetBasicBlockTerminator(from);
            match LLVMIsConstant(v) != 0 {
                true => !term.is_null() && !LLVMIsABranchInst(term).is_null(),
                false => jumps_to(from, join).is_some(),
            }
        });
        if !threadable {
            return false;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(phi));
        let b = LLVMCreateBuilderInContext(ctx);
        for i in 0..n {
            let v = LLVMGetIncomingValue(phi, i);
            let from = LLVMGetIncomingBlock(phi, i);
            let term = LLVMGetBasicBlockTerminator(from);
            if LLVMIsConstant(v) != 0 {
                let target = match LLVMConstIntGetZExtValue(v) {
                    0 => on_false,
                    _ => on_true,
                };
                for s in 0..LLVMGetNumSuccessors(term) {
                    if LLVMGetSuccessor(term, s) == join {
                        LLVMSetSuccessor(term, s, target);
                    }
                }
            } else {
                LLVMPositionBuilderBefore(b, term);
                let new = LLVMBuildCondBr(b, v, on_true, on_false);
                set_loc(new, condition_loc(v, term));
                LLVMInstructionEraseFromParent(term);
            }
        }
        LLVMDisposeBuilder(b);
        LLVMInstructionEraseFromParent(br);
        LLVMInstructionEraseFromParent(phi);
        LLVMDeleteBasicBlock(join);
        true
    }
}

/// In a value context, the incoming operand that is computed, when its block jumps to `bb`.
unsafe fn computed_incoming(bb: LLVMBasicBlockRef, phi: LLVMValueRef) -> Option<u32> {
    unsafe {
        let computed: Vec<u32> = (0..LLVMCountIncoming(phi))
            .filter(|&i| LLVMIsConstant(LLVMGetIncomingValue(phi, i)) == 0)
            .collect();
        let [i] = computed[..] else {
            return None;
        };
        jumps_to(LLVMGetIncomingBlock(phi, i), bb).map(|_| i)
    }
}

/// Where a branch on `cond` is in the source: the condition's place, as gcov reports it (the
/// jump's when the condition has none).
unsafe fn condition_loc(cond: LLVMValueRef, jump: LLVMValueRef) -> LLVMMetadataRef {
    unsafe {
        if LLVMIsAInstruction(cond).is_null() || LLVMInstructionGetDebugLoc(cond).is_null() {
            LLVMInstructionGetDebugLoc(jump)
        } else {
            LLVMInstructionGetDebugLoc(cond)
        }
    }
}

unsafe fn set_loc(i: LLVMValueRef, loc: LLVMMetadataRef) {
    unsafe {
        if !loc.is_null() {
            LLVMInstructionSetDebugLoc(i, loc);
        }
    }
}

/// `from: br %join` becomes `from: br i1 %b, %t, %f` with `t: br %join` and `f: br %join`, and
/// the phi takes `true` from `t` and `false` from `f` instead of `%b` from `from`.
unsafe fn split(
    ctx: LLVMContextRef,
    f: LLVMValueRef,
    join: LLVMBasicBlockRef,
    phi: LLVMValueRef,
    computed: u32,
) {
    unsafe {
        let cond = LLVMGetIncomingValue(phi, computed);
        let from = LLVMGetIncomingBlock(phi, computed);
        let old = LLVMGetBasicBlockTerminator(from);
        let jump_loc = LLVMInstructionGetDebugLoc(old);
        let cond_loc = condition_loc(cond, old);
        let b = LLVMCreateBuilderInContext(ctx);
        let forward = |name: &std::ffi::CStr| {
            let blk = LLVMAppendBasicBlockInContext(ctx, f, name.as_ptr());
            LLVMMoveBasicBlockAfter(blk, from);
            LLVMPositionBuilderAtEnd(b, blk);
            set_loc(LLVMBuildBr(b, join), jump_loc);
            blk
        };
        let on_false = forward(c"sc.false");
        let on_true = forward(c"sc.true");
        LLVMPositionBuilderBefore(b, old);
        set_loc(LLVMBuildCondBr(b, cond, on_true, on_false), cond_loc);
        LLVMInstructionEraseFromParent(old);
        let ty = LLVMTypeOf(phi);
        rebuild_phi(b, phi, |v, blk| match blk == from {
            true => vec![
                (LLVMConstInt(ty, 1, 0), on_true),
                (LLVMConstInt(ty, 0, 0), on_false),
            ],
            false => vec![(v, blk)],
        });
        LLVMDisposeBuilder(b);
    }
}
