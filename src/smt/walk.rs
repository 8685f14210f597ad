//! A local-search backend for the queries Z3 gives up on (floating point, non-linear
//! arithmetic): starting from the current input, it moves one variable at a time towards
//! satisfying every constraint, scoring candidates by concrete evaluation. This is a first,
//! simple form of the concolic walk; every answer is checked by the solver front like any
//! other model.

use super::expr::{ExprId, Node, Pool};
use super::solver::{Answer, Assignment, Backend};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

pub struct WalkBackend {
    rng: SmallRng,
}

impl WalkBackend {
    pub fn new(seed: u64) -> WalkBackend {
        WalkBackend {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

fn as_f64(bits: u64, w: u8) -> f64 {
    if w == 32 {
        f32::from_bits(bits as u32) as f64
    } else {
        f64::from_bits(bits)
    }
}

fn from_f64(x: f64, w: u8) -> u64 {
    if w == 32 {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

/// How far an assignment is from satisfying `c` (0 when it does).
fn distance(
    pool: &Pool,
    c: ExprId,
    vals: &dyn Fn(u32) -> u64,
    memo: &mut HashMap<ExprId, u64>,
) -> f64 {
    if pool.eval(c, vals, memo) & 1 == 1 {
        return 0.0;
    }
    match pool.node(c) {
        Node::Cmp { a, b, .. } => {
            let w = pool.width(*a) as u32;
            let (x, y) = (pool.eval(*a, vals, memo), pool.eval(*b, vals, memo));
            let (x, y) = (
                crate::exec::ops::sext(x, w) as f64,
                crate::exec::ops::sext(y, w) as f64,
            );
            1.0 + (x - y).abs().ln_1p()
        }
        Node::FCmp { w, a, b, .. } => {
            let (x, y) = (
                as_f64(pool.eval(*a, vals, memo), *w),
                as_f64(pool.eval(*b, vals, memo), *w),
            );
            if x.is_nan() || y.is_nan() {
                50.0
            } else {
                1.0 + (x - y).abs().ln_1p()
            }
        }
        _ => 10.0,
    }
}

fn constants(pool: &Pool, cs: &[ExprId]) -> Vec<(u8, u64)> {
    let mut out: Vec<(u8, u64)> = pool
        .reachable(cs)
        .into_iter()
        .filter_map(|e| {
            if let Node::Const { w, v } = pool.node(e) {
                Some((*w, *v))
            } else {
                None
            }
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

impl Backend for WalkBackend {
    fn name(&self) -> &'static str {
        "walk"
    }

    fn check(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        timeout: Duration,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        let deadline = Instant::now() + timeout.min(Duration::from_millis(300));
        // Variables, and which of them are floats (they feed floating-point operations).
        let mut vars: Vec<(u32, u8)> = vec![];
        let mut floats: HashSet<u32> = HashSet::new();
        let var_of = |e: ExprId| {
            if let Node::Var { id, .. } = pool.node(e) {
                Some(*id)
            } else {
                None
            }
        };
        for e in pool.reachable(constraints) {
            match pool.node(e) {
                Node::Var { id, w } => vars.push((*id, *w)),
                Node::FBin { a, b, .. } | Node::FCmp { a, b, .. } => {
                    floats.extend(var_of(*a).into_iter().chain(var_of(*b)))
                }
                Node::FCast { op, a, .. }
                    if matches!(
                        op,
                        crate::ir::CastOp::FpExt
                            | crate::ir::CastOp::FpTrunc
                            | crate::ir::CastOp::FpToSi
                            | crate::ir::CastOp::FpToUi
                    ) =>
                {
                    floats.extend(var_of(*a))
                }
                _ => {}
            }
        }
        vars.sort();
        if vars.is_empty() {
            return Answer::Unknown;
        }
        let consts = constants(pool, constraints);
        let mut cur: HashMap<u32, u64> = vars.iter().map(|(v, _)| (*v, current(*v))).collect();
        let score = |a: &HashMap<u32, u64>| -> f64 {
            let vals = |v: u32| a.get(&v).copied().unwrap_or(0);
            let mut memo = HashMap::new();
            constraints
                .iter()
                .map(|c| distance(pool, *c, &vals, &mut memo))
                .sum()
        };
        let mut best = score(&cur);
        let mut steps = 0u64;
        while best > 0.0 && Instant::now() < deadline && steps < 200_000 {
            steps += 1;
            let (v, w) = vars[self.rng.gen_range(0..vars.len())];
            let old = cur[&v];
            let mask = crate::exec::ops::mask(u64::MAX, w as u32);
            let cand = if floats.contains(&v) && (w == 32 || w == 64) {
                let x = as_f64(old, w);
                let c = consts
                    .iter()
                    .filter(|(cw, _)| *cw == w)
                    .map(|(_, c)| as_f64(*c, w))
                    .collect::<Vec<_>>();
                let y = match self.rng.gen_range(0..8) {
                    0 if !c.is_empty() => c[self.rng.gen_range(0..c.len())],
                    1 if !c.is_empty() => {
                        c[self.rng.gen_range(0..c.len())]
                            * [0.5, 2.0, 4.0, -1.0, 3.0][self.rng.gen_range(0..5)]
                    }
                    2 => x + self.rng.gen_range(-1.0..1.0),
                    3 => x * (1.0 + self.rng.gen_range(-0.1..0.1)),
                    4 => -x,
                    5 => x + [1.0, -1.0, 0.5, -0.5][self.rng.gen_range(0..4)],
                    6 => (x * 2.0f64.powi(self.rng.gen_range(-8..8))).trunc(),
                    _ => self.rng.gen_range(-1e6..1e6),
                };
                from_f64(y, w)
            } else {
                let c: Vec<u64> = consts
                    .iter()
                    .filter(|(cw, _)| *cw == w)
                    .map(|(_, c)| *c)
                    .collect();
                (match self.rng.gen_range(0..7) {
                    0 if !c.is_empty() => c[self.rng.gen_range(0..c.len())],
                    1 => old.wrapping_add(1),
                    2 => old.wrapping_sub(1),
                    3 => old.wrapping_add(self.rng.gen_range(1..1000)),
                    4 => old.wrapping_sub(self.rng.gen_range(1..1000)),
                    5 => old ^ (1u64 << self.rng.gen_range(0..w.max(1))),
                    _ => self.rng.r#gen(),
                }) & mask
            };
            cur.insert(v, cand);
            let s = score(&cur);
            // Accept improvements, and sideways moves now and then to leave plateaus.
            if s < best || (s == best && self.rng.gen_bool(0.3)) {
                best = s;
            } else {
                cur.insert(v, old);
            }
        }
        if best == 0.0 {
            Answer::Sat(cur.into_iter().collect::<Assignment>())
        } else {
            Answer::Unknown
        }
    }
}
