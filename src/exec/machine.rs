//! The interpreter: runs Cairn IR on concrete values.
//!
//! Registers of all active frames live in one `Vec<u64>` and aggregate slots in one `Vec<u8>`;
//! a frame is a base offset into each. The hot loop keeps the current function and block in
//! locals and returns to the outer loop only on calls and returns.

use super::input::{Channel, InputKind, InputSource, InputValue};
use super::libc::{self as clib, Ext};
use super::memory::{MemFault, Memory, ObjKind, Object};
use super::observer::{AtMost, Call, CallAction, InputUse, Observer, RunEnd, Site, Target, View};
use super::ops::{self, mask, sext};
use crate::analysis::expectation::{ROOT_CONTEXT, call_context};
use crate::ir::rounding::Rounding;
use crate::ir::*;
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct Config {
    /// Maximum number of IR instructions per run.
    pub max_steps: u64,
    /// Maximum call depth (a safety net: the stack size is the real bound).
    pub max_depth: usize,
    /// Copy the program's stdout to our stdout as it is produced.
    pub echo_stdout: bool,
    /// Memory limit of one run (contents and bookkeeping of its objects).
    pub mem_limit: u64,
    /// Native stack size in bytes.
    pub stack_size: u64,
    /// The session's deadline: a run still going then ends (`Limit::Deadline`).
    pub deadline: Option<Instant>,
    /// Set by Ctrl-C / SIGTERM: a run going then ends (`Limit::Interrupt`).
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_steps: 50_000_000,
            max_depth: 1 << 20,
            echo_stdout: false,
            mem_limit: 2 << 30,
            stack_size: super::memory::NATIVE_STACK,
            deadline: None,
            interrupt: None,
        }
    }
}

/// Steps between two checks of the deadline and the interrupt flag (well under a millisecond).
const LIMIT_CHECK_STEPS: u64 = 1 << 16;

/// A stack array larger than this that does not fit ends the run as the environment's: natively
/// its declaration only moves the stack pointer, and what follows depends on which of its bytes
/// the program touches (the top ones lie in the mapped stack, the bottom ones past its end), so
/// no outcome is predicted and no proof rests on the run. Smaller ones overflow with the
/// frames around them, as natively.
const UNPREDICTABLE_ALLOCA: u64 = 64 << 10;

/// A limit of Cairn's (not of the program) that ended a run early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Deadline,
    Interrupt,
    Memory,
    /// The run would link more blocks than a run may (`exec::links`): past them a pointer
    /// would be its input bytes, a wild pointer of Cairn's making.
    Links,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// `main` returned or `exit` was called.
    Exit(i32),
    /// `abort()`, a failed `assert`, or a call of the error function.
    Abort,
    /// An assumption (`__VERIFIER_assume`, `klee_assume`) did not hold: the path is infeasible.
    AssumeFailed,
    /// A runtime error of the program: what, and where.
    Fault {
        kind: String,
        loc: Loc,
    },
    StepLimit,
    /// The program reached something Cairn cannot execute.
    Unsupported {
        what: String,
        loc: Loc,
        /// An operation on the environment (a file that is not an input, a thread schedule):
        /// what follows depends on the machine, so not even a native run makes it a test.
        environment: bool,
    },
    /// Cut short by a limit of Cairn's: says nothing about how the program ends.
    Cut(Limit),
    /// Ended by the search at a loop header in a state another of its runs was in
    /// (`exec::revisit`): what follows is that run's to explore. Its goals so far are its own.
    Revisited,
}

impl Outcome {
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Exit(_) => "exit",
            Outcome::Abort => "abort",
            Outcome::AssumeFailed => "assume-failed",
            Outcome::Fault { .. } => "fault",
            Outcome::StepLimit => "step-limit",
            Outcome::Unsupported { .. } => "unsupported",
            Outcome::Cut(Limit::Deadline) => "deadline",
            Outcome::Cut(Limit::Interrupt) => "interrupted",
            Outcome::Cut(Limit::Memory) => "memory-limit",
            Outcome::Cut(Limit::Links) => "link-limit",
            Outcome::Revisited => "revisited",
        }
    }
    /// The exit status a shell would see for the native program (128 + signal for crashes).
    pub fn exit_code(&self) -> i32 {
        match self {
            Outcome::Exit(c) => *c & 0xff,
            Outcome::Abort => 134,
            Outcome::Fault { kind, .. } if kind.contains("division") => 136,
            Outcome::Fault { kind, .. } if kind.starts_with("killed by signal ") => {
                128 + kind[17..].parse::<i32>().unwrap_or(11)
            }
            Outcome::Fault { .. } => 139,
            _ => -1,
        }
    }
    pub fn is_crash(&self) -> bool {
        matches!(self, Outcome::Fault { .. } | Outcome::Abort)
    }
}

/// Why execution stopped (internal control flow of the interpreter).
#[derive(Debug)]
pub enum Stop {
    Exit(i32),
    Abort,
    AssumeFailed,
    Fault(String),
    StepLimit,
    Unsupported(String),
    Environment(String),
    Cut(Limit),
    Revisited,
}

impl From<MemFault> for Stop {
    fn from(f: MemFault) -> Stop {
        match f {
            MemFault::LimitReached => Stop::Cut(Limit::Memory),
            f => Stop::Fault(f.describe().to_string()),
        }
    }
}

/// Counts a branch goal taken (`NO_GOAL`: the branch is no goal).
#[inline]
fn count_hit(hits: &mut [u32], goal: u32) {
    if goal != NO_GOAL {
        let n = &mut hits[goal as usize];
        *n = n.saturating_add(1);
    }
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub outcome: Outcome,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub inputs: Vec<InputValue>,
    /// Per branch goal: how many times this run took it (saturating).
    pub branches: Vec<u32>,
    /// Call sites of error functions that were reached.
    pub errors_hit: Vec<u32>,
    pub steps: u64,
    /// Names of unknown external functions whose results became inputs.
    pub unknown_externs: Vec<String>,
    /// What the observers the program tracks on every run found (def-use pairs).
    pub observed: crate::exec::observer::Observations,
    /// The exit status came from an indeterminate value (`main` returned an uninitialized
    /// local): the interpreter read 0, a native run may exit with anything. Known only to
    /// runs with a symbolic shadow.
    pub exit_indeterminate: bool,
    /// Decisions of the run depended on where objects lie in memory (a pointer made an
    /// integer): natively the same inputs may take other branches.
    pub layout_dependent: bool,
    /// Where a decision of the run first rested on uninitialized memory (zeros here, whatever
    /// memory held natively). `branches` and `errors_hit` are what the run took before it:
    /// what came after is not the program's to predict, so it is not claimed. Known only to
    /// runs with a symbolic shadow.
    pub uninitialized_at: Option<Loc>,
    /// Whether the run was watched for such decisions (a symbolic shadow's runs; a native
    /// run is what it is).
    pub uninitialized_checked: bool,
    /// Where an `Abort` outcome happened (the failed assertion's, abort's or the error
    /// function's call in the program).
    pub abort_loc: Option<Loc>,
    /// Unit mode: what the entry function returned (decimal, C hex-float, `null`/`non-null`).
    pub returned: Option<String>,
    /// Heap blocks the program could no longer reach when it exited.
    pub leak: Option<crate::exec::memory::Leak>,
    /// A memory fault's access, in words: how far past which object (`Machine::access_fault`).
    pub fault_detail: Option<String>,
    /// Unit mode: the pointer parameters whose buffers the run freed (an exported test does
    /// not check what is left in them).
    pub freed_params: Vec<String>,
}

impl RunResult {
    /// A run that ended with `outcome` on `inputs`, nothing else known of it (a native run).
    pub fn new(outcome: Outcome, inputs: Vec<InputValue>) -> RunResult {
        RunResult {
            outcome,
            stdout: vec![],
            stderr: vec![],
            inputs,
            branches: vec![],
            errors_hit: vec![],
            steps: 0,
            unknown_externs: vec![],
            observed: Default::default(),
            exit_indeterminate: false,
            layout_dependent: false,
            uninitialized_at: None,
            uninitialized_checked: false,
            abort_loc: None,
            returned: None,
            leak: None,
            fault_detail: None,
            freed_params: vec![],
        }
    }
}

impl crate::analysis::goals::RunCoverage for RunResult {
    fn branch_counts(&self) -> &[u32] {
        &self.branches
    }
    fn error_sites_hit(&self) -> &[u32] {
        &self.errors_hit
    }
    fn def_use_pairs(&self) -> &[u32] {
        self.observed
            .get::<crate::exec::defuse::DefUseRun>()
            .map_or(&[], |d| &d.covered)
    }
}

/// A returned scalar as a test shows it.
fn returned_text(v: &VarArg) -> Option<String> {
    let VarArg::Scalar(bits, ty) = v else {
        return None;
    };
    Some(match *ty {
        Ty::Int(1) => (bits & 1).to_string(),
        Ty::Int(w) => sext(*bits, w as u32).to_string(),
        Ty::F32 => crate::exec::input::hexfloat(f32::from_bits(*bits as u32) as f64),
        Ty::F64 => crate::exec::input::hexfloat(f64::from_bits(*bits)),
        Ty::Ptr if *bits == 0 => "null".into(),
        Ty::Ptr => "non-null".into(),
        _ => return None,
    })
}

pub struct Frame {
    pub(super) func: FuncId,
    /// Where the frame is (a caller: the call's block and the instruction after it).
    pub(super) block: BlockId,
    pub(super) ip: usize,
    /// Base of its registers, and of its aggregate slots.
    pub(super) rb: usize,
    ab: usize,
    ret: Option<Val>,
    pub(super) stack_mark: usize,
    pub(super) varargs: Vec<VarArg>,
    /// Call-string context: `call_context` of the caller's context and the call site.
    ctx: u64,
}

#[derive(Clone, Debug)]
pub enum VarArg {
    Scalar(u64, Ty),
    Agg(Vec<u8>),
}

/// Estimated native (-O0) frame of a function besides its address-taken locals: return
/// address and saved frame pointer, a spill slot per parameter, a slot for the result
/// (clang -O0 frames measured at 32-64 bytes for small recursive functions).
fn native_frame_bytes(params: usize) -> u64 {
    32 + (8 * params as u64).div_ceil(16) * 16
}

/// Bytes behind each pointer parameter of a unit-mode entry function.
pub const UNIT_BUFFER: u64 = 64;

/// How far from every object an access is described as through a wild pointer, not as past
/// the end of the nearest object.
const WILD_DISTANCE: u64 = 1 << 20;

/// The runtime's `scanf` on stdin (`cairn_runtime.c`, compiled at -O0: never inlined).
const SCAN_STDIN: &str = "scan_stdin";

/// Executor state for one run. Create with `Machine::new`, run with `run_main`.
/// The runtime's start: it calls `main`, then `exit` with what `main` returned.
pub const START_FN: &str = "__cairn_start";

pub struct Machine<'m> {
    pub module: &'m Module,
    pub cfg: Config,
    pub mem: Memory,
    pub(super) regs: Vec<u64>,
    aggs: Vec<u8>,
    frames: Vec<Frame>,
    pub exts: &'m [Ext],
    pub input: &'m mut dyn InputSource,
    pub inputs: Vec<InputValue>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub branches: Vec<u32>,
    pub errors_hit: Vec<u32>,
    pub steps: u64,
    pub ptr_bits: u32,
    pub libc: clib::LibcState,
    cur_site: u32,
    cur_loc: Loc,
    /// Whoever watches the run (the symbolic shadow, monitors...): told every event.
    obs: Option<&'m mut dyn Observer>,
    /// Step count at which the limits are checked next.
    check_at: u64,
    /// How a unit-mode entry function is called.
    pub unit: super::Unit,
    /// Unit mode: the runtime's `exit`, run once the entry returns (the harness returns the
    /// entry's value from `main`, so natively exit runs the atexit handlers and destructors).
    exit_after_entry: Option<FuncId>,
    /// The runtime's `scanf` on stdin (`SCAN_STDIN`), if the program has it.
    scan_stdin: Option<FuncId>,
    /// Unit mode: what the entry function returned, as text (decimal, C hex-float, or
    /// `null`/`non-null` for a pointer).
    returned: Option<String>,
    /// Pointers this run computed from one object into another (`table[i]` past the table's
    /// end, landing in a neighbour): Cairn's layout is not the native one, so an access through
    /// one ends the run (see [`Machine::stray_access`]).
    stray: Vec<u64>,
    /// Unit mode: the buffers given to pointer parameters, by address, with the parameter's
    /// name (a fault's description names them).
    param_buffers: Vec<(u64, String)>,
    /// Unit mode: the input blocks whose pointers are linked when first loaded.
    pub(super) links: super::links::Roots,
    /// What a memory fault's access was, in words (`access_fault`).
    fault_detail: Option<String>,
    /// The rounding mode the program set (`fesetround`): float operations round so.
    pub(super) rounding: Rounding,
    /// Unit mode: the pointer parameters this run passes as NULL.
    null_params: Vec<String>,
}

/// How many stray pointers a run remembers (the oldest is forgotten first).
const STRAY_POINTERS: usize = 8;

impl<'m> Machine<'m> {
    pub fn new(
        module: &'m Module,
        exts: &'m [Ext],
        cfg: Config,
        input: &'m mut dyn InputSource,
    ) -> Machine<'m> {
        let mut mem = Memory::new(module.globals_end);
        mem.limit = cfg.mem_limit;
        mem.stack_size = cfg.stack_size;
        let check_at = cfg.max_steps.min(LIMIT_CHECK_STEPS);
        for g in &module.globals {
            mem.add_global(g.addr, g.init.clone(), g.read_only);
        }
        let mut m = Machine {
            module,
            cfg,
            mem,
            regs: Vec::with_capacity(1 << 16),
            aggs: Vec::new(),
            frames: vec![],
            exts,
            input,
            inputs: vec![],
            stdout: vec![],
            stderr: vec![],
            branches: vec![0; module.branch_goals.len()],
            errors_hit: vec![],
            steps: 0,
            ptr_bits: module.data_model.ptr_bytes() * 8,
            libc: clib::LibcState::default(),
            cur_site: 0,
            cur_loc: Loc::default(),
            obs: None,
            check_at,
            unit: super::Unit::default(),
            exit_after_entry: None,
            scan_stdin: module.func_by_name.get(SCAN_STDIN).copied(),
            returned: None,
            stray: Vec::new(),
            param_buffers: Vec::new(),
            links: Default::default(),
            fault_detail: None,
            rounding: Rounding::ToNearest,
            null_params: Vec::new(),
        };
        clib::init(&mut m);
        m
    }

    /// Lets `obs` watch the run.
    pub fn observe(&mut self, obs: &'m mut dyn Observer) {
        self.obs = Some(obs);
    }

    /// Tells the observer (if any) about an event, with a view of the concrete state.
    #[inline(always)]
    pub fn notify<R>(&mut self, event: impl FnOnce(&mut dyn Observer, &View) -> R) -> Option<R> {
        let obs = self.obs.as_deref_mut()?;
        let view = View {
            module: self.module,
            exts: self.exts,
            regs: &self.regs,
            mem: &self.mem,
            ptr_bits: self.ptr_bits,
            ctx: self.frames.last().map_or(ROOT_CONTEXT, |f| f.ctx),
            depth: self.frames.len(),
            frames: &self.frames,
            steps: self.steps,
            branches: &self.branches,
            errors_hit: self.errors_hit.len(),
            inputs: self.inputs.len(),
            rounding: self.rounding,
        };
        Some(event(obs, &view))
    }

    /// The input just read (the last of the run) reaches the program as `used`.
    pub fn input_used(&mut self, used: InputUse) {
        let index = self.inputs.len() - 1;
        let width = self.inputs[index].width;
        self.notify(|o, v| o.input(v, index, width, used));
    }

    /// Reads the next input value of `kind` and records it in the test.
    pub fn next_input(&mut self, kind: InputKind, len: usize) -> InputValue {
        let long_bits = if self.module.data_model == DataModel::ILP32 {
            32
        } else {
            64
        };
        let width = match kind {
            InputKind::Float => 32,
            InputKind::Double => 64,
            InputKind::Pointer => self.ptr_bits,
            k => k.int_info(long_bits).map(|i| i.0).unwrap_or(64),
        };
        let mut v = self.input.next(kind, width, len);
        // The source's value may be one another run read by other means (a test's value).
        v.channel = match self.in_scan_stdin() {
            true => Channel::Scanf,
            false => Channel::Call,
        };
        self.inputs.push(v.clone());
        v
    }

    /// The next character of stdin (see `InputSource::next_char`).
    pub fn next_char_input(&mut self) -> InputValue {
        let mut v = self.input.next_char();
        v.channel = Channel::Stdin;
        self.inputs.push(v.clone());
        v
    }

    /// Whether the running function is the runtime's `scanf` on stdin (its reads are what
    /// scanf read, not input calls of the program).
    fn in_scan_stdin(&self) -> bool {
        self.scan_stdin.is_some() && self.frames.last().map(|f| f.func) == self.scan_stdin
    }

    pub fn current_loc(&self) -> Loc {
        self.cur_loc
    }

    pub fn current_site(&self) -> u32 {
        self.cur_site
    }

    /// Call-string context of the current frame (`ROOT_CONTEXT` in the first frame).
    pub fn context(&self) -> u64 {
        self.frames.last().map_or(ROOT_CONTEXT, |f| f.ctx)
    }

    pub fn finish(self, outcome: Outcome) -> RunResult {
        let freed_params = (self.param_buffers.iter())
            .filter(|(b, _)| !self.mem.is_alive(*b))
            .map(|(_, name)| name.clone())
            .collect();
        RunResult {
            freed_params,
            abort_loc: (outcome == Outcome::Abort).then(|| self.program_loc()),
            returned: self.returned,
            leak: None,
            fault_detail: self.fault_detail,
            outcome,
            stdout: self.stdout,
            stderr: self.stderr,
            inputs: self.inputs,
            branches: self.branches,
            errors_hit: self.errors_hit,
            steps: self.steps,
            unknown_externs: self.libc.unknown_called.clone(),
            observed: Default::default(),
            exit_indeterminate: self.libc.main_status_unknown,
            layout_dependent: false,
            uninitialized_at: None,
            uninitialized_checked: false,
        }
    }

    /// Runs `entry` (normally `main`, with `argc = 1`, `argv = {"prog", NULL}`) to completion.
    pub fn run_main(mut self, entry: &str) -> RunResult {
        let outcome = match self.module.func_by_name.get(entry) {
            None => Outcome::Unsupported {
                what: format!("no function `{entry}`"),
                loc: Loc::default(),
                environment: false,
            },
            Some(&fid) => match self.start(self.start_function(entry).unwrap_or(fid)) {
                Ok(()) => self.run_loop(),
                Err(s) => self.stop_outcome(s),
            },
        };
        let leak = match outcome {
            Outcome::Exit(_) => {
                clib::flush(&mut self);
                // A unit's result is the caller's to free: only a whole program leaks.
                (entry == "main").then(|| self.leaks()).flatten()
            }
            // What stdio had not yet handed to the OS dies with the process.
            _ => {
                self.stdout.truncate(self.libc.stdout_flushed);
                None
            }
        };
        RunResult {
            leak,
            ..self.finish(outcome)
        }
    }

    /// `main` starts through the runtime's `__cairn_start`, which calls `exit` with its value.
    fn start_function(&self, entry: &str) -> Option<FuncId> {
        if entry == "main" {
            self.module.func_by_name.get(START_FN).copied()
        } else {
            None
        }
    }

    fn start(&mut self, fid: FuncId) -> Result<(), Stop> {
        let f = &self.module.functions[fid as usize];
        let mut args = vec![];
        if f.name == "main" || f.name == START_FN {
            // main(argc, argv): a single program-name argument, as a test harness would run it.
            if !f.params.is_empty() {
                let name = self.mem.malloc(5)?;
                self.mem.write(name, b"prog\0")?;
                let pb = self.ptr_bits / 8;
                let argv = self.mem.malloc(2 * pb as u64)?;
                self.mem.write_uint(argv, pb, name)?;
                for (i, p) in f.params.iter().enumerate() {
                    let v = match (i, p) {
                        (0, _) => 1,
                        (1, _) => argv,
                        _ => 0,
                    };
                    args.push(VarArg::Scalar(v, p.ty()));
                }
            }
        } else {
            // Unit mode: the entry function's parameters are inputs, then the globals it
            // starts with (`--symbolic-globals`).
            let params = f.params.clone();
            let byval = f.byval.clone();
            let names: Vec<String> = (0..params.len())
                .map(|i| f.param_name(i).unwrap_or("param").to_string())
                .collect();
            let callbacks = f.param_callback.clone();
            // A function pointer points to the runtime's callback, whose results are inputs.
            let callback = self
                .module
                .func_by_name
                .get("__cairn_unit_callback")
                .copied();
            for (pos, p) in params.iter().enumerate() {
                if let (Some(true), Some(cb)) = (callbacks.get(pos), callback) {
                    let addr = layout::FUNC_BASE + 16 * cb as u64;
                    args.push(VarArg::Scalar(addr, Ty::Ptr));
                    continue;
                }
                let by_value = byval.iter().find(|b| b.0 == pos).map(|b| b.1);
                args.push(self.unit_param(pos, p.ty(), by_value, &names[pos])?);
            }
            for g in self.unit.globals.clone() {
                let (addr, size) = {
                    let g = &self.module.globals[g as usize];
                    (g.addr, g.size)
                };
                let v = self.next_input(InputKind::Bytes, size as usize);
                self.mem.write(addr, v.bytes())?;
                if let Some(last) = self.inputs.last_mut() {
                    last.set_name(&self.module.globals[g as usize].name);
                }
                self.input_used(InputUse::Bytes { addr, n: size });
                let name = self.module.globals[g as usize].name.clone();
                self.add_link_root((addr, size), self.unit.buffer, &name);
            }
        }
        let unit = !matches!(f.name.as_str(), "main" | "__cairn_start");
        if unit {
            self.exit_after_entry = self.module.func_by_name.get("exit").copied();
        }
        self.push_frame(fid, &args, None)?;
        // Unit mode: constructors run first, as before the harness's `main` natively.
        match self.module.func_by_name.get("__cairn_ctors") {
            Some(&c) if unit && fid != c => self.push_frame(c, &[], None),
            _ => Ok(()),
        }
    }

    /// One parameter of a unit-mode entry: scalars are inputs; a pointer points to a fresh
    /// buffer of `unit.buffer` input bytes, NUL-terminated so it is also a valid string; a
    /// struct passed by value (`byval`, `by_value` bytes) is input bytes, all of them.
    fn unit_param(
        &mut self,
        pos: usize,
        ty: Ty,
        by_value: Option<u64>,
        name: &str,
    ) -> Result<VarArg, Stop> {
        let kind = match ty {
            Ty::Int(1) => InputKind::Bool,
            Ty::Int(8) => InputKind::Char,
            Ty::Int(16) => InputKind::Short,
            Ty::Int(32) => InputKind::Int,
            Ty::Int(_) => InputKind::LongLong,
            Ty::F32 => InputKind::Float,
            Ty::F64 => InputKind::Double,
            Ty::Ptr => {
                let (n, string) = match by_value {
                    Some(size) => (size.max(1), false),
                    None => (self.unit.buffer.max(1), true),
                };
                let buf = self.mem.malloc(n)?;
                self.param_buffers.push((buf, name.to_string()));
                // A pointer (not a struct passed by value) may be NULL, as an input says; its
                // buffer is read either way, so that the values after it keep their places.
                let null = by_value.is_none() && {
                    let mut flag = self.input.next_null_flag();
                    flag.channel = Channel::Null;
                    flag.set_name(name);
                    self.inputs.push(flag.clone());
                    self.input_used(InputUse::NullParam { pos, buf });
                    flag.bits != 0
                };
                if null {
                    self.null_params.push(name.to_string());
                }
                // Named as the parameter is in the source (tests and exports show it).
                self.fill_input_block(buf, n, name, string)?;
                self.add_link_root((buf, n), self.unit.buffer, name);
                return Ok(VarArg::Scalar(if null { 0 } else { buf }, Ty::Ptr));
            }
            _ => return Ok(VarArg::Scalar(0, ty)),
        };
        let v = self.next_input(kind, 0);
        let at_most = match (self.unit.lengths.iter().find(|l| l.pos == pos), ty) {
            (Some(l), Ty::Int(w)) => Some(AtMost {
                max: l.max,
                unsigned: l.unsigned,
                holds: l.holds(v.bits, w as u32),
            }),
            _ => None,
        };
        self.input_used(InputUse::Param { pos, at_most });
        if at_most.is_some_and(|a| !a.holds) {
            return Err(Stop::AssumeFailed);
        }
        Ok(VarArg::Scalar(v.bits, ty))
    }

    /// The input block `[addr, addr+len)`, the last input's bytes, is a root of lazily linked
    /// pointers (`links`), whose blocks hold at least `min_child` bytes.
    pub(crate) fn add_link_root(&mut self, (addr, len): (u64, u64), min_child: u64, name: &str) {
        let value = self.inputs.len() - 1;
        let pb = (self.ptr_bits / 8) as u64;
        self.links.add((addr, len), min_child, value, name, pb);
    }

    /// Marks heap block `p`, just allocated, as the program's (a leak of it is reported) when
    /// the program called the allocator, itself or through `strdup`/`strndup`; blocks the
    /// runtime keeps for itself (argv, input files, getenv's values) are not the program's.
    pub(crate) fn note_allocation(&mut self, p: u64) {
        let caller = self
            .frames
            .last()
            .map(|f| &self.module.functions[f.func as usize]);
        let program = caller.is_none_or(|f| {
            !crate::analysis::defuse::is_runtime(self.module, f)
                || matches!(f.name.as_str(), "strdup" | "strndup")
        });
        if program {
            let site = self.program_loc();
            self.mem.set_site(p, site);
        }
    }

    /// The program's heap blocks it can no longer reach (see `Memory::leaks`): the live
    /// frames' registers and argument values are roots, as the stack is.
    fn leaks(&self) -> Option<crate::exec::memory::Leak> {
        let mut roots: Vec<u64> = self.libc.streams.to_vec();
        let mut aggs: Vec<&[u8]> = vec![];
        for f in &self.frames {
            let func = &self.module.functions[f.func as usize];
            let regs = self.regs.get(f.rb..f.rb + func.num_regs as usize);
            roots.extend(regs.into_iter().flatten());
            aggs.extend(self.aggs.get(f.ab..f.ab + func.agg_init.len()));
            roots.extend(f.varargs.iter().filter_map(|v| match v {
                VarArg::Scalar(x, _) => Some(*x),
                VarArg::Agg(_) => None,
            }));
        }
        self.mem
            .leaks(&roots, aggs.into_iter(), (self.ptr_bits / 8) as usize)
    }

    /// Where the program is: the current location, or outside Cairn's runtime the call that
    /// led into it (a user reads "fopen ... at main.c:6", not a line of the runtime).
    fn program_loc(&self) -> Loc {
        let runtime = |fid: FuncId| {
            let f = &self.module.functions[fid as usize];
            crate::analysis::defuse::is_runtime(self.module, f)
        };
        let Some(top) = self.frames.last() else {
            return self.cur_loc;
        };
        if !runtime(top.func) {
            return self.cur_loc;
        }
        for fr in self.frames.iter().rev().skip(1) {
            if !runtime(fr.func) {
                let block = &self.module.functions[fr.func as usize].blocks[fr.block as usize];
                return match fr.ip {
                    0 => block.term_loc,
                    ip => block.locs.get(ip - 1).copied().unwrap_or(block.term_loc),
                };
            }
        }
        self.cur_loc
    }

    /// Pointer arithmetic from `from` gave `to`: remembers `to` when it left `from`'s object
    /// (one past the end stays inside) for another live object, or came from no object at all
    /// (an index added to a null pointer) into one, or derives from a stray pointer.
    #[inline(never)]
    fn note_stray(&mut self, from: u64, to: u64) {
        let stray = self.stray.contains(&from)
            || match self.mem.object_bounds(from) {
                Some((base, size)) => {
                    !(base..=base + size).contains(&to) && self.mem.object_bounds(to).is_some()
                }
                None => self.mem.object_bounds(to).is_some(),
            };
        if stray && !self.stray.contains(&to) {
            if self.stray.len() == STRAY_POINTERS {
                self.stray.remove(0);
            }
            self.stray.push(to);
        }
    }

    /// The fault of an access of `len` bytes at `addr` at `loc`, with what the access was in
    /// words (how far past which object), as AddressSanitizer says it.
    #[cold]
    fn access_fault(&mut self, e: MemFault, addr: u64, len: u64, loc: Loc) -> Stop {
        self.cur_loc = loc;
        match e {
            MemFault::OutOfBounds | MemFault::UseAfterFree => {
                self.fault_detail = self.describe_access(addr, len)
            }
            MemFault::Null => self.fault_detail = self.null_params_words(),
            _ => {}
        }
        e.into()
    }

    /// Unit mode: which pointer parameters this run passed as NULL (concolic search does where
    /// the function compares one with NULL), for a null dereference's description.
    fn null_params_words(&self) -> Option<String> {
        let names: Vec<String> = self.null_params.iter().map(|n| format!("`{n}`")).collect();
        match names.len() {
            0 => None,
            1 => Some(format!("parameter {} is NULL in this run", names[0])),
            _ => Some(format!(
                "parameters {} are NULL in this run",
                names.join(", ")
            )),
        }
    }

    /// A library function's model, under the program's rounding mode (the host's `rint`,
    /// `sqrt` and `printf` read it as the program's do natively).
    fn call_library(
        &mut self,
        ext: u32,
        argv: &[VarArg],
        ret: Option<Val>,
    ) -> Result<Option<VarArg>, Stop> {
        match self.rounding {
            Rounding::ToNearest => clib::call(self, ext, argv, ret),
            mode => mode.scope(|| clib::call(self, ext, black_box(argv), ret)),
        }
    }

    /// A library function's memory fault, with its access in words as `access_fault` gives an
    /// instruction's ("`memmove`'s 40-byte access 16 bytes past the end of ...").
    #[cold]
    fn library_fault(&mut self, stop: Stop, ext: u32) -> Stop {
        let memory = [MemFault::OutOfBounds, MemFault::UseAfterFree].map(|f| f.describe());
        if let Stop::Fault(kind) = &stop
            && kind == MemFault::Null.describe()
            && self.fault_detail.is_none()
        {
            self.fault_detail = self.null_params_words();
        }
        if let Stop::Fault(kind) = &stop
            && memory.contains(&kind.as_str())
            && self.fault_detail.is_none()
            && let Some((addr, len)) = self.mem.last_fault.take()
            && let Some(access) = self.describe_access(addr, len)
        {
            let name = &self.module.externs[ext as usize].name;
            self.fault_detail = Some(format!("`{name}`'s {}", access.trim_start_matches("a ")));
        }
        stop
    }

    fn describe_access(&self, addr: u64, len: u64) -> Option<String> {
        let bytes = |n: u64| format!("{n} byte{}", if n == 1 { "" } else { "s" });
        let (below, above) = self.mem.around(addr);
        let access = format!("a {len}-byte access");
        let end = |o: &Object| o.base + o.size;
        if let Some(o) = below.filter(|o| addr < end(o)) {
            let past = (addr + len).saturating_sub(end(o));
            let over = match past {
                0 => String::new(),
                n => format!(", {} past its end", bytes(n)),
            };
            let off = addr - o.base;
            return Some(format!(
                "{access} at offset {off} of {}{over}",
                self.object_words(o)
            ));
        }
        // Nearer the end of the object below or the start of the one above.
        // (Distances as AddressSanitizer counts them: `a[n]` of `a[n]` is 0 bytes past the
        // end, `a[-1]` 1 byte before the start.)
        let past = |b: &Object| {
            let ours = self.param_buffers.iter().any(|(p, _)| *p == b.base)
                || self.links.linked_block(b.base).is_some();
            let hint = match ours {
                true => {
                    " (Cairn's choice in unit mode: if callers pass a larger one, --buffer-size)"
                }
                false => "",
            };
            format!(
                "{access} {} past the end of {}{hint}",
                bytes(addr - end(b)),
                self.object_words(b)
            )
        };
        let before = |a: &Object| {
            format!(
                "{access} {} before the start of {}",
                bytes(a.base - addr),
                self.object_words(a)
            )
        };
        // Far from every object (a pointer made of input bytes, in unit mode a pointer inside a
        // parameter's buffer): no object is the one the access missed.
        let distance = (below.map(|b| addr - end(b)))
            .into_iter()
            .chain(above.map(|a| a.base - addr))
            .min();
        if distance.is_some_and(|d| d > WILD_DISTANCE) {
            return Some(format!(
                "{access} at {addr:#x}, a wild pointer (no object within {} MiB of it)",
                WILD_DISTANCE >> 20
            ));
        }
        match (below, above) {
            (Some(b), Some(a)) if a.base - addr > addr - end(b) => Some(past(b)),
            (_, Some(a)) => Some(before(a)),
            (Some(b), None) => Some(past(b)),
            (None, None) => None,
        }
    }

    /// An object in words: a unit parameter's buffer, a global by name, a heap block by where
    /// it was allocated, a local.
    fn object_words(&self, o: &Object) -> String {
        let size = o.size;
        if let Some((_, name)) = self.param_buffers.iter().find(|(b, _)| *b == o.base) {
            return format!("the {size}-byte buffer of parameter `{name}`");
        }
        if let Some(name) = self.links.linked_block(o.base) {
            return format!("the {size}-byte block Cairn linked at `{name}`");
        }
        match o.kind {
            ObjKind::Global => match self.module.globals.iter().find(|g| g.addr == o.base) {
                Some(g) if !g.name.starts_with('.') => format!(
                    "global `{}` ({size} bytes)",
                    g.source_name.as_deref().unwrap_or(&g.name)
                ),
                _ => format!("a {size}-byte constant"),
            },
            ObjKind::Heap => {
                let freed = if o.alive { "" } else { ", freed" };
                match o.site {
                    Some(at) => format!(
                        "a {size}-byte heap block allocated at {}{freed}",
                        self.module.loc_string(at)
                    ),
                    None => format!(
                        "a {size}-byte block Cairn made (an argument, a file's contents){freed}"
                    ),
                }
            }
            ObjKind::Stack => format!("a {size}-byte local"),
        }
    }

    /// An access at `addr` through a stray pointer reads or writes whatever object Cairn's
    /// layout put there, where natively another lies (or nothing): what follows is unknown, so
    /// the run ends as the environment's, with no outcome predicted and no claim past it.
    #[cold]
    fn stray_access(&mut self, addr: u64, loc: Loc) -> Result<(), Stop> {
        if !self.stray.contains(&addr) {
            return Ok(());
        }
        self.cur_loc = loc;
        Err(Stop::Environment(
            "an access through a pointer computed past its object's end, or from a null \
             pointer, into another object (the native layout differs)"
                .into(),
        ))
    }

    /// A library function given a stray pointer would access another object (`memcpy`,
    /// `printf("%s")`): the run ends as at an access through it.
    fn stray_arguments(&mut self, args: &[VarArg]) -> Result<(), Stop> {
        if self.stray.is_empty() {
            return Ok(());
        }
        let loc = self.cur_loc;
        for a in args {
            if let VarArg::Scalar(p, Ty::Ptr) = a {
                self.stray_access(*p, loc)?;
            }
        }
        Ok(())
    }

    fn stop_outcome(&self, s: Stop) -> Outcome {
        match s {
            Stop::Exit(c) => Outcome::Exit(c),
            Stop::Abort => Outcome::Abort,
            Stop::AssumeFailed => Outcome::AssumeFailed,
            // Inside the runtime's libc (strcpy, scanf...): at the program's call, where
            // AddressSanitizer's innermost frame in the program is too.
            Stop::Fault(kind) => Outcome::Fault {
                kind,
                loc: self.program_loc(),
            },
            Stop::StepLimit => Outcome::StepLimit,
            Stop::Unsupported(what) => Outcome::Unsupported {
                what,
                loc: self.program_loc(),
                environment: false,
            },
            Stop::Environment(what) => Outcome::Unsupported {
                what,
                loc: self.program_loc(),
                environment: true,
            },
            Stop::Cut(l) => Outcome::Cut(l),
            Stop::Revisited => Outcome::Revisited,
        }
    }

    /// The step limit, the deadline and the interrupt flag (every `LIMIT_CHECK_STEPS` steps).
    #[cold]
    fn check_limits(&mut self) -> Result<(), Stop> {
        if self.steps > self.cfg.max_steps {
            return Err(Stop::StepLimit);
        }
        self.check_clock()?;
        self.check_at = self.cfg.max_steps.min(self.steps + LIMIT_CHECK_STEPS);
        Ok(())
    }

    /// The deadline and the interrupt flag: also after library work that takes long in few
    /// steps (a `memset` of hundreds of megabytes).
    pub(crate) fn check_clock(&mut self) -> Result<(), Stop> {
        if let Some(flag) = &self.cfg.interrupt
            && flag.load(Ordering::Relaxed)
        {
            return Err(Stop::Cut(Limit::Interrupt));
        }
        if self.cfg.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Cut(Limit::Deadline));
        }
        Ok(())
    }

    fn push_frame(&mut self, fid: FuncId, args: &[VarArg], ret: Option<Val>) -> Result<(), Stop> {
        if self.frames.len() >= self.cfg.max_depth {
            return Err(Stop::Fault("stack overflow (call depth limit)".into()));
        }
        let f = &self.module.functions[fid as usize];
        if f.blocks.is_empty() {
            return Err(Stop::Unsupported(format!(
                "call of `{}` which has no body",
                f.name
            )));
        }
        let rb = self.regs.len();
        let ab = self.aggs.len();
        self.regs.extend_from_slice(&f.reg_init);
        self.aggs.extend_from_slice(&f.agg_init);
        let mut varargs = vec![];
        for (i, a) in args.iter().enumerate() {
            match (f.params.get(i), a) {
                (Some(Val::Reg(r, _)), VarArg::Scalar(v, _)) => self.regs[rb + *r as usize] = *v,
                (Some(Val::Agg(s, n)), VarArg::Agg(bytes)) => {
                    let s = ab + *s as usize;
                    let n = (*n as usize).min(bytes.len());
                    self.aggs[s..s + n].copy_from_slice(&bytes[..n]);
                }
                (Some(_), _) => {
                    return Err(Stop::Fault(format!(
                        "call of `{}` with mismatched arguments",
                        f.name
                    )));
                }
                (None, a) => varargs.push(a.clone()),
            }
        }
        let stack_mark = self.mem.stack_mark();
        self.mem.reserve_frame(native_frame_bytes(f.params.len()))?;
        for &(i, size, align) in &f.byval {
            if let Some(Val::Reg(r, _)) = f.params.get(i) {
                let src = self.regs[rb + *r as usize];
                let copy = self.mem.alloca(size, align)?;
                self.mem.copy(copy, src, size)?;
                self.notify(|o, v| o.mem_copied(v, copy, src, size));
                self.regs[rb + *r as usize] = copy;
            }
        }
        // Frames are pushed by calls (at `cur_site`) and by `start` (the root).
        let ctx = self
            .frames
            .last()
            .map_or(ROOT_CONTEXT, |f| call_context(f.ctx, self.cur_site));
        self.frames.push(Frame {
            func: fid,
            block: 0,
            ip: 0,
            rb,
            ab,
            ret,
            stack_mark,
            varargs,
            ctx,
        });
        self.notify(|o, v| o.enter(v, fid, rb));
        Ok(())
    }

    #[inline(always)]
    fn val_of(&self, rb: usize, ab: usize, v: Val) -> VarArg {
        match v {
            Val::Reg(r, t) => VarArg::Scalar(self.regs[rb + r as usize], t),
            Val::Agg(s, n) => {
                VarArg::Agg(self.aggs[ab + s as usize..ab + s as usize + n as usize].to_vec())
            }
        }
    }

    /// Writes a call's result into the caller's destination.
    pub fn set_ret(&mut self, dst: Option<Val>, v: &VarArg) {
        let (rb, ab) = match self.frames.last() {
            Some(f) => (f.rb, f.ab),
            None => return,
        };
        match (dst, v) {
            (Some(Val::Reg(r, t)), VarArg::Scalar(x, _)) => {
                self.regs[rb + r as usize] = mask(*x, t.bits_with(self.ptr_bits))
            }
            (Some(Val::Agg(s, n)), VarArg::Agg(bytes)) => {
                let s = ab + s as usize;
                let n = (n as usize).min(bytes.len());
                self.aggs[s..s + n].copy_from_slice(&bytes[..n]);
            }
            _ => {}
        }
    }

    fn run_loop(&mut self) -> Outcome {
        loop {
            match self.step_frame() {
                Ok(true) => continue,
                Ok(false) => {
                    // main returned
                    return Outcome::Exit(self.libc.main_ret as i32);
                }
                Err(Stop::Exit(c)) => return Outcome::Exit(c),
                Err(s) => return self.stop_outcome(s),
            }
        }
    }

    /// Executes the current frame until it calls or returns. Ok(false) when the last frame returned.
    fn step_frame(&mut self) -> Result<bool, Stop> {
        let module = self.module;
        let fr = self.frames.last().unwrap();
        let (fid, mut bid, mut ip, rb, ab) = (fr.func, fr.block, fr.ip, fr.rb, fr.ab);
        let func = &module.functions[fid as usize];
        let pbits = self.ptr_bits;
        let pbytes = pbits / 8;
        loop {
            let block = &func.blocks[bid as usize];
            if ip == 0 {
                self.steps += block.insts.len() as u64 + 1;
                if self.steps > self.check_at {
                    self.cur_loc = block.term_loc;
                    self.check_limits()?;
                }
            }
            while ip < block.insts.len() {
                let inst = &block.insts[ip];
                ip += 1;
                let at = Site {
                    func: fid,
                    block: bid,
                    rb,
                };
                if !self.links.is_empty()
                    && let Inst::Load {
                        ty: Ty::Ptr, addr, ..
                    } = inst
                {
                    self.link_pointer(self.regs[rb + *addr as usize])?;
                }
                self.notify(|o, v| o.inst(v, inst, at));
                let regs = &mut self.regs[rb..];
                match inst {
                    Inst::Bin { op, w, dst, a, b } => {
                        match ops::bin(*op, *w, regs[*a as usize], regs[*b as usize]) {
                            Ok(v) => regs[*dst as usize] = v,
                            Err(e) => {
                                self.cur_loc = block.locs[ip - 1];
                                return Err(Stop::Fault(match e {
                                    ops::ArithFault::DivByZero => "division by zero".into(),
                                    ops::ArithFault::DivOverflow => {
                                        "division overflow (INT_MIN / -1)".into()
                                    }
                                }));
                            }
                        }
                    }
                    Inst::ICmp { pred, w, dst, a, b } => {
                        regs[*dst as usize] =
                            ops::icmp(*pred, *w, regs[*a as usize], regs[*b as usize]) as u64;
                    }
                    Inst::Load { dst, ty, addr } => {
                        let a = regs[*addr as usize];
                        if !self.stray.is_empty() {
                            self.stray_access(a, block.locs[ip - 1])?;
                        }
                        let n = match ty {
                            Ty::Ptr => pbytes,
                            t => t.store_size(module.data_model),
                        };
                        match self.mem.read_uint(a, n) {
                            Ok(v) => {
                                let w = ty.bits_with(pbits);
                                self.regs[rb + *dst as usize] = mask(v, w);
                            }
                            Err(e) => {
                                return Err(self.access_fault(e, a, n as u64, block.locs[ip - 1]));
                            }
                        }
                    }
                    Inst::Store { ty, addr, val } => {
                        let a = regs[*addr as usize];
                        let v = regs[*val as usize];
                        if !self.stray.is_empty() {
                            self.stray_access(a, block.locs[ip - 1])?;
                        }
                        let n = match ty {
                            Ty::Ptr => pbytes,
                            t => t.store_size(module.data_model),
                        };
                        if let Err(e) = self.mem.write_uint(a, n, v) {
                            return Err(self.access_fault(e, a, n as u64, block.locs[ip - 1]));
                        }
                    }
                    Inst::Gep {
                        dst,
                        base,
                        offset,
                        terms,
                    } => {
                        let mut v = regs[*base as usize].wrapping_add(*offset as u64);
                        for (r, w, scale) in terms {
                            v = v.wrapping_add(
                                (sext(regs[*r as usize], *w as u32)).wrapping_mul(*scale) as u64,
                            );
                        }
                        let v = mask(v, pbits);
                        regs[*dst as usize] = v;
                        if !terms.is_empty() || !self.stray.is_empty() {
                            let from = self.regs[rb + *base as usize];
                            self.note_stray(from, v);
                        }
                    }
                    Inst::Cast {
                        op,
                        from,
                        to,
                        dst,
                        a,
                    } => {
                        let x = regs[*a as usize];
                        regs[*dst as usize] = match self.rounding {
                            Rounding::ToNearest => ops::cast(*op, *from, *to, x, pbits),
                            r => r.scope(|| ops::cast(*op, *from, *to, black_box(x), pbits)),
                        };
                    }
                    Inst::Select {
                        dst, cond, t, f, ..
                    } => {
                        regs[*dst as usize] = if regs[*cond as usize] & 1 != 0 {
                            regs[*t as usize]
                        } else {
                            regs[*f as usize]
                        };
                    }
                    Inst::FBin { op, ty, dst, a, b } => {
                        let (x, y) = (regs[*a as usize], regs[*b as usize]);
                        regs[*dst as usize] = match self.rounding {
                            Rounding::ToNearest => ops::fbin(*op, *ty, x, y),
                            r => r.scope(|| ops::fbin(*op, *ty, black_box(x), black_box(y))),
                        };
                    }
                    Inst::FNeg { ty, dst, a } => {
                        regs[*dst as usize] = regs[*a as usize]
                            ^ if *ty == Ty::F32 {
                                1u64 << 31
                            } else {
                                1u64 << 63
                            };
                    }
                    Inst::FCmp {
                        pred,
                        ty,
                        dst,
                        a,
                        b,
                    } => {
                        regs[*dst as usize] =
                            ops::fcmp(*pred, *ty, regs[*a as usize], regs[*b as usize]) as u64;
                    }
                    Inst::SelectAgg {
                        dst,
                        size,
                        cond,
                        t,
                        f,
                    } => {
                        let src = if regs[*cond as usize] & 1 != 0 {
                            *t
                        } else {
                            *f
                        };
                        self.aggs.copy_within(
                            ab + src as usize..ab + (src + size) as usize,
                            ab + *dst as usize,
                        );
                    }
                    Inst::Alloca {
                        dst,
                        elem_size,
                        count,
                        align,
                    } => {
                        let n = elem_size.saturating_mul(regs[*count as usize]);
                        match self.mem.alloca(n, *align) {
                            Ok(a) => {
                                self.regs[rb + *dst as usize] = a;
                                self.notify(|o, v| o.uninitialized(v, a, n));
                            }
                            Err(MemFault::StackOverflow) if n > UNPREDICTABLE_ALLOCA => {
                                self.cur_loc = block.locs[ip - 1];
                                return Err(Stop::Environment(format!(
                                    "a stack array of {n} bytes past the stack's end"
                                )));
                            }
                            Err(e) => {
                                self.cur_loc = block.locs[ip - 1];
                                return Err(e.into());
                            }
                        }
                    }
                    Inst::LoadAgg { dst, size, addr } => {
                        let a = regs[*addr as usize];
                        if !self.stray.is_empty() {
                            self.stray_access(a, block.locs[ip - 1])?;
                        }
                        match self.mem.read(a, *size as u64) {
                            Ok(bytes) => {
                                let d = ab + *dst as usize;
                                self.aggs[d..d + *size as usize].copy_from_slice(bytes);
                            }
                            Err(e) => {
                                return Err(self.access_fault(
                                    e,
                                    a,
                                    *size as u64,
                                    block.locs[ip - 1],
                                ));
                            }
                        }
                    }
                    Inst::StoreAgg { size, addr, val } => {
                        let a = regs[*addr as usize];
                        if !self.stray.is_empty() {
                            self.stray_access(a, block.locs[ip - 1])?;
                        }
                        let s = ab + *val as usize;
                        let bytes = self.aggs[s..s + *size as usize].to_vec();
                        if let Err(e) = self.mem.write(a, &bytes) {
                            return Err(self.access_fault(e, a, *size as u64, block.locs[ip - 1]));
                        }
                    }
                    Inst::ExtractValue {
                        dst,
                        ty,
                        agg,
                        offset,
                    } => {
                        let n = match ty {
                            Ty::Ptr => pbytes,
                            t => t.store_size(module.data_model),
                        } as usize;
                        let s = ab + (*agg + *offset) as usize;
                        let mut b = [0u8; 8];
                        b[..n].copy_from_slice(&self.aggs[s..s + n]);
                        self.regs[rb + *dst as usize] =
                            mask(u64::from_le_bytes(b), ty.bits_with(pbits));
                    }
                    Inst::ExtractAgg {
                        dst,
                        size,
                        agg,
                        offset,
                    } => {
                        let s = ab + (*agg + *offset) as usize;
                        self.aggs
                            .copy_within(s..s + *size as usize, ab + *dst as usize);
                    }
                    Inst::InsertValue {
                        dst,
                        size,
                        agg,
                        val,
                        offset,
                    } => {
                        let (d, s) = (ab + *dst as usize, ab + *agg as usize);
                        if d != s {
                            self.aggs.copy_within(s..s + *size as usize, d);
                        }
                        match *val {
                            Val::Reg(r, t) => {
                                let n = match t {
                                    Ty::Ptr => pbytes,
                                    t => t.store_size(module.data_model),
                                } as usize;
                                let v = self.regs[rb + r as usize].to_le_bytes();
                                let o = d + *offset as usize;
                                self.aggs[o..o + n].copy_from_slice(&v[..n]);
                            }
                            Val::Agg(s2, n) => {
                                let o = d + *offset as usize;
                                self.aggs
                                    .copy_within(ab + s2 as usize..ab + (s2 + n) as usize, o);
                            }
                        }
                    }
                    Inst::Intrinsic { op, ty, dst, args } => {
                        if let Err(e) = self.intrinsic(*op, *ty, *dst, args, rb, ab) {
                            self.cur_loc = block.locs[ip - 1];
                            return Err(e);
                        }
                    }
                    Inst::MemCopy { dst, src, len, .. } => {
                        let (d, s, n) = (
                            regs[*dst as usize],
                            regs[*src as usize],
                            regs[*len as usize],
                        );
                        if !self.stray.is_empty() && n > 0 {
                            self.stray_access(d, block.locs[ip - 1])?;
                            self.stray_access(s, block.locs[ip - 1])?;
                        }
                        if let Err(e) = self.mem.copy(d, s, n) {
                            self.cur_loc = block.locs[ip - 1];
                            return Err(e.into());
                        }
                    }
                    Inst::MemSet { dst, byte, len } => {
                        let (d, b, n) = (
                            regs[*dst as usize],
                            regs[*byte as usize],
                            regs[*len as usize],
                        );
                        if !self.stray.is_empty() && n > 0 {
                            self.stray_access(d, block.locs[ip - 1])?;
                        }
                        if let Err(e) = self.mem.fill(d, b as u8, n) {
                            return Err(self.access_fault(e, d, n, block.locs[ip - 1]));
                        }
                    }
                    Inst::VaStart { list } => {
                        let l = regs[*list as usize];
                        self.cur_loc = block.locs[ip - 1];
                        self.va_start(l)?;
                    }
                    Inst::VaCopy { dst, src } => {
                        let (d, s) = (regs[*dst as usize], regs[*src as usize]);
                        let n = if pbits == 64 { 24 } else { 4 };
                        self.cur_loc = block.locs[ip - 1];
                        self.mem.copy(d, s, n)?;
                    }
                    Inst::Call {
                        callee,
                        args,
                        ret,
                        site,
                    } => {
                        self.cur_loc = block.locs[ip - 1];
                        self.cur_site = *site;
                        let target = match callee {
                            Callee::Func(f) => CallTarget::Func(*f),
                            Callee::Indirect(r) => {
                                let a = regs[*r as usize];
                                self.resolve_fptr(a)?
                            }
                        };
                        let argv: Vec<VarArg> =
                            args.iter().map(|a| self.val_of(rb, ab, *a)).collect();
                        let to = match target {
                            CallTarget::Func(f) => Target::Func(f),
                            CallTarget::Ext(e) => Target::Extern(e),
                        };
                        let call = Call {
                            target: to,
                            args,
                            dst: *ret,
                            site: *site,
                        };
                        self.notify(|o, v| o.call(v, call, rb));
                        {
                            let fr = self.frames.last_mut().unwrap();
                            fr.block = bid;
                            fr.ip = ip;
                        }
                        match target {
                            CallTarget::Func(f) => {
                                if self.is_error_fn(&module.functions[f as usize].name) {
                                    self.errors_hit.push(*site);
                                }
                                if self.notify(|o, v| o.call_action(v, f))
                                    == Some(CallAction::Abstract)
                                {
                                    // The callee is not run: its result is a fresh input.
                                    let name = &module.functions[f as usize].name;
                                    let r = clib::result_as_input(self, name, *ret)?;
                                    if let Some(r) = r {
                                        self.set_ret(*ret, &r);
                                    }
                                    // What the callee may have written is an input too.
                                    let writes = self
                                        .notify(|o, v| o.abstract_writes(v, f))
                                        .unwrap_or_default();
                                    for (addr, n) in writes {
                                        let v = self.next_input(InputKind::Bytes, n as usize);
                                        self.mem.write(addr, v.bytes())?;
                                        self.input_used(InputUse::Bytes { addr, n });
                                    }
                                    self.notify(|o, v| o.extern_returned(v, *ret, rb));
                                    return Ok(true);
                                }
                                self.push_frame(f, &argv, *ret)?;
                                return Ok(true);
                            }
                            CallTarget::Ext(e) => {
                                self.stray_arguments(&argv)?;
                                self.mem.last_fault.set(None);
                                let r = self
                                    .call_library(e, &argv, *ret)
                                    .map_err(|s| self.library_fault(s, e))?;
                                if let Some(r) = r {
                                    self.set_ret(*ret, &r);
                                }
                                self.notify(|o, v| o.extern_returned(v, *ret, rb));
                                return Ok(true);
                            }
                        }
                    }
                    Inst::CallExtern {
                        ext,
                        args,
                        ret,
                        site,
                    } => {
                        self.cur_loc = block.locs[ip - 1];
                        self.cur_site = *site;
                        let argv: Vec<VarArg> =
                            args.iter().map(|a| self.val_of(rb, ab, *a)).collect();
                        let to = Target::Extern(*ext);
                        let call = Call {
                            target: to,
                            args,
                            dst: *ret,
                            site: *site,
                        };
                        self.notify(|o, v| o.call(v, call, rb));
                        {
                            let fr = self.frames.last_mut().unwrap();
                            fr.block = bid;
                            fr.ip = ip;
                        }
                        self.stray_arguments(&argv)?;
                        self.mem.last_fault.set(None);
                        let r = self
                            .call_library(*ext, &argv, *ret)
                            .map_err(|s| self.library_fault(s, *ext))?;
                        if let Some(r) = r {
                            self.set_ret(*ret, &r);
                        }
                        self.notify(|o, v| o.extern_returned(v, *ret, rb));
                        return Ok(true);
                    }
                }
            }
            // Terminator.
            let at = Site {
                func: fid,
                block: bid,
                rb,
            };
            // The observer sees the terminator, then may end the run before it is taken.
            let stop = self.notify(|o, v| {
                o.terminator(v, &block.term, at);
                o.stop(v)
            });
            match stop {
                Some(Some(RunEnd::Environment(why))) => return Err(Stop::Environment(why)),
                Some(Some(RunEnd::Revisited)) => return Err(Stop::Revisited),
                _ => {}
            }
            let regs = &mut self.regs[rb..];
            let edge = match &block.term {
                Terminator::Br { edge } => edge,
                Terminator::CondBr {
                    cond,
                    then_edge,
                    else_edge,
                    then_goal,
                    else_goal,
                } => {
                    if regs[*cond as usize] & 1 != 0 {
                        count_hit(&mut self.branches, *then_goal);
                        then_edge
                    } else {
                        count_hit(&mut self.branches, *else_goal);
                        else_edge
                    }
                }
                Terminator::Switch {
                    val,
                    w,
                    cases,
                    default,
                    default_goal,
                } => {
                    let v = mask(regs[*val as usize], *w as u32);
                    match cases.iter().find(|c| c.0 == v) {
                        Some((_, e, g)) => {
                            count_hit(&mut self.branches, *g);
                            e
                        }
                        None => {
                            count_hit(&mut self.branches, *default_goal);
                            default
                        }
                    }
                }
                Terminator::Ret { val } => {
                    let rv = val.map(|v| self.val_of(rb, ab, v));
                    let n = self.frames.len();
                    let caller = (n > 1).then(|| (self.frames[n - 2].rb, self.frames[n - 1].ret));
                    let val = *val;
                    self.notify(|o, v| o.ret(v, val, rb, caller));
                    let fr = self.frames.pop().unwrap();
                    // `main` returns to the runtime's start, which exits with its value.
                    if self.module.main_status_unknown
                        && self.module.functions[fr.func as usize].name == "main"
                    {
                        self.libc.main_status_unknown = true;
                    }
                    if let Some((lo, hi)) = self.mem.pop_stack(fr.stack_mark) {
                        self.notify(|o, v| o.mem_written(v, lo, hi - lo));
                    }
                    self.regs.truncate(fr.rb);
                    self.aggs.truncate(fr.ab);
                    if self.frames.is_empty() {
                        // The exit status is the entry's return value when it is an integer
                        // (as the unit-mode harness returns it), else 0.
                        self.libc.main_ret = match rv {
                            Some(VarArg::Scalar(v, Ty::Int(_))) => sext(v, 32),
                            _ => 0,
                        };
                        self.libc.entry_ret = clib::scalar_of(&rv);
                        if self.exit_after_entry.is_some() {
                            self.returned = rv.as_ref().and_then(returned_text);
                        }
                        if let Some(x) = self.exit_after_entry.take() {
                            let status = VarArg::Scalar(self.libc.main_ret as u64, Ty::Int(32));
                            self.push_frame(x, &[status], None)?;
                            return Ok(true);
                        }
                        return Ok(false);
                    }
                    if let Some(rv) = rv {
                        self.set_ret(fr.ret, &rv);
                    }
                    return Ok(true);
                }
                Terminator::Unreachable => {
                    self.cur_loc = block.term_loc;
                    return Err(Stop::Fault(
                        "reached `unreachable` (missing return or noreturn call returned)".into(),
                    ));
                }
            };
            // Phi moves: parallel copy.
            let mv = &edge.moves;
            if !mv.regs.is_empty() {
                self.notify(|o, v| o.edge(v, mv, rb));
            }
            let regs = &mut self.regs[rb..];
            if !mv.regs.is_empty() {
                if mv.regs.len() == 1 {
                    let (d, s) = mv.regs[0];
                    regs[d as usize] = regs[s as usize];
                } else {
                    let mut tmp = [0u64; 16];
                    if mv.regs.len() <= 16 {
                        for (i, (_, s)) in mv.regs.iter().enumerate() {
                            tmp[i] = regs[*s as usize];
                        }
                        for (i, (d, _)) in mv.regs.iter().enumerate() {
                            regs[*d as usize] = tmp[i];
                        }
                    } else {
                        let vals: Vec<u64> =
                            mv.regs.iter().map(|(_, s)| regs[*s as usize]).collect();
                        for ((d, _), v) in mv.regs.iter().zip(vals) {
                            regs[*d as usize] = v;
                        }
                    }
                }
            }
            if !mv.aggs.is_empty() {
                let vals: Vec<Vec<u8>> = mv
                    .aggs
                    .iter()
                    .map(|(_, s, n)| self.aggs[ab + *s as usize..ab + (*s + *n) as usize].to_vec())
                    .collect();
                for ((d, _, n), v) in mv.aggs.iter().zip(vals) {
                    self.aggs[ab + *d as usize..ab + (*d + *n) as usize].copy_from_slice(&v);
                }
            }
            if edge.target <= bid {
                let at = Site {
                    func: fid,
                    block: edge.target,
                    rb,
                };
                self.notify(|o, v| o.back_edge_taken(v, at));
            }
            bid = edge.target;
            ip = 0;
        }
    }

    fn is_error_fn(&self, name: &str) -> bool {
        name == "reach_error" || name == "__VERIFIER_error"
    }

    fn resolve_fptr(&self, addr: u64) -> Result<CallTarget, Stop> {
        let m = self.module;
        if addr >= layout::FUNC_BASE && (addr - layout::FUNC_BASE).is_multiple_of(16) {
            let i = ((addr - layout::FUNC_BASE) / 16) as usize;
            if i < m.functions.len() {
                return Ok(CallTarget::Func(i as FuncId));
            }
            let e = i - m.functions.len();
            if e < m.externs.len() {
                return Ok(CallTarget::Ext(e as u32));
            }
        }
        if addr == 0 {
            return Err(Stop::Fault("call through a null function pointer".into()));
        }
        Err(Stop::Fault(format!(
            "call through an invalid function pointer {addr:#x}"
        )))
    }

    fn intrinsic(
        &mut self,
        op: IntrinsicOp,
        ty: Ty,
        dst: Val,
        args: &[Reg],
        rb: usize,
        ab: usize,
    ) -> Result<(), Stop> {
        use IntrinsicOp as I;
        // Under the program's rounding mode (`roundeven` rounds to nearest in every mode).
        if self.rounding != Rounding::ToNearest && op != I::RoundEven {
            let mode = std::mem::take(&mut self.rounding);
            let r = mode.scope(|| self.intrinsic(op, ty, dst, black_box(args), rb, ab));
            self.rounding = mode;
            return r;
        }
        let pb = self.ptr_bits;
        let w = ty.bits_with(pb);
        let a = |i: usize| self.regs[rb + args[i] as usize];
        let fl = |v: u64| ops::f64_of(ty, v);
        let back = |x: f64| {
            if ty == Ty::F32 {
                (x as f32).to_bits() as u64
            } else {
                x.to_bits()
            }
        };
        let f32op = ty == Ty::F32;
        // A math intrinsic the shadow makes an opaque node of computes as that node's
        // `MathFn::eval` (one definition: a NaN's bits, fmin of equal zeros).
        if let (Some(f), Val::Reg(d, t)) = (super::opaque::math_intrinsic(op, w as u8), dst) {
            let v = f.eval(&[a(0), args.get(1).map_or(0, |&r| self.regs[rb + r as usize])]);
            self.regs[rb + d as usize] = mask(v, t.bits_with(pb));
            return Ok(());
        }
        let v: u64 = match op {
            I::Copy => a(0),
            I::SMax => {
                if sext(a(0), w) >= sext(a(1), w) {
                    a(0)
                } else {
                    a(1)
                }
            }
            I::SMin => {
                if sext(a(0), w) <= sext(a(1), w) {
                    a(0)
                } else {
                    a(1)
                }
            }
            I::UMax => a(0).max(a(1)),
            I::UMin => a(0).min(a(1)),
            I::Abs => mask(sext(a(0), w).wrapping_abs() as u64, w),
            I::CtPop => a(0).count_ones() as u64,
            I::Ctlz => (a(0).leading_zeros() - (64 - w)) as u64,
            I::Cttz => {
                if a(0) == 0 {
                    w as u64
                } else {
                    a(0).trailing_zeros() as u64
                }
            }
            I::BSwap => a(0).swap_bytes() >> (64 - w),
            I::BitReverse => a(0).reverse_bits() >> (64 - w),
            I::Fshl | I::Fshr => {
                let (x, y, s) = (a(0), a(1), a(2) % w as u64);
                let concat = |hi: u64, lo: u64| ((hi as u128) << w) | lo as u128;
                let c = concat(x, y);
                if op == I::Fshl {
                    mask((c << s >> w) as u64, w)
                } else {
                    mask((c >> s) as u64, w)
                }
            }
            I::SAddOv | I::UAddOv | I::SSubOv | I::USubOv | I::SMulOv | I::UMulOv => {
                let (x, y) = (a(0), a(1));
                let (r, o) = match op {
                    I::SAddOv => {
                        let r = sext(x, w) as i128 + sext(y, w) as i128;
                        (r as u64, r != sext(mask(r as u64, w), w) as i128)
                    }
                    I::SSubOv => {
                        let r = sext(x, w) as i128 - sext(y, w) as i128;
                        (r as u64, r != sext(mask(r as u64, w), w) as i128)
                    }
                    I::SMulOv => {
                        let r = sext(x, w) as i128 * sext(y, w) as i128;
                        (r as u64, r != sext(mask(r as u64, w), w) as i128)
                    }
                    I::UAddOv => {
                        let r = x as u128 + y as u128;
                        (r as u64, r != mask(r as u64, w) as u128)
                    }
                    I::USubOv => (x.wrapping_sub(y), y > x),
                    _ => {
                        let r = x as u128 * y as u128;
                        (r as u64, r != mask(r as u64, w) as u128)
                    }
                };
                if let Val::Agg(s, _) = dst {
                    let n = (w as usize).div_ceil(8);
                    let s = ab + s as usize;
                    let rb_ = mask(r, w).to_le_bytes();
                    self.aggs[s..s + n].copy_from_slice(&rb_[..n]);
                    // The overflow flag follows the value at the next byte (struct {iN, i1}).
                    let off = n.next_power_of_two().max(1);
                    self.aggs[s + off] = o as u8;
                }
                return Ok(());
            }
            I::SAddSat | I::SSubSat => {
                let (x, y) = (sext(a(0), w) as i128, sext(a(1), w) as i128);
                let r = if op == I::SAddSat { x + y } else { x - y };
                let (lo, hi) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
                mask(r.clamp(lo, hi) as u64, w)
            }
            I::UAddSat => (a(0) as u128 + a(1) as u128).min(mask(u64::MAX, w) as u128) as u64,
            I::USubSat => a(0).saturating_sub(a(1)),
            I::FAbs => back(fl(a(0)).abs()),
            I::Floor => back(fl(a(0)).floor()),
            I::Ceil => back(fl(a(0)).ceil()),
            I::Trunc => back(fl(a(0)).trunc()),
            I::Round => back(fl(a(0)).round()),
            I::RoundEven | I::Rint => back(fl(a(0)).round_ties_even()),
            I::Sqrt => {
                if f32op {
                    (f32::from_bits(a(0) as u32).sqrt()).to_bits() as u64
                } else {
                    back(fl(a(0)).sqrt())
                }
            }
            I::CopySign => back(fl(a(0)).copysign(fl(a(1)))),
            I::Fma => {
                if f32op {
                    f32::from_bits(a(0) as u32)
                        .mul_add(f32::from_bits(a(1) as u32), f32::from_bits(a(2) as u32))
                        .to_bits() as u64
                } else {
                    back(fl(a(0)).mul_add(fl(a(1)), fl(a(2))))
                }
            }
            I::FMulAdd => {
                let m = ops::fbin(FBinOp::Mul, ty, a(0), a(1));
                ops::fbin(FBinOp::Add, ty, m, a(2))
            }
            I::IsFpClass => {
                let x = fl(a(0));
                let neg = x.is_sign_negative();
                let class = if x.is_nan() {
                    // Quiet NaN unless the quiet bit is clear.
                    let quiet = if f32op {
                        a(0) & (1 << 22) != 0
                    } else {
                        a(0) & (1 << 51) != 0
                    };
                    if quiet { 1 } else { 0 }
                } else if x.is_infinite() {
                    if neg { 2 } else { 9 }
                } else if x == 0.0 {
                    if neg { 5 } else { 6 }
                } else if if f32op {
                    (x as f32).is_subnormal()
                } else {
                    x.is_subnormal()
                } {
                    if neg { 4 } else { 7 }
                } else if neg {
                    3
                } else {
                    8
                };
                (a(1) >> class) & 1
            }
            I::MinNum => back(fl(a(0)).min(fl(a(1)))),
            I::MaxNum => back(fl(a(0)).max(fl(a(1)))),
            I::Sin => back(fl(a(0)).sin()),
            I::Cos => back(fl(a(0)).cos()),
            I::Exp => back(fl(a(0)).exp()),
            I::Exp2 => back(fl(a(0)).exp2()),
            I::Log => back(fl(a(0)).ln()),
            I::Log2 => back(fl(a(0)).log2()),
            I::Log10 => back(fl(a(0)).log10()),
            I::Pow => back(fl(a(0)).powf(fl(a(1)))),
        };
        if let Val::Reg(d, t) = dst {
            self.regs[rb + d as usize] = mask(v, t.bits_with(pb));
        }
        Ok(())
    }

    /// Runs function `fid` on scalar arguments (bit patterns) until it returns: the evaluator
    /// of opaque user functions. None if it does not return normally or reads an input.
    pub fn call_scalar(mut self, fid: FuncId, args: &[u64]) -> Option<u64> {
        let f = &self.module.functions[fid as usize];
        let argv: Vec<VarArg> = f
            .params
            .iter()
            .zip(args)
            .map(|(p, v)| VarArg::Scalar(*v, p.ty()))
            .collect();
        self.push_frame(fid, &argv, None).ok()?;
        self.run_loop();
        self.libc.entry_ret.filter(|_| self.inputs.is_empty())
    }

    /// `va_start`: lays the variadic arguments out as the target ABI's `va_list` expects, so
    /// the `va_arg` code clang generated inline reads them correctly.
    fn va_start(&mut self, list: u64) -> Result<(), Stop> {
        let fr = self.frames.last().unwrap();
        let func = &self.module.functions[fr.func as usize];
        let varargs = fr.varargs.clone();
        // (address, bytes, argument) of each integer argument placed in memory: `va_arg` reads
        // them back from there, so observers learn where each one went.
        let mut placed: Vec<(u64, u32, usize)> = vec![];
        let mut written: Vec<(u64, u64)> = vec![];
        if self.ptr_bits == 64 {
            // x86-64 SysV: { i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr reg_save_area }
            let named_gp = func
                .params
                .iter()
                .filter(|p| matches!(p.ty(), Ty::Int(_) | Ty::Ptr))
                .count();
            let named_fp = func.params.iter().filter(|p| p.ty().is_float()).count();
            let save = self.mem.alloca(176, 16)?;
            let mut overflow_bytes: Vec<u8> = vec![];
            let (mut gp, mut fp) = (named_gp, named_fp);
            let mut overflow_placed: Vec<(usize, u32, usize)> = vec![];
            for (ai, a) in varargs.iter().enumerate() {
                match a {
                    VarArg::Scalar(v, t) if t.is_float() => {
                        let bits = if *t == Ty::F32 {
                            (f32::from_bits(*v as u32) as f64).to_bits()
                        } else {
                            *v
                        };
                        if fp < 8 {
                            if *t == Ty::F64 {
                                placed.push((save + 48 + 16 * fp as u64, 8, ai));
                            }
                            self.mem.write_uint(save + 48 + 16 * fp as u64, 8, bits)?;
                            fp += 1;
                        } else {
                            overflow_bytes.extend_from_slice(&bits.to_le_bytes());
                        }
                    }
                    VarArg::Scalar(v, t) => {
                        let n = t.store_size(self.module.data_model);
                        if gp < 6 {
                            self.mem.write_uint(save + 8 * gp as u64, 8, *v)?;
                            placed.push((save + 8 * gp as u64, n, ai));
                            gp += 1;
                        } else {
                            overflow_placed.push((overflow_bytes.len(), n, ai));
                            overflow_bytes.extend_from_slice(&v.to_le_bytes());
                        }
                    }
                    VarArg::Agg(b) => {
                        overflow_bytes.extend_from_slice(b);
                        while !overflow_bytes.len().is_multiple_of(8) {
                            overflow_bytes.push(0);
                        }
                    }
                }
            }
            let ov = self.mem.alloca(overflow_bytes.len().max(8) as u64, 16)?;
            self.mem.write(ov, &overflow_bytes)?;
            placed.extend(
                overflow_placed
                    .into_iter()
                    .map(|(o, n, e)| (ov + o as u64, n, e)),
            );
            self.mem.write_uint(list, 4, (8 * named_gp.min(6)) as u64)?;
            self.mem
                .write_uint(list + 4, 4, (48 + 16 * named_fp.min(8)) as u64)?;
            self.mem.write_uint(list + 8, 8, ov)?;
            self.mem.write_uint(list + 16, 8, save)?;
            written.extend([(list, 24), (save, 176), (ov, overflow_bytes.len() as u64)]);
        } else {
            // i386: va_list is a pointer into the argument area, 4-byte slots.
            let mut bytes: Vec<u8> = vec![];
            let mut area_placed: Vec<(usize, u32, usize)> = vec![];
            for (ai, a) in varargs.iter().enumerate() {
                match a {
                    VarArg::Scalar(v, t) => {
                        let (bits, n) = match t {
                            Ty::F32 => ((f32::from_bits(*v as u32) as f64).to_bits(), 8),
                            Ty::F64 => (*v, 8),
                            Ty::Int(64) => (*v, 8),
                            _ => (*v, 4),
                        };
                        if *t != Ty::F32 {
                            area_placed.push((
                                bytes.len(),
                                t.store_size(self.module.data_model),
                                ai,
                            ));
                        }
                        bytes.extend_from_slice(&bits.to_le_bytes()[..n]);
                    }
                    VarArg::Agg(b) => {
                        bytes.extend_from_slice(b);
                        while !bytes.len().is_multiple_of(4) {
                            bytes.push(0);
                        }
                    }
                }
            }
            let area = self.mem.alloca(bytes.len().max(4) as u64, 16)?;
            self.mem.write(area, &bytes)?;
            self.mem.write_uint(list, 4, area)?;
            written.extend([(list, 4), (area, bytes.len() as u64)]);
            placed.extend(
                area_placed
                    .into_iter()
                    .map(|(o, n, e)| (area + o as u64, n, e)),
            );
        }
        // The list and the areas hold concrete data (a `va_list` read as uninitialized or
        // stale memory would make `va_arg`'s addresses symbolic); then each argument's shadow.
        for (addr, n) in written {
            self.notify(|o, v| o.mem_written(v, addr, n));
        }
        for (addr, n, index) in placed {
            self.notify(|o, v| o.vararg_placed(v, index, addr, n));
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug)]
enum CallTarget {
    Func(FuncId),
    Ext(u32),
}
