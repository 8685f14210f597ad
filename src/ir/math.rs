//! Math-library functions: which calls are which (`MathFn::by_name`) and their host evaluation
//! (the same functions the interpreter runs, so the solver's concrete checks agree with runs).

/// A math-library operation; `MathFn` adds the float width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MathOp {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sqrt,
    Cbrt,
    Fabs,
    Floor,
    Ceil,
    Round,
    Trunc,
    /// rint / nearbyint / llvm.roundeven: to nearest, ties to even.
    Rint,
    Pow,
    Atan2,
    Fmod,
    Hypot,
    Fmin,
    Fmax,
    CopySign,
}

/// A math function on `w`-bit floats (32: the `f`-suffixed variant, 64: double).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MathFn {
    pub op: MathOp,
    pub w: u8,
}

const NAMES: &[(&str, MathOp)] = &[
    ("sin", MathOp::Sin),
    ("cos", MathOp::Cos),
    ("tan", MathOp::Tan),
    ("asin", MathOp::Asin),
    ("acos", MathOp::Acos),
    ("atan", MathOp::Atan),
    ("sinh", MathOp::Sinh),
    ("cosh", MathOp::Cosh),
    ("tanh", MathOp::Tanh),
    ("exp", MathOp::Exp),
    ("exp2", MathOp::Exp2),
    ("expm1", MathOp::Expm1),
    ("log", MathOp::Log),
    ("log2", MathOp::Log2),
    ("log10", MathOp::Log10),
    ("log1p", MathOp::Log1p),
    ("sqrt", MathOp::Sqrt),
    ("cbrt", MathOp::Cbrt),
    ("fabs", MathOp::Fabs),
    ("floor", MathOp::Floor),
    ("ceil", MathOp::Ceil),
    ("round", MathOp::Round),
    ("trunc", MathOp::Trunc),
    ("rint", MathOp::Rint),
    ("nearbyint", MathOp::Rint),
    ("pow", MathOp::Pow),
    ("atan2", MathOp::Atan2),
    ("fmod", MathOp::Fmod),
    ("hypot", MathOp::Hypot),
    ("fmin", MathOp::Fmin),
    ("fmax", MathOp::Fmax),
    ("copysign", MathOp::CopySign),
];

impl MathFn {
    /// The C library function `name` (`sin`, `sinf`, ...). Long-double variants are not modelled.
    pub fn by_name(name: &str) -> Option<MathFn> {
        if let Some(&(_, op)) = NAMES.iter().find(|(n, _)| *n == name) {
            return Some(MathFn { op, w: 64 });
        }
        let base = name.strip_suffix('f')?;
        let &(_, op) = NAMES.iter().find(|(n, _)| *n == base)?;
        Some(MathFn { op, w: 32 })
    }

    pub fn name(self) -> String {
        let base = NAMES.iter().find(|(_, o)| *o == self.op).unwrap().0;
        if self.w == 32 {
            format!("{base}f")
        } else {
            base.to_string()
        }
    }

    pub fn arity(self) -> usize {
        use MathOp::*;
        match self.op {
            Pow | Atan2 | Fmod | Hypot | Fmin | Fmax | CopySign => 2,
            _ => 1,
        }
    }

    /// Z3's floating-point theory expresses it exactly (IEEE operations with a rounding mode).
    pub fn z3_exact(self) -> bool {
        use MathOp::*;
        matches!(
            self.op,
            Sqrt | Fabs | Floor | Ceil | Round | Trunc | Rint | Fmin | Fmax | CopySign
        )
    }

    /// Exact or correctly rounded by definition, so every build of the library computes the
    /// same bits (a 32-bit program's library included).
    pub fn same_in_every_build(self) -> bool {
        self.z3_exact() || self.op == MathOp::Fmod
    }

    /// Piecewise linear: the walk may keep constraints over it in the polytope.
    pub fn piecewise_linear(self) -> bool {
        self.z3_exact() && self.op != MathOp::Sqrt
    }

    /// The result's bit pattern for arguments given as bit patterns.
    /// The function this one computes under rounding mode `r`, where the solver expresses it
    /// exactly: `rint` (and `nearbyint`) is `floor` downward, `ceil` upward, `trunc` toward
    /// zero; the functions that round to an integer their own way, and the exact ones, are
    /// themselves. `None` for the others (a square root, `sin`): their encodings round to
    /// nearest.
    pub fn under(self, r: crate::ir::rounding::Rounding) -> Option<MathFn> {
        use crate::ir::rounding::Rounding::*;
        let op = match (self.op, r) {
            (_, ToNearest) => self.op,
            (MathOp::Rint, Downward) => MathOp::Floor,
            (MathOp::Rint, Upward) => MathOp::Ceil,
            (MathOp::Rint, TowardZero) => MathOp::Trunc,
            (
                MathOp::Floor
                | MathOp::Ceil
                | MathOp::Trunc
                | MathOp::Round
                | MathOp::Fabs
                | MathOp::CopySign
                | MathOp::Fmin
                | MathOp::Fmax,
                _,
            ) => self.op,
            _ => return None,
        };
        Some(MathFn { op, w: self.w })
    }

    pub fn eval(self, args: &[u64]) -> u64 {
        let a = |i: usize| args.get(i).copied().unwrap_or(0);
        if matches!(self.op, MathOp::Fmin | MathOp::Fmax) {
            return min_max(self.op == MathOp::Fmax, self.w, a(0), a(1));
        }
        let (r, quiet_bit) = if self.w == 32 {
            let x = f32::from_bits(a(0) as u32);
            let y = f32::from_bits(a(1) as u32);
            let r = eval32(self.op, x, y);
            (r.to_bits() as u64, r.is_nan().then_some(1u64 << 22))
        } else {
            let r = eval64(self.op, f64::from_bits(a(0)), f64::from_bits(a(1)));
            (r.to_bits(), r.is_nan().then_some(1u64 << 51))
        };
        // glibc's NaN results are quiet (a signalling NaN argument's too; Rust's own rounding
        // functions return it as it is); fabs and copysign only move the sign.
        match quiet_bit {
            Some(q) if !matches!(self.op, MathOp::Fabs | MathOp::CopySign) => r | q,
            _ => r,
        }
    }
}

/// fmin and fmax as clang compiles them (`llvm.minnum`/`maxnum`, lowered inline on x86-64) on
/// `w`-bit patterns: a NaN operand gives way to the other operand, whatever it is; of two numbers
/// `y` if it is smaller (larger), else `x` (so `x` when they compare equal, as ±0 do). (glibc's
/// own functions differ: they quiet a signalling NaN and return `y` of equal numbers.)
pub fn min_max(max: bool, w: u8, x: u64, y: u64) -> u64 {
    let value = |b: u64| match w {
        32 => f32::from_bits(b as u32) as f64,
        _ => f64::from_bits(b),
    };
    let (vx, vy) = (value(x), value(y));
    if vx.is_nan() {
        return y;
    }
    if vy.is_nan() {
        return x;
    }
    let y_wins = match max {
        true => vy > vx,
        false => vy < vx,
    };
    if y_wins { y } else { x }
}

/// One operation on `f64` or `f32` (Rust's f32 methods call the `f`-suffixed C functions).
macro_rules! eval_math {
    ($op:expr, $x:expr, $y:expr) => {{
        let (x, y) = ($x, $y);
        use MathOp::*;
        match $op {
            Sin => x.sin(),
            Cos => x.cos(),
            Tan => x.tan(),
            Asin => x.asin(),
            Acos => x.acos(),
            Atan => x.atan(),
            Sinh => x.sinh(),
            Cosh => x.cosh(),
            Tanh => x.tanh(),
            Exp => x.exp(),
            Exp2 => x.exp2(),
            Expm1 => x.exp_m1(),
            Log => x.ln(),
            Log2 => x.log2(),
            Log10 => x.log10(),
            Log1p => x.ln_1p(),
            Sqrt => x.sqrt(),
            Cbrt => x.cbrt(),
            Fabs => x.abs(),
            Floor => x.floor(),
            Ceil => x.ceil(),
            Round => x.round(),
            Trunc => x.trunc(),
            Rint => unreachable!("C's rint"),
            Pow => x.powf(y),
            Atan2 => x.atan2(y),
            Fmod => x % y,
            Hypot => x.hypot(y),
            Fmin => x.min(y),
            Fmax => x.max(y),
            CopySign => x.copysign(y),
        }
    }};
}

unsafe extern "C" {
    fn rint(x: f64) -> f64;
    fn rintf(x: f32) -> f32;
}

// `rint` is C's: it rounds in the current rounding mode (`ir::rounding`), to nearest, ties to
// even, by default.
fn eval64(op: MathOp, x: f64, y: f64) -> f64 {
    match op {
        MathOp::Rint => unsafe { rint(x) },
        _ => eval_math!(op, x, y),
    }
}

fn eval32(op: MathOp, x: f32, y: f32) -> f32 {
    match op {
        MathOp::Rint => unsafe { rintf(x) },
        _ => eval_math!(op, x, y),
    }
}
