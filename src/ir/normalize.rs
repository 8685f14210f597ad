//! Bitcode normalisation before lowering, through LLVM's C API.
//!
//! - The `llvm-ir` crate does not record the source element type of constant-expression GEPs,
//!   so their offsets cannot be computed from what it returns. Here every constant GEP is
//!   rewritten, innermost first, into the canonical byte form `getelementptr (i8, ptr base,
//!   i64 OFFSET)`, with the offset computed by LLVM's own data layout.
//! - Scalar locals start with an *indeterminate* value: `mem2reg` would turn a read before the
//!   first write into `undef` and fold it away (`phi(1, undef)` becomes `1`), deciding what the
//!   native program leaves to whatever is on the stack. Each scalar stack slot is first stored
//!   the result of `__cairn_indeterminate_<type>()`, which observers know is no input and no
//!   constant; the lowering drops the calls whose result nothing reads.
//! - Constructors and destructors (`llvm.global_ctors` / `llvm.global_dtors`) become the bodies
//!   of `__cairn_ctors` and `__cairn_dtors`, which the runtime's start routine and `exit` call:
//!   plain direct calls in the order the native startup code uses, so the interpreter, the
//!   analyses and the model checker all see them without special cases.
//! - Inline assembly of common idioms (bit scans and tests, atomics, barriers) becomes plain
//!   code for the interpreter (`asm_models`); native builds keep the assembly.
//! - Integers of 65 to 128 bits are split into two words (`wide_ints`).
//! - Short-circuit evaluations and cheap ternaries are branched on as gcc does
//!   (`short_circuit`; not for data-flow testing, whose uses are defined on clang's form).

use llvm_sys::LLVMOpcode;
use llvm_sys::LLVMTypeKind;
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use std::collections::HashSet;
use std::ffi::CString;
use std::path::Path;

/// Normalises `input` into `output`; returns the variables' source names (`debug_names`).
/// `native`: for a native build, whose startup code runs the constructors itself.
pub fn normalize_bitcode(
    input: &Path,
    output: &Path,
    branch_short_circuits: bool,
    native: bool,
    uninitialized_inputs: bool,
) -> Result<super::debug_names::SourceNames, String> {
    unsafe {
        let ctx = LLVMContextCreate();
        let m = read_module(ctx, input)?;
        let td = LLVMGetModuleDataLayout(m);
        let i8t = LLVMInt8TypeInContext(ctx);
        let i64t = LLVMInt64TypeInContext(ctx);
        // Each pass rewrites the innermost non-canonical GEPs; outer ones are rebuilt by LLVM
        // with the new operand and picked up by the next pass.
        for _ in 0..64 {
            let geps = collect_geps(m);
            let inner: Vec<LLVMValueRef> = geps
                .iter()
                .copied()
                .filter(|&g| !is_canonical(g, i8t) && !has_gep_operand(g, i8t))
                .collect();
            if inner.is_empty() {
                break;
            }
            for g in inner {
                let base = LLVMGetOperand(g, 0);
                let off = gep_offset(td, g);
                let mut idx = [LLVMConstInt(i64t, off as u64, 1)];
                let new = LLVMConstGEP2(i8t, base, idx.as_mut_ptr(), 1);
                LLVMReplaceAllUsesWith(g, new);
            }
        }
        let names = super::debug_names::read(ctx, m);
        seed_indeterminate_locals(ctx, m, uninitialized_inputs);
        if !native {
            define_init_fini(ctx, m, "llvm.global_ctors", "__cairn_ctors", false);
            define_init_fini(ctx, m, "llvm.global_dtors", "__cairn_dtors", true);
            super::asm_rewrite::model_inline_asm(ctx, m);
        }
        // Before the wide integers are split: the selects that introduces stay selects.
        if branch_short_circuits {
            super::short_circuit::branch_as_gcc(ctx, m);
        }
        super::wide_ints::legalize(ctx, m);
        write_module(ctx, m, output)?;
        Ok(names)
    }
}

/// Reads bitcode file `input` into a module of `ctx` (which is disposed of on failure).
pub(super) unsafe fn read_module(
    ctx: LLVMContextRef,
    input: &Path,
) -> Result<LLVMModuleRef, String> {
    unsafe {
        let fail = |what: &str| {
            LLVMContextDispose(ctx);
            Err(format!("cannot {what} {}", input.display()))
        };
        let Ok(path) = CString::new(input.display().to_string()) else {
            return fail("name");
        };
        let mut buf: LLVMMemoryBufferRef = std::ptr::null_mut();
        let mut msg: *mut libc::c_char = std::ptr::null_mut();
        if LLVMCreateMemoryBufferWithContentsOfFile(path.as_ptr(), &mut buf, &mut msg) != 0 {
            return fail("read");
        }
        let mut m: LLVMModuleRef = std::ptr::null_mut();
        if LLVMParseBitcodeInContext2(ctx, buf, &mut m) != 0 {
            return fail("parse bitcode");
        }
        Ok(m)
    }
}

/// Writes `m` to `output` as bitcode and disposes of the module and its context.
pub(super) unsafe fn write_module(
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    output: &Path,
) -> Result<(), String> {
    unsafe {
        let out = CString::new(output.display().to_string()).map_err(|e| e.to_string());
        let rc = out
            .as_ref()
            .map_or(1, |o| LLVMWriteBitcodeToFile(m, o.as_ptr()));
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        if rc != 0 {
            return Err(format!("cannot write {}", output.display()));
        }
        Ok(())
    }
}

/// Gives `func` (declared by the runtime) a body calling the functions listed in the
/// `{i32 priority, ptr fn, ptr data}` array `list`: ascending priority, stable (glibc's
/// `.init_array` order), or exactly the reverse of that for destructors. The list is removed,
/// so the functions it names no longer count as address-taken.
unsafe fn define_init_fini(
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
    list: &str,
    func: &str,
    rev: bool,
) {
    unsafe {
        let name = CString::new(func).unwrap();
        let void = LLVMVoidTypeInContext(ctx);
        let fty = LLVMFunctionType(void, std::ptr::null_mut(), 0, 0);
        let mut f = LLVMGetNamedFunction(m, name.as_ptr());
        if f.is_null() {
            f = LLVMAddFunction(m, name.as_ptr(), fty);
        }
        if !LLVMGetFirstBasicBlock(f).is_null() {
            return;
        }
        // (priority, file, line, function): natively the linker sorts `.init_array.N` by N and
        // keeps source order within a priority, whether an entry came from a constructor
        // attribute or from a pointer the program placed in the section itself.
        let mut calls: Vec<(u64, String, u32, LLVMValueRef)> = vec![];
        // Where an entry is written: a constructor's definition, or the section's pointer.
        let mut push = |prio: u64, target: LLVMValueRef, at: Option<(String, u32)>| {
            if !LLVMIsAFunction(target).is_null() {
                let (file, line) = at.unwrap_or_else(|| function_line(target));
                calls.push((prio, file, line, target));
            }
        };
        let lname = CString::new(list).unwrap();
        let g = LLVMGetNamedGlobal(m, lname.as_ptr());
        if !g.is_null() {
            let init = LLVMGetInitializer(g);
            if !init.is_null() && LLVMIsAConstantAggregateZero(init).is_null() {
                for i in 0..LLVMGetNumOperands(init) {
                    let e = LLVMGetOperand(init, i as u32);
                    if LLVMGetNumOperands(e) < 2 {
                        continue;
                    }
                    let prio = LLVMConstIntGetZExtValue(LLVMGetOperand(e, 0));
                    push(prio, LLVMGetOperand(e, 1), None);
                }
            }
            LLVMDeleteGlobal(g);
        }
        // Function pointers placed in the sections directly
        // (`__attribute__((section(".init_array")))`).
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            let sec = LLVMGetSection(g);
            let prio = if sec.is_null() {
                None
            } else {
                init_fini_priority(&std::ffi::CStr::from_ptr(sec).to_string_lossy(), rev)
            };
            let init = LLVMGetInitializer(g);
            if let (Some(prio), false) = (prio, init.is_null()) {
                let at = Some(global_line(g));
                if !LLVMIsAFunction(init).is_null() {
                    push(prio, init, at);
                } else if LLVMIsAConstantAggregateZero(init).is_null() {
                    for i in 0..LLVMGetNumOperands(init) {
                        push(prio, LLVMGetOperand(init, i as u32), at.clone());
                    }
                }
            }
            g = LLVMGetNextGlobal(g);
        }
        let mut files: Vec<String> = vec![];
        for c in &calls {
            if !files.contains(&c.1) {
                files.push(c.1.clone());
            }
        }
        let rank = |f: &String| files.iter().position(|x| x == f).unwrap_or(0);
        calls.sort_by_key(|c| (c.0, rank(&c.1), c.2));
        let mut calls: Vec<(u64, LLVMValueRef)> = calls.into_iter().map(|c| (c.0, c.3)).collect();
        if rev {
            calls.reverse();
        }
        let bb = LLVMAppendBasicBlockInContext(ctx, f, c"entry".as_ptr());
        let b = LLVMCreateBuilderInContext(ctx);
        LLVMPositionBuilderAtEnd(b, bb);
        for (_, target) in calls {
            LLVMBuildCall2(b, fty, target, std::ptr::null_mut(), 0, c"".as_ptr());
        }
        LLVMBuildRetVoid(b);
        LLVMDisposeBuilder(b);
    }
}

/// The priority of a constructor (`rev`: destructor) placed in section `sec`, if that section
/// is one the startup code runs: `.preinit_array` first, `.init_array.N` by N, `.init_array`
/// with the default priority of a constructor attribute.
fn init_fini_priority(sec: &str, rev: bool) -> Option<u64> {
    const DEFAULT: u64 = 65535;
    let (arrays, old): (&[&str], &str) = if rev {
        (&[".fini_array"], ".dtors")
    } else {
        (&[".preinit_array", ".init_array"], ".ctors")
    };
    for a in arrays.iter().copied().chain([old]) {
        if sec == a {
            return Some(if a == ".preinit_array" { 0 } else { DEFAULT });
        }
        if let Some(n) = sec.strip_prefix(a).and_then(|r| r.strip_prefix('.')) {
            return n.parse().ok();
        }
    }
    None
}

/// File and line of a function's definition (debug information), for ordering.
unsafe fn function_line(f: LLVMValueRef) -> (String, u32) {
    use llvm_sys::debuginfo::*;
    unsafe {
        let sp = LLVMGetSubprogram(f);
        if sp.is_null() {
            return (String::new(), 0);
        }
        let file = super::debug_names::file_name(LLVMDIScopeGetFile(sp));
        (file, LLVMDISubprogramGetLine(sp))
    }
}

/// File and line of a global's declaration (debug information).
unsafe fn global_line(g: LLVMValueRef) -> (String, u32) {
    use llvm_sys::debuginfo::*;
    unsafe {
        match super::debug_names::global_variables(g).first() {
            Some(&var) => (
                super::debug_names::file_name(LLVMDIVariableGetFile(var)),
                LLVMDIVariableGetLine(var),
            ),
            None => (String::new(), 0),
        }
    }
}

unsafe fn is_gep_ce(v: LLVMValueRef) -> bool {
    unsafe {
        !LLVMIsAConstantExpr(v).is_null() && LLVMGetConstOpcode(v) == LLVMOpcode::LLVMGetElementPtr
    }
}

unsafe fn is_canonical(g: LLVMValueRef, i8t: LLVMTypeRef) -> bool {
    unsafe { LLVMGetGEPSourceElementType(g) == i8t && LLVMGetNumOperands(g) == 2 }
}

/// True if a non-canonical GEP occurs inside `g`'s operands (then `g` is not innermost).
unsafe fn has_gep_operand(g: LLVMValueRef, i8t: LLVMTypeRef) -> bool {
    unsafe {
        let mut stack: Vec<LLVMValueRef> = (0..LLVMGetNumOperands(g))
            .map(|i| LLVMGetOperand(g, i as u32))
            .collect();
        while let Some(v) = stack.pop() {
            if LLVMIsAConstantExpr(v).is_null() {
                continue;
            }
            if is_gep_ce(v) && !is_canonical(v, i8t) {
                return true;
            }
            for i in 0..LLVMGetNumOperands(v) {
                stack.push(LLVMGetOperand(v, i as u32));
            }
        }
        false
    }
}

unsafe fn gep_offset(td: LLVMTargetDataRef, g: LLVMValueRef) -> i64 {
    unsafe {
        let mut ty = LLVMGetGEPSourceElementType(g);
        let n = LLVMGetNumOperands(g) as u32;
        let mut off: i64 = 0;
        for k in 1..n {
            let idx = LLVMGetOperand(g, k);
            let v = LLVMConstIntGetSExtValue(idx);
            if k == 1 {
                off += v * LLVMABISizeOfType(td, ty) as i64;
                continue;
            }
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    off += LLVMOffsetOfElement(td, ty, v as u32) as i64;
                    ty = LLVMStructGetTypeAtIndex(ty, v as u32);
                }
                _ => {
                    let elem = LLVMGetElementType(ty);
                    off += v * LLVMABISizeOfType(td, elem) as i64;
                    ty = elem;
                }
            }
        }
        off
    }
}

/// Every constant-expression GEP reachable from instruction operands and global initializers.
unsafe fn collect_geps(m: LLVMModuleRef) -> Vec<LLVMValueRef> {
    unsafe {
        let mut seen: HashSet<LLVMValueRef> = HashSet::new();
        let mut out = vec![];
        let mut roots: Vec<LLVMValueRef> = vec![];
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            let init = LLVMGetInitializer(g);
            if !init.is_null() {
                roots.push(init);
            }
            g = LLVMGetNextGlobal(g);
        }
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut b = LLVMGetFirstBasicBlock(f);
            while !b.is_null() {
                let mut i = LLVMGetFirstInstruction(b);
                while !i.is_null() {
                    for k in 0..LLVMGetNumOperands(i) {
                        roots.push(LLVMGetOperand(i, k as u32));
                    }
                    i = LLVMGetNextInstruction(i);
                }
                b = LLVMGetNextBasicBlock(b);
            }
            f = LLVMGetNextFunction(f);
        }
        while let Some(v) = roots.pop() {
            if v.is_null()
                || LLVMIsAConstant(v).is_null()
                || !LLVMIsAGlobalValue(v).is_null()
                || !seen.insert(v)
            {
                continue;
            }
            if is_gep_ce(v) {
                out.push(v);
            }
            for k in 0..LLVMGetNumOperands(v) {
                roots.push(LLVMGetOperand(v, k as u32));
            }
        }
        out
    }
}

/// Prefix of the functions giving locals their indeterminate initial value.
pub const INDETERMINATE: &str = "__cairn_indeterminate_";
/// Prefix of the functions giving a local read before it is set its initial value as an input
/// (`--uninitialized-inputs`): `__cairn_uninitialized.FUNCTION.VARIABLE`, one per local, so
/// a test names the local each value went to.
pub const UNINITIALIZED_INPUT: &str = "__cairn_uninitialized.";

/// Stores an indeterminate value into every scalar stack slot right after its `alloca`; with
/// `inputs`, an input into each number slot a load may read before anything is stored in it
/// (outside Cairn's runtime, which native builds replace).
unsafe fn seed_indeterminate_locals(ctx: LLVMContextRef, m: LLVMModuleRef, inputs: bool) {
    unsafe {
        let builder = LLVMCreateBuilderInContext(ctx);
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let entry = LLVMGetFirstBasicBlock(f);
            let as_inputs: HashSet<LLVMValueRef> =
                if inputs && !entry.is_null() && !super::short_circuit::in_runtime(f) {
                    super::unset_reads::read_before_set(f).into_iter().collect()
                } else {
                    HashSet::new()
                };
            let mut i = if entry.is_null() {
                std::ptr::null_mut()
            } else {
                LLVMGetFirstInstruction(entry)
            };
            let mut slot = 0;
            while !i.is_null() {
                let next = LLVMGetNextInstruction(i);
                // One element: a variable-length array (`alloca i32, i32 %n`) is no scalar,
                // and may have no element to seed.
                let count = if LLVMIsAAllocaInst(i).is_null() {
                    std::ptr::null_mut()
                } else {
                    LLVMGetOperand(i, 0)
                };
                let single = !count.is_null()
                    && !LLVMIsAConstantInt(count).is_null()
                    && LLVMConstIntGetZExtValue(count) == 1;
                if single {
                    slot += 1;
                    let ty = LLVMGetAllocatedType(i);
                    if let Some(name) = scalar_name(ty) {
                        let fname = if as_inputs.contains(&i) && is_number(ty) {
                            let var = match super::debug_names::value_name(i) {
                                v if v.is_empty() => format!("slot{slot}"),
                                v => v,
                            };
                            format!(
                                "{UNINITIALIZED_INPUT}{}.{var}",
                                super::debug_names::value_name(f)
                            )
                        } else {
                            format!("{INDETERMINATE}{name}")
                        };
                        let fname = CString::new(fname).unwrap();
                        let fty = LLVMFunctionType(ty, std::ptr::null_mut(), 0, 0);
                        let mut callee = LLVMGetNamedFunction(m, fname.as_ptr());
                        if callee.is_null() {
                            callee = LLVMAddFunction(m, fname.as_ptr(), fty);
                        }
                        // After the alloca (and before whatever follows it).
                        if next.is_null() {
                            LLVMPositionBuilderAtEnd(builder, entry);
                        } else {
                            LLVMPositionBuilderBefore(builder, next);
                        }
                        let empty = CString::new("").unwrap();
                        let v = LLVMBuildCall2(
                            builder,
                            fty,
                            callee,
                            std::ptr::null_mut(),
                            0,
                            empty.as_ptr(),
                        );
                        LLVMBuildStore(builder, v, i);
                    }
                }
                i = next;
            }
            f = LLVMGetNextFunction(f);
        }
        LLVMDisposeBuilder(builder);
    }
}

/// A number a test value can be: an integer of at most 64 bits, a float or a double.
unsafe fn is_number(ty: LLVMTypeRef) -> bool {
    unsafe {
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(ty) <= 64,
            LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMDoubleTypeKind => true,
            _ => false,
        }
    }
}

/// Name suffix of a scalar type (the ones `mem2reg` promotes), None for aggregates.
unsafe fn scalar_name(ty: LLVMTypeRef) -> Option<String> {
    unsafe {
        match LLVMGetTypeKind(ty) {
            LLVMTypeKind::LLVMIntegerTypeKind => Some(format!("i{}", LLVMGetIntTypeWidth(ty))),
            LLVMTypeKind::LLVMPointerTypeKind => Some("ptr".into()),
            LLVMTypeKind::LLVMFloatTypeKind => Some("f32".into()),
            LLVMTypeKind::LLVMDoubleTypeKind => Some("f64".into()),
            _ => None,
        }
    }
}
