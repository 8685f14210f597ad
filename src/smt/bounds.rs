//! Dropping constraints a tighter bound on the same term implies.
//!
//! A loop whose trip count is an input leaves one comparison per iteration on the path:
//! `0 < n, 1 < n, ..., 976 < n`. Every one of them is in the slice of a query about `n`, and a
//! thousand redundant constraints over one parsed number made each Z3 call take 0.2 s (the
//! Siemens `tot_info`: `for (i = 0; i < r; ++i)` with `r` read by `sscanf`). Only the tightest
//! lower and upper bound per term and order (signed or unsigned) carries information; the
//! others are implied, so dropping them leaves a query with exactly the same models.

use super::expr::{ExprId, Node, Pool};
use crate::ir::IPred;
use crate::ir::ops::sext;
use std::collections::HashMap;

/// A bound's value and the index of the constraint that sets it.
type Kept = (i128, usize);

/// A constraint `term ∈ [lo, hi]` in one order, read off a comparison with a constant.
struct Bound {
    term: ExprId,
    signed: bool,
    /// Inclusive; the order's minimum or maximum when the constraint sets only one side.
    lo: i128,
    hi: i128,
}

/// `constraints` without those implied by a tighter bound on the same term in the same order.
/// The constraints kept are in their original order; `keep` (the query's goal) is never
/// dropped.
pub fn drop_implied_bounds(pool: &Pool, constraints: &[ExprId], keep: ExprId) -> Vec<ExprId> {
    let bounds: Vec<Option<Bound>> = constraints.iter().map(|&c| bound_of(pool, c)).collect();
    // The tightest lower and upper bound per (term, order).
    let mut tightest: HashMap<(ExprId, bool), (Option<Kept>, Option<Kept>)> = HashMap::new();
    for (i, b) in bounds.iter().enumerate() {
        let Some(b) = b else { continue };
        let (min, max) = range(pool.width(b.term), b.signed);
        let e = tightest.entry((b.term, b.signed)).or_default();
        if b.lo > min && e.0.is_none_or(|(lo, _)| b.lo > lo) {
            e.0 = Some((b.lo, i));
        }
        if b.hi < max && e.1.is_none_or(|(hi, _)| b.hi < hi) {
            e.1 = Some((b.hi, i));
        }
    }
    constraints
        .iter()
        .zip(&bounds)
        .enumerate()
        .filter(|&(i, (&c, b))| {
            let Some(b) = b else { return true };
            if c == keep {
                return true;
            }
            let (lower, upper) = tightest[&(b.term, b.signed)];
            // Implied when each side it sets is no tighter than the kept bound of that side
            // (and it is not itself the one kept).
            let (min, max) = range(pool.width(b.term), b.signed);
            let lower_implied = b.lo <= min || lower.is_some_and(|(lo, j)| j != i && lo >= b.lo);
            let upper_implied = b.hi >= max || upper.is_some_and(|(hi, j)| j != i && hi <= b.hi);
            !(lower_implied && upper_implied)
        })
        .map(|(_, (&c, _))| c)
        .collect()
}

/// The smallest and largest value of a `w`-bit term in the order.
fn range(w: u8, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// The bound a comparison of a term with a constant sets, if it is an order comparison.
fn bound_of(pool: &Pool, c: ExprId) -> Option<Bound> {
    let Node::Cmp { pred, a, b } = *pool.node(c) else {
        return None;
    };
    use IPred::*;
    // Constant on the right: `term pred k`; on the left, mirror the predicate.
    let (pred, term, k) = match (pool.as_const(a), pool.as_const(b)) {
        (None, Some(k)) => (pred, a, k),
        (Some(k), None) => {
            let mirrored = match pred {
                Ult => Ugt,
                Ule => Uge,
                Ugt => Ult,
                Uge => Ule,
                Slt => Sgt,
                Sle => Sge,
                Sgt => Slt,
                Sge => Sle,
                Eq | Ne => return None,
            };
            (mirrored, b, k)
        }
        _ => return None,
    };
    let w = pool.width(term);
    let signed = matches!(pred, Slt | Sle | Sgt | Sge);
    let k = if signed {
        sext(k, w.into()) as i128
    } else {
        k as i128
    };
    let (min, max) = range(w, signed);
    // An empty bound (`x < MIN`) is left alone: the query is unsatisfiable through it.
    let (lo, hi) = match pred {
        Ult | Slt if k > min => (min, k - 1),
        Ule | Sle => (min, k),
        Ugt | Sgt if k < max => (k + 1, max),
        Uge | Sge => (k, max),
        _ => return None,
    };
    Some(Bound {
        term,
        signed,
        lo,
        hi,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::expr::VarKey;

    fn var(p: &mut Pool, input: u32) -> ExprId {
        p.var(VarKey {
            input,
            byte: 0,
            w: 32,
        })
    }

    #[test]
    fn loop_bounds_keep_only_the_tightest() {
        let mut p = Pool::new();
        let n = var(&mut p, 0);
        let m = var(&mut p, 1);
        // 0 < n, 1 < n, 2 < n (a loop of three iterations), n <=s 100, n <u 50 (another
        // order), m < 7, and the goal 3 >= n.
        let mut cs = vec![];
        for i in 0..3 {
            let k = p.constant(32, i);
            cs.push(p.cmp(IPred::Slt, k, n));
        }
        let k100 = p.constant(32, 100);
        cs.push(p.cmp(IPred::Sle, n, k100));
        let k90 = p.constant(32, 90);
        cs.push(p.cmp(IPred::Sle, n, k90));
        let k50 = p.constant(32, 50);
        cs.push(p.cmp(IPred::Ult, n, k50));
        let k7 = p.constant(32, 7);
        cs.push(p.cmp(IPred::Slt, m, k7));
        let k3 = p.constant(32, 3);
        let goal = p.cmp(IPred::Sge, k3, n);
        cs.push(goal);
        let kept = drop_implied_bounds(&p, &cs, goal);
        // 2 < n (the tightest lower bound), n <u 50, m < 7, and the goal, which implies both
        // signed upper bounds.
        assert_eq!(kept, vec![cs[2], cs[5], cs[6], goal]);
    }

    #[test]
    fn negative_constants_are_read_in_their_order() {
        let mut p = Pool::new();
        let n = var(&mut p, 0);
        // n >s -5 and n >s -3: the second is tighter. As unsigned, -3 is a huge bound and
        // stays separate.
        let a = p.constant(32, (-5i32) as u32 as u64);
        let b = p.constant(32, (-3i32) as u32 as u64);
        let c0 = p.cmp(IPred::Sgt, n, a);
        let c1 = p.cmp(IPred::Sgt, n, b);
        let c2 = p.cmp(IPred::Ult, n, b);
        let t = p.constant(1, 1);
        let kept = drop_implied_bounds(&p, &[c0, c1, c2], t);
        assert_eq!(kept, vec![c1, c2]);
    }

    #[test]
    fn equal_bounds_keep_one() {
        let mut p = Pool::new();
        let n = var(&mut p, 0);
        let k = p.constant(32, 4);
        let k5 = p.constant(32, 5);
        // n < 5 and n <= 4 say the same: one of them stays.
        let c0 = p.cmp(IPred::Slt, n, k5);
        let c1 = p.cmp(IPred::Sle, n, k);
        let t = p.constant(1, 1);
        let kept = drop_implied_bounds(&p, &[c0, c1], t);
        assert_eq!(kept.len(), 1);
    }
}
