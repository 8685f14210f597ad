//! Native goal probes: the program's own bitcode, with a call `__cairn_probe(goal)` wherever a
//! run covers one of Cairn's goals (a branch outcome, a switch case, an error call), so a
//! native run says which goals it took at the goal's own granularity, not by line.
//!
//! Sites are found by function name and block index in bitcode normalised as the interpreter's
//! was (`frontend::compile_native_bitcode`), and a site is instrumented only if the block ends
//! in the same kind of terminator at the same source line: a goal whose site is not found is
//! left unprobed (its claims are then checked by line), never probed at the wrong place.

use super::{Module, NO_GOAL, Terminator};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMIntPredicate, LLVMOpcode};
use std::collections::BTreeSet;
use std::ffi::CString;
use std::path::Path;

/// The probe function the instrumented program calls; `probe_runtime_c` defines it.
pub const PROBE_FN: &str = "__cairn_probe";

/// What a block covers when it runs to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    /// A conditional branch: one goal per outcome.
    Branch { then_goal: u32, else_goal: u32 },
    /// A switch: the goal of each case value, and of the default.
    Switch {
        cases: Vec<(u64, u32)>,
        default: u32,
    },
    /// The `nth` call of an error function in the block.
    ErrorCall { nth: u32, goal: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeSite {
    pub func: String,
    pub block: u32,
    /// Source line of the terminator (or the call): checked before a probe is placed.
    pub line: u32,
    pub kind: ProbeKind,
}

/// The probe sites of `m`'s goals; `error_goal` gives the goal of an error call site, if any.
pub fn probe_sites(m: &Module, error_goal: impl Fn(u32) -> Option<u32>) -> Vec<ProbeSite> {
    let mut sites = vec![];
    for f in &m.functions {
        for (bi, b) in f.blocks.iter().enumerate() {
            let mut nth = 0;
            for i in &b.insts {
                let Some((site, name)) = m.direct_call(i) else {
                    continue;
                };
                if !crate::ir::is_error_call(name) {
                    continue;
                }
                if let Some(goal) = error_goal(site) {
                    sites.push(ProbeSite {
                        func: f.name.clone(),
                        block: bi as u32,
                        line: m.call_sites[site as usize].line,
                        kind: ProbeKind::ErrorCall { nth, goal },
                    });
                }
                nth += 1;
            }
            let kind = match &b.term {
                Terminator::CondBr {
                    then_goal,
                    else_goal,
                    ..
                } if *then_goal != NO_GOAL => ProbeKind::Branch {
                    then_goal: *then_goal,
                    else_goal: *else_goal,
                },
                Terminator::Switch {
                    cases,
                    default_goal,
                    ..
                } if *default_goal != NO_GOAL => ProbeKind::Switch {
                    cases: cases.iter().map(|(v, _, g)| (*v, *g)).collect(),
                    default: *default_goal,
                },
                _ => continue,
            };
            sites.push(ProbeSite {
                func: f.name.clone(),
                block: bi as u32,
                line: b.term_loc.line,
                kind,
            });
        }
    }
    sites
}

/// Instruments `input` into `output` with a probe at every site found; applies `renames`
/// (`main` when the harness has the `main`; declared functions such as `exit` to the
/// harness's). Returns the goals probed.
pub fn instrument(
    input: &Path,
    output: &Path,
    sites: &[ProbeSite],
    renames: &[(&str, &str)],
) -> Result<BTreeSet<u32>, String> {
    unsafe {
        let ctx = LLVMContextCreate();
        let m = super::normalize::read_module(ctx, input)?;
        let i32t = LLVMInt32TypeInContext(ctx);
        let void = LLVMVoidTypeInContext(ctx);
        let mut params = [i32t];
        let fty = LLVMFunctionType(void, params.as_mut_ptr(), 1, 0);
        let pname = CString::new(PROBE_FN).unwrap();
        let probe = LLVMAddFunction(m, pname.as_ptr(), fty);
        let b = LLVMCreateBuilderInContext(ctx);
        let mut probed = BTreeSet::new();
        for s in sites {
            let fname = CString::new(s.func.as_str()).unwrap();
            let f = LLVMGetNamedFunction(m, fname.as_ptr());
            if f.is_null() || LLVMCountBasicBlocks(f) <= s.block {
                continue;
            }
            let mut blocks = vec![std::ptr::null_mut(); LLVMCountBasicBlocks(f) as usize];
            LLVMGetBasicBlocks(f, blocks.as_mut_ptr());
            let bb = blocks[s.block as usize];
            let term = LLVMGetBasicBlockTerminator(bb);
            if term.is_null() {
                continue;
            }
            let line_ok = |i: LLVMValueRef| s.line == 0 || LLVMGetDebugLocLine(i) == s.line;
            let goal = |g: u32| LLVMConstInt(i32t, g as u64, 0);
            match &s.kind {
                ProbeKind::Branch {
                    then_goal,
                    else_goal,
                } => {
                    if LLVMGetInstructionOpcode(term) != LLVMOpcode::LLVMBr
                        || LLVMIsConditional(term) == 0
                        || !line_ok(term)
                    {
                        continue;
                    }
                    LLVMPositionBuilderBefore(b, term);
                    let c = LLVMGetCondition(term);
                    let g = LLVMBuildSelect(b, c, goal(*then_goal), goal(*else_goal), c"".as_ptr());
                    call(b, fty, probe, g);
                    probed.extend([*then_goal, *else_goal]);
                }
                ProbeKind::Switch { cases, default } => {
                    if LLVMGetInstructionOpcode(term) != LLVMOpcode::LLVMSwitch
                        || LLVMGetNumSuccessors(term) as usize != cases.len() + 1
                        || !line_ok(term)
                    {
                        continue;
                    }
                    LLVMPositionBuilderBefore(b, term);
                    // The switch's value is its first operand (`LLVMGetCondition` is for `br`).
                    let v = LLVMGetOperand(term, 0);
                    let ty = LLVMTypeOf(v);
                    let mut g = goal(*default);
                    // Later cases first, so the first case with a value wins (as the switch).
                    for (k, cg) in cases.iter().rev() {
                        let eq = LLVMBuildICmp(
                            b,
                            LLVMIntPredicate::LLVMIntEQ,
                            v,
                            LLVMConstInt(ty, *k, 0),
                            c"".as_ptr(),
                        );
                        g = LLVMBuildSelect(b, eq, goal(*cg), g, c"".as_ptr());
                    }
                    call(b, fty, probe, g);
                    probed.insert(*default);
                    probed.extend(cases.iter().map(|c| c.1));
                }
                ProbeKind::ErrorCall { nth, goal: eg } => {
                    let mut k = 0;
                    let mut i = LLVMGetFirstInstruction(bb);
                    while !i.is_null() {
                        if !LLVMIsACallInst(i).is_null() && is_error_callee(i) {
                            if k == *nth {
                                break;
                            }
                            k += 1;
                        }
                        i = LLVMGetNextInstruction(i);
                    }
                    if i.is_null() || !line_ok(i) {
                        continue;
                    }
                    LLVMPositionBuilderBefore(b, i);
                    call(b, fty, probe, goal(*eg));
                    probed.insert(*eg);
                }
            }
        }
        define_indeterminate(m, b);
        LLVMDisposeBuilder(b);
        for (old, new) in renames {
            let f = LLVMGetNamedFunction(m, CString::new(*old).unwrap().as_ptr());
            if !f.is_null() && (*old == "main" || LLVMIsDeclaration(f) != 0) {
                let n = CString::new(*new).unwrap();
                LLVMSetValueName2(f, n.as_ptr(), new.len());
            }
        }
        super::normalize::write_module(ctx, m, output)?;
        Ok(probed)
    }
}

/// Gives the functions standing for a local's value before its first write (see
/// `normalize::INDETERMINATE`) a body: zero, as the interpreter reads.
unsafe fn define_indeterminate(m: LLVMModuleRef, b: LLVMBuilderRef) {
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut n = 0;
            let p = LLVMGetValueName2(f, &mut n);
            let name = std::slice::from_raw_parts(p as *const u8, n);
            if name.starts_with(super::normalize::INDETERMINATE.as_bytes())
                && LLVMCountBasicBlocks(f) == 0
            {
                let ctx = LLVMGetModuleContext(m);
                let bb = LLVMAppendBasicBlockInContext(ctx, f, c"entry".as_ptr());
                LLVMPositionBuilderAtEnd(b, bb);
                let ret = LLVMGetReturnType(LLVMGlobalGetValueType(f));
                LLVMBuildRet(b, LLVMConstNull(ret));
                LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            }
            f = LLVMGetNextFunction(f);
        }
    }
}

unsafe fn call(b: LLVMBuilderRef, fty: LLVMTypeRef, f: LLVMValueRef, arg: LLVMValueRef) {
    unsafe {
        let mut args = [arg];
        LLVMBuildCall2(b, fty, f, args.as_mut_ptr(), 1, c"".as_ptr());
    }
}

unsafe fn is_error_callee(call: LLVMValueRef) -> bool {
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return false;
        }
        let mut n = 0;
        let p = LLVMGetValueName2(callee, &mut n);
        let name = std::slice::from_raw_parts(p as *const u8, n);
        crate::ir::is_error_call(&String::from_utf8_lossy(name))
    }
}

/// The C side of the probes: one byte per goal in a file the runner names in `CAIRN_PROBES`,
/// mapped shared, so what a run covered survives however it ends (`_exit`, a signal, a kill
/// at the time limit). A byte counts the goal's hits up to 255 (the fuzzer's feedback); a fork
/// server maps the file once (`__cairn_probe_init`) and its children inherit the mapping.
pub fn probe_runtime_c() -> String {
    format!(
        r#"/* Cairn native goal probes: generated. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
static unsigned char *cairn_hits;
static unsigned long cairn_nhits;
static int cairn_ready;
void __cairn_probe_init(void) {{
  if (cairn_ready) return;
  cairn_ready = 1;
  const char *p = getenv("CAIRN_PROBES");
  int fd = p ? open(p, O_RDWR) : -1;
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {{
    void *m = mmap(0, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m != MAP_FAILED) {{ cairn_hits = m; cairn_nhits = st.st_size; }}
  }}
  if (fd >= 0) close(fd);
}}
void {PROBE_FN}(unsigned goal) {{
  if (!cairn_ready) __cairn_probe_init();
  if (goal < cairn_nhits && cairn_hits[goal] != 255) cairn_hits[goal]++;
}}
"#,
    )
}
