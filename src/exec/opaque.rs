//! Opaque calls on the executor's side (see `smt::opaque`).
//!
//! - Math intrinsics (`llvm.floor`, `llvm.pow`, ...) produce opaque nodes like the library calls
//!   do in `libc`.
//! - User functions named by `--opaque f,g`: the function runs as usual, but while it runs its
//!   branches are not recorded, and its result's shadow becomes the opaque node `f(args)` over
//!   the arguments' shadows. The solver evaluates that node by running `f` in a fresh
//!   interpreter on the argument values (`InterpretedFns`, memoized): the walk can then move
//!   the arguments freely instead of following the path the run took through `f`. The
//!   function must be pure — its result a function of its scalar arguments. If it is not (it
//!   reads globals the program changed), the evaluation can disagree with the real run: the run
//!   then diverges from the prediction, which costs a solver answer but never a wrong claim
//!   (coverage comes from the runs). Functions with pointer or aggregate parameters or results
//!   are rejected up front.

use super::input::Replay;
use super::libc::Ext;
use super::machine::{Config, Machine};
use crate::ir::{FuncId, IntrinsicOp, Module, Ty};
use crate::smt::expr::ExprId;
use crate::smt::opaque::{MathFn, MathOp, UserFns};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The math function an intrinsic computes, which the interpreter then computes with
/// `MathFn::eval` (single-precision transcendental intrinsics are not among them: the
/// interpreter computes those in double, and the shadow concretizes them).
pub fn math_intrinsic(op: IntrinsicOp, w: u8) -> Option<MathFn> {
    use IntrinsicOp as I;
    let exact = match op {
        I::Floor => MathOp::Floor,
        I::Ceil => MathOp::Ceil,
        I::Trunc => MathOp::Trunc,
        I::Round => MathOp::Round,
        I::RoundEven | I::Rint => MathOp::Rint,
        I::Sqrt => MathOp::Sqrt,
        I::CopySign => MathOp::CopySign,
        I::MinNum => MathOp::Fmin,
        I::MaxNum => MathOp::Fmax,
        _ => {
            if w != 64 {
                return None;
            }
            match op {
                I::Sin => MathOp::Sin,
                I::Cos => MathOp::Cos,
                I::Exp => MathOp::Exp,
                I::Exp2 => MathOp::Exp2,
                I::Log => MathOp::Log,
                I::Log2 => MathOp::Log2,
                I::Log10 => MathOp::Log10,
                I::Pow => MathOp::Pow,
                _ => return None,
            }
        }
    };
    (w == 32 || w == 64).then_some(MathFn { op: exact, w })
}

/// A call of an opaque user function in progress (in `Shadow::opaque_frames`).
#[derive(Clone, Debug)]
pub struct OpaqueFrame {
    /// Number of frames below the callee's.
    pub depth: usize,
    pub func: FuncId,
    pub w: u8,
    pub args: Vec<ExprId>,
}

pub fn scalar_bits(ty: Ty, ptr_bits: u32) -> Option<u8> {
    match ty {
        Ty::Int(_) | Ty::F32 | Ty::F64 => Some(ty.bits_with(ptr_bits) as u8),
        _ => None,
    }
}

/// Evaluates opaque user functions by running them in a fresh interpreter (memoized).
pub struct InterpretedFns {
    module: Module,
    exts: Vec<Ext>,
    opaque: HashSet<FuncId>,
    memo: RefCell<Memo>,
    max_steps: u64,
}

/// Results by function and arguments.
type Memo = HashMap<(FuncId, Vec<u64>), Option<u64>>;

/// Most memoized results kept (a walk evaluates thousands of points).
const MEMO_LIMIT: usize = 1 << 16;

impl InterpretedFns {
    /// The evaluator for functions `names` of `module`; an error names a function that does not
    /// exist, has no body, or takes or returns something other than integers and floats.
    pub fn new(
        module: &Module,
        exts: &[Ext],
        names: &[String],
        max_steps: u64,
    ) -> Result<InterpretedFns, String> {
        let pb = module.data_model.ptr_bytes() * 8;
        let mut opaque = HashSet::new();
        for n in names {
            let f = module
                .function(n)
                .filter(|f| !f.blocks.is_empty())
                .ok_or_else(|| format!("--opaque {n}: no function `{n}` with a body"))?;
            let scalar = |t: Ty| scalar_bits(t, pb).is_some();
            if !scalar(f.ret)
                || f.is_var_arg
                || !f.byval.is_empty()
                || !f.params.iter().all(|p| scalar(p.ty()))
            {
                return Err(format!(
                    "--opaque {n}: only functions of integer and floating-point arguments returning one can be opaque"
                ));
            }
            opaque.insert(f.id);
        }
        Ok(InterpretedFns {
            module: module.clone(),
            exts: exts.to_vec(),
            opaque,
            memo: RefCell::new(HashMap::new()),
            max_steps,
        })
    }
}

impl UserFns for InterpretedFns {
    fn is_opaque(&self, func: u32) -> bool {
        self.opaque.contains(&func)
    }

    fn call(&self, func: u32, args: &[u64]) -> Option<u64> {
        let key = (func, args.to_vec());
        if let Some(r) = self.memo.borrow().get(&key) {
            return *r;
        }
        let mut src = Replay::new(vec![]);
        let cfg = Config {
            max_steps: self.max_steps,
            ..Config::default()
        };
        let m = Machine::new(&self.module, &self.exts, cfg, &mut src);
        let r = m.call_scalar(func, args);
        let mut memo = self.memo.borrow_mut();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, r);
        r
    }

    fn name(&self, func: u32) -> String {
        self.module.functions[func as usize].name.clone()
    }
}
