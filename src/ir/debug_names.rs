//! Source names of variables, from the debug information (`-g`), through LLVM's C API: the
//! `llvm` crate's parser does not read debug records. A local's stack slot carries LLVM's value
//! name, which LLVM makes unique per function (the second `i` is `i1`, a parameter's slot is
//! `x.addr`, a static local is the global `f.count`); its `llvm.dbg.declare` names the source
//! variable.

use llvm_sys::core::*;
use llvm_sys::debuginfo::LLVMDIGlobalVariableExpressionGetVariable;
use llvm_sys::prelude::*;
use std::collections::HashMap;

#[derive(Clone, Debug, Default)]
pub struct SourceNames {
    /// (function, slot's value name) → source name.
    pub locals: HashMap<(String, String), String>,
    /// Global's symbol name → source name.
    pub globals: HashMap<String, String>,
    /// (function, parameter's value name) → bytes of the object a pointer parameter points
    /// to, by its declared type (`struct ring *r` → 80).
    pub pointees: HashMap<(String, String), u64>,
    /// (function, parameter's value name) of the integer parameters declared unsigned
    /// (`size_t n`, `unsigned len`).
    pub unsigned: std::collections::HashSet<(String, String)>,
    /// (function, parameter's value name) of the parameters declared as function pointers.
    pub callbacks: std::collections::HashSet<(String, String)>,
}

/// The value's name in the bitcode (empty when it has none).
pub(super) unsafe fn value_name(v: LLVMValueRef) -> String {
    unsafe {
        let mut len = 0usize;
        let p = LLVMGetValueName2(v, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// Operands of a metadata node seen as a value (a `ValueAsMetadata` has its value as the one
/// operand).
unsafe fn md_operands(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    unsafe {
        let n = LLVMGetMDNodeNumOperands(v) as usize;
        let mut ops = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetMDNodeOperands(v, ops.as_mut_ptr());
        }
        ops
    }
}

/// The `name:` of a DIVariable (its operand 1, for locals and globals alike).
unsafe fn variable_name(var: LLVMValueRef) -> Option<String> {
    unsafe {
        let name = *md_operands(var).get(1)?;
        if name.is_null() {
            return None;
        }
        let mut len = 0u32;
        let p = LLVMGetMDString(name, &mut len);
        if p.is_null() {
            return None;
        }
        let bytes = std::slice::from_raw_parts(p as *const u8, len as usize);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Reads the names; converts `m` to debug intrinsics (LLVM 19's records have no C API to read
/// them), which is also the form the lowering drops.
///
/// # Safety
/// `ctx` and `m` must be a live LLVM context and a module created in it.
pub unsafe fn read(ctx: LLVMContextRef, m: LLVMModuleRef) -> SourceNames {
    let mut names = SourceNames::default();
    unsafe {
        if LLVMIsNewDbgInfoFormat(m) != 0 {
            LLVMSetIsNewDbgInfoFormat(m, 0);
        }
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let fname = value_name(f);
            let mut b = LLVMGetFirstBasicBlock(f);
            while !b.is_null() {
                let mut i = LLVMGetFirstInstruction(b);
                while !i.is_null() {
                    if let Some((slot, name)) = declared(i) {
                        if let Some(param) = slot.strip_suffix(".addr") {
                            let key = (fname.clone(), param.to_string());
                            if let Some(bytes) = pointee_bytes(i) {
                                names.pointees.insert(key.clone(), bytes);
                            }
                            if declared_callback(i) {
                                names.callbacks.insert(key.clone());
                            }
                            if declared_unsigned(i) {
                                names.unsigned.insert(key);
                            }
                        }
                        names.locals.insert((fname.clone(), slot), name);
                    }
                    i = LLVMGetNextInstruction(i);
                }
                b = LLVMGetNextBasicBlock(b);
            }
            f = LLVMGetNextFunction(f);
        }
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            for var in global_variables(g) {
                if let Some(name) = variable_name(LLVMMetadataAsValue(ctx, var)) {
                    names.globals.insert(value_name(g), name);
                }
            }
            g = LLVMGetNextGlobal(g);
        }
    }
    names
}

/// The debug variables (`DIGlobalVariable`) attached to global `g`.
///
/// # Safety
/// `g` must be a live global of a module.
pub unsafe fn global_variables(g: LLVMValueRef) -> Vec<LLVMMetadataRef> {
    unsafe {
        let ctx = LLVMGetModuleContext(LLVMGetGlobalParent(g));
        let dbg = LLVMGetMDKindIDInContext(ctx, c"dbg".as_ptr(), 3);
        let mut n = 0usize;
        let entries = LLVMGlobalCopyAllMetadata(g, &mut n);
        let mut vars = vec![];
        for k in 0..n as u32 {
            if LLVMValueMetadataEntriesGetKind(entries, k) != dbg {
                continue;
            }
            let gve = LLVMValueMetadataEntriesGetMetadata(entries, k);
            let var = LLVMDIGlobalVariableExpressionGetVariable(gve);
            if !var.is_null() {
                vars.push(var);
            }
        }
        if !entries.is_null() {
            LLVMDisposeValueMetadataEntries(entries);
        }
        vars
    }
}

/// The name of debug file `file` (empty if none).
///
/// # Safety
/// `file` must be null or a live `DIFile`.
pub unsafe fn file_name(file: LLVMMetadataRef) -> String {
    if file.is_null() {
        return String::new();
    }
    unsafe {
        let mut n = 0;
        let p = llvm_sys::debuginfo::LLVMDIFileGetFilename(file, &mut n);
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, n as usize)).into_owned()
    }
}

/// `llvm.dbg.declare(slot, variable, ...)`: the slot's value name and the variable's name.
unsafe fn declared(i: LLVMValueRef) -> Option<(String, String)> {
    unsafe {
        if LLVMIsACallInst(i).is_null() {
            return None;
        }
        let callee = LLVMGetCalledValue(i);
        if callee.is_null() || value_name(callee) != "llvm.dbg.declare" {
            return None;
        }
        let slot = *md_operands(LLVMGetOperand(i, 0)).first()?;
        if slot.is_null() || LLVMIsAAllocaInst(slot).is_null() {
            return None;
        }
        let name = variable_name(LLVMGetOperand(i, 1))?;
        Some((value_name(slot), name))
    }
}

const DW_TAG_POINTER_TYPE: u16 = 0x0f;

/// A debug type's base type (DIDerivedType operands: file, scope, name, base type).
unsafe fn base_type(t: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe { md_operands(t).get(3).copied().filter(|b| !b.is_null()) }
}

/// A DIDerivedType's tag (pointer, typedef, const, ...); None for other metadata.
unsafe fn derived_tag(t: LLVMValueRef) -> Option<u16> {
    use llvm_sys::debuginfo::*;
    unsafe {
        matches!(
            LLVMGetMetadataKind(LLVMValueAsMetadata(t)),
            LLVMMetadataKind::LLVMDIDerivedTypeMetadataKind
        )
        .then(|| LLVMGetDINodeTag(LLVMValueAsMetadata(t)))
    }
}

/// `t` without its typedefs and qualifiers (typedef, const, volatile, restrict, atomic).
unsafe fn unqualified(mut t: LLVMValueRef) -> Option<LLVMValueRef> {
    const WRAPPERS: [u16; 5] = [0x16, 0x26, 0x35, 0x37, 0x47];
    unsafe {
        while derived_tag(t).is_some_and(|tag| WRAPPERS.contains(&tag)) {
            t = base_type(t)?;
        }
        Some(t)
    }
}

/// The type, without typedefs and qualifiers, of the variable `llvm.dbg.declare` `i` declares
/// (DILocalVariable operands: scope, name, file, type).
unsafe fn declared_type(i: LLVMValueRef) -> Option<LLVMValueRef> {
    unsafe {
        let t = *md_operands(LLVMGetOperand(i, 1)).get(3)?;
        if t.is_null() {
            return None;
        }
        unqualified(t)
    }
}

/// The name of basic type `t` (`unsigned long`, `double`); None for other types.
unsafe fn basic_type_name(t: LLVMValueRef) -> Option<String> {
    use llvm_sys::debuginfo::*;
    unsafe {
        if !matches!(
            LLVMGetMetadataKind(LLVMValueAsMetadata(t)),
            LLVMMetadataKind::LLVMDIBasicTypeMetadataKind
        ) {
            return None;
        }
        let mut len = 0usize;
        let name = LLVMDITypeGetName(LLVMValueAsMetadata(t), &mut len);
        (!name.is_null()).then(|| {
            String::from_utf8_lossy(std::slice::from_raw_parts(name as *const u8, len)).into_owned()
        })
    }
}

/// Whether the variable declared by `llvm.dbg.declare` `i` has an unsigned integer type
/// (`size_t` is `unsigned long`), by its basic type's name.
unsafe fn declared_unsigned(i: LLVMValueRef) -> bool {
    unsafe {
        declared_type(i)
            .and_then(|t| basic_type_name(t))
            .is_some_and(|n| n.starts_with("unsigned") || n == "_Bool")
    }
}

/// Whether the variable declared by `llvm.dbg.declare` `i` is a pointer to a function that
/// returns nothing or an integer (what a callback made of inputs can stand for: a pointer or
/// a float it returned would be made up).
unsafe fn declared_callback(i: LLVMValueRef) -> bool {
    use llvm_sys::debuginfo::*;
    unsafe {
        let kind = |t: LLVMValueRef| LLVMGetMetadataKind(LLVMValueAsMetadata(t));
        let Some(f) = declared_type(i)
            .filter(|&t| derived_tag(t) == Some(DW_TAG_POINTER_TYPE))
            .and_then(|t| base_type(t))
            .and_then(|b| unqualified(b))
            .filter(|&f| matches!(kind(f), LLVMMetadataKind::LLVMDISubroutineTypeMetadataKind))
        else {
            return false;
        };
        // DISubroutineType operands: file, scope, name, the types (the result's first).
        let Some(ret) = md_operands(f)
            .get(3)
            .and_then(|&types| md_operands(types).first().copied())
        else {
            return false;
        };
        if ret.is_null() {
            return true; // void
        }
        unqualified(ret)
            .and_then(|r| basic_type_name(r))
            .is_some_and(|n| {
                !["float", "double", "_Complex"]
                    .iter()
                    .any(|k| n.contains(k))
            })
    }
}

/// The size of what the pointer variable declared by `llvm.dbg.declare` `i` points to, by
/// its debug type (through typedefs and qualifiers); None for other variables or unknown sizes.
unsafe fn pointee_bytes(i: LLVMValueRef) -> Option<u64> {
    use llvm_sys::debuginfo::*;
    unsafe {
        let t = declared_type(i)?;
        if derived_tag(t) != Some(DW_TAG_POINTER_TYPE) {
            return None;
        }
        let p = unqualified(base_type(t)?)?;
        let bits = LLVMDITypeGetSizeInBits(LLVMValueAsMetadata(p));
        (bits > 0).then_some(bits.div_ceil(8))
    }
}
