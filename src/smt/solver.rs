//! Solving path conditions: the backend trait, the Z3 backend, and the front that every query
//! goes through (independence slicing, a cache of results, and concrete validation of models).

use super::expr::{ExprId, Memo, Node, Pool};
use super::opaque::{MathOp, OpaqueFn};
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

/// Interrupts whatever every live Z3 context is doing, without stopping later queries: for a
/// run past its deadline inside Z3 work no timeout bounds (asserting a huge formula).
pub fn interrupt_queries_in_flight() {
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

/// Longest exhaustive search of a query's small domain before the solvers get it.
const ENUMERATION_TIME: Duration = Duration::from_millis(200);

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
    /// When set (by the solver front of a search), no term is asserted after it, and checks
    /// end by it: Z3 simplifies what is asserted at once, unbounded by any timeout (seconds on
    /// a large term). The model checker leaves it unset: its late queries get short timeouts.
    pub work_until: Option<Instant>,
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
        Z3Backend {
            solver: std::mem::ManuallyDrop::new(Self::fresh_solver()),
            cache: HashMap::new(),
            vars: HashMap::new(),
            timeout_ms: 0,
            registration,
            deadline: None,
            work_until: None,
            abandoned: false,
        }
    }

    /// Drops every translated term: their expression ids are about to name other terms.
    fn forget_terms(&mut self) {
        self.cache.clear();
        self.vars.clear();
    }

    fn fresh_solver() -> z3::Solver {
        let solver = z3::Solver::new();
        // Z3 would otherwise take SIGINT for itself during a query (and the run go on).
        let mut p = z3::Params::new();
        p.set_bool("ctrl_c", false);
        solver.set_params(&p);
        solver
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

    /// Past `work_until`.
    fn past_deadline(&self) -> bool {
        self.work_until.is_some_and(|d| Instant::now() >= d)
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
        let b = |x: &BV| -> z3::ast::Bool { x.eq(BV::from_u64(1, 1)) };
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
            // `frem` is C's fmod, which Z3 has no cheap exact form of (its IEEE remainder
            // bit-blasts for minutes on doubles): an uninterpreted function, as an opaque
            // fmod call is (sound; models are checked concretely).
            Node::FBin {
                op: FBinOp::Rem,
                w,
                a,
                b: bb,
                ..
            } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, bb));
                let f = crate::ir::math::MathFn {
                    op: MathOp::Fmod,
                    w,
                };
                opaque_bv(OpaqueFn::Math(f), w, &[x, y])
            }
            Node::FBin {
                op,
                w,
                a,
                b: bb,
                rm,
            } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, bb));
                let (x, y) = (fp_of(&x, w), fp_of(&y, w));
                use crate::ir::rounding::Rounding as R;
                let rm = match rm {
                    R::ToNearest => z3::ast::RoundingMode::round_nearest_ties_to_even(),
                    R::Downward => z3::ast::RoundingMode::round_towards_negative(),
                    R::Upward => z3::ast::RoundingMode::round_towards_positive(),
                    R::TowardZero => z3::ast::RoundingMode::round_towards_zero(),
                };
                let r = match op {
                    FBinOp::Add => x.add_with_rounding_mode(&y, &rm),
                    FBinOp::Sub => x.sub_with_rounding_mode(&y, &rm),
                    FBinOp::Mul => x.mul_with_rounding_mode(&y, &rm),
                    FBinOp::Div => x.div_with_rounding_mode(&y, &rm),
                    FBinOp::Rem => unreachable!("the arm above"),
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
            Node::Opaque { w, call } => {
                let c = pool.opaque_call(call).clone();
                let args: Vec<BV> = c.args.iter().map(|a| self.bv(pool, *a)).collect();
                opaque_bv(c.f, w, &args)
            }
            Node::FCast { op, w, a } => {
                let aw = pool.width(a);
                let x = self.bv(pool, a);
                let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
                match op {
                    CastOp::FpExt | CastOp::FpTrunc => fp_of(&x, aw)
                        .to_fp_with_rounding_mode(&rne, &fp_sort(w))
                        .to_ieee_bv(),
                    CastOp::FpToSi | CastOp::FpToUi => {
                        fp_to_int(&fp_of(&x, aw), w, op == CastOp::FpToSi)
                    }
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
        let all: Vec<ExprId> = base.iter().chain(extra).copied().collect();
        if Mode::of(pool, &pool.reachable(&all)) == Mode::OneShot {
            return self.check_each_once(pool, base, extra, timeout);
        }
        self.set_timeout(timeout);
        self.solver.push();
        for &c in base {
            if self.past_deadline() {
                self.solver.pop(1);
                return vec![Answer::Unknown; extra.len()];
            }
            let x = self.bv(pool, c);
            self.solver.assert(x.eq(BV::from_u64(1, 1)));
        }
        let mut out = vec![];
        for &e in extra {
            self.solver.push();
            let x = self.bv(pool, e);
            self.solver.assert(x.eq(BV::from_u64(1, 1)));
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
            // Not asked again after a cut check (see `renew`): the rest stay unknown.
            if timed_out {
                break;
            }
        }
        self.solver.pop(1);
        if out.last() == Some(&Answer::Unknown) {
            out.resize(extra.len(), Answer::Unknown);
            self.renew();
        }
        out
    }

    /// `check_each` of a query `Mode::OneShot` is for: a fresh solver per extra constraint.
    fn check_each_once(
        &mut self,
        pool: &Pool,
        base: &[ExprId],
        extra: &[ExprId],
        timeout: Duration,
    ) -> Vec<Answer> {
        let one = z3::ast::BV::from_u64(1, 1);
        let mut query: Vec<z3::ast::Bool> = vec![];
        for &c in base {
            if self.past_deadline() {
                return vec![Answer::Unknown; extra.len()];
            }
            query.push(self.bv(pool, c).eq(&one));
        }
        let mut out = vec![];
        for &e in extra {
            if self.past_deadline() {
                break;
            }
            let x = self.bv(pool, e).eq(&one);
            let t = Instant::now();
            let (r, _) =
                self.check_query(Mode::OneShot, &query, Some(&x), &HashSet::new(), timeout);
            out.push(match r {
                z3::SatResult::Sat => Answer::Sat(Assignment::new()),
                z3::SatResult::Unsat => Answer::Unsat,
                z3::SatResult::Unknown => Answer::Unknown,
            });
            if self.abandon_after(t.elapsed(), r == z3::SatResult::Unknown) {
                break;
            }
        }
        out.resize(extra.len(), Answer::Unknown);
        out
    }
}

impl Z3Backend {
    /// A model of `constraints`, preferring finite values for the floating-point variables
    /// `floats` (a walk cannot step from NaN or infinity); without that preference if it makes
    /// the query unsatisfiable.
    pub fn check_preferring_finite(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        floats: &[(u32, u8)],
        timeout: Duration,
    ) -> Answer {
        if !floats.is_empty() {
            let extra: Vec<z3::ast::Bool> = floats
                .iter()
                .map(|&(id, w)| {
                    let v = z3::ast::BV::new_const(format!("v{id}"), w as u32);
                    let x = fp_of(&v, w);
                    z3::ast::Bool::or(&[x.is_nan(), x.is_infinite()]).not()
                })
                .collect();
            if let a @ Answer::Sat(_) = self.solve(pool, constraints, &extra, timeout) {
                return a;
            }
        }
        self.solve(pool, constraints, &[], timeout)
    }

    /// Checks `constraints` plus Z3-level assertions `extra`; a model of their variables.
    fn solve(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        extra: &[z3::ast::Bool],
        timeout: Duration,
    ) -> Answer {
        self.solve_near(pool, constraints, extra, timeout, None)
    }

    /// A solver whose check was cut by its timeout is not asked again: Z3 4.8's incremental
    /// solver answered unsat to satisfiable queries after such checks (seen under load, where
    /// timeouts cut checks at any point), and exhaustive proofs rest on its refutations.
    fn renew(&mut self) {
        // Not abandoned: its search ended, so freeing it is quick.
        unsafe { std::mem::ManuallyDrop::drop(&mut self.solver) };
        self.solver = std::mem::ManuallyDrop::new(Self::fresh_solver());
        self.timeout_ms = 0;
    }

    /// As `solve`, and with `near`: models with small integers or integers close to the
    /// current run's values first (each tier a short check under an assumption, sharing what
    /// Z3 learned), any model last; with a magnitude cap, models within it only (an Unsat under
    /// the cap proves nothing: it answers Unknown).
    pub fn solve_near(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        extra: &[z3::ast::Bool],
        timeout: Duration,
        near: Option<&Near>,
    ) -> Answer {
        if self.unusable() {
            return Answer::Unknown;
        }
        // One walk over the constraints' shared DAG, not one per constraint.
        let nodes = pool.reachable(constraints);
        let mode = Mode::of(pool, &nodes);
        // Translating and asserting count in the query's time: Z3 simplifies large terms as
        // they are asserted, for seconds past any timeout.
        let end = Instant::now() + timeout;
        let end = self.work_until.map_or(end, |d| end.min(d));
        if mode == Mode::Incremental {
            self.solver.push();
        }
        let mut query = Vec::with_capacity(constraints.len() + extra.len());
        for &c in constraints {
            if Instant::now() >= end {
                if mode == Mode::Incremental {
                    self.solver.pop(1);
                }
                return Answer::Unknown;
            }
            let x = self.bv(pool, c).eq(z3::ast::BV::from_u64(1, 1));
            if mode == Mode::Incremental {
                self.solver.assert(&x);
            }
            query.push(x);
        }
        query.extend(extra.iter().cloned());
        let vars = vars_among(pool, &nodes);
        let ints: Vec<(u32, z3::ast::BV)> = match near {
            Some(n) => vars
                .iter()
                .filter(|v| !n.floats.contains(v))
                .filter_map(|v| Some((*v, self.vars.get(v)?.clone())))
                .filter(|(_, x)| x.get_size() >= 16)
                .collect(),
            None => vec![],
        };
        let cap = near.and_then(|n| n.cap);
        if let Some(cap) = cap {
            query.extend(ints.iter().map(|(_, x)| within(x, None, cap)));
        }
        if mode == Mode::Incremental {
            for q in &query[constraints.len()..] {
                self.solver.assert(q);
            }
        }
        // Asserting took part of the time: the checks get what is left.
        let timeout = end.saturating_duration_since(Instant::now());
        if timeout.is_zero() {
            if mode == Mode::Incremental {
                self.solver.pop(1);
            }
            return Answer::Unknown;
        }
        let start = Instant::now();
        let mut ans = Answer::Unknown;
        let mut decided = false;
        if let Some(n) = near.filter(|n| n.tiers) {
            for bound in NEAR_TIERS {
                let lits: Vec<z3::ast::Bool> = ints
                    .iter()
                    .filter(|(_, x)| x.get_size() < 64 && bound < 1u64 << (x.get_size() - 1))
                    .map(|(v, x)| {
                        z3::ast::Bool::or(&[
                            within(x, None, bound),
                            within(x, Some((n.current)(*v)), bound),
                        ])
                    })
                    .collect();
                if lits.is_empty() {
                    continue;
                }
                let tier = z3::ast::Bool::and(&lits);
                let slice = (timeout / 8).min(NEAR_TIER_TIME);
                let t = Instant::now();
                let (r, model) = self.check_query(mode, &query, Some(&tier), &vars, slice);
                if let Some(m) = model {
                    ans = m;
                    decided = true;
                }
                if self.abandon_after(t.elapsed(), r == z3::SatResult::Unknown) {
                    return ans;
                }
                // A tier Z3 could not decide in its slice: the query is hard, the remaining
                // time goes to it unconstrained, in a fresh solver.
                if r == z3::SatResult::Unknown {
                    let left = timeout.saturating_sub(start.elapsed());
                    let plain = Near { tiers: false, ..*n };
                    if mode == Mode::Incremental {
                        self.solver.pop(1);
                        self.renew();
                    }
                    return self.solve_near(pool, constraints, extra, left, Some(&plain));
                }
                if decided {
                    break;
                }
            }
        }
        if !decided {
            let t = Instant::now();
            let left = timeout.saturating_sub(start.elapsed());
            let (r, model) = self.check_query(mode, &query, None, &vars, left);
            ans = match r {
                z3::SatResult::Sat => model.unwrap_or(Answer::Unknown),
                z3::SatResult::Unsat if cap.is_some() => Answer::Unknown,
                z3::SatResult::Unsat => Answer::Unsat,
                z3::SatResult::Unknown => Answer::Unknown,
            };
            if self.abandon_after(t.elapsed(), ans == Answer::Unknown) {
                return ans;
            }
        }
        if mode == Mode::Incremental {
            self.solver.pop(1);
            if ans == Answer::Unknown {
                self.renew();
            }
        }
        ans
    }

    /// One check of `query` (already asserted in the incremental solver, or given to a fresh
    /// one) under `assumption`; a model of `vars` when satisfiable.
    fn check_query(
        &mut self,
        mode: Mode,
        query: &[z3::ast::Bool],
        assumption: Option<&z3::ast::Bool>,
        vars: &HashSet<u32>,
        timeout: Duration,
    ) -> (z3::SatResult, Option<Answer>) {
        let t = Instant::now();
        let (r, model) = match mode {
            Mode::Incremental => {
                self.set_timeout(timeout);
                let r = match assumption {
                    Some(a) => self.solver.check_assumptions(std::slice::from_ref(a)),
                    None => self.solver.check(),
                };
                let model = (r == z3::SatResult::Sat).then(|| self.model_of(&self.solver, vars));
                if r == z3::SatResult::Unknown && crate::debug_on!("solver") {
                    let why = self.solver.get_reason_unknown();
                    crate::debug_log!(
                        "solver",
                        "z3: unknown after {:?} ({why:?}) of {timeout:?}",
                        t.elapsed()
                    );
                }
                (r, model)
            }
            Mode::OneShot => {
                let solver = Self::fresh_solver();
                let mut p = z3::Params::new();
                p.set_u32(
                    "timeout",
                    timeout.as_millis().clamp(1, u32::MAX as u128) as u32,
                );
                p.set_bool("ctrl_c", false);
                solver.set_params(&p);
                for q in query.iter().chain(assumption) {
                    solver.assert(q);
                }
                let r = solver.check();
                let model = (r == z3::SatResult::Sat).then(|| self.model_of(&solver, vars));
                if r == z3::SatResult::Unknown && crate::debug_on!("solver") {
                    let why = solver.get_reason_unknown();
                    crate::debug_log!(
                        "solver",
                        "z3 (one shot): unknown after {:?} ({why:?}) of {timeout:?}",
                        t.elapsed()
                    );
                }
                if solvers_interrupted() {
                    // Freeing a search Ctrl-C cut can take seconds; the process is ending.
                    std::mem::forget(solver);
                }
                (r, model)
            }
        };
        (r, model)
    }

    /// `solver`'s current model's values of `vars`.
    fn model_of(&self, solver: &z3::Solver, vars: &HashSet<u32>) -> Answer {
        let mut a = Assignment::new();
        if let Some(m) = solver.get_model() {
            for v in vars {
                if let Some(x) = self.vars.get(v)
                    && let Some(val) = m.eval(x, true).and_then(|r| r.as_u64())
                {
                    a.insert(*v, val);
                }
            }
        }
        Answer::Sat(a)
    }
}

/// How a query meets Z3. Z3 4.8.12's incremental solver (after a push, or with assumptions)
/// is slow on IEEE terms and bit-blasts products and quotients where its timeout does not
/// reach: a 100 ms check of one double quotient took 4.3 s (13.8 million clauses) whatever
/// the timeout above about 50 ms, and proving that a float converted from an int of 24 bits
/// widens exactly took 8.2 s. Its non-incremental tactics stop on time and took 0.3 s there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Asserted under a push of the backend's solver, tiers as assumptions.
    Incremental,
    /// Each check by a fresh solver given the whole query, tiers as assertions.
    OneShot,
}

impl Mode {
    /// The mode for a query whose DAG has `nodes`: one-shot for IEEE terms (`frem` is an
    /// uninterpreted function, not one).
    fn of(pool: &Pool, nodes: &[ExprId]) -> Mode {
        let ieee = |x: &ExprId| match pool.node(*x) {
            Node::FBin { op, .. } => *op != FBinOp::Rem,
            Node::FCmp { .. } | Node::FCast { .. } => true,
            _ => false,
        };
        if nodes.iter().any(ieee) {
            Mode::OneShot
        } else {
            Mode::Incremental
        }
    }
}

/// Preferred models: integer variables small or near their current values.
pub struct Near<'a> {
    pub current: &'a dyn Fn(u32) -> u64,
    /// Variables holding floating-point bits (no preference: small bit patterns are not small
    /// numbers).
    pub floats: &'a HashSet<u32>,
    /// A hard bound on the signed magnitude of the integer variables.
    pub cap: Option<u64>,
    /// Small or near models first (false: only the cap).
    pub tiers: bool,
}

/// Distances tried in turn: within this of zero or of the current value (signed).
const NEAR_TIERS: [u64; 3] = [8, 256, 65536];
/// Z3's time on one tier (an eighth of the query's at most).
const NEAR_TIER_TIME: Duration = Duration::from_millis(100);

/// `x` within `bound` of `center` (of zero without one), as signed numbers.
fn within(x: &z3::ast::BV, center: Option<u64>, bound: u64) -> z3::ast::Bool {
    use z3::ast::BV;
    let w = x.get_size();
    let d = match center {
        Some(c) => x.bvsub(BV::from_u64(mask(c, w), w)),
        None => x.clone(),
    };
    z3::ast::Bool::and(&[
        d.bvsle(BV::from_u64(mask(bound, w), w)),
        d.bvsge(BV::from_u64(mask(bound.wrapping_neg(), w), w)),
    ])
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

impl Backend for Z3Backend {
    fn name(&self) -> &'static str {
        "z3"
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        // Abandoned but given time again (a model checker's next turn): a fresh solver in the
        // same context; the abandoned search is left as it is, never undone.
        if self.abandoned && !solvers_interrupted() && deadline.is_some_and(|d| d > Instant::now())
        {
            self.solver = std::mem::ManuallyDrop::new(Self::fresh_solver());
            self.timeout_ms = 0;
            self.abandoned = false;
        }
    }

    fn check(
        &mut self,
        pool: &Pool,
        constraints: &[ExprId],
        timeout: Duration,
        _current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        self.solve(pool, constraints, &[], timeout)
    }
}

/// An opaque call: exactly in the floating-point theory where IEEE defines the operation (square
/// root, rounding to integers, absolute value, ...), otherwise an uninterpreted function (sound:
/// every real function is one of its interpretations, so `Unsat` stays true; models are checked
/// concretely and usually rejected, which hands the query on to the walk).
fn opaque_bv(f: OpaqueFn, w: u8, args: &[z3::ast::BV]) -> z3::ast::BV {
    use z3::ast::{Ast, BV};
    if let OpaqueFn::Math(m) = f
        && m.z3_exact()
        && args.len() == m.arity()
    {
        let x = fp_of(&args[0], w);
        use z3::ast::RoundingMode as R;
        let sign = BV::from_u64(1u64 << (w - 1), w as u32);
        // A NaN's bits as glibc's functions give them (x86-64): the NaN argument quieted
        // (Z3's own NaN has one pattern, and a program may read the sign or the payload).
        let nan = NanBits::of(w);
        let rounded = |r: z3::ast::RoundingMode| {
            let v = x.round_to_integral_with_rounding_mode(&r).to_ieee_bv();
            x.is_nan().ite(&nan.quiet(&args[0]), &v)
        };
        return match m.op {
            MathOp::Sqrt => {
                let negative = x.lt(fp_of(&BV::from_u64(0, w as u32), w));
                let root = negative.ite(&nan.default, &x.sqrt().to_ieee_bv());
                x.is_nan().ite(&nan.quiet(&args[0]), &root)
            }
            MathOp::Floor => rounded(R::round_towards_negative()),
            MathOp::Ceil => rounded(R::round_towards_positive()),
            MathOp::Trunc => rounded(R::round_towards_zero()),
            MathOp::Round => rounded(R::round_nearest_ties_to_away()),
            MathOp::Rint => rounded(R::round_nearest_ties_to_even()),
            MathOp::Fabs => args[0].bvand(sign.bvnot()),
            MathOp::CopySign => args[0].bvand(sign.bvnot()).bvor(args[1].bvand(&sign)),
            MathOp::Fmin | MathOp::Fmax => {
                // As `math::min_max`: a NaN operand gives way to the other.
                let y = fp_of(&args[1], w);
                let y_wins = if m.op == MathOp::Fmin {
                    y.lt(&x)
                } else {
                    y.gt(&x)
                };
                let ordered = y_wins.ite(&args[1], &args[0]);
                x.is_nan()
                    .ite(&args[1], &y.is_nan().ite(&args[0], &ordered))
            }
            _ => unreachable!(),
        };
    }
    let name = match f {
        OpaqueFn::Math(m) => m.name(),
        OpaqueFn::Host(h) => crate::ir::host_fns::get(h).name.clone(),
        OpaqueFn::User(id) => format!("user_fn{id}"),
    };
    let sorts: Vec<z3::Sort> = args
        .iter()
        .map(|a| z3::Sort::bitvector(a.get_size()))
        .collect();
    let refs: Vec<&z3::Sort> = sorts.iter().collect();
    let decl = z3::FuncDecl::new(name, &refs, &z3::Sort::bitvector(w as u32));
    let actuals: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
    decl.apply(&actuals).as_bv().expect("bit-vector result")
}

/// x86-64's truncating conversion `cvttsd2si` to `w` (32 or 64) bits: out of range or NaN gives
/// the "integer indefinite" 1 << (w - 1) (SMT-LIB leaves those results unspecified, and Z3 then
/// picks whatever satisfies the query).
fn cvtt(x: &z3::ast::Float, w: u32) -> z3::ast::BV {
    use z3::ast::{BV, Float};
    let rtz = z3::ast::RoundingMode::round_towards_zero();
    let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
    let d = x.to_fp_with_rounding_mode(&rne, &z3::Sort::double());
    let top = 2f64.powi(w as i32 - 1);
    let low = if w == 64 {
        d.ge(Float::from_f64(-top))
    } else {
        d.gt(Float::from_f64(-top - 1.0))
    };
    let in_range = z3::ast::Bool::and(&[d.is_nan().not(), d.lt(Float::from_f64(top)), low]);
    in_range.ite(
        &x.to_sbv_with_rounding_mode(&rtz, w),
        &BV::from_u64(1u64 << (w - 1), w),
    )
}

/// `fptosi`/`fptoui` to `w` bits as the interpreter (`exec::ops::cast`) computes them.
fn fp_to_int(x: &z3::ast::Float, w: u8, signed: bool) -> z3::ast::BV {
    let w = w as u32;
    if signed {
        return if w == 64 {
            cvtt(x, 64)
        } else {
            cvtt(x, 32).extract(w - 1, 0)
        };
    }
    match w {
        64 => {
            let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
            let d = x.to_fp_with_rounding_mode(&rne, &z3::Sort::double());
            let two63 = z3::ast::Float::from_f64(2f64.powi(63));
            let high = cvtt(&d.sub_with_rounding_mode(&two63, &rne), 64)
                .bvxor(z3::ast::BV::from_u64(1u64 << 63, 64));
            d.ge(&two63).ite(&high, &cvtt(x, 64))
        }
        32 => cvtt(x, 64).extract(31, 0),
        _ => cvtt(x, 32).extract(w - 1, 0),
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

/// NaN bit patterns of `w`-bit floats as x86-64 makes them.
struct NanBits {
    /// The quiet bit (the mantissa's top bit).
    quiet_bit: z3::ast::BV,
    /// The default NaN of an invalid operation: quiet, sign set.
    default: z3::ast::BV,
}

impl NanBits {
    fn of(w: u8) -> NanBits {
        use z3::ast::BV;
        let (quiet, default) = match w {
            32 => (1 << 22, 0xffc0_0000),
            _ => (1 << 51, 0xfff8_0000_0000_0000),
        };
        NanBits {
            quiet_bit: BV::from_u64(quiet, w as u32),
            default: BV::from_u64(default, w as u32),
        }
    }

    /// NaN `x` quieted, its sign and payload kept.
    fn quiet(&self, x: &z3::ast::BV) -> z3::ast::BV {
        x.bvor(&self.quiet_bit)
    }
}

fn vars_among(pool: &Pool, nodes: &[ExprId]) -> HashSet<u32> {
    nodes
        .iter()
        .filter_map(|x| match pool.node(*x) {
            Node::Var { id, .. } => Some(*id),
            _ => None,
        })
        .collect()
}

/// Which procedure answers queries (`cairn gen --solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    /// Z3 alone (opaque calls are uninterpreted functions).
    Z3,
    /// The concolic walk alone (it still asks Z3 for a point of the linear part).
    Walk,
    /// Z3 with a short timeout, the walk when Z3 gives up or the query holds opaque calls.
    Portfolio,
    /// Classic concolic simplification: non-linear and opaque terms replaced by their values
    /// on the current run, then Z3 (the baseline).
    Concretize,
}

impl SolverKind {
    pub const ALL: [SolverKind; 4] = [
        SolverKind::Z3,
        SolverKind::Walk,
        SolverKind::Portfolio,
        SolverKind::Concretize,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Walk => "walk",
            SolverKind::Portfolio => "portfolio",
            SolverKind::Concretize => "concretize",
        }
    }

    pub fn by_name(s: &str) -> Option<SolverKind> {
        SolverKind::ALL.into_iter().find(|k| k.name() == s)
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
    pub z3_calls: u64,
    /// Queries answered by the walk (models that passed the concrete check).
    pub walk_sat: u64,
    /// Queries decided by trying every class of values of their variables (`enumerate`).
    pub enumerated: u64,
    pub walk: super::walk::WalkStats,
}

/// Every query goes through here: slicing, cache, then the procedure `kind` selects; every model
/// is validated by concrete evaluation before it is returned.
pub struct SolverFront {
    pub kind: SolverKind,
    z3: Z3Backend,
    pub walk: super::walk::Walk,
    cache: HashMap<Vec<ExprId>, (Answer, &'static str)>,
    pub stats: SolverStats,
    /// Longest time Z3 may spend on one query.
    pub timeout: Duration,
    /// Z3's time on queries with floating-point, non-linear or opaque terms: when it gives up
    /// there, the walk is usually faster than waiting.
    pub short_timeout: Duration,
    /// Z3's time in the portfolio on floating-point non-linear queries (it rarely solves them,
    /// and the walk usually does in milliseconds).
    pub float_nonlinear_timeout: Duration,
    /// No query runs past this instant (the session's budget).
    pub deadline: Option<Instant>,
    /// What produced the last answer: "z3", "walk", "enumeration", "cache" or "hint".
    pub last_backend: &'static str,
    /// Consecutive Z3 failures on floating-point arithmetic (portfolio).
    float_strikes: u32,
    /// Prefer models near the current values (small changes; see `Near`).
    pub small_models: bool,
    /// Variables holding floating-point bits (no magnitude preference).
    pub floats: HashSet<u32>,
    /// Models only within this signed magnitude (a retry of a run cut by the step limit); such
    /// queries go to Z3, are not cached, and never answer Unsat.
    pub magnitude_cap: Option<u64>,
}

/// The search's refutations checked again by a solver of their own (see
/// `SolverFront::reconfirm_refutations`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Reconfirmation {
    pub checked: u64,
    /// Refutations the fresh solver found a (validated) model of: one of the two was wrong.
    pub contradicted: u64,
    /// Not decided again in the time left.
    pub undecided: u64,
}

impl Reconfirmation {
    pub fn holds(&self) -> bool {
        self.contradicted == 0 && self.undecided == 0
    }
}

impl SolverFront {
    /// Checks every refutation Z3 gave this search (directly or inside the walk) again with a
    /// fresh solver, until `until`. An exhaustive-exploration proof rests on each of them, and
    /// the search's own solver answered them incrementally, on a loaded machine among checks
    /// cut by their timeouts (see `Z3Backend::renew`). Refutations by enumeration are concrete
    /// evaluations and not checked again.
    pub fn reconfirm_refutations(&self, pool: &Pool, until: Instant) -> Reconfirmation {
        let mut fresh = Z3Backend::new();
        fresh.set_deadline(Some(until));
        fresh.work_until = Some(until);
        let mut r = Reconfirmation::default();
        for (key, (answer, by)) in &self.cache {
            if *answer != Answer::Unsat || !matches!(*by, "z3" | "walk") {
                continue;
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                r.undecided += 1;
                continue;
            }
            r.checked += 1;
            match fresh.solve(pool, key, &[], self.timeout.min(left)) {
                Answer::Unsat => {}
                Answer::Sat(a) => {
                    let vals = |v: u32| a.get(&v).copied().unwrap_or(0);
                    let mut memo = Memo::default();
                    if key.iter().all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1) {
                        r.contradicted += 1;
                        if crate::debug_on!("solver") {
                            let shown: Vec<String> = key.iter().map(|&c| pool.show(c)).collect();
                            crate::debug_log!(
                                "solver",
                                "refutation by {by} contradicted by {a:?}: {shown:?}"
                            );
                        }
                    } else {
                        r.undecided += 1;
                    }
                }
                Answer::Unknown => r.undecided += 1,
            }
        }
        r
    }

    pub fn new(
        kind: SolverKind,
        timeout: Duration,
        walk: super::walk::WalkConfig,
        seed: u64,
    ) -> SolverFront {
        SolverFront {
            kind,
            z3: Z3Backend::new(),
            walk: super::walk::Walk::new(walk, seed),
            cache: HashMap::new(),
            stats: SolverStats::default(),
            timeout,
            short_timeout: Duration::from_secs(1),
            float_nonlinear_timeout: Duration::from_millis(250),
            deadline: None,
            last_backend: "",
            float_strikes: 0,
            small_models: false,
            floats: HashSet::new(),
            magnitude_cap: None,
        }
    }

    /// Forgets everything keyed by expression ids (cached answers, translated terms,
    /// floating-point variables): the pool they index is being replaced by an empty one.
    pub fn forget_terms(&mut self) {
        self.cache.clear();
        self.floats.clear();
        self.z3.forget_terms();
    }

    /// The default: the portfolio with the walk's default parameters.
    pub fn with_z3(timeout: Duration) -> SolverFront {
        SolverFront::new(
            SolverKind::Portfolio,
            timeout,
            super::walk::WalkConfig::default(),
            1,
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
        let slice = super::bounds::drop_implied_bounds(pool, &slice, goal);
        // The current values may already satisfy the sliced query (e.g. negating a branch that
        // an earlier, different constraint already decided).
        let mut memo = Memo::default();
        if slice
            .iter()
            .all(|&c| pool.eval(c, current, &mut memo) & 1 == 1)
        {
            self.stats.solved_by_hint += 1;
            self.last_backend = "hint";
            return Answer::Sat(Assignment::new());
        }
        let mut key = slice.clone();
        key.sort();
        key.dedup();
        if self.magnitude_cap.is_some() {
            let t = Instant::now();
            let left = match self.deadline {
                Some(d) => d.saturating_duration_since(t).max(Duration::from_millis(1)),
                None => Duration::MAX,
            };
            self.z3.set_deadline(self.deadline);
            self.z3.work_until = self.deadline;
            let timeout = bounded_by(self.short_timeout, left);
            let answer = self.run_z3(pool, &key, &key, timeout, current);
            self.last_backend = "z3";
            self.stats.time_s += t.elapsed().as_secs_f64();
            return answer;
        }
        if let Some((a, by)) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            self.last_backend = by;
            return a.clone();
        }
        let t = Instant::now();
        let left = match self.deadline {
            Some(d) => d.saturating_duration_since(t).max(Duration::from_millis(1)),
            None => Duration::MAX,
        };
        let full = bounded_by(self.timeout, left);
        self.z3.set_deadline(self.deadline);
        self.z3.work_until = self.deadline;
        let terms = Terms::of(pool, &key);
        let short = if terms.hard {
            full.min(self.short_timeout)
        } else {
            full
        };
        let enumerated = match self.kind {
            SolverKind::Portfolio => {
                super::enumerate::enumerate(pool, &key, current, ENUMERATION_TIME)
            }
            _ => None,
        };
        let (answer, by) = match enumerated {
            Some(a) => {
                self.stats.enumerated += 1;
                (a, "enumeration")
            }
            None => self.by_kind(pool, &key, &terms, short, full, current),
        };
        self.last_backend = by;
        if by == "walk" && matches!(answer, Answer::Sat(_)) {
            self.stats.walk_sat += 1;
        }
        self.stats.walk = self.walk.stats.clone();
        self.stats.time_s += t.elapsed().as_secs_f64();
        let every = crate::debug_on!("queries");
        if every || crate::debug_on!("solver") && t.elapsed() > Duration::from_millis(200) {
            let mut text = format!(
                "solver: {answer:?} ({by}) after {:.2}s on {} constraints:",
                t.elapsed().as_secs_f64(),
                key.len()
            );
            for c in &key {
                let s = pool.show(*c);
                let s = if s.len() > 300 {
                    format!("{}...", &s[..300])
                } else {
                    s
                };
                text.push_str(&format!("\n  {s}"));
            }
            match every {
                true => crate::debug_log!("queries", "{text}"),
                false => crate::debug_log!("solver", "{text}"),
            }
        }
        match &answer {
            Answer::Sat(_) => self.stats.sat += 1,
            Answer::Unsat => self.stats.unsat += 1,
            Answer::Unknown => self.stats.unknown += 1,
        }
        if answer != Answer::Unknown {
            self.cache.insert(key, (answer.clone(), by));
        }
        answer
    }

    /// The answer of the procedure `kind` selects, and which backend gave it.
    fn by_kind(
        &mut self,
        pool: &mut Pool,
        key: &[ExprId],
        terms: &Terms,
        short: Duration,
        full: Duration,
        current: &dyn Fn(u32) -> u64,
    ) -> (Answer, &'static str) {
        match self.kind {
            SolverKind::Z3 => (self.run_z3(pool, key, key, short, current), "z3"),
            SolverKind::Walk => (self.run_walk(pool, key, current), "walk"),
            SolverKind::Concretize => {
                let simple: Vec<ExprId> = key
                    .iter()
                    .map(|&c| super::concretize::concretize(pool, c, current))
                    .collect();
                (self.run_z3(pool, &simple, key, full, current), "z3")
            }
            SolverKind::Portfolio => {
                let Terms {
                    opaque,
                    float_arith,
                    float_nonlinear,
                    ..
                } = *terms;
                if opaque {
                    (self.run_walk(pool, key, current), "walk")
                } else if float_nonlinear || (float_arith && self.float_strikes >= FLOAT_STRIKES) {
                    // IEEE products and quotients of inputs, or floating-point arithmetic Z3
                    // has failed on here before: the walk first, Z3 only for what it misses.
                    // (Z3 bit-blasts IEEE products for seconds where the walk answers in
                    // milliseconds.)
                    let z3_time = if float_nonlinear {
                        short.min(self.float_nonlinear_timeout)
                    } else {
                        short
                    };
                    match self.run_walk(pool, key, current) {
                        Answer::Unknown => (self.run_z3(pool, key, key, z3_time, current), "z3"),
                        a => (a, "walk"),
                    }
                } else {
                    let t = Instant::now();
                    let a = self.run_z3(pool, key, key, short, current);
                    if float_arith {
                        // Z3 bit-blasts IEEE arithmetic and often runs out of time doing it:
                        // after a few failures the walk goes first on such queries.
                        let failed = a == Answer::Unknown || t.elapsed() > 2 * short;
                        self.float_strikes = if failed { self.float_strikes + 1 } else { 0 };
                    }
                    match a {
                        Answer::Unknown => (self.run_walk(pool, key, current), "walk"),
                        a => (a, "z3"),
                    }
                }
            }
        }
    }

    /// Z3 on `query`; a model must satisfy `original` (the query before any simplification).
    /// An Unsat of a simplified query proves nothing about the original: it counts as Unknown.
    fn run_z3(
        &mut self,
        pool: &Pool,
        query: &[ExprId],
        original: &[ExprId],
        timeout: Duration,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        self.stats.backend_calls += 1;
        self.stats.z3_calls += 1;
        let near = Near {
            current,
            floats: &self.floats,
            cap: self.magnitude_cap,
            tiers: true,
        };
        let near = (self.small_models || self.magnitude_cap.is_some()).then_some(&near);
        let answer = self.z3.solve_near(pool, query, &[], timeout, near);
        if crate::debug_on!("solver") {
            crate::debug_log!("solver", "z3: {answer:?} in {timeout:?}");
        }
        match answer {
            Answer::Sat(a) => self.validated(pool, original, a, current),
            Answer::Unsat if query == original => Answer::Unsat,
            _ => Answer::Unknown,
        }
    }

    /// The walk until the deadline as it is now (after Z3's try, when it came first).
    fn run_walk(&mut self, pool: &Pool, key: &[ExprId], current: &dyn Fn(u32) -> u64) -> Answer {
        self.stats.backend_calls += 1;
        let deadline = self
            .deadline
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
        match self.walk.solve(&mut self.z3, pool, key, deadline, current) {
            Answer::Sat(a) => self.validated(pool, key, a, current),
            other => other,
        }
    }

    /// `a` if every constraint evaluates true under it (variables it leaves out keep their
    /// current values), else Unknown.
    fn validated(
        &mut self,
        pool: &Pool,
        key: &[ExprId],
        a: Assignment,
        current: &dyn Fn(u32) -> u64,
    ) -> Answer {
        let vals = |v: u32| a.get(&v).copied().unwrap_or_else(|| current(v));
        let mut memo = Memo::default();
        if key.iter().all(|&c| pool.eval(c, &vals, &mut memo) & 1 == 1) {
            Answer::Sat(a)
        } else {
            if crate::debug_on!("solver") {
                crate::debug_log!("solver", "solver: model {a:?} rejected");
            }
            self.stats.rejected_models += 1;
            Answer::Unknown
        }
    }
}

/// What kinds of terms a query has, for the portfolio: one pass over its DAG (the
/// constraints of a long path share most of their terms).
#[derive(Clone, Copy, Default)]
struct Terms {
    /// Floating-point, non-linear or opaque terms: Z3 gets the short timeout.
    hard: bool,
    /// Opaque calls: the portfolio leaves these queries to the walk (Z3 can only treat most
    /// of them as uninterpreted functions, and bit-blasts the others slowly).
    opaque: bool,
    /// Floating-point arithmetic.
    float_arith: bool,
    /// A floating-point product, quotient or remainder of two symbolic terms.
    float_nonlinear: bool,
}

impl Terms {
    fn of(pool: &Pool, key: &[ExprId]) -> Terms {
        let mut t = Terms::default();
        for x in pool.reachable(key) {
            let node = pool.node(x);
            let fbin = matches!(node, Node::FBin { .. });
            let nonlinear = pool.is_nonlinear_node(x);
            t.opaque |= matches!(node, Node::Opaque { .. });
            t.float_arith |= fbin;
            t.float_nonlinear |= fbin && nonlinear;
            t.hard |= nonlinear
                || matches!(
                    node,
                    Node::FBin { .. }
                        | Node::FCmp { .. }
                        | Node::FCast { .. }
                        | Node::Opaque { .. }
                );
        }
        t
    }
}

/// Failed Z3 attempts on floating-point arithmetic after which the portfolio asks the walk
/// first (a success resets the count).
const FLOAT_STRIKES: u32 = 2;

/// The constraints of `prefix` that transitively share variables with `goal`, plus `goal`.
/// Variables sharing a constraint are joined in a union-find, so slicing is linear in the
/// prefix (a fixpoint over the prefix was quadratic on long, connected paths).
pub fn independent_slice(pool: &mut Pool, prefix: &[ExprId], goal: ExprId) -> Vec<ExprId> {
    fn find(parent: &mut [u32], mut v: u32) -> u32 {
        while parent[v as usize] != v {
            parent[v as usize] = parent[parent[v as usize] as usize];
            v = parent[v as usize];
        }
        v
    }
    let goal_vars = pool.vars_of(goal);
    let sets: Vec<std::rc::Rc<Vec<u32>>> = prefix.iter().map(|&c| pool.vars_of(c)).collect();
    // Variable ids are dense (indices into the pool's variables).
    let n = sets
        .iter()
        .chain([&goal_vars])
        .filter_map(|s| s.last())
        .max()
        .map_or(0, |m| *m as usize + 1);
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for s in &sets {
        if let Some((&first, rest)) = s.split_first() {
            let a = find(&mut parent, first);
            for &v in rest {
                let b = find(&mut parent, v);
                parent[b as usize] = a;
            }
        }
    }
    let roots: Vec<u32> = goal_vars.iter().map(|&v| find(&mut parent, v)).collect();
    let mut out: Vec<ExprId> = prefix
        .iter()
        .zip(&sets)
        .filter(|(_, s)| {
            s.first()
                .is_some_and(|&v| roots.contains(&find(&mut parent, v)))
        })
        .map(|(c, _)| *c)
        .collect();
    out.push(goal);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::IPred;
    use crate::smt::expr::VarKey;

    /// The exact encodings agree bit for bit with what runs compute (`MathFn::eval`), special
    /// values and NaN payloads included: a proof resting on one holds for the runs.
    #[test]
    fn exact_math_encodings_give_the_bits_runs_compute() {
        use crate::ir::math::MathFn;
        use z3::ast::Ast;
        let values64: Vec<u64> = [
            0.0f64,
            -0.0,
            1.0,
            -1.0,
            1.5,
            -2.5,
            2.5,
            0.5,
            3.0,
            -7.0,
            7.25,
            1e300,
            -1e-310,
            5e-324,
            123.456,
            -0.75,
            f64::MAX,
            f64::MIN_POSITIVE,
        ]
        .iter()
        .map(|v| v.to_bits())
        .chain([
            f64::INFINITY.to_bits(),
            f64::NEG_INFINITY.to_bits(),
            0x7ff8_0000_0000_0123, // quiet NaN with a payload
            0xfff8_0000_0000_0456, // negative quiet NaN
            0x7ff0_0000_0000_0789, // signalling NaN
        ])
        .collect();
        let values32: Vec<u64> = values64
            .iter()
            .map(|&b| (f64::from_bits(b) as f32).to_bits() as u64)
            .chain([0x7fc0_0123, 0xffc0_0456, 0x7f80_0789])
            .collect();
        let mut checked = 0;
        for name in [
            "sqrt",
            "floor",
            "ceil",
            "trunc",
            "round",
            "rint",
            "fabs",
            "copysign",
            "fmin",
            "fmax",
            "sqrtf",
            "floorf",
            "ceilf",
            "truncf",
            "roundf",
            "rintf",
            "fabsf",
            "copysignf",
            "fminf",
            "fmaxf",
        ] {
            let f = MathFn::by_name(name).unwrap();
            assert!(f.z3_exact(), "{name}");
            let values = if f.w == 32 { &values32 } else { &values64 };
            let pairs: Vec<Vec<u64>> = match f.arity() {
                1 => values.iter().map(|&x| vec![x]).collect(),
                _ => values
                    .iter()
                    .flat_map(|&x| values.iter().map(move |&y| vec![x, y]))
                    .collect(),
            };
            for args in pairs {
                let bvs: Vec<z3::ast::BV> = args
                    .iter()
                    .map(|&a| z3::ast::BV::from_u64(a, f.w as u32))
                    .collect();
                let got = opaque_bv(OpaqueFn::Math(f), f.w, &bvs).simplify().as_u64();
                let want = f.eval(&args);
                assert_eq!(
                    got,
                    Some(want),
                    "{name}({args:x?}): Z3 {got:x?}, runs {want:x}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn a_refutation_a_fresh_solver_disagrees_with_is_reported() {
        let mut p = Pool::new();
        let x = p.var(VarKey {
            input: 0,
            byte: 0,
            w: 32,
        });
        let (five, six) = (p.constant(32, 5), p.constant(32, 6));
        let (is5, is6) = (p.cmp(IPred::Eq, x, five), p.cmp(IPred::Eq, x, six));
        let mut f = SolverFront::with_z3(Duration::from_secs(5));
        let until = Instant::now() + Duration::from_secs(30);
        // A true refutation, one by enumeration (not checked again), then a wrong one.
        f.cache.insert(vec![is5, is6], (Answer::Unsat, "z3"));
        f.cache.insert(vec![is6], (Answer::Unsat, "enumeration"));
        let r = f.reconfirm_refutations(&p, until);
        assert_eq!((r.checked, r.contradicted, r.undecided), (1, 0, 0));
        assert!(r.holds());
        f.cache.insert(vec![is5], (Answer::Unsat, "walk"));
        let r = f.reconfirm_refutations(&p, until);
        assert_eq!((r.checked, r.contradicted), (2, 1));
        assert!(!r.holds());
    }

    #[test]
    fn slices_keep_the_constraints_connected_to_the_goal() {
        let mut p = Pool::new();
        let v: Vec<ExprId> = (0..5)
            .map(|i| {
                p.var(VarKey {
                    input: i,
                    byte: 0,
                    w: 32,
                })
            })
            .collect();
        let k = p.constant(32, 7);
        // x0 < x1, x2 == 7, x1 < x3 (joins x3 to x0 through x1), x4 == 7; goal: x3 == x0.
        let c0 = p.cmp(IPred::Slt, v[0], v[1]);
        let c1 = p.cmp(IPred::Eq, v[2], k);
        let c2 = p.cmp(IPred::Slt, v[1], v[3]);
        let c3 = p.cmp(IPred::Eq, v[4], k);
        let goal = p.cmp(IPred::Eq, v[3], v[0]);
        let s = independent_slice(&mut p, &[c0, c1, c2, c3], goal);
        assert_eq!(s, vec![c0, c2, goal]);
        // Only the constraints on x2.
        let eight = p.constant(32, 8);
        let goal = p.cmp(IPred::Eq, v[2], eight);
        let s = independent_slice(&mut p, &[c0, c1, c2, c3], goal);
        assert_eq!(s, vec![c1, goal]);
    }
}
