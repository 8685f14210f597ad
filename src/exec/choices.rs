//! Symbolic pointers that choose among known addresses: `table[i]` for a table of pointers,
//! `c ? p : q`, and constant offsets from them (`table[i]->count`). The shadow reads and writes
//! through such a pointer as an if-then-else over the objects it can point to, so that the
//! solver can pick another object (another queue of a scheduler, another node of a list) rather
//! than being held to the one this run happened to use.

use crate::ir::BinOp;
use crate::smt::expr::{ExprId, Node, Pool};

/// Most addresses one pointer may choose among; beyond that the access is handled as a
/// pointer into the one object it hit.
pub const MAX_CHOICES: usize = 16;

/// The distinct concrete addresses `e` can take when it is a tree of if-then-elses with constant
/// leaves, plus constant offsets; None for any other expression or too many leaves.
pub fn addresses(pool: &Pool, e: ExprId) -> Option<Vec<u64>> {
    let mut out = vec![];
    walk(pool, e, 0, &mut out, 0)?;
    (out.len() >= 2).then_some(out)
}

fn walk(pool: &Pool, e: ExprId, off: u64, out: &mut Vec<u64>, depth: u32) -> Option<()> {
    if depth > 64 {
        return None;
    }
    match pool.node(e) {
        Node::Const { v, .. } => {
            let a = v.wrapping_add(off);
            if !out.contains(&a) {
                if out.len() == MAX_CHOICES {
                    return None;
                }
                out.push(a);
            }
            Some(())
        }
        Node::Ite { t, f, .. } => {
            let (t, f) = (*t, *f);
            walk(pool, t, off, out, depth + 1)?;
            walk(pool, f, off, out, depth + 1)
        }
        Node::Bin {
            op: BinOp::Add,
            a,
            b,
            ..
        } => {
            let (a, b) = (*a, *b);
            match (pool.as_const(a), pool.as_const(b)) {
                (Some(k), None) => walk(pool, b, off.wrapping_add(k), out, depth + 1),
                (None, Some(k)) => walk(pool, a, off.wrapping_add(k), out, depth + 1),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `e` with every leaf address replaced by `at(address)`: the value the access reads (or any
/// per-address fact) as an if-then-else on the same conditions. `at` must cover every address
/// `addresses(e)` returned.
pub fn select(pool: &mut Pool, e: ExprId, at: &dyn Fn(u64) -> ExprId) -> ExprId {
    rebuild(pool, e, 0, at)
}

fn rebuild(pool: &mut Pool, e: ExprId, off: u64, at: &dyn Fn(u64) -> ExprId) -> ExprId {
    match pool.node(e).clone() {
        Node::Const { v, .. } => at(v.wrapping_add(off)),
        Node::Ite { c, t, f, .. } => {
            let t = rebuild(pool, t, off, at);
            let f = rebuild(pool, f, off, at);
            pool.ite(c, t, f)
        }
        Node::Bin {
            op: BinOp::Add,
            a,
            b,
            ..
        } => match pool.as_const(a) {
            Some(k) => rebuild(pool, b, off.wrapping_add(k), at),
            None => {
                let k = pool
                    .as_const(b)
                    .expect("addresses() accepted only constant offsets");
                rebuild(pool, a, off.wrapping_add(k), at)
            }
        },
        _ => unreachable!("addresses() accepted only constants, if-then-elses and offsets"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IPred;
    use crate::smt::expr::VarKey;

    #[test]
    fn a_field_of_a_table_entry_reads_from_every_entry_it_can_be() {
        let mut pool = Pool::default();
        let i = pool.var(VarKey {
            input: 0,
            byte: 0,
            w: 64,
        });
        let k = pool.constant(64, 1);
        let c = pool.cmp(IPred::Ult, i, k);
        let (p, q) = (pool.constant(64, 0x1000), pool.constant(64, 0x2000));
        let entry = pool.ite(c, p, q);
        let eight = pool.constant(64, 8);
        let field = pool.bin(BinOp::Add, 64, entry, eight);
        assert_eq!(addresses(&pool, field), Some(vec![0x1008, 0x2008]));
        let (a, b) = (pool.constant(32, 7), pool.constant(32, 9));
        let read = select(&mut pool, field, &|addr| if addr == 0x1008 { a } else { b });
        assert_eq!(pool.ite(c, a, b), read);
        assert_eq!(
            addresses(&pool, i),
            None,
            "an input is no choice among known addresses"
        );
        assert_eq!(addresses(&pool, p), None, "one address is no choice");
    }
}
