//! Guess-and-check invariants. States sampled by running the clauses forward suggest candidate
//! facts at each relation — bounds against the program's constants, orderings between
//! variables, linear equalities (the samples' affine hull), and each of these under one
//! condition (a guard of the loop, or a variable's sign) — and Houdini drops the candidates some
//! clause does not preserve. What remains is an inductive invariant in the model's exact
//! bit-vector semantics, found without Spacer: linear equalities survive wrap-around (where
//! Spacer's integer invariants fail the bit-vector check), and nothing is unrolled up to a
//! loop's bound.

use super::super::arg::ModelChecker;
use super::{Head, Horn, Shape, pool_id};
use crate::ir::{BinOp, IPred};
use crate::smt::expr::{ExprId, Memo, Node};
use crate::smt::solver::{Answer, Backend, Z3Backend};
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// Most distinct states kept per relation, and most variables in one affine hull.
const MAX_SAMPLES: usize = 48;
/// The least time the first sampling gets (it stops sooner once the walks find nothing new):
/// on a loaded machine a shorter one missed the states past a loop's midpoint (piecewise.c),
/// and the candidates that need them came only turns later.
const FIRST_SAMPLING: Duration = Duration::from_millis(1000);
/// Pins tried one by one when together they conflict with a clause's guards.
const MAX_PINS_TRIED: usize = 8;
/// Walks before the samples may count as enough.
const MIN_WALKS: usize = 24;
const MAX_HULL_VARS: usize = 12;
/// Constants tried as bounds on each side of a variable's samples (the nearest ones).
const NEAREST: usize = 3;
/// Most candidates per relation (Houdini's cost grows with them).
const MAX_CANDIDATES: usize = 600;

/// A cheap, deterministic generator (sampling should not vary from run to run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A level Houdini did not finish: the candidates left, all the level had, and the clauses it
/// had still to check, by source and head.
type UnfinishedLevel = (Vec<Vec<ExprId>>, Vec<ExprId>, Vec<(Option<usize>, Head)>);

/// What guessing learnt in earlier calls on the same clauses (the model checker runs in
/// turns, each with a slice of the budget): the samples, the facts shown inductive, the
/// candidates already tried, and how many levels are done.
#[derive(Default)]
pub struct Progress {
    shape: Shape,
    calls: u64,
    samples: Vec<Vec<Vec<u64>>>,
    known: Vec<ExprId>,
    tried: HashSet<ExprId>,
    levels_done: usize,
    /// The level the deadline stopped Houdini in (its clauses kept by source and head: clause
    /// numbers change with the goals asked about).
    unfinished: Option<UnfinishedLevel>,
    /// The walks stopped on their own (states filled, or no new ones), not by the clock.
    /// Until they have, the levels are guessed again as samples arrive: on a loaded machine
    /// the first turns sample too little to suggest the facts a proof needs.
    sampled: bool,
}

const LEVELS: [Level; 4] = [
    Level::Plain,
    Level::UnderGuards,
    Level::UnderSigns,
    Level::Differences,
];

impl Progress {
    /// Every level has been tried (on the relations of the last call).
    pub fn finished(&self) -> bool {
        !self.shape.is_empty() && self.sampled && self.levels_done >= LEVELS.len()
    }
}

/// An invariant per relation (a 1-bit expression over its arguments), inductive for every
/// clause, with the goals it rules out; None when it rules out none of `goals`. Resumes
/// from `progress` when it was made on the same relations.
pub fn invariants(
    horn: &Horn,
    mc: &mut ModelChecker,
    goals: &HashSet<usize>,
    deadline: Instant,
    progress: &mut Progress,
) -> Option<(Vec<ExprId>, HashSet<usize>)> {
    let debug = crate::debug_on!("chc");
    let shape = horn.shape();
    let truth = mc.model.pool.constant(1, 1);
    if progress.shape != shape {
        *progress = Progress {
            samples: vec![vec![]; horn.nodes.len()],
            known: vec![truth; horn.nodes.len()],
            shape,
            ..Progress::default()
        };
    }
    progress.calls += 1;
    if !progress.finished() {
        let t0 = Instant::now();
        // Candidates from too few samples are noise; the model checker's first turns are
        // short, so sampling may take a little longer than their share (once: later turns
        // resume from the samples).
        let floor = if progress.calls == 1 {
            FIRST_SAMPLING
        } else {
            Duration::ZERO
        };
        // The floor may outlast a turn, never the session: a first call in the last turn
        // would otherwise overrun the user's budget by the whole floor.
        let session_end = mc.session_end.unwrap_or(t0 + floor);
        let until = (t0 + (deadline.saturating_duration_since(t0) / 4).max(floor)).min(session_end);
        let before: usize = progress.samples.iter().map(|s| s.len()).sum();
        progress.sampled = sample(horn, mc, until, progress.calls, &mut progress.samples);
        let after: usize = progress.samples.iter().map(|s| s.len()).sum();
        // More states may suggest facts the fewer did not: the levels start over (what
        // they proved stays known, what they tried is not tried again).
        if after > before && progress.levels_done > 0 {
            progress.levels_done = 0;
            progress.unfinished = None;
        }
    }
    // Facts already shown inductive; each level's survivors join them, so later (larger)
    // levels assume them instead of re-checking them.
    let mut ruled_out = horn.contradicted(mc, &progress.known, goals, deadline);
    while ruled_out.len() < goals.len() && progress.levels_done < LEVELS.len() {
        let level = LEVELS[progress.levels_done];
        // A level Houdini did not finish resumes from the candidates it had left (a superset
        // of what it would keep).
        let (mut cands, tried, mut todo) = match progress.unfinished.take() {
            Some((cands, tried, ends)) => {
                let todo = (0..horn.clauses.len())
                    .filter(|i| ends.contains(&(horn.clauses[*i].src, horn.clauses[*i].head)))
                    .collect();
                (cands, tried, todo)
            }
            None => {
                let mut cands = candidates(horn, mc, &progress.samples, level);
                // (The differences' level tries the plain facts again, see `candidates`.)
                for cs in cands.iter_mut().filter(|_| level != Level::Differences) {
                    cs.retain(|c| !progress.tried.contains(c));
                }
                let tried: Vec<ExprId> = cands.iter().flatten().copied().collect();
                (cands, tried, all_clauses(horn))
            }
        };
        let t = Instant::now();
        let done = houdini(horn, mc, &progress.known, &mut cands, &mut todo, deadline);
        if debug {
            let n: usize = cands.iter().map(|c| c.len()).sum();
            crate::debug_log!(
                "chc",
                "guess {level:?}: Houdini {:.2}s, done: {}, {n} of {} kept",
                t.elapsed().as_secs_f64(),
                done.is_some(),
                tried.len()
            );
        }
        if debug {
            for (n, cs) in cands.iter().enumerate() {
                for c in cs {
                    crate::debug_log!("chc", "  R{n}: {}", mc.model.pool.show(*c));
                }
            }
        }
        if done.is_none() {
            let ends = todo
                .iter()
                .map(|i| (horn.clauses[*i].src, horn.clauses[*i].head))
                .collect();
            progress.unfinished = Some((cands, tried, ends));
            break;
        }
        progress.tried.extend(tried);
        progress.levels_done += 1;
        for (k, cs) in progress.known.iter_mut().zip(&cands) {
            *k = cs.iter().fold(*k, |acc, c| mc.model.pool.and(acc, *c));
        }
        ruled_out = horn.contradicted(mc, &progress.known, goals, deadline);
    }
    (!ruled_out.is_empty()).then_some((progress.known.clone(), ruled_out))
}

/// How much to guess: plain facts, then facts under the guards of the loop, then under
/// the signs of its variables, then bounds on differences.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Level {
    Plain,
    UnderGuards,
    UnderSigns,
    Differences,
}

/// Reachable states of each relation (values of its arguments), by random walks over the
/// clauses: each step asks the solver for a successor of a concrete state, the havocked
/// values pinned to small random numbers where the guards allow. True when the walks
/// stopped on their own rather than at `until`.
fn sample(
    horn: &Horn,
    mc: &mut ModelChecker,
    until: Instant,
    call: u64,
    states: &mut [Vec<Vec<u64>>],
) -> bool {
    let n = horn.nodes.len();
    let mut count: Vec<usize> = states.iter().map(|s| s.len()).collect();
    let mut seen: HashSet<(usize, Vec<u64>)> = states
        .iter()
        .enumerate()
        .flat_map(|(k, ss)| ss.iter().map(move |s| (k, s.clone())))
        .collect();
    let mut out: Vec<Vec<usize>> = vec![vec![]; n];
    let mut facts: Vec<usize> = vec![];
    for (i, c) in horn.clauses.iter().enumerate() {
        if let Head::Node(_) = c.head {
            match c.src {
                Some(s) => out[s].push(i),
                None => facts.push(i),
            }
        }
    }
    if facts.is_empty() {
        return true;
    }
    let mut solver = Z3Backend::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ call.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut steps = 0;
    // Until every relation reached has its fill, or the walks stop finding new states.
    let mut fruitless = 0;
    let mut walks = 0;
    // An earlier call left the walks' first states in the second half.
    let mut firsts: Vec<Vec<Vec<u64>>> = states
        .iter_mut()
        .map(|ss| ss.split_off(ss.len().min(MAX_SAMPLES / 2)))
        .collect();
    let mut firsts_seen: Vec<usize> = firsts.iter().map(|f| f.len()).collect();
    'walks: while steps < 3000 && (fruitless < 8 || walks < MIN_WALKS) && Instant::now() < until {
        let known = seen.len();
        // Many short walks rather than a few long ones: each starts from fresh inputs, and
        // rare starts (a negative bound, a loop never entered) need many tries to show up.
        let filled = (0..n).all(|k| count[k] == 0 || count[k] >= 4 * MAX_SAMPLES);
        if filled && known > 0 && walks >= MIN_WALKS {
            break;
        }
        walks += 1;
        let length = if rng.below(4) == 0 { 250 } else { 40 };
        let f = facts[rng.below(facts.len())];
        let mut at = match step(horn, mc, &mut solver, &mut rng, f, None, until) {
            Some(x) => x,
            None => {
                steps += 1;
                continue;
            }
        };
        // Visits of this walk per relation. Only visits 1, 2, 3, 4, 6, 8, 12, ... offer their
        // state: a long walk through a loop contributes its early and its late states, but
        // a few of them, so it does not crowd out the rare walks (a loop never entered).
        let mut visits = vec![0usize; n];
        for _ in 0..length {
            steps += 1;
            let (node, vals) = at;
            visits[node] += 1;
            let v = visits[node];
            let offered = (v >> v.trailing_zeros()) <= 3;
            // Reservoir sampling: states from all along the walks, not only their starts. The
            // first state of each walk at a relation has a reservoir of its own: they differ
            // in the inputs, which the rest of a walk mostly repeats.
            if offered && seen.insert((node, vals.clone())) {
                count[node] += 1;
                let (pool, seen_here) = if v == 1 {
                    firsts_seen[node] += 1;
                    (&mut firsts[node], firsts_seen[node])
                } else {
                    (&mut states[node], count[node])
                };
                if pool.len() < MAX_SAMPLES / 2 {
                    pool.push(vals.clone());
                } else {
                    let k = rng.below(seen_here);
                    if k < MAX_SAMPLES / 2 {
                        pool[k] = vals.clone();
                    }
                }
            }
            if out[node].is_empty() || Instant::now() >= until {
                fruitless = if seen.len() == known {
                    fruitless + 1
                } else {
                    0
                };
                continue 'walks;
            }
            // The clauses in random order until one is enabled in this state.
            let mut order = out[node].clone();
            let mut next = None;
            while !order.is_empty() && next.is_none() {
                let c = order.swap_remove(rng.below(order.len()));
                next = step(horn, mc, &mut solver, &mut rng, c, Some(&vals), until);
            }
            match next {
                Some(x) => at = x,
                None => {
                    fruitless = if seen.len() == known {
                        fruitless + 1
                    } else {
                        0
                    };
                    continue 'walks;
                }
            }
        }
    }
    for (ss, fs) in states.iter_mut().zip(firsts) {
        ss.extend(fs);
    }
    Instant::now() < until
}

/// One application of clause `c` from state `from` of its source: the head and its values.
fn step(
    horn: &Horn,
    mc: &mut ModelChecker,
    solver: &mut Z3Backend,
    rng: &mut Rng,
    c: usize,
    from: Option<&Vec<u64>>,
    until: Instant,
) -> Option<(usize, Vec<u64>)> {
    let clause = &horn.clauses[c];
    let Head::Node(d) = clause.head else {
        return None;
    };
    let mut cons = clause.effect.guards.clone();
    if let (Some(s), Some(vals)) = (clause.src, from) {
        for (&v, &x) in horn.args[s].iter().zip(vals) {
            let e = mc.model.var_expr(v);
            let k = mc.model.pool.constant(mc.model.var_width(v), x);
            cons.push(mc.model.pool.cmp(IPred::Eq, e, k));
        }
    }
    let mut pins = vec![];
    for &h in &clause.effect.havocs {
        let w = mc.model.var_width(h);
        let x = match rng.below(4) {
            0 => rng.below(2) as u64,
            1 => rng.below(12) as u64,
            2 => (rng.below(40) as i64 - 20) as u64,
            _ => rng.below(200) as u64,
        };
        let e = mc.model.var_expr(h);
        let k = mc.model.pool.constant(w, x);
        pins.push(mc.model.pool.cmp(IPred::Eq, e, k));
    }
    let budget = Duration::from_millis(200);
    let mut ask = |mc: &mut ModelChecker, extra: &[ExprId]| -> Option<Answer> {
        let left = until.saturating_duration_since(Instant::now()).min(budget);
        if left.is_zero() {
            return None;
        }
        let mut all = cons.clone();
        all.extend_from_slice(extra);
        Some(solver.check(&mc.model.pool, &all, left, &|_| 0))
    };
    // Every pin at once; when some conflict with the guards (a havoc the clause constrains
    // to a few values), the pins that fit, one by one: one bad pin must not cost the others.
    let mut model = match ask(mc, &pins)? {
        Answer::Sat(m) => Some(m),
        Answer::Unsat | Answer::Unknown if pins.is_empty() => return None,
        _ => None,
    };
    if model.is_none() {
        let mut kept: Vec<ExprId> = vec![];
        for &p in pins.iter().take(MAX_PINS_TRIED) {
            kept.push(p);
            match ask(mc, &kept)? {
                Answer::Sat(m) => model = Some(m),
                _ => {
                    kept.pop();
                }
            }
        }
        if model.is_none()
            && let Answer::Sat(m) = ask(mc, &[])?
        {
            model = Some(m);
        }
    }
    let model = model?;
    let assigned: HashMap<u32, ExprId> = clause.effect.assigns.iter().copied().collect();
    let mut memo = Memo::default();
    let mut vals = vec![];
    for &v in &horn.args[d] {
        let e = match assigned.get(&v) {
            Some(&e) => e,
            None => mc.model.var_expr(v),
        };
        vals.push(
            mc.model
                .pool
                .eval(e, &|id| model.get(&id).copied().unwrap_or(0), &mut memo),
        );
    }
    Some((d, vals))
}

/// The samples' values of the arguments as signed integers.
fn signed(x: u64, w: u8) -> i128 {
    let sh = 128 - w as u32;
    ((x as i128) << sh) >> sh
}

/// Candidate facts per relation, each true in every sample.
fn candidates(
    horn: &Horn,
    mc: &mut ModelChecker,
    samples: &[Vec<Vec<u64>>],
    level: Level,
) -> Vec<Vec<ExprId>> {
    let consts = constants(horn, mc);
    let mut cands: Vec<Vec<ExprId>> = vec![vec![]; horn.nodes.len()];
    for n in 0..horn.nodes.len() {
        if !horn.kept[n] || samples[n].is_empty() {
            continue;
        }
        let args = &horn.args[n];
        let all: Vec<usize> = (0..samples[n].len()).collect();
        let base = facts(mc, args, &samples[n], &all, Some(&consts));
        if level == Level::Differences {
            // With the plain facts again: those that need a difference bound to be
            // inductive (`1 <= l` while `l + 1` might wrap) were dropped before.
            let mut out = differences(mc, args, &samples[n], &consts);
            out.extend(base);
            out.truncate(MAX_CANDIDATES);
            cands[n] = out;
            continue;
        }
        let ids: Vec<u32> = args.iter().map(|v| pool_id(mc, *v)).collect();
        let mut out: Vec<ExprId> = base.clone();
        // The same facts where one condition holds: guards of the clauses leaving the
        // relation (over its arguments only), and the sign of each argument.
        let arg_set: HashSet<u32> = ids.iter().copied().collect();
        let mut conds: Vec<ExprId> = vec![];
        for c in &horn.clauses {
            if c.src != Some(n) {
                continue;
            }
            for g in mc.model.pool.reachable(&c.effect.guards) {
                if !matches!(mc.model.pool.node(g), Node::Cmp { .. }) {
                    continue;
                }
                if mc
                    .model
                    .pool
                    .vars_of(g)
                    .iter()
                    .all(|id| arg_set.contains(id))
                    && !conds.contains(&g)
                {
                    conds.push(g);
                }
            }
        }
        let guards = conds.len();
        for &v in args.iter().filter(|_| level == Level::UnderSigns) {
            let w = mc.model.var_width(v);
            let x = mc.model.var_expr(v);
            let zero = mc.model.pool.constant(w, 0);
            let c = if w == 1 {
                x
            } else {
                mc.model.pool.cmp(IPred::Sgt, x, zero)
            };
            if !conds.contains(&c) {
                conds.push(c);
            }
        }
        let signs = conds.len();
        // Guards of the clauses entering the relation, over arguments the clause leaves
        // unchanged: they hold on arrival (`j < 3*i` at the inner loop's head), and often
        // after (candidates only, not split on).
        for c in horn.clauses.iter().filter(|c| c.head == Head::Node(n)) {
            let assigned: HashSet<u32> = c
                .effect
                .assigns
                .iter()
                .map(|(v, _)| pool_id(mc, *v))
                .collect();
            for g in mc.model.pool.reachable(&c.effect.guards) {
                if !matches!(mc.model.pool.node(g), Node::Cmp { .. }) || conds.contains(&g) {
                    continue;
                }
                let vars = mc.model.pool.vars_of(g);
                if vars
                    .iter()
                    .all(|id| arg_set.contains(id) && !assigned.contains(id))
                {
                    conds.push(g);
                }
            }
        }
        let truth = |mc: &mut ModelChecker, e: ExprId, s: &Vec<u64>| -> bool {
            let vals: HashMap<u32, u64> = ids.iter().copied().zip(s.iter().copied()).collect();
            let mut memo = Memo::default();
            mc.model
                .pool
                .eval(e, &|id| vals.get(&id).copied().unwrap_or(0), &mut memo)
                & 1
                == 1
        };
        // Each condition (or its negation) where every sample has it, and facts and
        // conditions that hold where one condition does.
        let table: Vec<Vec<bool>> = conds
            .iter()
            .map(|p| samples[n].iter().map(|s| truth(mc, *p, s)).collect())
            .collect();
        // They go first: a relation with many arguments has more bounds than the truncation
        // keeps, and the program's own tests are what its goals need ruled out.
        let mut settled = vec![];
        for (k, p) in conds.iter().enumerate() {
            let e = if table[k].iter().all(|t| *t) {
                *p
            } else if table[k].iter().all(|t| !*t) {
                mc.model.pool.not(*p)
            } else {
                continue;
            };
            if !settled.contains(&e) {
                settled.push(e);
            }
        }
        out.retain(|e| !settled.contains(e));
        settled.append(&mut out);
        out = settled;
        // Conditions of this level: the guards, or the signs.
        let splits: Vec<usize> = match level {
            Level::Plain => vec![],
            Level::UnderGuards => (0..guards).collect(),
            Level::UnderSigns => (guards..signs).collect(),
            Level::Differences => unreachable!(),
        };
        for k in splits {
            let p = conds[k];
            for holds in [true, false] {
                let part: Vec<usize> = all
                    .iter()
                    .copied()
                    .filter(|&i| table[k][i] == holds)
                    .collect();
                if part.len() < 2 || part.len() == all.len() {
                    continue;
                }
                let not_cond = if holds { mc.model.pool.not(p) } else { p };
                // Orderings and equalities only: bounds under a condition are mostly noise.
                let mut qs = facts(mc, args, &samples[n], &part, None);
                for (j, &q) in conds.iter().enumerate() {
                    if j != k && part.iter().all(|&i| table[j][i]) {
                        qs.push(q);
                    } else if j != k && part.iter().all(|&i| !table[j][i]) {
                        let nq = mc.model.pool.not(q);
                        qs.push(nq);
                    }
                }
                let np = mc.model.pool.not(p);
                for q in qs.into_iter().filter(|q| *q != p && *q != np) {
                    let e = mc.model.pool.bin(BinOp::Or, 1, not_cond, q);
                    if !base.contains(&q) && !out.contains(&q) && !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
        out.retain(|e| mc.model.pool.as_const(*e).is_none());
        out.truncate(MAX_CANDIDATES);
        cands[n] = out;
    }
    cands
}

/// Every constant the clauses compare with, by width.
pub(super) fn constants(horn: &Horn, mc: &mut ModelChecker) -> BTreeSet<(u8, u64)> {
    let mut consts = BTreeSet::new();
    for e in horn.guard_terms(&mc.model.pool) {
        if let Node::Cmp { a, b, .. } = mc.model.pool.node(e).clone() {
            for x in [a, b] {
                if let Some(k) = mc.model.pool.as_const(x) {
                    consts.insert((mc.model.pool.width(x), k));
                }
            }
        }
    }
    consts
}

/// Facts over `args` true in the samples `which`: bounds against `consts` (and 0 and 1) when
/// given, orderings between variables, and the linear equalities of their affine hull.
fn facts(
    mc: &mut ModelChecker,
    args: &[u32],
    samples: &[Vec<u64>],
    which: &[usize],
    consts: Option<&BTreeSet<(u8, u64)>>,
) -> Vec<ExprId> {
    let mut out = vec![];
    let widths: Vec<u8> = args.iter().map(|v| mc.model.var_width(*v)).collect();
    let ints: Vec<usize> = (0..args.len()).filter(|&i| widths[i] > 1).collect();
    let holds = |i: usize, f: &dyn Fn(i128) -> bool| -> bool {
        which.iter().all(|&s| f(signed(samples[s][i], widths[i])))
    };
    let mut push = |mc: &mut ModelChecker, e: ExprId| {
        if mc.model.pool.as_const(e).is_none() && !out.contains(&e) {
            out.push(e);
        }
    };
    for &i in ints.iter().filter(|_| consts.is_some()) {
        let w = mc.model.var_width(args[i]);
        let x = mc.model.var_expr(args[i]);
        // The nearest constants above and below the samples, and 0 and 1: a bound further
        // out is implied by a nearer one that holds, and every bound costs Houdini time (a
        // state machine over 30 variables has thousands). A few of each side, since the
        // nearest may not be inductive where a further one is (a loop's bound).
        let mut ks: Vec<i128> = consts
            .into_iter()
            .flatten()
            .filter(|(kw, _)| *kw == w)
            .map(|(_, k)| signed(*k, w))
            .collect();
        ks.sort();
        ks.dedup();
        let above = ks
            .iter()
            .copied()
            .filter(|&k| holds(i, &|v| v <= k))
            .take(NEAREST);
        let below = ks
            .iter()
            .rev()
            .copied()
            .filter(|&k| holds(i, &|v| v >= k))
            .take(NEAREST);
        let near: Vec<i128> = [0, 1].into_iter().chain(above).chain(below).collect();
        for k in near {
            let kx = mc.model.pool.constant(w, k as u64);
            if holds(i, &|v| v <= k) {
                let e = mc.model.pool.cmp(IPred::Sle, x, kx);
                push(mc, e);
            }
            if holds(i, &|v| v >= k) {
                let e = mc.model.pool.cmp(IPred::Sge, x, kx);
                push(mc, e);
            }
        }
    }
    for (a, &i) in ints.iter().enumerate() {
        for &j in &ints[a + 1..] {
            let (wi, wj) = (mc.model.var_width(args[i]), mc.model.var_width(args[j]));
            if wi != wj {
                continue;
            }
            let pairs: Vec<(i128, i128)> = which
                .iter()
                .map(|&s| (signed(samples[s][i], wi), signed(samples[s][j], wj)))
                .collect();
            let (x, y) = (mc.model.var_expr(args[i]), mc.model.var_expr(args[j]));
            if pairs.iter().all(|(a, b)| a <= b) {
                let e = mc.model.pool.cmp(IPred::Sle, x, y);
                push(mc, e);
            }
            if pairs.iter().all(|(a, b)| a >= b) {
                let e = mc.model.pool.cmp(IPred::Sge, x, y);
                push(mc, e);
            }
        }
    }
    // Linear equalities, per width.
    let widths: BTreeSet<u8> = ints.iter().map(|&i| mc.model.var_width(args[i])).collect();
    for w in widths {
        let group: Vec<usize> = ints
            .iter()
            .copied()
            .filter(|&i| mc.model.var_width(args[i]) == w)
            .take(MAX_HULL_VARS)
            .collect();
        // Small values only: large ones would overflow the elimination, and an equality that
        // misses them is dropped by Houdini anyway.
        let rows: Vec<Vec<i128>> = which
            .iter()
            .map(|&s| {
                let mut r: Vec<i128> = group.iter().map(|&i| signed(samples[s][i], w)).collect();
                r.push(1);
                r
            })
            .filter(|r| r.iter().all(|x| x.abs() < 1 << 40))
            .collect();
        if rows.is_empty() {
            continue;
        }
        for coefs in nullspace(&rows, group.len() + 1) {
            // Σ positive terms = Σ negative terms - constant, without multiplying by ±1.
            let zero = mc.model.pool.constant(w, 0);
            let (mut lhs, mut rhs) = (zero, zero);
            for (k, &i) in group.iter().enumerate() {
                let c = coefs[k];
                if c == 0 {
                    continue;
                }
                let x = mc.model.var_expr(args[i]);
                let t = if c.abs() == 1 {
                    x
                } else {
                    let m = mc.model.pool.constant(w, c.unsigned_abs() as u64);
                    mc.model.pool.bin(BinOp::Mul, w, m, x)
                };
                if c > 0 {
                    lhs = mc.model.pool.bin(BinOp::Add, w, lhs, t);
                } else {
                    rhs = mc.model.pool.bin(BinOp::Add, w, rhs, t);
                }
            }
            let k = mc.model.pool.constant(w, coefs[group.len()] as i64 as u64);
            rhs = mc.model.pool.bin(BinOp::Sub, w, rhs, k);
            let e = mc.model.pool.cmp(IPred::Eq, lhs, rhs);
            push(mc, e);
        }
    }
    out
}

/// Differences of two arguments against the nearest constants outside the samples' range
/// (`l - k <= 1000000`: a bound that keeps `l + 1` from wrapping while k grows). A level of
/// their own: subtractions make Houdini's bit-vector checks much slower.
fn differences(
    mc: &mut ModelChecker,
    args: &[u32],
    samples: &[Vec<u64>],
    consts: &BTreeSet<(u8, u64)>,
) -> Vec<ExprId> {
    let mut out = vec![];
    let widths: Vec<u8> = args.iter().map(|v| mc.model.var_width(*v)).collect();
    for i in 0..args.len() {
        for j in i + 1..args.len() {
            let w = widths[i];
            if w <= 1 || widths[j] != w {
                continue;
            }
            let diffs = samples.iter().map(|s| signed(s[i], w) - signed(s[j], w));
            let (lo, hi) = (diffs.clone().min().unwrap_or(0), diffs.max().unwrap_or(0));
            let ks = consts
                .iter()
                .filter(|(kw, _)| *kw == w)
                .map(|(_, k)| signed(*k, w))
                .filter(|k| *k != 0);
            let above = ks.clone().filter(|k| *k >= hi).min();
            let below = ks.filter(|k| *k <= lo).max();
            let (x, y) = (mc.model.var_expr(args[i]), mc.model.var_expr(args[j]));
            let d = mc.model.pool.bin(BinOp::Sub, w, x, y);
            for (k, pred) in [(above, IPred::Sle), (below, IPred::Sge)] {
                if let Some(k) = k {
                    let kx = mc.model.pool.constant(w, k as u64);
                    let e = mc.model.pool.cmp(pred, d, kx);
                    if mc.model.pool.as_const(e).is_none() && !out.contains(&e) {
                        out.push(e);
                    }
                }
            }
        }
    }
    out
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// A basis of the integer vectors `c` with `row · c = 0` for every row, each with coprime
/// small coefficients (fraction-free Gaussian elimination). Vectors with huge coefficients are
/// left out: they fit the samples by accident.
fn nullspace(rows: &[Vec<i128>], cols: usize) -> Vec<Vec<i128>> {
    let mut m: Vec<Vec<i128>> = rows.to_vec();
    let mut pivots: Vec<usize> = vec![];
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..m.len()).find(|&i| m[i][c] != 0) else {
            continue;
        };
        m.swap(r, p);
        for i in 0..m.len() {
            if i == r || m[i][c] == 0 {
                continue;
            }
            let (a, b) = (m[r][c], m[i][c]);
            let pivot = m[r].clone();
            for (x, y) in m[i].iter_mut().zip(&pivot) {
                *x = *x * a - y * b;
            }
            let g = m[i].iter().fold(0, |g, x| gcd(g, *x));
            if g > 1 {
                m[i].iter_mut().for_each(|x| *x /= g);
            }
            if m[i].iter().any(|x| x.abs() > 1 << 60) {
                return vec![];
            }
        }
        pivots.push(c);
        r += 1;
        if r == m.len() {
            break;
        }
    }
    let mut basis = vec![];
    for free in (0..cols).filter(|c| !pivots.contains(c)) {
        // x_free = L (common multiple of the pivots), pivot rows solved for their variable.
        let l = pivots.iter().enumerate().fold(1i128, |l, (i, &c)| {
            let a = m[i][c].abs();
            l / gcd(l, a) * a
        });
        if l > 1 << 40 {
            continue;
        }
        let mut v = vec![0i128; cols];
        v[free] = l;
        for (i, &c) in pivots.iter().enumerate() {
            v[c] = -m[i][free] * l / m[i][c];
        }
        let g = v.iter().fold(0, |g, x| gcd(g, *x));
        if g > 1 {
            v.iter_mut().for_each(|x| *x /= g);
        }
        // An equality must involve a variable (the constant column alone is not one).
        if v[..cols - 1].iter().all(|x| *x == 0) || v.iter().any(|x| x.abs() > 1 << 20) {
            continue;
        }
        basis.push(v);
    }
    basis
}

/// Every clause of `horn`, for a Houdini run from the start.
pub(super) fn all_clauses(horn: &Horn) -> VecDeque<usize> {
    (0..horn.clauses.len()).collect()
}

/// Drops candidates until every clause preserves the rest (relative to `inv` and the source's
/// remaining candidates). `todo` holds the clauses still to check; None when the deadline
/// passes first, with `todo` and `cands` as far as they got, so a later call resumes there.
/// One query per clause asks whether any candidate can be broken; its model names every
/// candidate it breaks, and those go at once.
pub(super) fn houdini(
    horn: &Horn,
    mc: &mut ModelChecker,
    inv: &[ExprId],
    cands: &mut [Vec<ExprId>],
    todo: &mut VecDeque<usize>,
    deadline: Instant,
) -> Option<()> {
    let mut solver = Z3Backend::new();
    // A clause needs (re)checking until it preserves its head's candidates, and again when
    // its source loses some (it then assumes less).
    let mut queued = vec![false; horn.clauses.len()];
    for &i in todo.iter() {
        queued[i] = true;
    }
    let mut from: Vec<Vec<usize>> = vec![vec![]; horn.nodes.len()];
    for (i, c) in horn.clauses.iter().enumerate() {
        if let Some(s) = c.src {
            from[s].push(i);
        }
    }
    while let Some(i) = todo.pop_front() {
        queued[i] = false;
        let c = &horn.clauses[i];
        let Head::Node(d) = c.head else { continue };
        let before = cands[d].len();
        loop {
            if cands[d].is_empty() {
                break;
            }
            let mut base: Vec<ExprId> = vec![];
            if let Some(s) = c.src {
                base.push(inv[s]);
                base.extend(cands[s].iter().copied());
            }
            base.extend(c.effect.guards.iter().copied());
            let posts: Vec<ExprId> = cands[d].iter().map(|p| mc.wp(*p, &c.effect)).collect();
            let all: Vec<usize> = (0..posts.len()).collect();
            let Some(broken) = broken_by(mc, &mut solver, &base, &posts, &all, deadline) else {
                todo.push_front(i);
                // Sources that lost candidates here still need their clauses rechecked.
                if cands[d].len() != before {
                    todo.extend(from[d].iter().filter(|j| !queued[**j] && **j != i));
                }
                return None;
            };
            if broken.is_empty() {
                break;
            }
            let keep: Vec<ExprId> = cands[d]
                .iter()
                .enumerate()
                .filter(|(k, _)| !broken.contains(k))
                .map(|(_, p)| *p)
                .collect();
            cands[d] = keep;
        }
        if cands[d].len() != before {
            for &j in &from[d] {
                if !queued[j] {
                    queued[j] = true;
                    todo.push_back(j);
                }
            }
        }
    }
    Some(())
}

/// Which of the postconditions `posts[which]` some state allowed by `base` breaks: one query
/// for all of them, whose model names every one it breaks; a query that takes too long is
/// split in halves, and a single candidate that still does is taken as broken (dropping a
/// candidate only weakens the invariant). None past the deadline.
fn broken_by(
    mc: &mut ModelChecker,
    solver: &mut Z3Backend,
    base: &[ExprId],
    posts: &[ExprId],
    which: &[usize],
    deadline: Instant,
) -> Option<Vec<usize>> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return None;
    }
    let mut any = mc.model.pool.constant(1, 0);
    for &k in which {
        let nq = mc.model.pool.not(posts[k]);
        any = mc.model.pool.bin(BinOp::Or, 1, any, nq);
    }
    let mut query = base.to_vec();
    query.push(any);
    let cap = left.min(Duration::from_millis(500));
    let split = |mc: &mut ModelChecker, solver: &mut Z3Backend| -> Option<Vec<usize>> {
        if which.len() == 1 {
            return Some(which.to_vec());
        }
        let (l, r) = which.split_at(which.len() / 2);
        let mut out = broken_by(mc, solver, base, posts, l, deadline)?;
        out.extend(broken_by(mc, solver, base, posts, r, deadline)?);
        Some(out)
    };
    let answer = solver.check(&mc.model.pool, &query, cap, &|_| 0);
    match answer {
        Answer::Unsat => Some(vec![]),
        Answer::Unknown => split(mc, solver),
        Answer::Sat(model) => {
            let mut memo = Memo::default();
            let vals = |id: u32| model.get(&id).copied().unwrap_or(0);
            let out: Vec<usize> = which
                .iter()
                .copied()
                .filter(|&k| mc.model.pool.eval(posts[k], &vals, &mut memo) & 1 == 0)
                .collect();
            if out.is_empty() {
                // The model leaves out values the candidates read: ask about fewer at once.
                split(mc, solver)
            } else {
                Some(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::nullspace;

    #[test]
    fn nullspace_finds_the_linear_relation_of_the_samples() {
        // a + b = 3 i over samples (a, b, i, 1).
        let rows = vec![
            vec![0, 0, 0, 1],
            vec![1, 2, 1, 1],
            vec![3, 3, 2, 1],
            vec![4, 5, 3, 1],
        ];
        let basis = nullspace(&rows, 4);
        assert_eq!(basis.len(), 1);
        let v = &basis[0];
        let sign = v[0].signum();
        assert_eq!(
            v.iter().map(|x| x * sign).collect::<Vec<_>>(),
            vec![1, 1, -3, 0]
        );
    }

    #[test]
    fn nullspace_of_independent_samples_is_empty() {
        let rows = vec![vec![0, 0, 1], vec![1, 0, 1], vec![0, 1, 1]];
        assert!(nullspace(&rows, 3).is_empty());
    }
}
