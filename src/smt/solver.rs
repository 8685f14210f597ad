//! Solving path conditions: the backend trait, the Z3 backend, and the front that every query
//! goes through (independence slicing, a cache of results, and concrete validation of models).

use super::expr::{ExprId, Node, Pool};
use crate::ir::{BinOp, CastOp, FBinOp, FPred, IPred};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Z3 contexts of live backends, so Ctrl-C can interrupt a query in flight. Signals are
/// process-wide, so this registry is too: the solver layer's one piece of global state.
static Z3_CONTEXTS: Mutex<Vec<(u64, usize)>> = Mutex::new(Vec::new());
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static NEXT_BACKEND: AtomicU64 = AtomicU64::new(0);

/// Stops all solver work of the process (Ctrl-C, SIGTERM): queries in flight return unknown
/// at once, later ones are not started. Safe to call from any thread.
pub fn interrupt_solvers() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let contexts = Z3_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    for &(_, ctx) in contexts.iter() {
        if let Some(ctx) = std::ptr::NonNull::new(ctx as *mut z3_sys::_Z3_context) {
            unsafe { z3_sys::Z3_interrupt(ctx) };
        }
    }
}

pub fn solvers_interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Values of input variables (by variable id).
pub type Assignment = HashMap<u32, u64>;

#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Sat(Assignment),
    Unsat,
    Unknown,
}

/// A decision procedure for a conjunction of 1-bit constraints.
pub trait Backend {
    fn name(&self) -> &'static str;
    /// `current` gives the values of the run the query came from (a starting point).
    fn check(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        timeout: Duration,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer;
    /// No work past this instant (the session's budget).
    fn set_deadline(&mut self, _deadline: Option<Instant>) {}
}

/// Z3 over bit-vectors (system libz3 4.8.12 through the `z3` crate 0.22; see README).
pub struct Z3Backend {
    /// Not freed after an interrupt: Z3 may take seconds to free a large search, and the
    /// process is about to exit.
    solver: std::mem::ManuallyDrop<z3::Solver>,
    cache: HashMap<ExprId, z3::ast::BV>,
    vars: HashMap<u32, z3::ast::BV>,
    timeout_ms: u32,
    /// Key of this backend's context in `Z3_CONTEXTS`.
    registration: u64,
    pub deadline: Option<Instant>,
    /// Left mid-query (interrupted, or out of time to undo the search): answers unknown.
    abandoned: bool,
}

impl Drop for Z3Backend {
    fn drop(&mut self) {
        let mut contexts = Z3_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
        contexts.retain(|&(id, _)| id != self.registration);
        if !self.abandoned {
            unsafe { std::mem::ManuallyDrop::drop(&mut self.solver) };
        }
    }
}

/// The share of the time left a query may use: Z3 needs time after a timeout to undo its
/// search (measured up to a third of the query's time on long bit-vector paths).
pub fn bounded_by(timeout: Duration, left: Duration) -> Duration {
    timeout.min(left * 2 / 3).max(Duration::from_millis(1))
}

impl Default for Z3Backend {
    fn default() -> Self {
        Z3Backend::new()
    }
}

impl Z3Backend {
    pub fn new() -> Z3Backend {
        let registration = NEXT_BACKEND.fetch_add(1, Ordering::Relaxed);
        let ctx = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
        Z3_CONTEXTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((registration, ctx));
        let solver = z3::Solver::new();
        // Z3 would otherwise take SIGINT for itself during a query (and the run go on).
        let mut p = z3::Params::new();
        p.set_bool("ctrl_c", false);
        solver.set_params(&p);
        Z3Backend {
            solver: std::mem::ManuallyDrop::new(solver),
            cache: HashMap::new(),
            vars: HashMap::new(),
            timeout_ms: 0,
            registration,
            deadline: None,
            abandoned: false,
        }
    }

    /// Unusable now (interrupted, or left in a search it cannot undo in the time left)?
    fn unusable(&self) -> bool {
        self.abandoned || solvers_interrupted()
    }

    /// After a check that took `took`: leave the solver as it is (and unusable) when it was
    /// interrupted or when undoing a timed-out search would run past the deadline (Z3 needs
    /// up to about 60% of the search's time for that); the session is ending either way.
    fn abandon_after(&mut self, took: Duration, timed_out: bool) -> bool {
        let left = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        self.abandoned = solvers_interrupted()
            || left.is_some_and(|l| l.is_zero() || (timed_out && l < took * 3 / 5));
        self.abandoned
    }

    fn set_timeout(&mut self, t: Duration) {
        let ms = t.as_millis().clamp(1, u32::MAX as u128) as u32;
        if ms != self.timeout_ms {
            let mut p = z3::Params::new();
            p.set_u32("timeout", ms);
            p.set_bool("ctrl_c", false);
            self.solver.set_params(&p);
            self.timeout_ms = ms;
        }
    }

    fn bv(&mut self, pool: &Pool, e: ExprId) -> z3::ast::BV {
        use z3::ast::BV;
        if let Some(x) = self.cache.get(&e) {
            return x.clone();
        }
        let b = |x: &BV| -> z3::ast::Bool { x.eq(&BV::from_u64(1, 1)) };
        let of_bool = |c: z3::ast::Bool| -> BV { c.ite(&BV::from_u64(1, 1), &BV::from_u64(0, 1)) };
        let r = match pool.node(e).clone() {
            Node::Const { w, v } => BV::from_u64(v, w as u32),
            Node::Var { w, id } => {
                let v = BV::new_const(format!("v{id}"), w as u32);
                self.vars.insert(id, v.clone());
                v
            }
            Node::Bin { op, a, b: bb, .. } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, bb));
                match op {
                    BinOp::Add => x.bvadd(&y),
                    BinOp::Sub => x.bvsub(&y),
                    BinOp::Mul => x.bvmul(&y),
                    BinOp::UDiv => x.bvudiv(&y),
                    BinOp::SDiv => x.bvsdiv(&y),
                    BinOp::URem => x.bvurem(&y),
                    BinOp::SRem => x.bvsrem(&y),
                    BinOp::And => x.bvand(&y),
                    BinOp::Or => x.bvor(&y),
                    BinOp::Xor => x.bvxor(&y),
                    BinOp::Shl => x.bvshl(&y),
                    BinOp::LShr => x.bvlshr(&y),
                    BinOp::AShr => x.bvashr(&y),
                }
            }
            Node::Cmp { pred, a, b: bb } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, bb));
                of_bool(match pred {
                    IPred::Eq => x.eq(&y),
                    IPred::Ne => x.eq(&y).not(),
                    IPred::Ugt => x.bvugt(&y),
                    IPred::Uge => x.bvuge(&y),
                    IPred::Ult => x.bvult(&y),
                    IPred::Ule => x.bvule(&y),
                    IPred::Sgt => x.bvsgt(&y),
                    IPred::Sge => x.bvsge(&y),
                    IPred::Slt => x.bvslt(&y),
                    IPred::Sle => x.bvsle(&y),
                })
            }
            Node::Ite { c, t, f, .. } => {
                let (c, t, f) = (self.bv(pool, c), self.bv(pool, t), self.bv(pool, f));
                b(&c).ite(&t, &f)
            }
            Node::ZExt { w, a } => {
                let aw = pool.width(a);
                self.bv(pool, a).zero_ext((w - aw) as u32)
            }
            Node::SExt { w, a } => {
                let aw = pool.width(a);
                self.bv(pool, a).sign_ext((w - aw) as u32)
            }
            Node::Extract { w, lo, a } => self.bv(pool, a).extract((lo + w - 1) as u32, lo as u32),
            Node::Concat { hi, lo, .. } => {
                let (h, l) = (self.bv(pool, hi), self.bv(pool, lo));
                h.concat(&l)
            }
            Node::FBin { op, w, a, b: bb } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, bb));
                let (x, y) = (fp_of(&x, w), fp_of(&y, w));
                let rm = z3::ast::RoundingMode::round_nearest_ties_to_even();
                let r = match op {
                    FBinOp::Add => x.add_with_rounding_mode(&y, &rm),
                    FBinOp::Sub => x.sub_with_rounding_mode(&y, &rm),
                    FBinOp::Mul => x.mul_with_rounding_mode(&y, &rm),
                    FBinOp::Div => x.div_with_rounding_mode(&y, &rm),
                    FBinOp::Rem => fp_rem(&x, &y),
                };
                r.to_ieee_bv()
            }
            Node::FCmp { pred, w, a, b: bb } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, bb));
                let (x, y) = (fp_of(&x, w), fp_of(&y, w));
                let uno = z3::ast::Bool::or(&[x.is_nan(), y.is_nan()]);
                let c = match pred {
                    FPred::False => z3::ast::Bool::from_bool(false),
                    FPred::True => z3::ast::Bool::from_bool(true),
                    FPred::Oeq => x.eq_fpa(&y),
                    FPred::Ogt => x.gt(&y),
                    FPred::Oge => x.ge(&y),
                    FPred::Olt => x.lt(&y),
                    FPred::Ole => x.le(&y),
                    FPred::One => z3::ast::Bool::and(&[uno.not(), x.eq_fpa(&y).not()]),
                    FPred::Ord => uno.not(),
                    FPred::Uno => uno,
                    FPred::Ueq => z3::ast::Bool::or(&[uno, x.eq_fpa(&y)]),
                    FPred::Ugt => z3::ast::Bool::or(&[uno, x.gt(&y)]),
                    FPred::Uge => z3::ast::Bool::or(&[uno, x.ge(&y)]),
                    FPred::Ult => z3::ast::Bool::or(&[uno, x.lt(&y)]),
                    FPred::Ule => z3::ast::Bool::or(&[uno, x.le(&y)]),
                    FPred::Une => z3::ast::Bool::or(&[uno, x.eq_fpa(&y).not()]),
                };
                of_bool(c)
            }
            Node::FCast { op, w, a } => {
                let aw = pool.width(a);
                let x = self.bv(pool, a);
                let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
                let rtz = z3::ast::RoundingMode::round_towards_zero();
                match op {
                    CastOp::FpExt | CastOp::FpTrunc => fp_of(&x, aw)
                        .to_fp_with_rounding_mode(&rne, &fp_sort(w))
                        .to_ieee_bv(),
                    CastOp::FpToSi => fp_of(&x, aw).to_sbv_with_rounding_mode(&rtz, w as u32),
                    CastOp::FpToUi => fp_of(&x, aw).to_ubv_with_rounding_mode(&rtz, w as u32),
                    CastOp::SiToFp => int_to_fp(&x, w, true).to_ieee_bv(),
                    _ => int_to_fp(&x, w, false).to_ieee_bv(),
                }
            }
        };
        self.cache.insert(e, r.clone());
        r
    }
}

impl Z3Backend {
    /// For each `extra` constraint: is `base ∧ extra` satisfiable? Shares the base assertions
    /// (incremental solving); answers only Sat/Unsat/Unknown without models.
    pub fn check_each(
        &mut self,
        pool: &Pool,
        base: &[ExprId],
        extra: &[ExprId],
        timeout: Duration,
    ) -> Vec<Answer> {
        use z3::ast::BV;
        if self.unusable() {
            return vec![Answer::Unknown; extra.len()];
        }
        self.set_timeout(timeout);
        self.solver.push();
        for &c in base {
            let x = self.bv(pool, c);
            self.solver.assert(x.eq(&BV::from_u64(1, 1)));
        }
        let mut out = vec![];
        for &e in extra {
            self.solver.push();
            let x = self.bv(pool, e);
            self.solver.assert(x.eq(&BV::from_u64(1, 1)));
            let t = Instant::now();
            let a = match self.solver.check() {
                z3::SatResult::Sat => Answer::Sat(Assignment::new()),
                z3::SatResult::Unsat => Answer::Unsat,
                z3::SatResult::Unknown => Answer::Unknown,
            };
            let timed_out = a == Answer::Unknown;
            out.push(a);
            if self.abandon_after(t.elapsed(), timed_out) {
                out.resize(extra.len(), Answer::Unknown);
                return out;
            }
            self.solver.pop(1);
        }
        self.solver.pop(1);
        out
    }
}

impl Backend for Z3Backend {
    fn name(&self) -> &'static str {
        "z3"
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    fn check(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        timeout: Duration,
        _current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        use z3::ast::BV;
        if self.unusable() {
            return Answer::Unknown;
        }
        self.set_timeout(timeout);
        self.solver.push();
        let mut vars: HashSet<u32> = HashSet::new();
        for &c in constraints {
            let x = self.bv(pool, c);
            self.solver.assert(x.eq(&BV::from_u64(1, 1)));
            collect_vars(pool, c, &mut vars);
        }
        let t = Instant::now();
        let ans = match self.solver.check() {
            z3::SatResult::Sat => {
                let m = self.solver.get_model();
                let mut a = Assignment::new();
                if let Some(m) = m {
                    for v in vars {
                        if let Some(x) = self.vars.get(&v) {
                            if let Some(val) = m.eval(x, true).and_then(|r| r.as_u64()) {
                                a.insert(v, val);
                            }
                        }
                    }
                }
                Answer::Sat(a)
            }
            z3::SatResult::Unsat => Answer::Unsat,
            z3::SatResult::Unknown => Answer::Unknown,
        };
        if self.abandon_after(t.elapsed(), ans == Answer::Unknown) {
            return ans;
        }
        self.solver.pop(1);
        ans
    }
}

fn fp_sort(w: u8) -> z3::Sort {
    if w == 32 {
        z3::Sort::float32()
    } else {
        z3::Sort::double()
    }
}

/// The float whose IEEE bit pattern is `x`.
fn fp_of(x: &z3::ast::BV, w: u8) -> z3::ast::Float {
    use z3::ast::Ast;
    let ctx = z3::Context::thread_local();
    let sort = fp_sort(w);
    unsafe {
        let raw =
            z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), x.get_z3_ast(), sort.get_z3_sort())
                .expect("fp from bv");
        z3::ast::Float::wrap(&ctx, raw)
    }
}

fn int_to_fp(x: &z3::ast::BV, w: u8, signed: bool) -> z3::ast::Float {
    use z3::ast::Ast;
    let ctx = z3::Context::thread_local();
    let sort = fp_sort(w);
    let rm = z3::ast::RoundingMode::round_nearest_ties_to_even();
    unsafe {
        let c = ctx.get_z3_context();
        let raw = if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(c, rm.get_z3_ast(), x.get_z3_ast(), sort.get_z3_sort())
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(c, rm.get_z3_ast(), x.get_z3_ast(), sort.get_z3_sort())
        }
        .expect("fp from int");
        z3::ast::Float::wrap(&ctx, raw)
    }
}

/// C's fmod (truncated remainder) is not IEEE remainder: x - trunc(x / y) * y is close, but
/// inexact; the concrete check of every model guards against the difference.
fn fp_rem(x: &z3::ast::Float, y: &z3::ast::Float) -> z3::ast::Float {
    let rtz = z3::ast::RoundingMode::round_towards_zero();
    let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
    let q = x
        .div_with_rounding_mode(y, &rtz)
        .round_to_integral_with_rounding_mode(&rtz);
    x.sub_with_rounding_mode(&q.mul_with_rounding_mode(y, &rne), &rne)
}

fn has_float(pool: &Pool, e: ExprId) -> bool {
    pool.reachable(&[e]).into_iter().any(|x| {
        matches!(
            pool.node(x),
            Node::FBin { .. } | Node::FCmp { .. } | Node::FCast { .. }
        )
    })
}

fn collect_vars(pool: &Pool, e: ExprId, out: &mut HashSet<u32>) {
    for x in pool.reachable(&[e]) {
        if let Node::Var { id, .. } = pool.node(x) {
            out.insert(*id);
        }
    }
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SolverStats {
    pub queries: u64,
    pub cache_hits: u64,
    pub solved_by_hint: u64,
    pub backend_calls: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    pub rejected_models: u64,
    pub time_s: f64,
}

/// Every query goes through here: slicing, cache, validation, then the backends in order.
pub struct SolverFront {
    pub backends: Vec<Box<dyn Backend>>,
    cache: HashMap<Vec<ExprId>, Answer>,
    pub stats: SolverStats,
    /// Longest time one backend may spend on one query.
    pub timeout: Duration,
    /// No query runs past this instant (the session's budget).
    pub deadline: Option<Instant>,
}

impl SolverFront {
    pub fn new(backends: Vec<Box<dyn Backend>>, timeout: Duration) -> SolverFront {
        SolverFront {
            backends,
            cache: HashMap::new(),
            stats: SolverStats::default(),
            timeout,
            deadline: None,
        }
    }

    /// Z3, then local search for what Z3 cannot decide in time.
    pub fn with_z3(timeout: Duration) -> SolverFront {
        SolverFront::new(
            vec![
                Box::new(Z3Backend::new()),
                Box::new(super::walk::WalkBackend::new(1)),
            ],
            timeout,
        )
    }

    /// Finds values for the variables so that `goal` holds together with every prefix
    /// constraint it depends on. `current` gives the values of the run the prefix came from;
    /// variables outside the slice keep them (the prefix constraints they affect still hold).
    pub fn solve(
        &mut self,
        pool: &mut Pool,
        prefix: &[ExprId],
        goal: ExprId,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        self.stats.queries += 1;
        let slice = independent_slice(pool, prefix, goal);
        // The current values may already satisfy the sliced query (e.g. negating a branch that
        // an earlier, different constraint already decided).
        let mut memo = HashMap::new();
        if slice
            .iter()
            .all(|&c| pool.eval(c, current, &mut memo) & 1 == 1)
        {
            self.stats.solved_by_hint += 1;
            return Answer::Sat(Assignment::new());
        }
        let mut key = slice.clone();
        key.sort();
        key.dedup();
        if let Some(a) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return a.clone();
        }
        let t = Instant::now();
        let mut answer = Answer::Unknown;
        // Floating-point queries get a short Z3 budget: when it gives up, local search is
        // usually faster than waiting.
        let base = if key.iter().any(|c| has_float(pool, *c)) {
            self.timeout.min(Duration::from_secs(1))
        } else {
            self.timeout
        };
        let timeout = match self.deadline {
            Some(d) => bounded_by(base, d.saturating_duration_since(Instant::now())),
            None => base,
        };
        for b in self.backends.iter_mut() {
            b.set_deadline(self.deadline);
            self.stats.backend_calls += 1;
            answer = b.check(pool, &key, timeout, current);
            match &answer {
                Answer::Sat(a) => {
                    // Validate by concrete evaluation before anyone uses it.
                    let vals = |v: u32| a.get(&v).copied().unwrap_or_else(|| current(v));
                    let mut memo = HashMap::new();
                    if key.iter().all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1) {
                        break;
                    }
                    self.stats.rejected_models += 1;
                    answer = Answer::Unknown;
                }
                Answer::Unsat => break,
                Answer::Unknown => {}
            }
        }
        self.stats.time_s += t.elapsed().as_secs_f64();
        if std::env::var_os("CAIRN_DEBUG_SOLVER").is_some()
            && t.elapsed() > Duration::from_millis(200)
        {
            eprintln!(
                "solver: {:?} after {:.2}s on {} constraints:",
                answer,
                t.elapsed().as_secs_f64(),
                key.len()
            );
            for c in &key {
                let s = pool.show(*c);
                eprintln!(
                    "  {}",
                    if s.len() > 300 {
                        format!("{}...", &s[..300])
                    } else {
                        s
                    }
                );
            }
        }
        match &answer {
            Answer::Sat(_) => self.stats.sat += 1,
            Answer::Unsat => self.stats.unsat += 1,
            Answer::Unknown => self.stats.unknown += 1,
        }
        if answer != Answer::Unknown {
            self.cache.insert(key, answer.clone());
        }
        answer
    }
}

/// The constraints of `prefix` that transitively share variables with `goal`, plus `goal`.
pub fn independent_slice(pool: &mut Pool, prefix: &[ExprId], goal: ExprId) -> Vec<ExprId> {
    let mut vars: HashSet<u32> = pool.vars_of(goal).iter().copied().collect();
    let sets: Vec<std::rc::Rc<Vec<u32>>> = prefix.iter().map(|&c| pool.vars_of(c)).collect();
    let mut taken = vec![false; prefix.len()];
    loop {
        let mut grew = false;
        for (i, s) in sets.iter().enumerate() {
            if !taken[i] && s.iter().any(|v| vars.contains(v)) {
                taken[i] = true;
                vars.extend(s.iter().copied());
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let mut out: Vec<ExprId> = prefix
        .iter()
        .zip(&taken)
        .filter(|(_, t)| **t)
        .map(|(c, _)| *c)
        .collect();
    out.push(goal);
    out
}
