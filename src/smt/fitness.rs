//! Error scores of constraints (Algorithm 2 of the concolic-walk paper): how far an assignment is
//! from satisfying a constraint, measured by evaluating both sides concretely. A comparison
//! `l ⋈ r` becomes `d ⋈ 0` with `d = l - r`; the score is the distance of `d` from the region the
//! relation allows (0 when it holds). Conjunctions add their parts' scores, disjunctions take
//! the smallest; anything else scores 0 or 1.

use super::expr::{ExprId, Memo, Node, Pool};
use super::opaque::{MathOp, OpaqueFn};
use crate::ir::ops::sext;
use crate::ir::{BinOp, FPred, IPred};

/// Score of an operand that is NaN or of a difference that overflows: far, but finite so that
/// scores still add up and compare.
pub const FAR: f64 = 1e300;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Rel {
    fn negate(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Lt => Rel::Ge,
            Rel::Ge => Rel::Lt,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
        }
    }
}

/// A comparison seen as `d rel 0`.
#[derive(Clone, Copy, Debug)]
pub struct Measure {
    pub rel: Rel,
    pub d: f64,
    /// Integer comparison: strict relations need a whole unit of distance.
    pub int: bool,
}

impl Measure {
    /// Distance of `d` from the allowed region.
    pub fn error(&self) -> f64 {
        if self.d.is_nan() {
            return FAR;
        }
        let unit = if self.int { 1.0 } else { 0.0 };
        let e = match self.rel {
            Rel::Eq => self.d.abs(),
            Rel::Ne => {
                if self.d == 0.0 {
                    1.0
                } else {
                    0.0
                }
            }
            Rel::Lt => (self.d + unit).max(0.0),
            Rel::Le => self.d.max(0.0),
            Rel::Gt => (unit - self.d).max(0.0),
            Rel::Ge => (-self.d).max(0.0),
        };
        e.min(FAR)
    }

    /// The value of `d` to aim at when solving for the constraint: the boundary, or one unit
    /// (or a sliver of the current distance, for floats) inside a strict relation.
    pub fn target(&self) -> Option<f64> {
        let inside = if self.int {
            1.0
        } else {
            (self.d.abs() * 1e-3).max(f64::MIN_POSITIVE)
        };
        match self.rel {
            Rel::Eq | Rel::Le | Rel::Ge => Some(0.0),
            Rel::Lt => Some(-inside),
            Rel::Gt => Some(inside),
            Rel::Ne => None,
        }
    }
}

fn as_float(bits: u64, w: u8) -> f64 {
    if w == 32 {
        f32::from_bits(bits as u32) as f64
    } else {
        f64::from_bits(bits)
    }
}

/// `c` as a single comparison `d rel 0`, if it is one (possibly negated).
pub fn measure(
    pool: &Pool,
    c: ExprId,
    vals: &dyn Fn(u32) -> u64,
    memo: &mut Memo,
) -> Option<Measure> {
    match pool.node(c) {
        Node::Cmp { pred, a, b } => {
            let w = pool.width(*a) as u32;
            let (x, y) = (pool.eval(*a, vals, memo), pool.eval(*b, vals, memo));
            use IPred::*;
            let (rel, d) = match pred {
                // Equalities measure the shorter way around the ring of w-bit values.
                Eq | Ne => {
                    let diff = sext(x.wrapping_sub(y), w) as f64;
                    (if *pred == Eq { Rel::Eq } else { Rel::Ne }, diff)
                }
                Slt | Sle | Sgt | Sge => {
                    let d = sext(x, w) as i128 - sext(y, w) as i128;
                    let rel = match pred {
                        Slt => Rel::Lt,
                        Sle => Rel::Le,
                        Sgt => Rel::Gt,
                        _ => Rel::Ge,
                    };
                    (rel, d as f64)
                }
                Ult | Ule | Ugt | Uge => {
                    let d = x as i128 - y as i128;
                    let rel = match pred {
                        Ult => Rel::Lt,
                        Ule => Rel::Le,
                        Ugt => Rel::Gt,
                        _ => Rel::Ge,
                    };
                    (rel, d as f64)
                }
            };
            Some(Measure { rel, d, int: true })
        }
        Node::FCmp { pred, w, a, b } => {
            use FPred::*;
            let rel = match pred {
                Oeq | Ueq => Rel::Eq,
                One | Une => Rel::Ne,
                Olt | Ult => Rel::Lt,
                Ole | Ule => Rel::Le,
                Ogt | Ugt => Rel::Gt,
                Oge | Uge => Rel::Ge,
                Ord | Uno | True | False => return None,
            };
            let x = as_float(pool.eval(*a, vals, memo), *w);
            let y = as_float(pool.eval(*b, vals, memo), *w);
            let d = x - y;
            // Infinite operands: the difference says nothing useful about distance.
            let d = if d.is_infinite() { f64::NAN } else { d };
            Some(Measure { rel, d, int: false })
        }
        Node::Bin {
            op: BinOp::Xor,
            w: 1,
            a,
            b,
        } if pool.as_const(*b) == Some(1) => {
            let mut m = measure(pool, *a, vals, memo)?;
            m.rel = m.rel.negate();
            Some(m)
        }
        _ => None,
    }
}

/// Error score of constraint `c` under `vals` (0 exactly when `c` holds).
pub fn error(pool: &Pool, c: ExprId, vals: &dyn Fn(u32) -> u64, memo: &mut Memo) -> f64 {
    if pool.eval(c, vals, memo) & 1 == 1 {
        return 0.0;
    }
    let graded = match pool.node(c) {
        Node::Bin {
            op: BinOp::And,
            w: 1,
            a,
            b,
        } => error(pool, *a, vals, memo) + error(pool, *b, vals, memo),
        Node::Bin {
            op: BinOp::Or,
            w: 1,
            a,
            b,
        } => error(pool, *a, vals, memo).min(error(pool, *b, vals, memo)),
        _ => match measure(pool, c, vals, memo) {
            Some(m) => m.error(),
            None => 1.0,
        },
    };
    // The evaluation is the ground truth: a violated constraint never scores 0.
    graded.max(f64::MIN_POSITIVE)
}

/// A violated comparison inside `c` (itself, or a violated part of a conjunction or
/// disjunction): what a bisection step solves for.
pub fn violated_leaf(
    pool: &Pool,
    c: ExprId,
    vals: &dyn Fn(u32) -> u64,
    memo: &mut Memo,
) -> Option<ExprId> {
    if pool.eval(c, vals, memo) & 1 == 1 {
        return None;
    }
    match pool.node(c) {
        Node::Bin {
            op: BinOp::And | BinOp::Or,
            w: 1,
            a,
            b,
        } => {
            let (a, b) = (*a, *b);
            violated_leaf(pool, a, vals, memo).or_else(|| violated_leaf(pool, b, vals, memo))
        }
        _ => measure(pool, c, vals, memo).map(|_| c),
    }
}

/// The argument of a floating-point absolute value (`fabs` call or sign-bit mask), if `e` is one.
fn abs_argument(pool: &Pool, e: ExprId) -> Option<ExprId> {
    match pool.node(e) {
        Node::Bin {
            op: BinOp::And,
            w,
            a,
            b,
        } if pool.as_const(*b) == Some(crate::ir::ops::mask(u64::MAX, *w as u32) >> 1) => Some(*a),
        Node::Opaque { call, .. } => {
            let c = pool.opaque_call(*call);
            matches!(c.f, OpaqueFn::Math(m) if m.op == MathOp::Fabs).then(|| c.args[0])
        }
        _ => None,
    }
}

/// An equality in effect: `a == b`, or `|e| < c` / `<=` between floats (a band around `e = 0`).
pub fn is_equality(pool: &Pool, c: ExprId) -> bool {
    match pool.node(c) {
        Node::Cmp {
            pred: IPred::Eq, ..
        } => true,
        Node::FCmp { pred, a, .. } => match pred {
            FPred::Oeq | FPred::Ueq => true,
            FPred::Olt | FPred::Ole | FPred::Ult | FPred::Ule => abs_argument(pool, *a).is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// The signed quantity an equality (`is_equality`) wants at zero: `a - b`, or `e` for `|e| < c`.
pub fn residual(pool: &Pool, c: ExprId, vals: &dyn Fn(u32) -> u64, memo: &mut Memo) -> Option<f64> {
    match pool.node(c) {
        Node::Cmp {
            pred: IPred::Eq,
            a,
            b,
        } => {
            let w = pool.width(*a) as u32;
            let (x, y) = (pool.eval(*a, vals, memo), pool.eval(*b, vals, memo));
            Some(sext(x.wrapping_sub(y), w) as f64)
        }
        Node::FCmp { pred, w, a, b } => {
            if let Some(inner) = abs_argument(pool, *a) {
                return Some(as_float(pool.eval(inner, vals, memo), *w));
            }
            if !matches!(pred, FPred::Oeq | FPred::Ueq) {
                return None;
            }
            let x = as_float(pool.eval(*a, vals, memo), *w);
            let y = as_float(pool.eval(*b, vals, memo), *w);
            Some(x - y)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::expr::VarKey;

    #[test]
    fn scores_follow_the_distance() {
        let mut p = Pool::new();
        let x = p.var(VarKey {
            input: 0,
            byte: 0,
            w: 64,
        });
        let five = p.constant(64, 5f64.to_bits());
        let gt = p.fcmp(FPred::Ogt, x, five);
        let score = |p: &Pool, c, v: f64| {
            let vals = move |_| v.to_bits();
            error(p, c, &vals, &mut Memo::default())
        };
        assert_eq!(score(&p, gt, 6.0), 0.0);
        assert!(score(&p, gt, 4.0) < score(&p, gt, 1.0));
        assert!(score(&p, gt, 5.0) > 0.0);
        assert_eq!(score(&p, gt, f64::NAN), FAR);
        let le = p.not(gt);
        assert_eq!(score(&p, le, 4.0), 0.0);
        assert!((score(&p, le, 7.0) - 2.0).abs() < 1e-12);
    }
}
