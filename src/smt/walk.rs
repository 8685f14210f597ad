//! The concolic walk (Dinges and Agha, "Solving complex path conditions through heuristic search
//! on induced polytopes", FSE 2014; `concolic-walk.txt`): a solver for path conditions with
//! non-linear arithmetic and opaque calls.
//!
//! The path condition is split into its linear constraints L (no product of two inputs, no
//! opaque call other than piecewise-linear ones) and the rest N. Z3 finds a point of the polytope
//! L (Algorithm 1, `solveLinear`); from there an adaptive tabu search moves inside L towards a
//! point that also satisfies N, guided by error scores computed by concrete evaluation
//! (`fitness`): each iteration picks the non-tabu variable occurring in the most violated
//! constraints, generates `neighbours` candidates that differ in that variable only — a random
//! step inside the polytope and a bisection step (the zero of the linear interpolation of a
//! violated constraint through the current point and the random one) — and moves to the fittest
//! if it improves; otherwise the variable is tabu for `t = min(|vars(N)|, tabu)` iterations, and
//! when every variable is tabu all of them take a random step (Algorithms 1, 3 and 4).
//!
//! Valuation space: each input variable is a coordinate — a real for variables used as floats,
//! a signed integer otherwise. Random steps are normal with a standard deviation of
//! `step * max(1, |x|) * 2^-k`, `k` uniform in `0..=levels` (steps on every scale, from a jump
//! across the range to the last bits of a double). Linear equalities `v = e` of L are restored
//! after each step by recomputing `v` (`adjustToSatisfy`); other steps that leave L are
//! rejected (at most `samples` tries).
//!
//! Beyond the paper: the run's own inputs are the first starting point when they lie in the
//! polytope (they usually do: the prefix of a pending branch is the path they took), Z3's point
//! the second, and `restarts` more starts perturb the first. Sound: an answer is a point where
//! every constraint evaluates true, and the solver front checks it again.

use super::expr::{ExprId, Memo, Node, Pool};
use super::fitness::{self, Measure};
use super::opaque::OpaqueFn;
use super::solver::{Answer, Assignment, Z3Backend};
use crate::ir::ops::{mask, sext};
use crate::ir::{CastOp, FPred, IPred};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Parameters of the walk (`--walk key=value,...`).
#[derive(Clone, Debug, PartialEq)]
pub struct WalkConfig {
    /// Iteration budget per non-linear constraint (the paper's `i`).
    pub steps: u32,
    /// Neighbour pairs (random + bisection) generated per iteration (`r`).
    pub neighbours: u32,
    /// Tabu length cap: a variable that did not improve is tabu for `min(|vars(N)|, tabu)`
    /// iterations (`t`); 0 disables the tabu mechanism.
    pub tabu: u32,
    /// Rejection samples per random step (`m`).
    pub samples: u32,
    /// Largest random step, relative to the value's magnitude (`s`).
    pub step: f64,
    /// Scales of random steps: `step * 2^-k` for `k` in `0..=levels`.
    pub levels: u32,
    pub bisection: bool,
    /// Extra starts after the first two (the run's point and Z3's) are exhausted.
    pub restarts: u32,
    /// Wall-clock limit per query.
    pub time: Duration,
    /// Scores add `e / (1 + e)` per constraint instead of the raw distances `e` (the paper's),
    /// so that one far-off constraint cannot drown the others.
    pub normalize: bool,
}

impl Default for WalkConfig {
    fn default() -> Self {
        WalkConfig {
            steps: 150,
            neighbours: 5,
            tabu: 3,
            samples: 10,
            step: 1.0,
            levels: 40,
            bisection: true,
            restarts: 2,
            time: Duration::from_secs(2),
            normalize: false,
        }
    }
}

impl WalkConfig {
    /// Parses `key=value,...` over the defaults (keys: steps, neighbours, tabu, samples, step,
    /// levels, bisection, restarts, time — seconds).
    pub fn parse(spec: &str) -> Result<WalkConfig, String> {
        let mut c = WalkConfig::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("walk parameter `{item}` is not key=value"))?;
            let bad = || format!("walk parameter `{k}`: invalid value `{v}`");
            match k {
                "steps" => c.steps = v.parse().map_err(|_| bad())?,
                "neighbours" | "neighbors" => c.neighbours = v.parse().map_err(|_| bad())?,
                "tabu" => c.tabu = v.parse().map_err(|_| bad())?,
                "samples" => c.samples = v.parse::<u32>().map_err(|_| bad())?.max(1),
                "step" => c.step = v.parse().map_err(|_| bad())?,
                "levels" => c.levels = v.parse().map_err(|_| bad())?,
                "bisection" => c.bisection = v.parse().map_err(|_| bad())?,
                "restarts" => c.restarts = v.parse().map_err(|_| bad())?,
                "normalize" => c.normalize = v.parse().map_err(|_| bad())?,
                "time" => {
                    c.time = Duration::from_secs_f64(v.parse::<f64>().map_err(|_| bad())?.max(0.0))
                }
                _ => {
                    return Err(format!(
                        "unknown walk parameter `{k}` (steps, neighbours, tabu, samples, step, levels, bisection, restarts, time, normalize)"
                    ));
                }
            }
        }
        Ok(c)
    }
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct WalkStats {
    pub calls: u64,
    pub solved: u64,
    pub unsat: u64,
    /// Queries whose polytope Z3 could not solve in time.
    pub no_start: u64,
    pub iterations: u64,
    pub time_s: f64,
}

pub struct Walk {
    pub cfg: WalkConfig,
    rng: SmallRng,
    pub stats: WalkStats,
}

/// One coordinate of the valuation space.
#[derive(Clone, Copy, Debug)]
struct Coord {
    var: u32,
    w: u8,
    float: bool,
}

impl Coord {
    fn value(&self, bits: u64) -> f64 {
        match (self.float, self.w) {
            (true, 32) => f32::from_bits(bits as u32) as f64,
            (true, _) => f64::from_bits(bits),
            _ => sext(bits, self.w as u32) as f64,
        }
    }
}

/// A point of the valuation space: bit patterns by coordinate index.
type Point = Vec<u64>;

/// The query as the search sees it.
struct Problem<'a> {
    pool: &'a Pool,
    coords: Vec<Coord>,
    index: HashMap<u32, usize>,
    linear: Vec<ExprId>,
    nonlinear: Vec<ExprId>,
    /// Coordinates each non-linear constraint depends on.
    nl_vars: Vec<Vec<usize>>,
    /// Linear equalities `coordinate = expression`, re-established after every step.
    defs: Vec<(usize, ExprId)>,
    /// The other equalities of the polytope and their coordinates, restored by solving.
    equalities: Vec<(ExprId, Vec<usize>)>,
    /// Coordinates the search may move: those of N not fixed by an equality.
    movable: Vec<usize>,
    normalize: bool,
    current: &'a dyn Fn(u32) -> u64,
}

impl<'a> Problem<'a> {
    fn new(
        pool: &'a Pool,
        coords: Vec<Coord>,
        index: HashMap<u32, usize>,
        linear: Vec<ExprId>,
        nonlinear: Vec<ExprId>,
        normalize: bool,
        current: &'a dyn Fn(u32) -> u64,
    ) -> Problem<'a> {
        let nl_vars: Vec<Vec<usize>> = nonlinear
            .iter()
            .map(|&c| vars_of(pool, c).iter().map(|x| index[x]).collect())
            .collect();
        let defs = definitions(pool, &linear, &index);
        let defined: HashSet<usize> = defs.iter().map(|d| d.0).collect();
        let equalities: Vec<(ExprId, Vec<usize>)> = linear
            .iter()
            .filter(|&&c| fitness::is_equality(pool, c))
            .map(|&c| {
                let vars: Vec<usize> = vars_of(pool, c)
                    .iter()
                    .map(|x| index[x])
                    .filter(|i| !defined.contains(i))
                    .collect();
                (c, vars)
            })
            .filter(|(c, vars)| {
                !vars.is_empty() && !defs.iter().any(|d| pool.reachable(&[*c]).contains(&d.1))
            })
            .collect();
        let mut movable: Vec<usize> = nl_vars.iter().flatten().copied().collect();
        movable.sort();
        movable.dedup();
        let free: Vec<usize> = movable
            .iter()
            .copied()
            .filter(|i| !defined.contains(i))
            .collect();
        if !free.is_empty() {
            movable = free;
        }
        Problem {
            pool,
            coords,
            index,
            linear,
            nonlinear,
            nl_vars,
            defs,
            equalities,
            movable,
            normalize,
            current,
        }
    }

    fn vals<'p>(&'p self, p: &'p Point) -> impl Fn(u32) -> u64 + 'p {
        move |v| match self.index.get(&v) {
            Some(&i) => p[i],
            None => (self.current)(v),
        }
    }

    fn in_polytope(&self, p: &Point, memo: &mut Memo) -> bool {
        let vals = self.vals(p);
        self.linear
            .iter()
            .all(|&c| self.pool.eval(c, &vals, memo) & 1 == 1)
    }

    /// Total error of N at `p`, or None when `p` leaves the polytope.
    fn score(&self, p: &Point) -> Option<f64> {
        let mut memo = Memo::default();
        if !self.in_polytope(p, &mut memo) {
            return None;
        }
        let vals = self.vals(p);
        Some(
            self.nonlinear
                .iter()
                .map(|&c| self.error(c, &vals, &mut memo))
                .sum(),
        )
    }

    fn error(&self, c: ExprId, vals: &dyn Fn(u32) -> u64, memo: &mut Memo) -> f64 {
        let e = fitness::error(self.pool, c, vals, memo);
        if self.normalize { e / (1.0 + e) } else { e }
    }

    /// `adjustToSatisfy`: after a step that moved coordinates `moved`, recomputes the
    /// coordinates defined by linear equalities `v = e`, then restores each other violated
    /// equality of the polytope (`a = b`, `|e| < tiny`) by solving it for one of its coordinates
    /// that did not move (secant iterations: exact in one for a linear residual, a few for its
    /// floating-point rounding).
    fn adjust(&self, p: &mut Point, moved: &[usize]) {
        for &(i, e) in &self.defs {
            let v = {
                let vals = self.vals(p);
                self.pool.eval(e, &vals, &mut Memo::default())
            };
            p[i] = mask(v, self.coords[i].w as u32);
        }
        for (c, vars) in &self.equalities {
            let Some(&pivot) = vars.iter().rev().find(|v| !moved.contains(v)) else {
                continue;
            };
            let coord = self.coords[pivot];
            for _ in 0..SECANT_ITERATIONS {
                let r0 = {
                    let vals = self.vals(p);
                    let mut memo = Memo::default();
                    if self.pool.eval(*c, &vals, &mut memo) & 1 == 1 {
                        break;
                    }
                    fitness::residual(self.pool, *c, &vals, &mut memo)
                };
                let Some(r0) = r0.filter(|r| r.is_finite()) else {
                    break;
                };
                let x0 = coord.value(p[pivot]);
                if !x0.is_finite() {
                    break;
                }
                let h = if coord.float {
                    x0.abs().max(1.0) * 1e-6
                } else {
                    1.0
                };
                let mut q = p.clone();
                q[pivot] = to_bits(coord, x0 + h, p[pivot]);
                let r1 = {
                    let vals = self.vals(&q);
                    fitness::residual(self.pool, *c, &vals, &mut Memo::default())
                };
                let Some(r1) = r1.filter(|r| r.is_finite() && *r != r0) else {
                    break;
                };
                let dx = coord.value(q[pivot]) - x0;
                p[pivot] = to_bits(coord, x0 - r0 * dx / (r1 - r0), p[pivot]);
            }
        }
    }
}

/// Secant iterations per equality in `adjustToSatisfy`.
const SECANT_ITERATIONS: usize = 4;

impl Walk {
    pub fn new(cfg: WalkConfig, seed: u64) -> Walk {
        Walk {
            cfg,
            rng: SmallRng::seed_from_u64(seed),
            stats: WalkStats::default(),
        }
    }

    /// Solves the conjunction `constraints`, using `z3` for the polytope. `current` gives the
    /// values of the run the query came from.
    pub fn solve(
        &mut self,
        z3: &mut Z3Backend,
        pool: &Pool,
        constraints: &[ExprId],
        deadline: Instant,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        let t = Instant::now();
        self.stats.calls += 1;
        let deadline = deadline.min(t + self.cfg.time);
        let answer = self.solve_inner(z3, pool, constraints, deadline, current);
        match &answer {
            Answer::Sat(_) => self.stats.solved += 1,
            Answer::Unsat => self.stats.unsat += 1,
            Answer::Unknown => {}
        }
        self.stats.time_s += t.elapsed().as_secs_f64();
        answer
    }

    fn solve_inner(
        &mut self,
        z3: &mut Z3Backend,
        pool: &Pool,
        constraints: &[ExprId],
        deadline: Instant,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        // The polytope L is split in two: what Z3 decides in milliseconds, and linear
        // constraints with floating-point arithmetic, which Z3 bit-blasts slowly.
        let (mut cheap, mut float_linear, mut nonlinear) = (vec![], vec![], vec![]);
        for &c in constraints {
            match classify(pool, c) {
                Class::Cheap => cheap.push(c),
                Class::FloatLinear => float_linear.push(c),
                Class::NonLinear => nonlinear.push(c),
            }
        }
        let coords = coordinates(pool, constraints);
        let here: Point = coords.iter().map(|c| current(c.var)).collect();
        let floats: Vec<(u32, u8)> = coords
            .iter()
            .filter(|c| c.float)
            .map(|c| (c.var, c.w))
            .collect();
        let holds = |a: &Assignment| {
            let vals = |v: u32| a.get(&v).copied().unwrap_or_else(|| current(v));
            let mut memo = Memo::default();
            constraints
                .iter()
                .all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1)
        };
        // Z3's point of the cheap part (`None`: no answer in time, or a model the concrete
        // semantics disagree with, e.g. a conversion of NaN).
        let budget = deadline.saturating_duration_since(Instant::now());
        let only_cheap = nonlinear.is_empty() && float_linear.is_empty();
        let z3_point = if cheap.is_empty() {
            Some(Assignment::new())
        } else {
            let t = if only_cheap { budget } else { budget / 2 };
            match z3.check_preferring_finite(pool, &cheap, &floats, t) {
                // L is part of the path condition: no point in L, no solution.
                Answer::Unsat => return Answer::Unsat,
                // Only linear constraints: the decision procedure is complete there.
                Answer::Sat(a) if only_cheap && holds(&a) => return Answer::Sat(a),
                Answer::Sat(a) => Some(a),
                Answer::Unknown => None,
            }
        };
        let mut starts: Vec<Point> = vec![];
        let cheap_holds = |p: &Point| {
            let vals = |v: u32| match coords.iter().position(|c| c.var == v) {
                Some(i) => p[i],
                None => current(v),
            };
            let mut memo = Memo::default();
            cheap
                .iter()
                .all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1)
                && coords
                    .iter()
                    .zip(p)
                    .all(|(c, b)| !c.float || c.value(*b).is_finite())
        };
        if cheap_holds(&here) {
            starts.push(here.clone());
        }
        if let Some(a) = z3_point {
            let p: Point = coords
                .iter()
                .zip(&here)
                .map(|(c, h)| a.get(&c.var).copied().unwrap_or(*h))
                .collect();
            if cheap_holds(&p) && !starts.contains(&p) {
                starts.push(p);
            }
        }
        if starts.is_empty() {
            // Z3 gave no usable point: search for the whole polytope too, from the run's point.
            self.stats.no_start += 1;
            float_linear.append(&mut cheap);
            starts.push(here);
        }
        let polytope: Vec<ExprId> = cheap.iter().chain(&float_linear).copied().collect();
        let index: HashMap<u32, usize> =
            coords.iter().enumerate().map(|(i, c)| (c.var, i)).collect();
        let normalize = self.cfg.normalize;
        let prob = Problem::new(
            pool,
            coords.clone(),
            index.clone(),
            polytope,
            nonlinear,
            normalize,
            current,
        );
        // Getting into the polytope: a search for its floating-point part inside the rest.
        let entry = Problem::new(pool, coords, index, cheap, float_linear, normalize, current);
        self.walk_from(&prob, &entry, starts, deadline)
    }

    /// Searches from each start in turn (first into the polytope with `entry`, then for the
    /// rest with `prob`), then from `restarts` random points around the first that got in.
    fn walk_from(
        &mut self,
        prob: &Problem,
        entry: &Problem,
        starts: Vec<Point>,
        deadline: Instant,
    ) -> Answer {
        let mut first: Option<Point> = None;
        let mut restart = 0;
        while restart < starts.len() + self.cfg.restarts as usize {
            let start = match (starts.get(restart), &first) {
                (Some(s), _) => Some(s.clone()),
                (None, Some(f)) => {
                    let f = f.clone();
                    Some(self.random_step(prob, &f, &prob.movable))
                }
                (None, None) => None,
            };
            restart += 1;
            let Some(start) = start else { continue };
            let inside = if prob.in_polytope(&start, &mut Memo::default()) {
                Some(start)
            } else {
                self.search(entry, start, deadline)
            };
            if let Some(p) = inside {
                first.get_or_insert(p.clone());
                if let Some(p) = self.search(prob, p, deadline) {
                    let a: Assignment = prob
                        .coords
                        .iter()
                        .zip(&p)
                        .map(|(c, v)| (c.var, *v))
                        .collect();
                    return Answer::Sat(a);
                }
            }
            if past(deadline) {
                break;
            }
        }
        Answer::Unknown
    }

    /// Algorithm 1's loop from `start`: adaptive tabu search inside the polytope.
    fn search(&mut self, prob: &Problem, start: Point, deadline: Instant) -> Option<Point> {
        let mut cur = start;
        let mut err = prob.score(&cur)?;
        let n = prob.coords.len();
        let mut tabu = vec![0u32; n];
        let tabu_len = (prob.movable.len() as u32).min(self.cfg.tabu);
        let budget = self.cfg.steps as usize * prob.nonlinear.len();
        for _ in 0..budget {
            if err == 0.0 {
                return Some(cur);
            }
            // Ctrl-C ends a walk as it ends Z3's queries. Every step: one can take long on a
            // large path condition (each neighbour evaluates every constraint).
            if past(deadline) {
                return None;
            }
            self.stats.iterations += 1;
            if tabu_len > 0 && prob.movable.iter().all(|&v| tabu[v] > 0) {
                let p = self.random_step(prob, &cur, &prob.movable);
                if let Some(e) = prob.score(&p) {
                    cur = p;
                    err = e;
                }
                tabu.iter_mut().for_each(|t| *t = 0);
                continue;
            }
            // Error per variable: the scores of the violated constraints it occurs in.
            let mut per_var = vec![0.0f64; n];
            {
                let vals = prob.vals(&cur);
                let mut memo = Memo::default();
                for (k, &c) in prob.nonlinear.iter().enumerate() {
                    let e = prob.error(c, &vals, &mut memo);
                    for &v in &prob.nl_vars[k] {
                        per_var[v] += e;
                    }
                }
            }
            let x = self.pick_variable(prob, &per_var, &tabu);
            let (next, next_err) = self.best_neighbour(prob, &cur, x, deadline);
            if next_err < err {
                cur = next;
                err = next_err;
                tabu.iter_mut().for_each(|t| *t = t.saturating_sub(1));
            } else if tabu_len > 0 {
                tabu[x] = tabu_len;
            }
        }
        if err != 0.0 && crate::debug_on!("walk") {
            let vals: Vec<f64> = prob
                .coords
                .iter()
                .zip(&cur)
                .map(|(c, b)| c.value(*b))
                .collect();
            crate::debug_log!("walk", "walk: gave up at error {err:e}, point {vals:?}");
            let v = prob.vals(&cur);
            for &c in prob.linear.iter().chain(&prob.nonlinear) {
                if prob.pool.eval(c, &v, &mut Memo::default()) & 1 == 0 {
                    let t = prob.pool.show(c);
                    crate::debug_log!("walk", "  violated: {}", &t[..t.len().min(200)]);
                }
            }
        }
        (err == 0.0).then_some(cur)
    }

    /// The non-tabu movable variable with the largest error (ties broken at random).
    fn pick_variable(&mut self, prob: &Problem, per_var: &[f64], tabu: &[u32]) -> usize {
        let open: Vec<usize> = prob
            .movable
            .iter()
            .copied()
            .filter(|&v| tabu[v] == 0)
            .collect();
        let open = if open.is_empty() {
            prob.movable.clone()
        } else {
            open
        };
        let best = open
            .iter()
            .map(|&v| per_var[v])
            .fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<usize> = open.into_iter().filter(|&v| per_var[v] == best).collect();
        top[self.rng.gen_range(0..top.len())]
    }

    /// Algorithm 3: `neighbours` random steps along `x` inside the polytope, each with a
    /// bisection step on a violated constraint containing `x`; the fittest of them.
    fn best_neighbour(
        &mut self,
        prob: &Problem,
        cur: &Point,
        x: usize,
        deadline: Instant,
    ) -> (Point, f64) {
        let mut best = (cur.clone(), f64::INFINITY);
        let violated: Vec<usize> = {
            let vals = prob.vals(cur);
            let mut memo = Memo::default();
            (0..prob.nonlinear.len())
                .filter(|&k| {
                    prob.nl_vars[k].contains(&x)
                        && prob.pool.eval(prob.nonlinear[k], &vals, &mut memo) & 1 == 0
                })
                .collect()
        };
        for _ in 0..self.cfg.neighbours.max(1) {
            if past(deadline) {
                break;
            }
            let step = self.random_step(prob, cur, &[x]);
            if let Some(e) = prob.score(&step).filter(|e| *e < best.1) {
                best = (step.clone(), e);
            }
            if !self.cfg.bisection || violated.is_empty() || step == *cur {
                continue;
            }
            let c = prob.nonlinear[violated[self.rng.gen_range(0..violated.len())]];
            for p in self.bisection_steps(prob, cur, &step, c, x) {
                if past(deadline) {
                    break;
                }
                if let Some(e) = prob.score(&p).filter(|e| *e < best.1) {
                    best = (p, e);
                }
            }
        }
        best
    }

    /// The zero of the line through (cur[x], d(cur)) and (step[x], d(step)) for the violated
    /// comparison of `c` — one step of the secant (bisection) method — aimed at the boundary and
    /// just inside it. A flat line gets a random slope.
    fn bisection_steps(
        &mut self,
        prob: &Problem,
        cur: &Point,
        step: &Point,
        c: ExprId,
        x: usize,
    ) -> Vec<Point> {
        let leaf = {
            let vals = prob.vals(cur);
            fitness::violated_leaf(prob.pool, c, &vals, &mut Memo::default())
        };
        let Some(leaf) = leaf else { return vec![] };
        let measure = |p: &Point| -> Option<Measure> {
            let vals = prob.vals(p);
            fitness::measure(prob.pool, leaf, &vals, &mut Memo::default())
        };
        let (Some(m0), Some(m1)) = (measure(cur), measure(step)) else {
            return vec![];
        };
        let coord = prob.coords[x];
        let (x0, x1) = (coord.value(cur[x]), coord.value(step[x]));
        let (v0, v1) = (m0.d, m1.d);
        if !(x0.is_finite() && x1.is_finite() && v0.is_finite() && v1.is_finite()) || x0 == x1 {
            return vec![];
        }
        let mut targets = vec![0.0];
        if let Some(t) = m0.target().filter(|t| *t != 0.0) {
            targets.push(t);
        }
        let slope = if v1 != v0 {
            (v1 - v0) / (x1 - x0)
        } else {
            let r: f64 = self.rng.gen_range(-1.0..1.0);
            r * (v0.abs() + 1.0) / (x1 - x0).abs()
        };
        if slope == 0.0 || !slope.is_finite() {
            return vec![];
        }
        let mut out = vec![];
        for t in targets {
            // When the zero lies outside the polytope, the furthest of the points halfway,
            // a quarter of the way, ... towards it that lies inside.
            let mut dx = (t - v0) / slope;
            for _ in 0..BACKTRACK {
                let nx = x0 + dx;
                if !nx.is_finite() {
                    break;
                }
                let mut p = cur.clone();
                p[x] = to_bits(coord, nx, cur[x]);
                prob.adjust(&mut p, &[x]);
                if p == *cur {
                    break;
                }
                if prob.in_polytope(&p, &mut Memo::default()) {
                    out.push(p);
                    break;
                }
                dx /= 2.0;
            }
        }
        out
    }

    /// Algorithm 4: moves the coordinates `which` of `p` by normal steps, restores the linear
    /// equalities, and keeps the first result inside the polytope (`p` itself after `samples`
    /// failures).
    fn random_step(&mut self, prob: &Problem, p: &Point, which: &[usize]) -> Point {
        for _ in 0..self.cfg.samples.max(1) {
            let mut q = p.clone();
            for &i in which {
                q[i] = self.perturb(prob.coords[i], p[i]);
            }
            prob.adjust(&mut q, which);
            if prob.in_polytope(&q, &mut Memo::default()) {
                return q;
            }
        }
        p.clone()
    }

    fn perturb(&mut self, c: Coord, bits: u64) -> u64 {
        if c.w == 1 {
            return bits ^ 1;
        }
        // Now and then a value no normal step reaches: NaN, infinities, zeros, extremes.
        if self.rng.gen_ratio(1, SPECIAL_ODDS) {
            return special_value(&mut self.rng, c);
        }
        let x = c.value(bits);
        let k = self.rng.gen_range(0..=self.cfg.levels) as i32;
        let base = if x.is_finite() { x.abs().max(1.0) } else { 1.0 };
        let sd = self.cfg.step * base * 2f64.powi(-k);
        let delta = sd * normal(&mut self.rng);
        if c.float {
            let start = if x.is_finite() { x } else { 0.0 };
            to_bits(c, start + delta, bits)
        } else {
            // Integers move by at least one.
            let mut d = delta.round();
            if d == 0.0 {
                d = if delta < 0.0 { -1.0 } else { 1.0 };
            }
            let d = d.clamp(i64::MIN as f64, i64::MAX as f64) as i64;
            mask(bits.wrapping_add(d as u64), c.w as u32)
        }
    }
}

/// One random step in `SPECIAL_ODDS` jumps to a special value.
const SPECIAL_ODDS: u32 = 32;

fn special_value(rng: &mut SmallRng, c: Coord) -> u64 {
    let w = c.w as u32;
    if c.float {
        let x = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
        ][rng.gen_range(0..8)];
        to_bits(c, x, 0)
    } else {
        let top = 1u64 << (w - 1);
        mask([0, 1, u64::MAX, top, top - 1][rng.gen_range(0..5)], w)
    }
}

/// Halvings of a bisection step that overshoots the polytope.
const BACKTRACK: usize = 6;

/// A standard normal sample (Box-Muller).
fn normal(rng: &mut SmallRng) -> f64 {
    let u: f64 = rng.gen_range(f64::MIN_POSITIVE..1.0);
    let v: f64 = rng.r#gen();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// The bit pattern of coordinate value `x` (integers rounded and saturated to their width; a
/// value that does not change an integer moves it by one towards `x`).
fn to_bits(c: Coord, x: f64, old: u64) -> u64 {
    if c.float {
        return if c.w == 32 {
            (x as f32).to_bits() as u64
        } else {
            x.to_bits()
        };
    }
    let w = c.w as u32;
    let (lo, hi) = if w >= 64 {
        (i64::MIN as f64, i64::MAX as f64)
    } else {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0)
    };
    let r = x.round().clamp(lo, hi) as i64;
    let bits = mask(r as u64, w);
    if bits == old {
        let o = sext(old, w);
        let step = if x > o as f64 { 1 } else { -1 };
        mask(o.wrapping_add(step) as u64, w)
    } else {
        bits
    }
}

enum Class {
    /// Linear, without floating-point arithmetic: Z3 finds points in milliseconds.
    Cheap,
    /// Linear with floating-point arithmetic: part of the polytope, but Z3 bit-blasts every
    /// IEEE addition and product and regularly needs seconds even for a sum of three doubles;
    /// a search gets into it in a few steps.
    FloatLinear,
    NonLinear,
}

fn classify(pool: &Pool, c: ExprId) -> Class {
    let nodes = pool.reachable(&[c]);
    if nodes.iter().any(|&e| pool.is_nonlinear_node(e)) {
        Class::NonLinear
    } else if nodes
        .iter()
        .any(|&e| matches!(pool.node(e), Node::FBin { .. }))
    {
        Class::FloatLinear
    } else {
        Class::Cheap
    }
}

/// Input variables of `e` (unsorted, without repeats).
fn vars_of(pool: &Pool, e: ExprId) -> Vec<u32> {
    let mut v: Vec<u32> = pool
        .reachable(&[e])
        .into_iter()
        .filter_map(|x| match pool.node(x) {
            Node::Var { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The coordinates of the constraints' variables; a variable is a float if it is an operand of
/// a floating-point operation, comparison, conversion or math call.
fn coordinates(pool: &Pool, constraints: &[ExprId]) -> Vec<Coord> {
    let nodes = pool.reachable(constraints);
    let var_of = |e: ExprId| match pool.node(e) {
        Node::Var { id, .. } => Some(*id),
        _ => None,
    };
    let mut floats: HashSet<u32> = HashSet::new();
    let mut vars: Vec<Coord> = vec![];
    for &e in &nodes {
        match pool.node(e) {
            Node::Var { id, w } => vars.push(Coord {
                var: *id,
                w: *w,
                float: false,
            }),
            Node::FBin { a, b, .. } | Node::FCmp { a, b, .. } => {
                floats.extend(var_of(*a).into_iter().chain(var_of(*b)))
            }
            Node::FCast {
                op: CastOp::FpExt | CastOp::FpTrunc | CastOp::FpToSi | CastOp::FpToUi,
                a,
                ..
            } => floats.extend(var_of(*a)),
            Node::Opaque { call, .. } => {
                let c = pool.opaque_call(*call);
                let float_arg = |i: usize| match c.f {
                    OpaqueFn::Math(_) => true,
                    OpaqueFn::Host(h) => crate::ir::host_fns::get(h).params[i].is_float(),
                    OpaqueFn::User(_) => false,
                };
                floats.extend(
                    c.args
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| float_arg(*i))
                        .filter_map(|(_, a)| var_of(*a)),
                );
            }
            _ => {}
        }
    }
    vars.sort_by_key(|c| c.var);
    vars.dedup_by_key(|c| c.var);
    for c in &mut vars {
        c.float = floats.contains(&c.var) && (c.w == 32 || c.w == 64);
    }
    vars
}

/// Linear equalities of the form `v = e` (possibly through a sign or zero extension of `v`)
/// where `e` does not mention `v`: after a step, `v` is recomputed from `e`.
fn definitions(
    pool: &Pool,
    linear: &[ExprId],
    index: &HashMap<u32, usize>,
) -> Vec<(usize, ExprId)> {
    let mut out: Vec<(usize, ExprId)> = vec![];
    let plain_var = |e: ExprId| -> Option<u32> {
        match pool.node(e) {
            Node::Var { id, .. } => Some(*id),
            Node::ZExt { a, .. } | Node::SExt { a, .. } => match pool.node(*a) {
                Node::Var { id, .. } => Some(*id),
                _ => None,
            },
            _ => None,
        }
    };
    for &c in linear {
        let (a, b) = match pool.node(c) {
            Node::Cmp {
                pred: IPred::Eq,
                a,
                b,
            } => (*a, *b),
            Node::FCmp {
                pred: FPred::Oeq,
                a,
                b,
                ..
            } => (*a, *b),
            _ => continue,
        };
        for (side, other) in [(a, b), (b, a)] {
            let Some(v) = plain_var(side) else { continue };
            if vars_of(pool, other).contains(&v) || out.iter().any(|d| d.0 == index[&v]) {
                continue;
            }
            // `v` takes the low bits of `other` (the extension, if any, must then hold).
            out.push((index[&v], other));
            break;
        }
    }
    out
}

/// The walk's time is up (or Ctrl-C ended the session).
fn past(deadline: Instant) -> bool {
    Instant::now() >= deadline || super::solver::solvers_interrupted()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::FPred;
    use crate::smt::expr::VarKey;
    use crate::smt::opaque::{MathFn, OpaqueFn};

    fn double(p: &mut Pool, input: u32) -> ExprId {
        p.var(VarKey {
            input,
            byte: 0,
            w: 64,
        })
    }

    fn c(p: &mut Pool, x: f64) -> ExprId {
        p.constant(64, x.to_bits())
    }

    fn solve(p: &Pool, cs: &[ExprId], start: f64) -> Answer {
        let mut walk = Walk::new(WalkConfig::default(), 7);
        let mut z3 = Z3Backend::new();
        let deadline = Instant::now() + Duration::from_secs(5);
        walk.solve(&mut z3, p, cs, deadline, &|_| start.to_bits())
    }

    fn holds(p: &Pool, cs: &[ExprId], a: &Assignment) -> bool {
        let vals = |v: u32| a.get(&v).copied().unwrap_or(0);
        cs.iter()
            .all(|&k| p.eval(k, &vals, &mut Memo::default()) & 1 == 1)
    }

    #[test]
    fn solves_an_opaque_constraint_inside_bounds() {
        let mut p = Pool::new();
        let a = double(&mut p, 0);
        let (lo, hi, five) = (c(&mut p, 0.1), c(&mut p, 1.5), c(&mut p, 5.0));
        let tan = MathFn::by_name("tan").unwrap();
        let t = p.opaque(OpaqueFn::Math(tan), 64, vec![a]);
        let cs = vec![
            p.fcmp(FPred::Ogt, a, lo),
            p.fcmp(FPred::Olt, a, hi),
            p.fcmp(FPred::Ogt, t, five),
        ];
        match solve(&p, &cs, 0.5) {
            Answer::Sat(m) => assert!(holds(&p, &cs, &m)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn solves_a_narrow_equality_by_bisection() {
        // |x^3 - 3x + 1| < 1e-9 with x in (0.1, 1.5): the root near 0.347.
        let mut p = Pool::new();
        let x = double(&mut p, 0);
        let (lo, hi) = (c(&mut p, 0.1), c(&mut p, 1.5));
        let (three, one, tol) = (c(&mut p, 3.0), c(&mut p, 1.0), c(&mut p, 1e-9));
        let x2 = p.fbin(crate::ir::FBinOp::Mul, 64, x, x);
        let x3 = p.fbin(crate::ir::FBinOp::Mul, 64, x2, x);
        let t = p.fbin(crate::ir::FBinOp::Mul, 64, three, x);
        let d = p.fbin(crate::ir::FBinOp::Sub, 64, x3, t);
        let d = p.fbin(crate::ir::FBinOp::Add, 64, d, one);
        let abs = p.opaque(
            OpaqueFn::Math(MathFn::by_name("fabs").unwrap()),
            64,
            vec![d],
        );
        let cs = vec![
            p.fcmp(FPred::Ogt, x, lo),
            p.fcmp(FPred::Olt, x, hi),
            p.fcmp(FPred::Olt, abs, tol),
        ];
        match solve(&p, &cs, 1.2) {
            Answer::Sat(m) => assert!(holds(&p, &cs, &m)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_empty_polytope_is_unsat() {
        let mut p = Pool::new();
        let x = p.var(VarKey {
            input: 0,
            byte: 0,
            w: 32,
        });
        let y = double(&mut p, 1);
        let (k5, k3) = (p.constant(32, 5), p.constant(32, 3));
        let sin = p.opaque(OpaqueFn::Math(MathFn::by_name("sin").unwrap()), 64, vec![y]);
        let half = c(&mut p, 0.5);
        let cs = vec![
            p.cmp(crate::ir::IPred::Sgt, x, k5),
            p.cmp(crate::ir::IPred::Slt, x, k3),
            p.fcmp(FPred::Ogt, sin, half),
        ];
        assert_eq!(solve(&p, &cs, 0.0), Answer::Unsat);
    }

    #[test]
    fn parameters_parse_and_reject_nonsense() {
        let c =
            WalkConfig::parse("steps=10, neighbours=2,tabu=0,bisection=false,time=0.5").unwrap();
        assert_eq!(
            (c.steps, c.neighbours, c.tabu, c.bisection),
            (10, 2, 0, false)
        );
        assert_eq!(c.time, Duration::from_millis(500));
        assert!(WalkConfig::parse("steps=x").is_err());
        assert!(WalkConfig::parse("colour=blue").is_err());
        assert_eq!(WalkConfig::parse("").unwrap(), WalkConfig::default());
    }
}
