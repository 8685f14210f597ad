//! Relations between a loop's counters, seeded as predicates (crabs).
//!
//! A check after a loop such as `f == n`, where `f` counts the iterations that took some branch
//! and `n` is the number of iterations, is reached only by runs that took that branch every
//! time. To tell those runs apart while they are still in the loop, a monitor needs the
//! relation `f - i == f0 - i0` (`f == i` from zero) at the loop's head; weakest preconditions
//! of the check only unroll the loop (`f == n - 1` one iteration back, and so on) and run out
//! of predicates long before 40 iterations. So for every loop we find its counters by executing each path
//! through the body once, symbolically, from the head back to it: a variable whose value grows
//! by the same constant on every path is an induction variable, one that grows by a constant
//! on some paths and stays on the others counts. For each counter `v` (step `a`) and induction
//! variable `w` (step `b`), `b*v - a*w` at the head is `d` on entry; the predicates
//! `b*v == a*w + d`, `b*v <= a*w + d` and `v0 <= v` go at the head, with the head's own guards
//! (the bound), and their weakest preconditions through the body at every location of it.
//! Predicates only split abstract states: a wrong guess costs time, never soundness.

use super::arg::ModelChecker;
use super::model::{Effect, Loc, Next};
use crate::ir::{BinOp, FuncId, IPred};
use crate::smt::expr::{ExprId, Memo, VarKey};
use std::collections::{HashMap, HashSet};

/// Paths through one loop body followed (the body's branches multiply them).
const MAX_PATHS: usize = 64;
/// Locations on one path through a body.
const MAX_PATH_LEN: usize = 512;
/// Predicates placed by weakest preconditions from one head predicate.
const MAX_SPREAD: usize = 64;
/// Counter pairs related per loop.
const MAX_PAIRS: usize = 12;
/// Edges followed back from a loop's head to find its counters' values on entry.
const MAX_ENTRY_DEPTH: usize = 8;

/// A loop of the model: its head and the locations of its body (the head included).
struct Loop {
    head: Loc,
    body: HashSet<Loc>,
}

/// A function's control flow: per location, the edges into it (source, effect).
type Preds = HashMap<Loc, Vec<(Loc, Effect)>>;

/// How a variable changes over one iteration of a loop.
enum Steps {
    /// By one of these constants on every path (0: unchanged).
    Constant(Vec<u64>),
    /// By something else on some path.
    Varying,
}

impl ModelChecker<'_> {
    /// Adds the counter relations of every loop (module comment); returns how many
    /// predicates were added. They are found once and added again after the abstraction
    /// forgets its predicates.
    pub fn seed_loop_relations(&mut self) -> usize {
        if self.loop_seeds.is_none() {
            let mut seeds = vec![];
            for fi in 0..self.model.m.functions.len() {
                let fid = fi as FuncId;
                if self.model.m.functions[fi].blocks.is_empty()
                    || self.model.summarized.contains(&fid)
                {
                    continue;
                }
                let (loops, preds) = self.loops_of(fid);
                for l in loops {
                    self.seed_loop(&l, &preds, &mut seeds);
                }
            }
            self.loop_seeds = Some(seeds);
        }
        let seeds = self.loop_seeds.clone().unwrap_or_default();
        let added = seeds.iter().map(|(l, p)| self.add_predicate(*l, *p)).sum();
        self.stats.predicates = self.preds.values().map(|v| v.len()).sum();
        added
    }

    /// Successors of `loc` within its function, with the effect of getting there.
    fn local_edges(&mut self, loc: Loc) -> Vec<(Loc, Effect)> {
        let mut out = vec![];
        for t in self.transitions(loc) {
            match t.next {
                Next::Goto(to) => out.push((to, t.effect)),
                // The callee's effects are not followed: its globals may change unseen,
                // which only makes a guessed relation wrong.
                Next::Call { callee, ret_to } => {
                    let e = self.return_effect(ret_to, callee);
                    out.push((ret_to, e));
                }
                Next::Return | Next::End => {}
            }
        }
        out
    }

    /// The natural loops of `f`, one per head (bodies of back edges to one head merged), and
    /// the edges into each location of `f`.
    fn loops_of(&mut self, f: FuncId) -> (Vec<Loop>, Preds) {
        let entry = Loc {
            func: f,
            block: 0,
            ip: 0,
        };
        let mut succ: HashMap<Loc, Vec<Loc>> = HashMap::new();
        let mut preds: Preds = HashMap::new();
        let mut work = vec![entry];
        while let Some(l) = work.pop() {
            if succ.contains_key(&l) {
                continue;
            }
            let mut next = vec![];
            for (n, eff) in self.local_edges(l) {
                preds.entry(n).or_default().push((l, eff));
                work.push(n);
                next.push(n);
            }
            succ.insert(l, next);
        }
        // Back edges: to a location on the depth-first stack.
        let mut back: Vec<(Loc, Loc)> = vec![];
        let mut on_stack: HashSet<Loc> = [entry].into();
        let mut done: HashSet<Loc> = HashSet::new();
        let mut stack: Vec<(Loc, usize)> = vec![(entry, 0)];
        while let Some((l, i)) = stack.pop() {
            let next = &succ[&l];
            if i < next.len() {
                stack.push((l, i + 1));
                let n = next[i];
                if on_stack.contains(&n) {
                    back.push((l, n));
                } else if !done.contains(&n) {
                    on_stack.insert(n);
                    stack.push((n, 0));
                }
            } else {
                on_stack.remove(&l);
                done.insert(l);
            }
        }
        let mut loops: Vec<Loop> = vec![];
        for (latch, head) in back {
            let mut body: HashSet<Loc> = [head].into();
            let mut work = vec![latch];
            while let Some(l) = work.pop() {
                if body.insert(l) {
                    work.extend(preds.get(&l).into_iter().flatten().map(|p| p.0));
                }
            }
            match loops.iter_mut().find(|x| x.head == head) {
                Some(x) => x.body.extend(body),
                None => loops.push(Loop { head, body }),
            }
        }
        (loops, preds)
    }

    /// Adds to `seeds` one loop's counter relations and bounds, where they go.
    fn seed_loop(&mut self, l: &Loop, preds: &Preds, seeds: &mut Vec<(Loc, ExprId)>) {
        let steps = self.steps_of(l);
        let mut induction: Vec<(u32, u64)> = vec![];
        let mut counters: Vec<(u32, u64)> = vec![];
        for (v, s) in &steps {
            let Steps::Constant(seen) = s else { continue };
            let moving: Vec<u64> = seen.iter().copied().filter(|s| *s != 0).collect();
            if let [a] = moving[..] {
                counters.push((*v, a));
                if seen.len() == 1 {
                    induction.push((*v, a));
                }
            }
        }
        induction.sort_unstable();
        counters.sort_unstable();
        // The head's guards on induction variables: the bound (`i < n` adds `i <= n`). The
        // variables they test are the loop's counters proper: the others are related to them
        // only (each more pair multiplies the abstract states a monitor must tell apart).
        let mut bounds = vec![];
        let mut tested: Vec<u32> = vec![];
        for t in self.transitions(l.head) {
            for g in t.effect.guards {
                let vars = self.model.pool.vars_of(g);
                let mut on_counter = false;
                for id in vars.iter() {
                    let k = self.model.pool.vars[*id as usize];
                    if k.byte == 0 && induction.iter().any(|(w, _)| *w == k.input) {
                        on_counter = true;
                        if !tested.contains(&k.input) {
                            tested.push(k.input);
                        }
                    }
                }
                if on_counter {
                    bounds.push(g);
                }
            }
        }
        if !tested.is_empty() {
            induction.retain(|(w, _)| tested.contains(w));
        }
        let mut relations: Vec<ExprId> = vec![];
        for &(w, b) in &induction {
            for &(v, a) in &counters {
                if v == w
                    || self.model.var_width(v) != self.model.var_width(w)
                    || relations.len() >= 2 * MAX_PAIRS
                {
                    continue;
                }
                let width = self.model.var_width(v);
                let (ve, we) = (self.model.var_expr(v), self.model.var_expr(w));
                let pool = &mut self.model.pool;
                let (bc, ac) = (pool.constant(width, b), pool.constant(width, a));
                let bv = pool.bin(BinOp::Mul, width, bc, ve);
                let aw = pool.bin(BinOp::Mul, width, ac, we);
                let diff = pool.bin(BinOp::Sub, width, bv, aw);
                let Some(d) = self.on_entry(l, preds, diff) else {
                    continue;
                };
                // `b*v <= a*w + d` rather than `b*v - a*w <= d`: with the bound on `w`, no
                // side wraps, where the difference may in the abstraction. A counter that
                // steps down stays above the line instead.
                let pool = &mut self.model.pool;
                let rhs = pool.bin(BinOp::Add, width, aw, d);
                let below = if negative(a, width) {
                    IPred::Sge
                } else {
                    IPred::Sle
                };
                relations.push(pool.cmp(IPred::Eq, bv, rhs));
                relations.push(pool.cmp(below, bv, rhs));
            }
        }
        // Each counter's start as its bound (`0 <= f`, or `f <= 0` counting down).
        for &(v, a) in &counters {
            let width = self.model.var_width(v);
            let ve = self.model.var_expr(v);
            if let Some(v0) = self.on_entry(l, preds, ve) {
                let (lo, hi) = if negative(a, width) {
                    (ve, v0)
                } else {
                    (v0, ve)
                };
                relations.push(self.model.pool.cmp(IPred::Sle, lo, hi));
            }
        }
        if crate::debug_on!("mc") {
            let show: Vec<String> = relations
                .iter()
                .chain(&bounds)
                .map(|p| self.model.pool.show(*p))
                .collect();
            crate::debug_log!(
                "mc",
                "loop at {:?} ({} locations): counters {counters:?} against {induction:?}: {show:?}",
                l.head,
                l.body.len()
            );
        }
        for p in relations.into_iter().chain(bounds) {
            self.spread_through_body(l, preds, p, seeds);
        }
    }

    /// The constant `term` (over the head's variables) has whenever the loop is entered, if
    /// the few edges before the head give one.
    fn on_entry(&mut self, l: &Loop, preds: &Preds, term: ExprId) -> Option<ExprId> {
        let mut found: Option<ExprId> = None;
        let mut work = vec![(l.head, term, 0)];
        while let Some((at, t, depth)) = work.pop() {
            let into: Vec<&(Loc, Effect)> = preds
                .get(&at)
                .into_iter()
                .flatten()
                .filter(|(src, _)| !l.body.contains(src))
                .collect();
            if into.is_empty() || depth >= MAX_ENTRY_DEPTH {
                return None;
            }
            for (src, eff) in into {
                let u = self.wp(t, eff);
                if self.model.pool.as_const(u).is_some() {
                    if found.is_some_and(|f| f != u) {
                        return None;
                    }
                    found = Some(u);
                } else {
                    work.push((*src, u, depth + 1));
                }
            }
        }
        found
    }

    /// `p` at the loop's head and its weakest preconditions at the body's locations, into
    /// `seeds`.
    fn spread_through_body(
        &mut self,
        l: &Loop,
        preds: &Preds,
        p: ExprId,
        seeds: &mut Vec<(Loc, ExprId)>,
    ) {
        seeds.push((l.head, p));
        let mut seen: HashSet<(Loc, ExprId)> = HashSet::new();
        let mut work = vec![(l.head, p)];
        while let Some((at, q)) = work.pop() {
            for (src, eff) in preds.get(&at).into_iter().flatten() {
                if !l.body.contains(src) || seen.len() >= MAX_SPREAD {
                    continue;
                }
                let r = self.wp(q, eff);
                if self.model.pool.as_const(r).is_some()
                    || self.mentions_havoc(r)
                    || !seen.insert((*src, r))
                {
                    continue;
                }
                seeds.push((*src, r));
                if *src != l.head {
                    work.push((*src, r));
                }
            }
        }
    }

    /// Per variable, how it changes over one iteration, from every path through the body.
    fn steps_of(&mut self, l: &Loop) -> HashMap<u32, Steps> {
        // Depth-first over paths from the head back to it: (location, state, path), where a
        // state maps each variable changed so far to its value over the head's values.
        type State = HashMap<u32, ExprId>;
        let mut ends: Vec<State> = vec![];
        let mut work: Vec<(Loc, State, Vec<Loc>)> = vec![(l.head, HashMap::new(), vec![])];
        while let Some((at, state, path)) = work.pop() {
            if ends.len() >= MAX_PATHS || path.len() > MAX_PATH_LEN {
                return HashMap::new();
            }
            for (to, eff) in self.local_edges(at) {
                // Inner loops are left after their first pass.
                if !l.body.contains(&to) || (to != l.head && path.contains(&to)) {
                    continue;
                }
                let next = self.apply(&state, &eff);
                if to == l.head {
                    ends.push(next);
                } else {
                    let mut p = path.clone();
                    p.push(to);
                    work.push((to, next, p));
                }
            }
        }
        let mut vars: Vec<u32> = ends.iter().flat_map(|s| s.keys().copied()).collect();
        vars.sort_unstable();
        vars.dedup();
        let mut steps = HashMap::new();
        for v in vars {
            let mut s = Steps::Constant(vec![]);
            for end in &ends {
                match (self.step(v, end.get(&v).copied()), &mut s) {
                    (Some(k), Steps::Constant(seen)) if !seen.contains(&k) => seen.push(k),
                    (Some(_), _) => {}
                    (None, _) => s = Steps::Varying,
                }
            }
            steps.insert(v, s);
        }
        steps
    }

    /// `state` (each variable's value over the head's values) after `eff`.
    fn apply(&mut self, state: &HashMap<u32, ExprId>, eff: &Effect) -> HashMap<u32, ExprId> {
        let mut memo = HashMap::new();
        let mut subst = |_: &mut crate::smt::expr::Pool, k: VarKey| {
            if k.byte == 0 {
                state.get(&k.input).copied()
            } else {
                None
            }
        };
        let mut next = state.clone();
        for &(v, e) in &eff.assigns {
            let e = self.model.pool.substitute(e, &mut subst, &mut memo);
            next.insert(v, e);
        }
        next
    }

    /// The constant by which `v` changed over a path ending with value `after` (None:
    /// unchanged), or None when the change is not constant: its value after minus before,
    /// the same for two unrelated valuations of the head's variables.
    fn step(&mut self, v: u32, after: Option<ExprId>) -> Option<u64> {
        let Some(after) = after else { return Some(0) };
        let before = self.model.var_expr(v);
        let w = self.model.var_width(v);
        let change = self.model.pool.bin(BinOp::Sub, w, after, before);
        let pool = &self.model.pool;
        let valuation =
            |seed: u64| move |id: u32| (id as u64 + 1).wrapping_mul(seed).rotate_left(29);
        let d1 = pool.eval(
            change,
            &valuation(0x9e37_79b9_7f4a_7c15),
            &mut Memo::default(),
        );
        let d2 = pool.eval(
            change,
            &valuation(0xc2b2_ae3d_27d4_eb4f),
            &mut Memo::default(),
        );
        (d1 == d2).then_some(d1)
    }
}

/// Whether `step`, a `width`-bit value, is negative as a signed number.
fn negative(step: u64, width: u8) -> bool {
    width > 0 && width <= 64 && (step >> (width - 1)) & 1 == 1
}
