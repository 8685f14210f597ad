//! Exhaustive search of small domains. Many queries of programs that read text are over one or
//! two characters: a variable that matters only through its low byte and a few equalities (a
//! `getchar` result: `c == EOF ? EOF : (unsigned char)c`). Z3 bit-blasts whatever follows from
//! it — a digit turned into a float and divided, say — and can spend a second on a query
//! that 257 concrete evaluations decide. When every variable of a query falls into a few
//! classes of values that no constraint can tell apart, one value per class is tried; the
//! answer is exact (an Unsat is a proof), as evaluation has the interpreter's semantics.

use super::expr::{ExprId, Memo, Node, Pool};
use super::solver::{Answer, Assignment};
use crate::ir::{BinOp, FPred, IPred};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Most assignments tried for one query.
pub const MAX_ASSIGNMENTS: usize = 1 << 16;

/// How the constraints see one variable.
#[derive(Default)]
struct Use {
    width: u8,
    /// Read whole (not only through its low bits or equalities with constants).
    whole: bool,
    /// Widest low slice read (`extract[0+k]`).
    low_bits: u8,
    /// Constants it is compared with for (in)equality.
    constants: HashSet<u64>,
}

/// Sat with a model or Unsat when every variable of `query` has a small domain (after each
/// variable's own constraints filter its classes, at most `MAX_ASSIGNMENTS` combinations);
/// None otherwise, or when the search takes longer than `budget`. `current` orders the
/// search: classes holding the current values come first, so the model changes little.
pub fn enumerate(
    pool: &mut Pool,
    query: &[ExprId],
    current: &dyn Fn(u32) -> u64,
    budget: Duration,
) -> Option<Answer> {
    let start = Instant::now();
    let uses = uses(pool, query);
    let pins = pins(pool, query);
    let mut domains: HashMap<u32, Vec<u64>> = HashMap::new();
    for (&id, u) in &uses {
        let values = match pins.get(&id) {
            Some(values) => values.clone(),
            None => representatives(u, current(id))?,
        };
        domains.insert(id, values);
    }
    // Constraints over one variable filter its domain first (two digits each checked for
    // being a digit leave 100 combinations of 66,049), each value checked against all of
    // them at once (they share their terms: one memo).
    let mut joint: Vec<ExprId> = vec![];
    let mut own: HashMap<u32, Vec<ExprId>> = HashMap::new();
    for &c in query {
        match pool.vars_of(c).as_slice() {
            [v] => own.entry(*v).or_default().push(c),
            [] if pool.eval(c, current, &mut Memo::default()) & 1 == 0 => {
                return Some(Answer::Unsat);
            }
            [] => {}
            _ => joint.push(c),
        }
    }
    let mut memo = Memo::default();
    for (v, constraints) in &own {
        let values = domains.get_mut(v)?;
        values.retain(|&x| {
            let vals = |id: u32| if id == *v { x } else { current(id) };
            memo.clear();
            constraints
                .iter()
                .all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1)
        });
    }
    let mut domains: Vec<(u32, Vec<u64>)> = domains.into_iter().collect();
    let mut size = 1usize;
    for (_, values) in &domains {
        size = size.checked_mul(values.len())?;
    }
    if size == 0 {
        return Some(Answer::Unsat);
    }
    if size > MAX_ASSIGNMENTS {
        return None;
    }
    let pool = &*pool;
    let query = &joint;
    domains.sort_by_key(|(id, _)| *id);
    let mut index = vec![0usize; domains.len()];
    let mut assignment: HashMap<u32, u64> = HashMap::new();
    for tried in 1usize.. {
        if tried % 256 == 0 && start.elapsed() > budget {
            return None;
        }
        for (k, (id, values)) in domains.iter().enumerate() {
            assignment.insert(*id, values[index[k]]);
        }
        let vals = |id: u32| assignment.get(&id).copied().unwrap_or_else(|| current(id));
        memo.clear();
        if query
            .iter()
            .all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1)
        {
            return Some(Answer::Sat(assignment.into_iter().collect::<Assignment>()));
        }
        // The next combination (odometer order).
        let mut k = 0;
        loop {
            if k == domains.len() {
                return Some(Answer::Unsat);
            }
            index[k] += 1;
            if index[k] < domains[k].1.len() {
                break;
            }
            index[k] = 0;
            k += 1;
        }
    }
    unreachable!()
}

/// One value of each class of values the constraints cannot tell apart, the current value's
/// class first; None when there are too many classes.
fn representatives(u: &Use, current: u64) -> Option<Vec<u64>> {
    let mask = |v: u64, bits: u8| {
        if bits >= 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        }
    };
    let current = mask(current, u.width);
    if u.whole {
        if u.width > 8 {
            return None;
        }
        let mut all: Vec<u64> = (0..1u64 << u.width).collect();
        all.retain(|&v| v != current);
        all.insert(0, current);
        return Some(all);
    }
    if u.low_bits > 8 {
        return None;
    }
    // Each constant is a class of its own; every other value is classed by its low bits.
    let mut out: Vec<u64> = vec![];
    let mut constants: Vec<u64> = u.constants.iter().map(|&c| mask(c, u.width)).collect();
    constants.sort();
    let low = mask(current, u.low_bits);
    let lows = std::iter::once(low).chain((0..1u64 << u.low_bits).filter(|&b| b != low));
    for b in lows {
        // A value with these low bits that equals no constant: the current high bits, or
        // the first others that avoid them (there are at most |constants| collisions).
        let high_step = if u.low_bits >= u.width {
            0
        } else {
            1u64 << u.low_bits
        };
        let mut v = (current & !mask(u64::MAX, u.low_bits)) | b;
        let mut tries = 0;
        while constants.binary_search(&v).is_ok() {
            if high_step == 0 || tries > constants.len() {
                break;
            }
            v = mask(v.wrapping_add(high_step), u.width);
            tries += 1;
        }
        if constants.binary_search(&v).is_err() {
            out.push(v);
        }
    }
    for c in constants {
        if c == current {
            out.insert(0, c);
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// The variables that a conjunct of `query` pins to a few values, whatever else reads them:
/// `x == c`, `!(x != c)`, and their floating-point forms (`x == 1e16` holds of one bit
/// pattern, `x == 0.0` of both zeros, `x == NaN` of none). Z3 bit-blasts the rest of such a
/// query (`(x + 1.0) - x == 1.0`) and can take a second where one evaluation decides it.
fn pins(pool: &Pool, query: &[ExprId]) -> HashMap<u32, Vec<u64>> {
    let mut out: HashMap<u32, Vec<u64>> = HashMap::new();
    for &c in query {
        if let Some((id, values)) = pinned(pool, c, false) {
            let known = out.entry(id).or_insert_with(|| values.clone());
            known.retain(|v| values.contains(v));
        }
    }
    out
}

/// The variable `c` (negated when `negated`) pins, with the values it allows.
fn pinned(pool: &Pool, c: ExprId, negated: bool) -> Option<(u32, Vec<u64>)> {
    let var_and_constant = |a: ExprId, b: ExprId| match (pool.node(a), pool.node(b)) {
        (Node::Var { id, .. }, Node::Const { v, .. })
        | (Node::Const { v, .. }, Node::Var { id, .. }) => Some((*id, *v)),
        _ => None,
    };
    match (pool.node(c), negated) {
        (
            Node::Bin {
                op: BinOp::Xor,
                w: 1,
                a,
                b,
            },
            _,
        ) => {
            let one = |e: ExprId| matches!(pool.node(e), Node::Const { v: 1, .. });
            match (one(*a), one(*b)) {
                (false, true) => pinned(pool, *a, !negated),
                (true, false) => pinned(pool, *b, !negated),
                _ => None,
            }
        }
        (
            Node::Cmp {
                pred: IPred::Eq,
                a,
                b,
            },
            false,
        )
        | (
            Node::Cmp {
                pred: IPred::Ne,
                a,
                b,
            },
            true,
        ) => var_and_constant(*a, *b).map(|(id, v)| (id, vec![v])),
        (
            Node::FCmp {
                pred: FPred::Oeq,
                w,
                a,
                b,
            },
            false,
        )
        | (
            Node::FCmp {
                pred: FPred::Une,
                w,
                a,
                b,
            },
            true,
        ) => {
            let (id, v) = var_and_constant(*a, *b)?;
            let (nan, zero, sign) = match w {
                32 => (
                    f32::from_bits(v as u32).is_nan(),
                    v as u32 & !(1 << 31) == 0,
                    1u64 << 31,
                ),
                64 => (f64::from_bits(v).is_nan(), v & !(1 << 63) == 0, 1u64 << 63),
                _ => return None,
            };
            let values = match (nan, zero) {
                (true, _) => vec![],
                (false, true) => vec![0, sign],
                (false, false) => vec![v],
            };
            Some((id, values))
        }
        _ => None,
    }
}

/// How each variable of `query` is read.
fn uses(pool: &Pool, query: &[ExprId]) -> HashMap<u32, Use> {
    let mut out: HashMap<u32, Use> = HashMap::new();
    for &c in query {
        note(pool, c, None, &mut out); // a 1-bit variable as a constraint of its own
    }
    for e in pool.reachable(query) {
        for child in pool.children(e) {
            note(pool, child, Some(e), &mut out);
        }
    }
    out
}

/// Records how `parent` (None: the query itself) reads `e` if `e` is a variable.
fn note(pool: &Pool, e: ExprId, parent: Option<ExprId>, out: &mut HashMap<u32, Use>) {
    let Node::Var { w, id } = *pool.node(e) else {
        return;
    };
    let u = out.entry(id).or_default();
    u.width = w;
    match parent.map(|p| pool.node(p)) {
        Some(Node::Extract { w: k, lo: 0, .. }) => u.low_bits = u.low_bits.max(*k),
        Some(Node::Cmp {
            pred: IPred::Eq | IPred::Ne,
            a,
            b,
        }) => {
            let other = if *a == e { *b } else { *a };
            match pool.node(other) {
                Node::Const { v, .. } => {
                    u.constants.insert(*v);
                }
                _ => u.whole = true,
            }
        }
        _ => u.whole = true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, CastOp, FBinOp, FPred};
    use crate::smt::expr::VarKey;

    const SECOND: Duration = Duration::from_secs(1);

    /// Asserts that enumeration's answer `mine` agrees with Z3's on `query` (a model satisfies
    /// the query and Z3 does not refute it; Z3 finds no model of an Unsat) and says whether it
    /// is a model.
    fn agrees_with_z3(p: &Pool, query: &[ExprId], mine: &Answer, timeout: Duration) -> bool {
        use crate::smt::solver::{Backend, Z3Backend};
        // A backend per pool: its terms are cached by expression id.
        let theirs = Z3Backend::new().check(p, query, timeout, &|_| 0);
        match (mine, &theirs) {
            (Answer::Sat(m), _) => {
                assert_ne!(theirs, Answer::Unsat, "{query:?}");
                let vals = |id: u32| m.get(&id).copied().unwrap_or(0);
                for &q in query {
                    assert_eq!(p.eval(q, &vals, &mut Memo::default()) & 1, 1);
                }
                true
            }
            (Answer::Unsat, Answer::Sat(_)) => panic!("enumeration missed a model: {query:?}"),
            _ => false,
        }
    }

    fn var32(p: &mut Pool) -> ExprId {
        p.var(VarKey {
            input: 0,
            byte: 0,
            w: 32,
        })
    }

    /// `c == -1 ? -1 : (unsigned char) c`, as the runtime's getchar returns it.
    fn getchar(p: &mut Pool) -> ExprId {
        let c = var32(p);
        let eof = p.constant(32, u32::MAX as u64);
        let is_eof = p.cmp(IPred::Eq, c, eof);
        let byte = p.extract(8, 0, c);
        let wide = p.zext(32, byte);
        p.ite(is_eof, eof, wide)
    }

    #[test]
    fn a_digit_divided_as_a_float_is_found_and_an_impossible_one_refuted() {
        let mut p = Pool::new();
        let c = getchar(&mut p);
        // (float)(c - '0') / 4.0 == 1.75  ⇔  c == '7'
        let zero = p.constant(32, b'0' as u64);
        let digit = p.bin(BinOp::Sub, 32, c, zero);
        let f = p.fcast(CastOp::SiToFp, 32, digit);
        let four = p.constant(32, 4.0f32.to_bits() as u64);
        let q = p.fbin(FBinOp::Div, 32, f, four);
        let target = p.constant(32, 1.75f32.to_bits() as u64);
        let hit = p.fcmp(FPred::Oeq, q, target);
        let Some(Answer::Sat(m)) = enumerate(&mut p, &[hit], &|_| 0, SECOND) else {
            panic!("expected a model");
        };
        assert_eq!(m[&0] & 0xff, b'7' as u64);
        // … and 1.8 no character gives.
        let other = p.constant(32, 1.8f32.to_bits() as u64);
        let miss = p.fcmp(FPred::Oeq, q, other);
        assert_eq!(
            enumerate(&mut p, &[miss], &|_| 0, SECOND),
            Some(Answer::Unsat)
        );
    }

    #[test]
    fn a_byte_equal_to_the_end_of_input_is_told_apart_from_it() {
        // c != EOF and (unsigned char)c == 0xff: only a value with low byte 0xff that is not
        // -1 satisfies it, though the current value is -1.
        let mut p = Pool::new();
        let c = var32(&mut p);
        let eof = p.constant(32, u32::MAX as u64);
        let not_eof = p.cmp(IPred::Ne, c, eof);
        let byte = p.extract(8, 0, c);
        let ff = p.constant(8, 0xff);
        let is_ff = p.cmp(IPred::Eq, byte, ff);
        let Some(Answer::Sat(m)) =
            enumerate(&mut p, &[not_eof, is_ff], &|_| u32::MAX as u64, SECOND)
        else {
            panic!("expected a model");
        };
        let v = m[&0];
        assert_eq!(v & 0xff, 0xff);
        assert_ne!(v, u32::MAX as u64);
    }

    #[test]
    fn a_variable_read_whole_and_wide_is_left_to_the_solver() {
        let mut p = Pool::new();
        let x = var32(&mut p);
        let k = p.constant(32, 1000);
        let big = p.cmp(IPred::Sgt, x, k);
        assert_eq!(enumerate(&mut p, &[big], &|_| 0, SECOND), None);
    }

    fn var64(p: &mut Pool) -> ExprId {
        p.var(VarKey {
            input: 0,
            byte: 0,
            w: 64,
        })
    }

    /// `x == 1e16 && (x + k) - x == k`: one evaluation decides what Z3 bit-blasts (the
    /// excess-precision program's error call, left unknown under load after Z3's timeout).
    #[test]
    fn a_float_pinned_to_a_constant_is_decided_by_evaluation() {
        let mut p = Pool::new();
        let x = var64(&mut p);
        let big = p.constant(64, 1e16f64.to_bits());
        let ne = p.fcmp(FPred::Une, x, big);
        let pinned = p.not(ne);
        let gained = |p: &mut Pool, k: f64| {
            let k = p.constant(64, k.to_bits());
            let sum = p.fbin(FBinOp::Add, 64, x, k);
            let back = p.fbin(FBinOp::Sub, 64, sum, x);
            p.fcmp(FPred::Oeq, back, k)
        };
        let one = gained(&mut p, 1.0);
        assert_eq!(
            enumerate(&mut p, &[pinned, one], &|_| 0, SECOND),
            Some(Answer::Unsat)
        );
        let two = gained(&mut p, 2.0);
        let Some(Answer::Sat(m)) = enumerate(&mut p, &[pinned, two], &|_| 0, SECOND) else {
            panic!("expected a model");
        };
        assert_eq!(m[&0], 1e16f64.to_bits());
    }

    /// A float equal to zero is either zero; one equal to NaN is nothing.
    #[test]
    fn zero_pins_both_zeros_and_nan_pins_none() {
        let mut p = Pool::new();
        let x = var64(&mut p);
        let zero = p.constant(64, 0);
        let is_zero = p.fcmp(FPred::Oeq, x, zero);
        let minus = p.constant(64, 1 << 63);
        let is_minus = p.cmp(IPred::Eq, x, minus);
        let Some(Answer::Sat(m)) = enumerate(&mut p, &[is_zero, is_minus], &|_| 0, SECOND) else {
            panic!("expected -0.0");
        };
        assert_eq!(m[&0], 1 << 63);
        let nan = p.constant(64, f64::NAN.to_bits());
        let is_nan = p.fcmp(FPred::Oeq, x, nan);
        assert_eq!(
            enumerate(&mut p, &[is_nan], &|_| 0, SECOND),
            Some(Answer::Unsat)
        );
    }

    /// Pinned floats against Z3 on random queries: a 64-bit float pinned to one of a few
    /// constants (zeros, NaN, large, small), then random arithmetic with a free byte. Same
    /// verdict wherever Z3 decides within its (short: it bit-blasts) time; every model
    /// satisfies the query.
    #[test]
    fn pinned_floats_agree_with_z3_on_random_queries() {
        use rand::{Rng, SeedableRng, rngs::SmallRng};
        let mut rng = SmallRng::seed_from_u64(11);
        let (mut sat, mut unsat) = (0, 0);
        let pins = [0.0, -0.0, f64::NAN, 1e16, 3.5, -1e-300, 2f64.powi(53)];
        let ks: [f64; 6] = [1.0, 0.5, 2.0, -3.0, 1e16, 0.1];
        for _ in 0..24 {
            let mut p = Pool::new();
            let x = var64(&mut p);
            let c = p.constant(64, pins[rng.gen_range(0..pins.len())].to_bits());
            let pin = match rng.gen_range(0..2) {
                0 => p.fcmp(FPred::Oeq, x, c),
                _ => {
                    let ne = p.fcmp(FPred::Une, x, c);
                    p.not(ne)
                }
            };
            let b = p.var(VarKey {
                input: 1,
                byte: 0,
                w: 8,
            });
            let bf = p.fcast(CastOp::SiToFp, 64, b);
            let k = p.constant(64, ks[rng.gen_range(0..ks.len())].to_bits());
            let ops = [FBinOp::Add, FBinOp::Sub, FBinOp::Mul, FBinOp::Div];
            let t = p.fbin(ops[rng.gen_range(0..4)], 64, x, k);
            let t = p.fbin(ops[rng.gen_range(0..4)], 64, t, bf);
            let r = p.constant(64, ks[rng.gen_range(0..ks.len())].to_bits());
            let preds = [FPred::Oeq, FPred::Olt, FPred::Ogt, FPred::Une, FPred::Uno];
            let q = p.fcmp(preds[rng.gen_range(0..preds.len())], t, r);
            let query = [pin, q];
            let current = |_: u32| 0;
            let mine = enumerate(&mut p, &query, &current, SECOND).expect("pinned and a byte");
            match agrees_with_z3(&p, &query, &mine, SECOND / 2) {
                true => sat += 1,
                false => unsat += 1,
            }
        }
        eprintln!("{sat} sat, {unsat} unsat");
        assert!(sat > 5 && unsat > 5, "{sat} sat, {unsat} unsat");
    }

    /// Enumeration against Z3 on random queries over a `getchar` result and a byte: the same
    /// verdict on every query Z3 decides, and every model satisfies the query.
    #[test]
    fn enumeration_agrees_with_z3_on_random_queries() {
        use rand::{Rng, SeedableRng, rngs::SmallRng};
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut sat, mut unsat) = (0, 0);
        for _ in 0..150 {
            let mut p = Pool::new();
            let c = getchar(&mut p);
            let b = p.var(VarKey {
                input: 1,
                byte: 0,
                w: 8,
            });
            let b32 = p.sext(32, b);
            let mut terms = vec![c, b32];
            for _ in 0..rng.gen_range(1..4) {
                let x = terms[rng.gen_range(0..terms.len())];
                let y = terms[rng.gen_range(0..terms.len())];
                let k = p.constant(32, rng.gen_range(0..300));
                let t = match rng.gen_range(0..5) {
                    0 => p.bin(BinOp::Add, 32, x, k),
                    1 => p.bin(BinOp::Mul, 32, x, y),
                    2 => p.bin(BinOp::Xor, 32, x, y),
                    3 => p.bin(BinOp::And, 32, x, k),
                    _ => {
                        let f = p.fcast(CastOp::SiToFp, 32, x);
                        let ten = p.constant(32, 10.0f32.to_bits() as u64);
                        let q = p.fbin(FBinOp::Div, 32, f, ten);
                        p.fcast(CastOp::FpToSi, 32, q)
                    }
                };
                terms.push(t);
            }
            let mut query = vec![];
            for _ in 0..rng.gen_range(1..4) {
                let t = terms[rng.gen_range(0..terms.len())];
                let k = p.constant(32, rng.gen_range(0..300));
                let pred = [IPred::Eq, IPred::Ne, IPred::Slt, IPred::Ugt][rng.gen_range(0..4)];
                query.push(p.cmp(pred, t, k));
            }
            let current = |_: u32| 0;
            let Some(mine) = enumerate(&mut p, &query, &current, SECOND) else {
                continue;
            };
            match agrees_with_z3(&p, &query, &mine, Duration::from_millis(300)) {
                true => sat += 1,
                false => unsat += 1,
            }
        }
        eprintln!("{sat} sat, {unsat} unsat");
        assert!(sat > 40 && unsat > 10, "{sat} sat, {unsat} unsat");
    }
}
