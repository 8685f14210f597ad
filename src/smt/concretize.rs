//! The classic concolic simplification (CUTE, CREST, DART), kept as the baseline the walk is
//! measured against: terms a linear solver cannot handle are replaced by their values on the
//! run the query came from. Opaque calls become constants; in a non-linear product, quotient or
//! remainder the left operand becomes its value (`x*y` with `x = 2` becomes `2*y`). The
//! simplified query is an under-approximation: its models are checked against the original
//! constraints like every other model, and rejected when the approximation was too coarse.

use super::expr::{ExprId, Memo, Node, Pool};
use std::collections::HashMap;

/// `e` with its non-linear and opaque terms replaced by their values under `vals`.
pub fn concretize(pool: &mut Pool, e: ExprId, vals: &dyn Fn(u32) -> u64) -> ExprId {
    let mut values = Memo::default();
    let mut done = HashMap::new();
    rewrite(pool, e, vals, &mut values, &mut done)
}

fn rewrite(
    pool: &mut Pool,
    e: ExprId,
    vals: &dyn Fn(u32) -> u64,
    values: &mut Memo,
    done: &mut HashMap<ExprId, ExprId>,
) -> ExprId {
    if let Some(r) = done.get(&e) {
        return *r;
    }
    let r = match pool.node(e).clone() {
        Node::Const { .. } | Node::Var { .. } => e,
        Node::Opaque { w, .. } => {
            let v = pool.eval(e, vals, values);
            pool.constant(w, v)
        }
        _ if pool.is_nonlinear_node(e) => {
            let ch = pool.children(e);
            let left = pool.eval(ch[0], vals, values);
            let left = pool.constant(pool.width(ch[0]), left);
            let right = rewrite(pool, ch[1], vals, values, done);
            pool.with_children(e, &[left, right])
        }
        _ => {
            let ch: Vec<ExprId> = pool
                .children(e)
                .into_iter()
                .map(|c| rewrite(pool, c, vals, values, done))
                .collect();
            pool.with_children(e, &ch)
        }
    };
    done.insert(e, r);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, IPred};
    use crate::smt::expr::VarKey;

    #[test]
    fn products_keep_their_right_operand() {
        let mut p = Pool::new();
        let x = p.var(VarKey {
            input: 0,
            byte: 0,
            w: 32,
        });
        let y = p.var(VarKey {
            input: 1,
            byte: 0,
            w: 32,
        });
        let xy = p.bin(BinOp::Mul, 32, x, y);
        let k = p.constant(32, 12);
        let c = p.cmp(IPred::Eq, xy, k);
        let vals = |v: u32| if v == 0 { 3 } else { 5 };
        let s = concretize(&mut p, c, &vals);
        let three = p.constant(32, 3);
        let expect_l = p.bin(BinOp::Mul, 32, three, y);
        let expect = p.cmp(IPred::Eq, expect_l, k);
        assert_eq!(s, expect);
    }
}
