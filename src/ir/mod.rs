//! Cairn IR: a compact, index-based form of an LLVM module, lowered once and shared by the
//! interpreter, the analyses and the model checker.
//!
//! Values live in per-frame *registers* (`u64`, integers zero-extended to 64 bits, floats as
//! their IEEE bits, pointers as addresses). Constants are registers too, pre-filled at frame entry
//! (`Function::reg_init`), so every operand is a plain register index. First-class aggregates
//! (`{i32, i1}` from overflow intrinsics, struct returns) live in a per-frame byte area at fixed
//! slot offsets (`AggSlot`), in their memory layout, so they copy like any other value.

pub mod asm_models;
pub mod asm_rewrite;
pub mod cmplog;
pub mod compile_commands;
pub mod debug_names;
pub mod externs;
pub mod frontend;
pub mod host_fns;
pub mod inputs;
pub mod lower;
pub mod math;
pub mod normalize;
pub mod operands;
pub mod ops;
mod print;
pub mod probes;
pub mod rounding;
mod runtime_cache;
pub mod short_circuit;
pub mod toolchain;
pub mod unset_reads;
pub mod wide_ints;

use std::collections::HashMap;

pub type Reg = u32;
pub type BlockId = u32;
pub type FuncId = u32;
pub type GoalId = u32;

/// Marks a branch without a goal (branches inside Cairn's own libc runtime).
pub const NO_GOAL: GoalId = u32::MAX;

/// Marks the "assumption violated" side of a symbolic assumption: never worth exploring.
pub const ASSUME_VIOLATED: GoalId = u32::MAX - 1;

/// Byte offset of an aggregate slot in a frame's aggregate area.
pub type AggSlot = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DataModel {
    LP64,
    ILP32,
}

impl DataModel {
    pub fn ptr_bytes(self) -> u32 {
        match self {
            DataModel::LP64 => 8,
            DataModel::ILP32 => 4,
        }
    }
}

/// A source location: index into `Module::files`, line, column (0 = unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

/// Scalar type of a value as the interpreter needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    /// Integer of the given bit width (1..=64).
    Int(u8),
    F32,
    F64,
    Ptr,
    /// First-class aggregate of the given byte size.
    Agg(u32),
}

impl Ty {
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    /// Bytes read or written by a load or store of this type.
    pub fn store_size(self, dm: DataModel) -> u32 {
        match self {
            Ty::Void => 0,
            Ty::Int(w) => (w as u32).div_ceil(8),
            Ty::F32 => 4,
            Ty::F64 => 8,
            Ty::Ptr => dm.ptr_bytes(),
            Ty::Agg(n) => n,
        }
    }
    pub fn bits(self, dm: DataModel) -> u32 {
        match self {
            Ty::Int(w) => w as u32,
            Ty::F32 => 32,
            Ty::F64 => 64,
            Ty::Ptr => dm.ptr_bytes() * 8,
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FBinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl IPred {
    pub fn negate(self) -> IPred {
        use IPred::*;
        match self {
            Eq => Ne,
            Ne => Eq,
            Ugt => Ule,
            Uge => Ult,
            Ult => Uge,
            Ule => Ugt,
            Sgt => Sle,
            Sge => Slt,
            Slt => Sge,
            Sle => Sgt,
        }
    }
}

/// Floating-point predicates: ordered (false on NaN) or unordered (true on NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FPred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Uno,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    True,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FpTrunc,
    FpExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    /// Bit-preserving casts (bitcast, ptrtoint/inttoptr at pointer width, freeze).
    Bits,
}

/// Operations of LLVM intrinsics that compute a value from registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntrinsicOp {
    SMax,
    SMin,
    UMax,
    UMin,
    Abs,
    CtPop,
    Ctlz,
    Cttz,
    BSwap,
    BitReverse,
    Fshl,
    Fshr,
    /// `{iN, i1}` results written into an aggregate slot.
    SAddOv,
    UAddOv,
    SSubOv,
    USubOv,
    SMulOv,
    UMulOv,
    SAddSat,
    UAddSat,
    SSubSat,
    USubSat,
    FAbs,
    Floor,
    Ceil,
    Trunc,
    Round,
    RoundEven,
    Rint,
    Sqrt,
    CopySign,
    Fma,
    /// `llvm.fmuladd` as the x86-64 back end emits it without FMA: multiply, round, add.
    FMulAdd,
    /// `llvm.is.fpclass(x, mask)`: isnan, isinf, isfinite, ...
    IsFpClass,
    MinNum,
    MaxNum,
    Sin,
    Cos,
    Exp,
    Exp2,
    Log,
    Log2,
    Log10,
    Pow,
    /// `llvm.is.fpclass`-free helpers are lowered by clang itself; this is `llvm.expect` etc.
    Copy,
}

/// A parallel copy performed when control moves along a CFG edge (phi resolution).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moves {
    /// (destination, source) scalar registers.
    pub regs: Vec<(Reg, Reg)>,
    /// (destination slot, source slot, size) aggregate copies.
    pub aggs: Vec<(AggSlot, AggSlot, u32)>,
}

impl Moves {
    pub fn is_empty(&self) -> bool {
        self.regs.is_empty() && self.aggs.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub target: BlockId,
    pub moves: Moves,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    Func(FuncId),
    /// A function pointer held in a register.
    Indirect(Reg),
}

/// An argument or return value: a scalar register or an aggregate slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    Reg(Reg, Ty),
    Agg(AggSlot, u32),
}

impl Val {
    pub fn ty(self) -> Ty {
        match self {
            Val::Reg(_, t) => t,
            Val::Agg(_, n) => Ty::Agg(n),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    Bin {
        op: BinOp,
        w: u8,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    FBin {
        op: FBinOp,
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    FNeg {
        ty: Ty,
        dst: Reg,
        a: Reg,
    },
    ICmp {
        pred: IPred,
        w: u8,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    FCmp {
        pred: FPred,
        ty: Ty,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Cast {
        op: CastOp,
        from: Ty,
        to: Ty,
        dst: Reg,
        a: Reg,
    },
    Select {
        ty: Ty,
        dst: Reg,
        cond: Reg,
        t: Reg,
        f: Reg,
    },
    SelectAgg {
        dst: AggSlot,
        size: u32,
        cond: Reg,
        t: AggSlot,
        f: AggSlot,
    },
    Alloca {
        dst: Reg,
        elem_size: u64,
        count: Reg,
        align: u32,
    },
    Load {
        dst: Reg,
        ty: Ty,
        addr: Reg,
    },
    LoadAgg {
        dst: AggSlot,
        size: u32,
        addr: Reg,
    },
    Store {
        ty: Ty,
        addr: Reg,
        val: Reg,
    },
    StoreAgg {
        size: u32,
        addr: Reg,
        val: AggSlot,
    },
    /// dst = base + offset + Σ sext(index) * scale
    Gep {
        dst: Reg,
        base: Reg,
        offset: i64,
        terms: Vec<(Reg, u8, i64)>,
    },
    ExtractValue {
        dst: Reg,
        ty: Ty,
        agg: AggSlot,
        offset: u32,
    },
    ExtractAgg {
        dst: AggSlot,
        size: u32,
        agg: AggSlot,
        offset: u32,
    },
    InsertValue {
        dst: AggSlot,
        size: u32,
        agg: AggSlot,
        val: Val,
        offset: u32,
    },
    Intrinsic {
        op: IntrinsicOp,
        ty: Ty,
        dst: Val,
        args: Vec<Reg>,
    },
    MemCopy {
        dst: Reg,
        src: Reg,
        len: Reg,
        overlapping: bool,
    },
    MemSet {
        dst: Reg,
        byte: Reg,
        len: Reg,
    },
    VaStart {
        list: Reg,
    },
    VaCopy {
        dst: Reg,
        src: Reg,
    },
    Call {
        callee: Callee,
        args: Vec<Val>,
        ret: Option<Val>,
        site: u32,
    },
    /// Calls to functions that have no body: libc models, input functions, unknown externals.
    CallExtern {
        ext: u32,
        args: Vec<Val>,
        ret: Option<Val>,
        site: u32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Ret {
        val: Option<Val>,
    },
    Br {
        edge: Edge,
    },
    CondBr {
        cond: Reg,
        then_edge: Edge,
        else_edge: Edge,
        then_goal: GoalId,
        else_goal: GoalId,
    },
    /// Cases in order; each case and the default is a goal.
    Switch {
        val: Reg,
        w: u8,
        cases: Vec<(u64, Edge, GoalId)>,
        default: Edge,
        default_goal: GoalId,
    },
    Unreachable,
}

impl Terminator {
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Ret { .. } | Terminator::Unreachable => vec![],
            Terminator::Br { edge } => vec![edge.target],
            Terminator::CondBr {
                then_edge,
                else_edge,
                ..
            } => vec![then_edge.target, else_edge.target],
            Terminator::Switch { cases, default, .. } => {
                let mut v: Vec<BlockId> = cases.iter().map(|c| c.1.target).collect();
                v.push(default.target);
                v
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Block {
    pub name: String,
    pub insts: Vec<Inst>,
    /// Source location of each instruction (same length as `insts`).
    pub locs: Vec<Loc>,
    pub term: Terminator,
    pub term_loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub id: FuncId,
    pub params: Vec<Val>,
    /// Parameters passed `byval`: (index, size, align). The callee gets a private copy.
    pub byval: Vec<(usize, u64, u32)>,
    pub ret: Ty,
    pub is_var_arg: bool,
    pub blocks: Vec<Block>,
    pub num_regs: u32,
    /// Initial register file: constants pre-filled, everything else zero.
    pub reg_init: Vec<u64>,
    /// Initial aggregate area (constant aggregates pre-filled).
    pub agg_init: Vec<u8>,
    /// Source names of registers that LLVM named (debugging aid).
    pub reg_names: Vec<String>,
    /// Source variables kept in stack slots: the alloca's register → the variable's name from
    /// the debug information (slots of compiler temporaries have none).
    pub variables: HashMap<Reg, String>,
    /// Type of each register (`Void` for constants, which are shared across types).
    pub reg_tys: Vec<Ty>,
    /// Registers standing for LLVM `undef`/`poison` operands (an uninitialized local read, say):
    /// the interpreter reads 0, a native run whatever was there.
    pub undef_regs: Vec<Reg>,
    /// Per parameter: bytes of the object a pointer parameter points to by its declared type
    /// (0: not a pointer, or unknown). Unit mode sizes its buffers by it.
    pub pointee_bytes: Vec<u64>,
    /// Per parameter: declared with an unsigned integer type.
    pub param_unsigned: Vec<bool>,
    /// Per parameter: declared as a function pointer.
    pub param_callback: Vec<bool>,
    pub loc: Loc,
}

impl Function {
    /// A new constant operand holding `v`.
    pub fn new_constant(&mut self, v: u64) -> Reg {
        self.reg_init.push(v);
        self.reg_tys.push(Ty::Void);
        self.reg_names.push(String::new());
        self.num_regs += 1;
        self.num_regs - 1
    }

    /// A register's value if it is a constant operand (an `undef` is none).
    pub fn constant(&self, r: Reg) -> Option<u64> {
        let i = r as usize;
        (self.reg_tys.get(i) == Some(&Ty::Void) && !self.undef_regs.contains(&r))
            .then(|| self.reg_init.get(i).copied())
            .flatten()
    }

    /// The source name of parameter `i`, when LLVM kept it.
    pub fn param_name(&self, i: usize) -> Option<&str> {
        match self.params.get(i)? {
            Val::Reg(r, _) => self
                .reg_names
                .get(*r as usize)
                .map(String::as_str)
                .filter(|n| !n.is_empty()),
            Val::Agg(..) => None,
        }
    }
}

/// A call of a function without body. `name` is resolved by the executor.
#[derive(Clone, Debug)]
pub struct Extern {
    pub name: String,
    pub ret: Ty,
    pub params: Vec<Ty>,
    pub is_var_arg: bool,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    /// The name in the source, from the debug information (a static local `count` of `f`
    /// is the symbol `f.count`); None without it.
    pub source_name: Option<String>,
    pub addr: u64,
    pub size: u64,
    pub align: u32,
    pub init: Vec<u8>,
    pub read_only: bool,
    /// Defined here with external linkage: another translation unit (a replay harness) can
    /// name it.
    pub external: bool,
    /// Its type contains pointers (its bytes are not free data).
    pub holds_pointers: bool,
}

/// A branch goal: one outcome of a conditional branch or one switch case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchGoal {
    pub func: FuncId,
    pub block: BlockId,
    /// `true`/`false` for a conditional branch, `case V`/`default` for a switch.
    pub outcome: String,
    pub loc: Loc,
    /// Location of the first instruction executed at the target (for native line checks).
    pub target_loc: Loc,
}

/// A call site of an error function (`reach_error`, `__VERIFIER_error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorSite {
    pub func: FuncId,
    pub block: BlockId,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Module {
    pub data_model: DataModel,
    pub files: Vec<String>,
    pub functions: Vec<Function>,
    pub func_by_name: HashMap<String, FuncId>,
    /// Address of each function (for function pointers), indexed by FuncId, then by extern.
    pub func_addrs: Vec<u64>,
    pub externs: Vec<Extern>,
    pub extern_addrs: Vec<u64>,
    pub globals: Vec<Global>,
    /// First address past the globals (the heap starts after it).
    pub globals_end: u64,
    pub branch_goals: Vec<BranchGoal>,
    /// Call sites (index = `site` of Call/CallExtern): location of each.
    pub call_sites: Vec<Loc>,
    /// `main` has a `return;` without a value (old C): clang's `main` then returns 0, a native
    /// build whatever its return register held, so a return from `main` predicts no status.
    pub main_status_unknown: bool,
    /// Where clang saw a local read before it is set (`file:line:col: variable 'x' is ...`):
    /// the interpreter reads 0 there, a native run whatever the stack held, so no input
    /// steers decisions on it.
    pub uninitialized_reads: Vec<String>,
    /// Instructions the interpreter cannot execute (`file:line:col (in f): unsupported: ...`):
    /// lowered to a stop (`NOT_INTERPRETED`), so the program loads and runs natively.
    pub not_interpreted: Vec<String>,
}

/// Address-space layout shared by the lowering (globals, functions) and the executor (heap, stack).
pub mod layout {
    /// Functions get distinct fake addresses in this range (never dereferenced). Not a round
    /// number: a constant equal to a function's address counts as taking it (analysis::dead),
    /// and round constants such as `1 << 20` are common.
    pub const FUNC_BASE: u64 = 0x0012_3450;
    pub const GLOBAL_BASE: u64 = 0x0040_0000;
    pub const STACK_BASE: u64 = 0xC000_0000;
    pub const STACK_END: u64 = 0xF000_0000;
    pub const HEAP_END: u64 = 0xB000_0000;
}

impl Module {
    /// The call site and callee name of a direct call (of a program or an external function).
    pub fn direct_call(&self, i: &Inst) -> Option<(u32, &str)> {
        match i {
            Inst::Call {
                callee: Callee::Func(t),
                site,
                ..
            } => Some((*site, self.functions[*t as usize].name.as_str())),
            Inst::CallExtern { ext, site, .. } => {
                Some((*site, self.externs[*ext as usize].name.as_str()))
            }
            _ => None,
        }
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.func_by_name
            .get(name)
            .map(|&i| &self.functions[i as usize])
    }
    pub fn loc_string(&self, loc: Loc) -> String {
        let file = self
            .files
            .get(loc.file as usize)
            .map(|s| s.as_str())
            .unwrap_or("?");
        format!("{}:{}:{}", file, loc.line, loc.col)
    }
    pub fn num_insts(&self) -> usize {
        self.functions
            .iter()
            .flat_map(|f| &f.blocks)
            .map(|b| b.insts.len() + 1)
            .sum()
    }
}

pub use print::print_module;

/// Functions whose call is an error goal (`reach_error`, `__VERIFIER_error`).
pub fn is_error_call(name: &str) -> bool {
    name == "reach_error" || name == "__VERIFIER_error"
}

/// The external function an inline assembly statement is lowered to.
pub const INLINE_ASM: &str = "__cairn_inline_asm";

/// The external function an instruction the interpreter cannot execute is lowered to (long
/// double arithmetic, vector operations: `Module::not_interpreted`).
pub const NOT_INTERPRETED: &str = "__cairn_not_interpreted";

/// The program's `main` when a replay harness has the `main` (unit mode, argv or files as
/// inputs): the program is compiled with `-Dmain=` this name.
pub const PROGRAM_MAIN: &str = "cairn_program_main";
