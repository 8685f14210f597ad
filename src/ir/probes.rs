//! Native goal probes: the program's own bitcode, with a probe wherever a run covers one of
//! Cairn's goals (a branch outcome, a switch case, an error call: an inline increment of the
//! goal's hit counter; def-use pairs through `__cairn_probe(goal)`), so a native run says which
//! goals it took at the goal's own granularity, not by line.
//!
//! Sites are found by function name and block index in bitcode normalised as the interpreter's
//! was (`frontend::compile_native_bitcode`), and a site is instrumented only if the block ends
//! in the same kind of terminator at the same source line: a goal whose site is not found is
//! left unprobed (its claims are then checked by line), never probed at the wrong place.

use super::cmplog::Switches;
use super::{Module, NO_GOAL, Terminator};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMIntPredicate, LLVMOpcode};
use std::collections::BTreeSet;
use std::ffi::CString;
use std::path::Path;

/// The probe function the instrumented program calls; `probe_runtime_c` defines it.
pub const PROBE_FN: &str = "__cairn_probe";
/// The pointer inline probes count through, and the number of counters it points to.
const HITS_AT: &str = "__cairn_hits_at";
const HITS_ROOM: &str = "__cairn_hits_room";

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
    /// Def-use: the `nth` store to `storage` in the block defines variable `var` (`def`).
    Def {
        storage: Storage,
        nth: u32,
        var: u32,
        def: u32,
        key: u32,
    },
    /// Def-use: the `nth` load of `storage` in the block is c-use `use_`.
    Use {
        storage: Storage,
        nth: u32,
        use_: u32,
        key: u32,
    },
    /// Def-use: the block's branch decides p-use `use_` (its outcome as `outcome_index`
    /// numbers it: true 0, false 1; the case's position, the default last), read by the
    /// `nth` load of `storage` in the block: the pair is of the definition that load reads,
    /// even when the block defines the variable again before its branch (`switch (n++)`).
    PUse {
        use_: u32,
        cases: Option<Vec<u64>>,
        storage: Storage,
        nth: u32,
        key: u32,
    },
    /// Def-use: function entry and every return (the function's locals' last definitions
    /// belong to its activation); `func` indexes the runtime's table.
    Frame { func: u32, key: u32 },
}

/// Where a variable lives in the bitcode: the function's `n`-th alloca, or a global.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// The `nth` of the function's `of` allocas.
    Alloca {
        nth: u32,
        of: u32,
    },
    Global(String),
}

/// Probes for def-use claims, and what their runtime needs to know: a variable's last
/// definition (per activation of its function, for locals) decides which pair a use covers.
#[derive(Clone, Debug, Default)]
pub struct DefUseProbes {
    pub sites: Vec<ProbeSite>,
    /// Per variable: its definition (+1) holding when the program starts (a global's initial
    /// value), else 0.
    pub var_init: Vec<u32>,
    /// Per use: its variable.
    pub use_var: Vec<u32>,
    /// Per use: its pairs as (definition, outcome or -1 for a c-use, goal).
    pub use_pairs: Vec<Vec<(u32, i32, u32)>>,
    /// Per `Frame` function index: the variables local to it.
    pub func_vars: Vec<Vec<u32>>,
    /// Per pair goal: the site keys that must all be placed for its claims to be checked.
    pub needs: Vec<(u32, Vec<u32>)>,
}

impl DefUseProbes {
    /// The C side: last definitions, a use covering the pair of the one that holds, locals
    /// saved and cleared at a function's entry and restored at its return.
    pub fn runtime_c(&self) -> String {
        let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(",");
        let mut offsets = vec![0usize];
        for p in &self.use_pairs {
            offsets.push(offsets.last().unwrap() + p.len());
        }
        let pairs = || self.use_pairs.iter().flatten();
        let mut foffsets = vec![0usize];
        for f in &self.func_vars {
            foffsets.push(foffsets.last().unwrap() + f.len());
        }
        format!(
            r#"
/* Def-use probes: generated. */
extern void {PROBE_FN}(unsigned);
static int cairn_last[{nv}] = {{{init}}};
static const int cairn_use_var[{nu}] = {{{use_var}}};
static const int cairn_use_at[{nu1}] = {{{offsets}}};
static const int cairn_pair_def[{np}] = {{{pdef}}};
static const int cairn_pair_out[{np}] = {{{pout}}};
static const unsigned cairn_pair_goal[{np}] = {{{pgoal}}};
static const int cairn_fvars_at[{nf1}] = {{{foffsets}}};
static const int cairn_fvars[{nfv}] = {{{fvars}}};
static int cairn_saved[1 << 20];
static unsigned cairn_nsaved, cairn_unsaved;
void {DEF_FN}(int var, int def) {{ cairn_last[var] = def + 1; }}
static void cairn_cover(int use, int outcome, int last) {{
  int d = last - 1;
  if (d < 0) return;
  for (int k = cairn_use_at[use]; k < cairn_use_at[use + 1]; k++)
    if (cairn_pair_def[k] == d && cairn_pair_out[k] == outcome) {PROBE_FN}(cairn_pair_goal[k]);
}}
void {USE_FN}(int use, int outcome) {{ cairn_cover(use, outcome, cairn_last[cairn_use_var[use]]); }}
int {READ_FN}(int use) {{ return cairn_last[cairn_use_var[use]]; }}
void {PUSE_FN}(int use, int outcome, int last) {{ cairn_cover(use, outcome, last); }}
void {ENTER_FN}(int f) {{
  int a = cairn_fvars_at[f], n = cairn_fvars_at[f + 1] - a;
  if (cairn_unsaved || cairn_nsaved + n > sizeof cairn_saved / sizeof *cairn_saved) {{ cairn_unsaved++; return; }}
  for (int k = 0; k < n; k++) {{ cairn_saved[cairn_nsaved++] = cairn_last[cairn_fvars[a + k]]; cairn_last[cairn_fvars[a + k]] = 0; }}
}}
void {LEAVE_FN}(int f) {{
  int a = cairn_fvars_at[f], n = cairn_fvars_at[f + 1] - a;
  if (cairn_unsaved) {{ cairn_unsaved--; return; }}
  for (int k = n - 1; k >= 0; k--) cairn_last[cairn_fvars[a + k]] = cairn_saved[--cairn_nsaved];
}}
"#,
            nv = self.var_init.len().max(1),
            init = list(&mut self.var_init.iter().map(|v| v.to_string())),
            nu = self.use_var.len().max(1),
            use_var = list(&mut self.use_var.iter().map(|v| v.to_string())),
            nu1 = offsets.len(),
            offsets = list(&mut offsets.iter().map(|v| v.to_string())),
            np = offsets.last().unwrap().max(&1),
            pdef = list(&mut pairs().map(|p| p.0.to_string())),
            pout = list(&mut pairs().map(|p| p.1.to_string())),
            pgoal = list(&mut pairs().map(|p| format!("{}u", p.2))),
            nf1 = foffsets.len(),
            foffsets = list(&mut foffsets.iter().map(|v| v.to_string())),
            nfv = foffsets.last().unwrap().max(&1),
            fvars = list(&mut self.func_vars.iter().flatten().map(|v| v.to_string())),
        )
    }
}

/// The runtime functions of the def-use probes.
const DEF_FN: &str = "__cairn_def";
const USE_FN: &str = "__cairn_use";
/// At a p-use's load: the definition it reads (+1), for `PUSE_FN` at the branch.
const READ_FN: &str = "__cairn_use_read";
const PUSE_FN: &str = "__cairn_puse";
const ENTER_FN: &str = "__cairn_enter";
const LEAVE_FN: &str = "__cairn_leave";

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
/// harness's). Returns the goals probed. A branch or error-call probe of a goal below `goals`
/// is inline, a saturating increment of its counter (`HITS_AT`), as a fuzzer's coverage
/// counters are: a call per goal a run takes would cost natively more than the branch. With
/// `cmplog`, the program's comparisons are logged too (`ir::cmplog`), and the switches' cases
/// are returned.
pub fn instrument(
    input: &Path,
    output: &Path,
    sites: &[ProbeSite],
    renames: &[(&str, &str)],
    goals: usize,
    cmplog: bool,
) -> Result<(BTreeSet<u32>, Switches), String> {
    unsafe {
        let ctx = LLVMContextCreate();
        let m = super::normalize::read_module(ctx, input)?;
        // Before the probes, whose own comparisons are not the program's.
        let switches = match cmplog {
            true => super::cmplog::log_comparisons(ctx, m),
            false => Switches::new(),
        };
        let i32t = LLVMInt32TypeInContext(ctx);
        let void = LLVMVoidTypeInContext(ctx);
        let mut params = [i32t];
        let fty = LLVMFunctionType(void, params.as_mut_ptr(), 1, 0);
        let pname = CString::new(PROBE_FN).unwrap();
        let probe = LLVMAddFunction(m, pname.as_ptr(), fty);
        let b = LLVMCreateBuilderInContext(ctx);
        let hits_at = hit_counters(ctx, m, goals);
        // A probe of goal `g` (an i32; `most`: the largest it can be).
        let hit = |g: LLVMValueRef, most: u32| match (most as usize) < goals {
            true => inline_hit(ctx, b, hits_at, g),
            false => call(b, fty, probe, g),
        };
        let mut probed = BTreeSet::new();
        // The def-use runtime's functions, declared when a def-use site asks for them.
        let mut params2 = [i32t, i32t];
        let fty2 = LLVMFunctionType(void, params2.as_mut_ptr(), 2, 0);
        let fty_read = LLVMFunctionType(i32t, params.as_mut_ptr(), 1, 0);
        let mut params3 = [i32t, i32t, i32t];
        let fty3 = LLVMFunctionType(void, params3.as_mut_ptr(), 3, 0);
        let declare = |name: &str, ty: LLVMTypeRef| {
            let n = CString::new(name).unwrap();
            let f = LLVMGetNamedFunction(m, n.as_ptr());
            if f.is_null() {
                LLVMAddFunction(m, n.as_ptr(), ty)
            } else {
                f
            }
        };
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
                    hit(g, (*then_goal).max(*else_goal));
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
                    hit(g, cases.iter().map(|c| c.1).fold(*default, u32::max));
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
                    hit(goal(*eg), *eg);
                    probed.insert(*eg);
                }
                ProbeKind::Def {
                    storage,
                    nth,
                    var,
                    def,
                    key,
                } => {
                    let i = nth_access(m, f, bb, storage, *nth, true);
                    // A parameter's store into its slot has no line of its own.
                    if i.is_null() || !line_ok(i) && LLVMGetDebugLocLine(i) != 0 {
                        continue;
                    }
                    // Just after the store: a use later in the block sees it.
                    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(i));
                    let mut args = [goal(*var), goal(*def)];
                    LLVMBuildCall2(
                        b,
                        fty2,
                        declare(DEF_FN, fty2),
                        args.as_mut_ptr(),
                        2,
                        c"".as_ptr(),
                    );
                    probed.insert(*key);
                }
                ProbeKind::Use {
                    storage,
                    nth,
                    use_,
                    key,
                } => {
                    let i = nth_access(m, f, bb, storage, *nth, false);
                    if i.is_null() || !line_ok(i) {
                        continue;
                    }
                    LLVMPositionBuilderBefore(b, i);
                    let mut args = [goal(*use_), LLVMConstInt(i32t, u64::MAX, 1)];
                    LLVMBuildCall2(
                        b,
                        fty2,
                        declare(USE_FN, fty2),
                        args.as_mut_ptr(),
                        2,
                        c"".as_ptr(),
                    );
                    probed.insert(*key);
                }
                ProbeKind::PUse {
                    use_,
                    cases,
                    storage,
                    nth,
                    key,
                } => {
                    let load = nth_access(m, f, bb, storage, *nth, false);
                    if !line_ok(term) || load.is_null() {
                        continue;
                    }
                    LLVMPositionBuilderBefore(b, load);
                    let mut args = [goal(*use_)];
                    let read = declare(READ_FN, fty_read);
                    let last =
                        LLVMBuildCall2(b, fty_read, read, args.as_mut_ptr(), 1, c"".as_ptr());
                    let outcome = match (cases, LLVMGetInstructionOpcode(term)) {
                        (None, LLVMOpcode::LLVMBr) if LLVMIsConditional(term) != 0 => {
                            LLVMPositionBuilderBefore(b, term);
                            LLVMBuildSelect(
                                b,
                                LLVMGetCondition(term),
                                goal(0),
                                goal(1),
                                c"".as_ptr(),
                            )
                        }
                        (Some(cases), LLVMOpcode::LLVMSwitch)
                            if LLVMGetNumSuccessors(term) as usize == cases.len() + 1 =>
                        {
                            LLVMPositionBuilderBefore(b, term);
                            let v = LLVMGetOperand(term, 0);
                            let ty = LLVMTypeOf(v);
                            let mut o = goal(cases.len() as u32);
                            for (k, c) in cases.iter().enumerate().rev() {
                                let eq = LLVMBuildICmp(
                                    b,
                                    LLVMIntPredicate::LLVMIntEQ,
                                    v,
                                    LLVMConstInt(ty, *c, 0),
                                    c"".as_ptr(),
                                );
                                o = LLVMBuildSelect(b, eq, goal(k as u32), o, c"".as_ptr());
                            }
                            o
                        }
                        _ => continue,
                    };
                    let mut args = [goal(*use_), outcome, last];
                    LLVMBuildCall2(
                        b,
                        fty3,
                        declare(PUSE_FN, fty3),
                        args.as_mut_ptr(),
                        3,
                        c"".as_ptr(),
                    );
                    probed.insert(*key);
                }
                ProbeKind::Frame { func, key } => {
                    // Entry: after the allocas; every return: just before it.
                    let mut i = LLVMGetFirstInstruction(blocks[0]);
                    while !i.is_null() && !LLVMIsAAllocaInst(i).is_null() {
                        i = LLVMGetNextInstruction(i);
                    }
                    if i.is_null() {
                        continue;
                    }
                    LLVMPositionBuilderBefore(b, i);
                    call(b, fty, declare(ENTER_FN, fty), goal(*func));
                    for &bb in &blocks {
                        let t = LLVMGetBasicBlockTerminator(bb);
                        if !t.is_null() && LLVMGetInstructionOpcode(t) == LLVMOpcode::LLVMRet {
                            LLVMPositionBuilderBefore(b, t);
                            call(b, fty, declare(LEAVE_FN, fty), goal(*func));
                        }
                    }
                    probed.insert(*key);
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
        Ok((probed, switches))
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

/// The `nth` store to (or load from) `storage` in block `bb` of `f`; null if there is none,
/// or if `f`'s allocas are not the ones the site counted.
unsafe fn nth_access(
    m: LLVMModuleRef,
    f: LLVMValueRef,
    bb: LLVMBasicBlockRef,
    storage: &Storage,
    nth: u32,
    store: bool,
) -> LLVMValueRef {
    unsafe {
        let ptr = match storage {
            Storage::Global(name) => {
                let n = CString::new(name.as_str()).unwrap();
                LLVMGetNamedGlobal(m, n.as_ptr())
            }
            Storage::Alloca { nth: k, of } => {
                let mut allocas = vec![];
                let mut bb = LLVMGetFirstBasicBlock(f);
                while !bb.is_null() {
                    let mut i = LLVMGetFirstInstruction(bb);
                    while !i.is_null() {
                        if !LLVMIsAAllocaInst(i).is_null() {
                            allocas.push(i);
                        }
                        i = LLVMGetNextInstruction(i);
                    }
                    bb = LLVMGetNextBasicBlock(bb);
                }
                if allocas.len() != *of as usize {
                    return std::ptr::null_mut();
                }
                allocas
                    .get(*k as usize)
                    .copied()
                    .unwrap_or(std::ptr::null_mut())
            }
        };
        if ptr.is_null() {
            return ptr;
        }
        let (opcode, operand) = match store {
            true => (LLVMOpcode::LLVMStore, 1),
            false => (LLVMOpcode::LLVMLoad, 0),
        };
        let mut seen = 0;
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            if LLVMGetInstructionOpcode(i) == opcode && LLVMGetOperand(i, operand) == ptr {
                if seen == nth {
                    return i;
                }
                seen += 1;
            }
            i = LLVMGetNextInstruction(i);
        }
        std::ptr::null_mut()
    }
}

/// The counters inline probes increment: `HITS_AT`, a pointer to `goals` bytes, at first to
/// the module's own (so a probe never needs a check), set to the shared hit counts by the
/// runtime before anything of the program runs (`probe_runtime_c`).
unsafe fn hit_counters(ctx: LLVMContextRef, m: LLVMModuleRef, goals: usize) -> LLVMValueRef {
    unsafe {
        let i8t = LLVMInt8TypeInContext(ctx);
        let room = LLVMArrayType2(i8t, goals.max(1) as u64);
        let own = LLVMAddGlobal(m, room, c"__cairn_unmapped_hits".as_ptr());
        LLVMSetInitializer(own, LLVMConstNull(room));
        LLVMSetLinkage(own, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
        let name = CString::new(HITS_AT).unwrap();
        let at = LLVMAddGlobal(m, LLVMPointerTypeInContext(ctx, 0), name.as_ptr());
        LLVMSetInitializer(at, own);
        let i64t = LLVMInt64TypeInContext(ctx);
        let name = CString::new(HITS_ROOM).unwrap();
        let n = LLVMAddGlobal(m, i64t, name.as_ptr());
        LLVMSetInitializer(n, LLVMConstInt(i64t, goals.max(1) as u64, 0));
        LLVMSetGlobalConstant(n, 1);
        at
    }
}

/// `HITS_AT[g]++`, saturating at 255.
unsafe fn inline_hit(ctx: LLVMContextRef, b: LLVMBuilderRef, at: LLVMValueRef, g: LLVMValueRef) {
    unsafe {
        let i8t = LLVMInt8TypeInContext(ctx);
        let base = LLVMBuildLoad2(b, LLVMPointerTypeInContext(ctx, 0), at, c"".as_ptr());
        let mut index = [LLVMBuildZExt(
            b,
            g,
            LLVMInt64TypeInContext(ctx),
            c"".as_ptr(),
        )];
        let counter = LLVMBuildGEP2(b, i8t, base, index.as_mut_ptr(), 1, c"".as_ptr());
        let n = LLVMBuildLoad2(b, i8t, counter, c"".as_ptr());
        let full = LLVMConstInt(i8t, 255, 0);
        let below = LLVMBuildICmp(b, LLVMIntPredicate::LLVMIntNE, n, full, c"".as_ptr());
        let one_more = LLVMBuildZExt(b, below, i8t, c"".as_ptr());
        let next = LLVMBuildAdd(b, n, one_more, c"".as_ptr());
        LLVMBuildStore(b, next, counter);
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
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
static unsigned char *cairn_hits;
static unsigned long cairn_nhits;
static int cairn_ready;
/* The inline probes' counters (see `ir::probes::instrument`). */
extern unsigned char *{HITS_AT};
extern const unsigned long {HITS_ROOM};
/* Maps the file named by the environment's `name` (`CAIRN_PROBES=`) shared; its size in `*size`.
 * System calls, not the library's functions: the replay harness stands in for those the
 * program calls without a model (`fstat`, `mmap`...) with the test's values. */
static void *cairn_map_env(char **envp, const char *name, unsigned long *size) {{
  const char *p = NULL;
  unsigned long k = strlen(name);
  for (char **e = envp; e && *e && !p; e++)
    if (!strncmp(*e, name, k)) p = *e + k;
  int fd = p ? (int)syscall(SYS_openat, AT_FDCWD, p, O_RDWR) : -1;
  long n = fd >= 0 ? syscall(SYS_lseek, fd, 0L, SEEK_END) : -1; /* i386's kernel stat is not glibc's */
  void *m = MAP_FAILED;
  if (n > 0) {{
#ifdef SYS_mmap2
    m = (void *)syscall(SYS_mmap2, 0, (unsigned long)n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
#else
    m = (void *)syscall(SYS_mmap, 0, (unsigned long)n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0L);
#endif
  }}
  if (fd >= 0) syscall(SYS_close, fd);
  if (m == MAP_FAILED) return NULL;
  *size = (unsigned long)n;
  return m;
}}
static void cairn_probe_map_from(char **envp) {{
  if (cairn_ready) return;
  cairn_ready = 1;
  cairn_hits = cairn_map_env(envp, "CAIRN_PROBES=", &cairn_nhits);
  if (cairn_hits && cairn_nhits >= {HITS_ROOM}) {HITS_AT} = cairn_hits;
}}
extern char **environ;
void __cairn_probe_init(void) {{ cairn_probe_map_from(environ); }}
/* Before anything of the program (its constructors included), so the inline probes count from
 * the first; `getenv` does not work yet, the environment is an argument. */
static void cairn_probe_start(int argc, char **argv, char **envp) {{
  (void)argc; (void)argv;
  cairn_probe_map_from(envp);
}}
__attribute__((section(".preinit_array"), used)) static void (*cairn_probe_preinit)(int, char **,
                                                                                   char **) =
    cairn_probe_start;
/* The hit counts, for the fork server (which clears them between the runs of a batch). */
unsigned char *__cairn_probe_map(unsigned long *n) {{
  __cairn_probe_init();
  *n = cairn_nhits;
  return cairn_hits;
}}
void {PROBE_FN}(unsigned goal) {{
  if (!cairn_ready) __cairn_probe_init();
  if (goal < cairn_nhits && cairn_hits[goal] != 255) cairn_hits[goal]++;
}}
"#,
    )
}
