//! A second prover: the inlined program as constrained Horn clauses, solved by Z3's Spacer
//! engine. Spacer finds the inductive invariants that predicate refinement misses (flag
//! implications, counters against bounds, linear relations); every invariant it returns is
//! checked clause by clause, in the model's exact bit-vector semantics, by a fresh solver
//! instance before a goal counts as proven.
//!
//! One relation per (location, call stack) of the inlined control-flow automaton, over the
//! variables live there; one clause per transition; one query clause (`... → false`) per goal
//! edge. Relations off loops are then eliminated by composing their clauses (large-block
//! encoding), so Spacer only sees loop heads. Spacer runs on two encodings: mathematical
//! integers (fast; not exact, since wrap-around is ignored, which the check makes harmless)
//! and, when that fails, the exact bit-vectors.

pub mod guess;
mod read;
mod smtlib;
pub mod valueset;

use super::arg::{INIT, ModelChecker};
use super::model::{Effect, Loc, Next, Transition, VarKind};
use crate::smt::expr::ExprId;
use crate::smt::solver::{Answer, Backend, Z3Backend};
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::time::{Duration, Instant};

pub use smtlib::Encoding;

/// Where a clause leads: a relation, or a goal (the query `... → false`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Head {
    Node(usize),
    Goal(usize),
}

#[derive(Clone)]
pub struct Clause {
    /// None for facts (the program's start).
    pub src: Option<usize>,
    pub head: Head,
    /// The effect from `src` to `head` (several transitions composed into one).
    pub effect: Effect,
}

/// The Horn-clause system of a program.
pub struct Horn {
    pub nodes: Vec<(Loc, Rc<Vec<Loc>>)>,
    /// Model variables each relation ranges over (those live at its location), sorted.
    pub args: Vec<Vec<u32>>,
    pub clauses: Vec<Clause>,
    /// Relations still present after elimination.
    pub kept: Vec<bool>,
}

/// The relations of a Horn-clause system (location, call stack, arguments): what an
/// invariant found for one system is about, so a later system of the same shape reuses it.
pub type Shape = Vec<(Loc, Rc<Vec<Loc>>, Vec<u32>)>;

/// The pool's variable id of model variable `v`.
pub(super) fn pool_id(mc: &mut ModelChecker, v: u32) -> u32 {
    let e = mc.model.var_expr(v);
    match mc.model.pool.node(e) {
        crate::smt::expr::Node::Var { id, .. } => *id,
        _ => unreachable!("a variable expression"),
    }
}

impl Horn {
    /// The goals among `goals` whose clauses `inv` contradicts.
    pub fn contradicted(
        &self,
        mc: &mut ModelChecker,
        inv: &[ExprId],
        goals: &HashSet<usize>,
        deadline: Instant,
    ) -> HashSet<usize> {
        self.contradicted_noting(mc, inv, goals, deadline, &mut HashSet::new())
    }

    /// `contradicted`, adding to `admitted` the goals with a clause `inv` admits (no later
    /// check with `inv` can rule them out; goals not checked in time are in neither set).
    pub fn contradicted_noting(
        &self,
        mc: &mut ModelChecker,
        inv: &[ExprId],
        goals: &HashSet<usize>,
        deadline: Instant,
        admitted: &mut HashSet<usize>,
    ) -> HashSet<usize> {
        let mut solver = Z3Backend::new();
        let mut out: HashSet<usize> = goals.clone();
        for c in &self.clauses {
            let Head::Goal(g) = c.head else { continue };
            if !out.contains(&g) {
                continue;
            }
            let mut cons: Vec<ExprId> = c.src.map(|s| vec![inv[s]]).unwrap_or_default();
            cons.extend(c.effect.guards.iter().copied());
            let left = deadline.saturating_duration_since(Instant::now());
            let answer = match left.is_zero() {
                true => Answer::Unknown,
                false => solver.check(&mc.model.pool, &cons, left, &|_| 0),
            };
            if matches!(answer, Answer::Sat(_)) {
                admitted.insert(g);
            }
            if answer != Answer::Unsat {
                out.remove(&g);
            }
        }
        out
    }

    /// Every term of every clause's guards.
    pub(super) fn guard_terms(&self, pool: &crate::smt::expr::Pool) -> Vec<ExprId> {
        let roots: Vec<ExprId> = self
            .clauses
            .iter()
            .flat_map(|c| c.effect.guards.iter().copied())
            .collect();
        pool.reachable(&roots)
    }

    /// What an inductiveness check of invariants over this system depends on: its relations,
    /// which of them elimination kept, and every clause between relations. (Systems of one
    /// shape differ in which relations elimination keeps, since the goals asked about are
    /// clauses too: an invariant checked on one is not checked on the other.)
    pub fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.shape().hash(&mut h);
        self.kept.hash(&mut h);
        for c in &self.clauses {
            if let Head::Node(d) = c.head {
                (c.src, d).hash(&mut h);
                c.effect.assigns.hash(&mut h);
                c.effect.guards.hash(&mut h);
                c.effect.havocs.hash(&mut h);
            }
        }
        h.finish()
    }

    pub fn shape(&self) -> Shape {
        self.nodes
            .iter()
            .zip(&self.args)
            .map(|((l, st), a)| (*l, st.clone(), a.clone()))
            .collect()
    }
}

/// What Spacer said about a set of goals.
pub enum Verdict {
    /// Invariants (a 1-bit expression per relation, over its arguments) that rule out every
    /// queried goal; not yet checked.
    Safe(Vec<ExprId>),
    /// Some queried goal is reachable (in the encoding's semantics).
    Reachable,
    Unknown(String),
}

/// Builds the clauses of everything reachable from the initial state. `goal_of` names the
/// goal a transition covers (if it is one of the goals of interest). None when the inlined
/// automaton exceeds `max_nodes` or the call depth limit, or when building is not done by
/// `until`.
pub fn build(
    mc: &mut ModelChecker,
    goal_of: &dyn Fn(&Transition) -> Option<usize>,
    max_nodes: usize,
    until: Instant,
) -> Option<Horn> {
    let mut index: HashMap<(Loc, Rc<Vec<Loc>>), usize> = HashMap::new();
    let mut nodes = vec![(INIT, Rc::new(vec![]))];
    index.insert(nodes[0].clone(), 0);
    let mut clauses = vec![Clause {
        src: None,
        head: Head::Node(0),
        effect: Effect::default(),
    }];
    let mut queue = VecDeque::from([0usize]);
    while let Some(n) = queue.pop_front() {
        if Instant::now() > until {
            return None;
        }
        let (loc, stack) = nodes[n].clone();
        for t in mc.transitions(loc) {
            let mut effects = vec![t.effect.clone()];
            let next = match &t.next {
                Next::Goto(l) => Some((*l, stack.clone())),
                Next::Call { callee, ret_to } => {
                    if stack.len() >= mc.cfg.max_stack {
                        return None;
                    }
                    let mut st = (*stack).clone();
                    st.push(*ret_to);
                    Some((
                        Loc {
                            func: *callee,
                            block: 0,
                            ip: 0,
                        },
                        Rc::new(st),
                    ))
                }
                Next::Return => stack.last().map(|ret_to| {
                    effects.push(mc.return_effect(*ret_to, loc.func));
                    let mut st = (*stack).clone();
                    st.pop();
                    (*ret_to, Rc::new(st))
                }),
                Next::End => None,
            };
            let effect = compose(mc, &effects);
            if let Some(g) = goal_of(&t) {
                clauses.push(Clause {
                    src: Some(n),
                    head: Head::Goal(g),
                    effect: Effect {
                        assigns: vec![],
                        guards: effect.guards.clone(),
                        havocs: effect.havocs.clone(),
                    },
                });
            }
            if let Some(key) = next {
                let d = match index.get(&key) {
                    Some(&d) => d,
                    None => {
                        if nodes.len() >= max_nodes {
                            return None;
                        }
                        nodes.push(key.clone());
                        index.insert(key, nodes.len() - 1);
                        queue.push_back(nodes.len() - 1);
                        nodes.len() - 1
                    }
                };
                clauses.push(Clause {
                    src: Some(n),
                    head: Head::Node(d),
                    effect,
                });
            }
        }
    }
    let args = liveness(mc, nodes.len(), &clauses);
    let kept = vec![true; nodes.len()];
    let mut horn = Horn {
        nodes,
        args,
        clauses,
        kept,
    };
    horn.eliminate(mc, until)?;
    Some(horn)
}

/// Sequential composition: later effects read the state the earlier ones left.
pub fn compose(mc: &mut ModelChecker, effects: &[Effect]) -> Effect {
    let mut acc = Effect::default();
    // Where each variable's assignment is in `acc`.
    let mut slot: HashMap<u32, usize> = HashMap::new();
    for e in effects {
        let exprs: Vec<ExprId> = (e.guards.iter().copied())
            .chain(e.assigns.iter().map(|a| a.1))
            .collect();
        let pre = mc.wp_all(&exprs, &acc);
        let (guards, values) = pre.split_at(e.guards.len());
        for &g in guards {
            if mc.model.pool.as_const(g) != Some(1) {
                acc.guards.push(g);
            }
        }
        for (&(v, _), &x) in e.assigns.iter().zip(values) {
            match slot.get(&v) {
                Some(&i) => acc.assigns[i].1 = x,
                None => {
                    slot.insert(v, acc.assigns.len());
                    acc.assigns.push((v, x));
                }
            }
        }
        acc.havocs.extend(e.havocs.iter().copied());
    }
    acc
}

/// Program variables (not havocs) that `e` reads.
fn reads(mc: &mut ModelChecker, e: ExprId, out: &mut BTreeSet<u32>) {
    let vars = mc.model.pool.vars_of(e);
    for v in vars.iter() {
        let k = mc.model.pool.vars[*v as usize];
        if !matches!(mc.model.vars[k.input as usize], VarKind::Havoc(_)) {
            out.insert(k.input);
        }
    }
}

/// Variables live at each relation: read by some later clause before being assigned.
fn liveness(mc: &mut ModelChecker, n: usize, clauses: &[Clause]) -> Vec<Vec<u32>> {
    let mut uses: Vec<BTreeSet<u32>> = vec![];
    let mut defs: Vec<HashSet<u32>> = vec![];
    for c in clauses {
        let mut u = BTreeSet::new();
        for g in &c.effect.guards {
            reads(mc, *g, &mut u);
        }
        for (_, x) in &c.effect.assigns {
            reads(mc, *x, &mut u);
        }
        uses.push(u);
        defs.push(c.effect.assigns.iter().map(|a| a.0).collect());
    }
    let mut live: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); n];
    let mut into: Vec<Vec<usize>> = vec![vec![]; n];
    for (i, c) in clauses.iter().enumerate() {
        if let (Some(_), Head::Node(d)) = (c.src, c.head) {
            into[d].push(i);
        }
    }
    let mut work: VecDeque<usize> = (0..clauses.len()).collect();
    let mut queued: Vec<bool> = vec![true; clauses.len()];
    while let Some(i) = work.pop_front() {
        queued[i] = false;
        let c = &clauses[i];
        let Some(s) = c.src else { continue };
        let mut add: Vec<u32> = uses[i].iter().copied().collect();
        if let Head::Node(d) = c.head {
            add.extend(live[d].iter().filter(|v| !defs[i].contains(v)).copied());
        }
        let before = live[s].len();
        live[s].extend(add);
        if live[s].len() != before {
            for &p in &into[s] {
                if !queued[p] {
                    queued[p] = true;
                    work.push_back(p);
                }
            }
        }
    }
    live.into_iter().map(|s| s.into_iter().collect()).collect()
}

impl Horn {
    /// Large-block encoding: removes every relation that is not a loop head, as long as
    /// composing its incoming with its outgoing clauses does not multiply them.
    /// None when not done by `until`.
    fn eliminate(&mut self, mc: &mut ModelChecker, until: Instant) -> Option<()> {
        let n = self.nodes.len();
        let mut clauses: Vec<Option<Clause>> = self.clauses.drain(..).map(Some).collect();
        let mut ins: Vec<Vec<usize>> = vec![vec![]; n];
        let mut outs: Vec<Vec<usize>> = vec![vec![]; n];
        for (i, c) in clauses.iter().enumerate() {
            let c = c.as_ref().unwrap();
            if let Head::Node(d) = c.head {
                ins[d].push(i);
            }
            if let Some(s) = c.src {
                outs[s].push(i);
            }
        }
        // Loop heads: targets of back edges of a depth-first search from the start.
        let mut heads = vec![false; n];
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        state[0] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if *k < outs[v].len() {
                let c = outs[v][*k];
                *k += 1;
                if let Head::Node(d) = clauses[c].as_ref().unwrap().head {
                    match state[d] {
                        0 => {
                            state[d] = 1;
                            stack.push((d, 0));
                        }
                        1 => heads[d] = true,
                        _ => {}
                    }
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
        for v in 0..n {
            if heads[v] {
                continue;
            }
            if Instant::now() > until {
                return None;
            }
            let (i_n, o_n) = (ins[v].len(), outs[v].len());
            if i_n * o_n > i_n + o_n + 2 {
                continue;
            }
            if ins[v]
                .iter()
                .any(|&c| clauses[c].as_ref().unwrap().src == Some(v))
            {
                continue;
            }
            let incoming = std::mem::take(&mut ins[v]);
            let outgoing = std::mem::take(&mut outs[v]);
            for &a in &incoming {
                let ca = clauses[a].take().unwrap();
                if let Some(s) = ca.src {
                    outs[s].retain(|x| *x != a);
                }
                for &b in &outgoing {
                    let cb = clauses[b].as_ref().unwrap().clone();
                    let effect = compose(mc, &[ca.effect.clone(), cb.effect.clone()]);
                    let id = clauses.len();
                    clauses.push(Some(Clause {
                        src: ca.src,
                        head: cb.head,
                        effect,
                    }));
                    if let Some(s) = ca.src {
                        outs[s].push(id);
                    }
                    if let Head::Node(d) = cb.head {
                        ins[d].push(id);
                    }
                }
            }
            for &b in &outgoing {
                let cb = clauses[b].take().unwrap();
                if let Head::Node(d) = cb.head {
                    ins[d].retain(|x| *x != b);
                }
            }
            self.kept[v] = false;
        }
        // Clauses whose guards are constantly false say nothing.
        self.clauses = clauses
            .into_iter()
            .flatten()
            .filter(|c| {
                !c.effect
                    .guards
                    .iter()
                    .any(|g| mc.model.pool.as_const(*g) == Some(0))
            })
            .collect();
        Some(())
    }

    /// Checks that `inv` is an inductive invariant of every clause that ruling out `goals`
    /// needs, in exact bit-vector semantics, with a fresh solver instance.
    pub fn check(
        &self,
        mc: &mut ModelChecker,
        inv: &[ExprId],
        goals: &HashSet<usize>,
        deadline: Instant,
    ) -> Result<(), String> {
        let mut solver = Z3Backend::new();
        for (i, c) in self.clauses.iter().enumerate() {
            let mut cons: Vec<ExprId> = vec![];
            if let Some(s) = c.src {
                cons.push(inv[s]);
            }
            cons.extend(c.effect.guards.iter().copied());
            match c.head {
                Head::Goal(g) if !goals.contains(&g) => continue,
                Head::Goal(_) => {}
                Head::Node(d) => {
                    let post = mc.wp(inv[d], &c.effect);
                    let neg = mc.model.pool.not(post);
                    cons.push(neg);
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err("out of time".into());
            }
            match solver.check(&mc.model.pool, &cons, left, &|_| 0) {
                Answer::Unsat => {}
                Answer::Sat(_) => return Err(format!("clause {i} is not implied")),
                Answer::Unknown => {
                    if crate::debug_on!("chc") {
                        for c in &cons {
                            crate::debug_log!("chc", "  check: {}", mc.model.pool.show(*c));
                        }
                    }
                    return Err(format!("clause {i}: solver unknown"));
                }
            }
        }
        Ok(())
    }
}

impl Horn {
    /// `inv` strengthened at each relation by the candidate bounds (each argument against
    /// every constant the clauses compare with, and against each other argument) that are
    /// inductive together with it: the
    /// candidates violated by some clause are dropped until none is (Houdini). Only adds
    /// conjuncts: the result is checked like any invariant.
    pub fn with_bounds(
        &self,
        mc: &mut ModelChecker,
        inv: &[ExprId],
        deadline: Instant,
    ) -> Vec<ExprId> {
        use crate::ir::IPred;
        let consts = guess::constants(self, mc);
        let mut cands: Vec<Vec<ExprId>> = vec![vec![]; self.nodes.len()];
        for (n, args) in self.args.iter().enumerate() {
            if !self.kept[n] {
                continue;
            }
            for &v in args {
                let w = mc.model.var_width(v);
                if w == 1 {
                    continue;
                }
                let x = mc.model.var_expr(v);
                let zero = mc.model.pool.constant(w, 0);
                let mut ks: Vec<ExprId> = vec![zero];
                for &(cw, k) in &consts {
                    if cw == w {
                        ks.push(mc.model.pool.constant(w, k));
                    }
                }
                for k in ks {
                    for p in [IPred::Sle, IPred::Sge, IPred::Ule] {
                        let c = mc.model.pool.cmp(p, x, k);
                        if mc.model.pool.as_const(c).is_none() && !cands[n].contains(&c) {
                            cands[n].push(c);
                        }
                    }
                }
            }
            // Counters bounded by the loop's counter (`word <= k`, k <= 10): the bound that
            // keeps a counter from wrapping is often another variable, not a constant.
            if args.len() <= MAX_RELATIONAL_ARGS {
                for &a in args {
                    for &b in args {
                        let w = mc.model.var_width(a);
                        if a == b || w == 1 || mc.model.var_width(b) != w {
                            continue;
                        }
                        let (x, y) = (mc.model.var_expr(a), mc.model.var_expr(b));
                        let c = mc.model.pool.cmp(IPred::Sle, x, y);
                        if mc.model.pool.as_const(c).is_none() && !cands[n].contains(&c) {
                            cands[n].push(c);
                        }
                    }
                }
            }
        }
        let mut todo = guess::all_clauses(self);
        if guess::houdini(self, mc, inv, &mut cands, &mut todo, deadline).is_none() {
            return inv.to_vec();
        }
        inv.iter()
            .zip(&cands)
            .map(|(i, cs)| cs.iter().fold(*i, |acc, c| mc.model.pool.and(acc, *c)))
            .collect()
    }
}

/// Asks Spacer whether any of `goals` is reachable; on "safe", reads the invariants.
pub fn solve(
    horn: &Horn,
    mc: &mut ModelChecker,
    goals: &HashSet<usize>,
    enc: Encoding,
    timeout: Duration,
) -> Verdict {
    let (script, views) = smtlib::script(horn, mc, goals, enc);
    if let Some(dir) = crate::debug::dump_dir().filter(|_| crate::debug_on!("chc")) {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("query-{k}-{enc:?}.smt2").to_lowercase();
        let _ = std::fs::write(std::path::Path::new(&dir).join(name), &script);
    }
    let t0 = Instant::now();
    let answer = smtlib::run_z3(&script, enc, timeout);
    if crate::debug_on!("chc") {
        let what = match &answer {
            smtlib::Answer::Unreachable(c) => format!("unreachable: {c}"),
            smtlib::Answer::Reachable => "reachable".into(),
            smtlib::Answer::Unknown(w) => format!("unknown: {w}"),
        };
        crate::debug_log!(
            "chc",
            "chc {enc:?} {} goals, {:.2}s of {:.2}s: {what}",
            goals.len(),
            t0.elapsed().as_secs_f64(),
            timeout.as_secs_f64(),
        );
    }
    match answer {
        smtlib::Answer::Reachable => Verdict::Reachable,
        smtlib::Answer::Unknown(w) => Verdict::Unknown(w),
        smtlib::Answer::Unreachable(cert) => match read::invariants(&cert, horn, mc, &views) {
            Ok(inv) => Verdict::Safe(inv),
            Err(e) => Verdict::Unknown(format!("cannot read the invariants: {e}")),
        },
    }
}

/// What one round of the Horn-clause prover decided.
#[derive(Default)]
pub struct Outcome {
    /// Goals ruled out by invariants that passed the independent check, with the time each
    /// took.
    pub proven: Vec<(usize, f64)>,
    pub queries: u64,
    /// Invariants that failed the independent check.
    pub check_failures: u64,
    pub notes: Vec<String>,
    /// Time ran out with goals left that more time might prove (guessing unfinished, or the
    /// deadline reached), as opposed to every way tried having given its answer.
    pub cut: bool,
}

/// The most a Spacer query's floor grows to (see `ModelChecker::spacer_floor`).
const MAX_SPACER_FLOOR: Duration = Duration::from_secs(4);

/// Spacer's encodings, in the order tried: integers (fast, invariants checked for wrapping),
/// integers with the program's bounds, bit-vectors (exact).
const ALL: [Encoding; 3] = [Encoding::Int, Encoding::IntBounded, Encoding::BitVec];

/// Relations with more arguments get no variable-against-variable bounds (their number grows
/// with the square).
const MAX_RELATIONAL_ARGS: usize = 24;

/// How long Spacer looks first, before the guessed invariants (see `prove`).
const PROBE: Duration = Duration::from_millis(300);

/// Tries to prove `targets` unreachable within `time`: first all at once, then one by one
/// while time remains; each query on the integer encoding first, then on bit-vectors.
pub fn prove(
    mc: &mut ModelChecker,
    error_sites: &[u32],
    num_branches: usize,
    targets: &[usize],
    time: Duration,
    max_nodes: usize,
    joint_only: bool,
) -> Outcome {
    let mut out = Outcome::default();
    if targets.is_empty() {
        return out;
    }
    let start = Instant::now();
    let deadline = start + time;
    let mut wanted: HashSet<usize> = targets.iter().copied().collect();
    let goal_of = |t: &Transition| -> Option<usize> {
        let g = t.goal.map(|g| g as usize).or_else(|| {
            t.error_site
                .and_then(|e| error_sites.iter().position(|x| *x == e))
                .map(|k| num_branches + k)
        })?;
        wanted.contains(&g).then_some(g)
    };
    // The clauses may take longer than a short turn to build (they are built again each
    // turn), not longer than the session.
    let session_end = mc.session_end.unwrap_or(deadline + time);
    let Some(horn) = build(mc, &goal_of, max_nodes, session_end) else {
        out.notes.push(
            "Horn clauses: the inlined program exceeds the size or call-depth limit, \
             or building them the session's time"
                .into(),
        );
        return out;
    };
    // Value sets first: one pass, and they settle state machines whose states no transition
    // sets, which every other prover here reaches only slowly.
    if let Some(proven) = valueset::rule_out(&horn, mc, &wanted, deadline) {
        out.queries += 1;
        let t = start.elapsed().as_secs_f64();
        out.proven.extend(proven.iter().map(|g| (*g, t)));
        wanted.retain(|g| !proven.contains(g));
        if wanted.is_empty() {
            return out;
        }
    }
    // Guessed invariants first: exact, cheap, and they settle the loops Spacer unrolls up to
    // their bound or proves only with integers that may wrap.
    // At least a second until every level has been tried: the model checker's turns can be
    // too short for one Houdini run, and that second is spent once per program.
    let floor = if mc.guessed.finished() {
        Duration::ZERO
    } else {
        Duration::from_secs(1)
    };
    // Until then, Spacer on integers gets a short look first: guessing takes seconds over
    // every level, and Spacer settles small state machines (the flag of a def-use pair) in
    // milliseconds.
    if !mc.guessed.finished()
        && attempt(&horn, mc, &wanted, &ALL[..1], PROBE, true, start, &mut out)
    {
        return out;
    }
    // Guessing's share counts from here: the probe must not shorten its sampling, whose
    // candidates are only as good as the states it saw.
    // Neither the floor nor the check's grace below may outlast the session's budget.
    let guess_until =
        (Instant::now() + (time / 2).min(Duration::from_secs(10)).max(floor)).min(session_end);
    let mut progress = std::mem::take(&mut mc.guessed);
    let guessed = guess::invariants(&horn, mc, &wanted, guess_until, &mut progress);
    mc.guessed = progress;
    if let Some((inv, ruled_out)) = guessed {
        out.queries += 1;
        // The check may outlast a short turn (as Spacer's does): Houdini has already shown
        // the invariant, losing it to the clock on a loaded machine wastes the work.
        let check_until = deadline
            .max(Instant::now() + mc.cfg.check_grace)
            .min(session_end);
        match horn.check(mc, &inv, &ruled_out, check_until) {
            Ok(()) => {
                let t = start.elapsed().as_secs_f64();
                out.proven.extend(ruled_out.iter().map(|g| (*g, t)));
                wanted.retain(|g| !ruled_out.contains(g));
            }
            Err(e) => {
                out.check_failures += 1;
                out.cut |= !e.contains("not implied");
                out.notes
                    .push(format!("guessed invariant rejected by the check: {e}"));
            }
        }
    }
    if wanted.is_empty() {
        return out;
    }
    let targets: Vec<usize> = targets
        .iter()
        .copied()
        .filter(|g| wanted.contains(g))
        .collect();
    out.cut = !mc.guessed.finished();
    // All at once with half the time; then each goal with an equal share of what is left.
    let left = deadline.saturating_duration_since(Instant::now());
    let first = if targets.len() == 1 { left } else { left / 2 };
    if attempt(&horn, mc, &wanted, &ALL, first, false, start, &mut out) {
        return out;
    }
    if targets.len() == 1 || joint_only {
        return out;
    }
    let mut rest: Vec<usize> = targets.to_vec();
    rest.sort();
    let n = rest.len();
    for (i, g) in rest.into_iter().enumerate() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let share = left / (n - i) as u32;
        attempt(
            &horn,
            mc,
            &HashSet::from([g]),
            &ALL,
            share,
            false,
            start,
            &mut out,
        );
    }
    out
}

/// One Spacer query on `goals` per encoding of `encodings`, sharing `limit`; true when an
/// invariant that passed the check proves them all. A `probe` is a short first look: no
/// floor for its queries, a short check, and being cut short does not raise the floor.
#[allow(clippy::too_many_arguments)]
fn attempt(
    horn: &Horn,
    mc: &mut ModelChecker,
    goals: &HashSet<usize>,
    encodings: &[Encoding],
    limit: Duration,
    probe: bool,
    start: Instant,
    out: &mut Outcome,
) -> bool {
    let until = Instant::now() + limit;
    for (k, &enc) in encodings.iter().enumerate() {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        // An equal share of what is left for each remaining encoding, at least the floor
        // (a query cut short proves nothing), never past the session's end.
        let room = mc
            .session_end
            .map_or(left, |e| e.saturating_duration_since(Instant::now()));
        let floor = if probe {
            Duration::ZERO
        } else {
            mc.spacer_floor
        };
        let share = (left / (encodings.len() - k) as u32).max(floor).min(room);
        if share.is_zero() {
            break;
        }
        out.queries += 1;
        let asked = Instant::now();
        match solve(horn, mc, goals, enc, share) {
            Verdict::Safe(inv) => {
                // A probe's invariant gets a short check: the full search comes later.
                let check_floor = if probe {
                    mc.cfg.check_grace
                } else {
                    Duration::from_secs(15)
                };
                let check_until = Instant::now() + limit.max(check_floor);
                let check_until = mc.session_end.map_or(check_until, |e| check_until.min(e));
                // Integer invariants often lack the bounds that keep values from
                // wrapping: add the bounds that hold (Houdini over the program's
                // constants) before the final check.
                let quick = (Instant::now() + mc.cfg.check_grace).min(check_until);
                let inv = if enc == Encoding::BitVec || horn.check(mc, &inv, goals, quick).is_ok() {
                    inv
                } else {
                    horn.with_bounds(mc, &inv, check_until)
                };
                match horn.check(mc, &inv, goals, check_until) {
                    Ok(()) => {
                        let t = start.elapsed().as_secs_f64();
                        out.proven.extend(goals.iter().map(|g| (*g, t)));
                        return true;
                    }
                    Err(e) => {
                        out.check_failures += 1;
                        out.cut |= !e.contains("not implied");
                        let note = format!("{enc:?} invariant rejected by the check: {e}");
                        if crate::debug_on!("chc") {
                            crate::debug_log!("chc", "chc {note}");
                        }
                        if !out.notes.contains(&note) {
                            out.notes.push(note);
                        }
                    }
                }
            }
            // Bit-vectors are exact: a goal found reachable there is not worth more time.
            Verdict::Reachable if enc == Encoding::BitVec => return false,
            Verdict::Reachable => {}
            Verdict::Unknown(why) => {
                // Interrupted at the end of its share (Z3 4.8.12 then says "ok" or
                // "canceled"): more time may prove it.
                let cut = asked.elapsed() + Duration::from_millis(50) >= share;
                out.cut |= cut;
                if cut && !probe {
                    mc.spacer_floor = (mc.spacer_floor * 2).min(MAX_SPACER_FLOOR);
                }
                if !why.is_empty() && !why.contains("canceled") {
                    let note = format!("Spacer ({enc:?}): {why}");
                    if !out.notes.contains(&note) {
                        out.notes.push(note);
                    }
                }
            }
        }
    }
    false
}
