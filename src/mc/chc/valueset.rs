//! Value-set invariants: abstract interpretation of the Horn clauses where each argument of a
//! relation holds a small set of values (or any value), and a relation's states are split by
//! the values of the program's state variables — those compared with several constants, and
//! the variables copied to or from them. A protocol's state machine (`if (s->state == 8482)`
//! over forty states, the next state kept in another variable on the way, a flag recording
//! the order of the steps) is then explored state by state: the states no step ever sets
//! rule out their branches, which predicate refinement and Houdini over guessed bounds reach
//! slowly or not at all (they need one disjunct per state).
//!
//! The result is an ordinary invariant per relation, and `rule_out` proves nothing from it
//! before `Horn::check` has accepted it clause by clause in exact bit-vector semantics.

use super::super::arg::ModelChecker;
use super::{Head, Horn, pool_id};
use crate::ir::{BinOp, IPred};
use crate::smt::expr::{ExprId, Memo, Node};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// Most values a set holds before it means "any value".
const MAX_VALUES: usize = 24;
/// Most parts (combinations of state values) a relation is split into.
const MAX_PARTS: usize = 256;
/// Most combinations of argument values an expression is evaluated on.
const MAX_COMBINATIONS: usize = 512;
/// Most pieces a clause's source state is split into (see `split`).
const MAX_SPLITS: usize = 64;
/// Constants a variable must be compared with to be a state variable.
const MIN_STATE_CONSTANTS: usize = 3;

/// The values an argument may have: a finite set, or None for any value.
type Values = Option<BTreeSet<u64>>;

/// The values of a relation's state variables that single out one of its parts (None where
/// a part has several).
type Key = Vec<Option<u64>>;

/// One part of a relation's states: the values of each argument (in `horn.args` order).
type Part = Vec<Values>;

/// The analysis of one clause system, resumable: cut short by its deadline, it goes on from
/// where it stood when given more time (on a loaded machine, tries of 1, 2 and 4 s each
/// started over and the last one could still fall short).
#[derive(Clone)]
pub struct Analysis {
    /// The state variables' positions among each relation's arguments.
    keys: Vec<Vec<usize>>,
    /// States of each relation, in parts by the values of its state variables.
    states: Vec<BTreeMap<Key, Part>>,
    todo: VecDeque<usize>,
    queued: Vec<bool>,
}

impl Analysis {
    fn start(horn: &Horn, mc: &mut ModelChecker) -> Analysis {
        let state = state_variables(horn, mc);
        let keys = (horn.args.iter())
            .map(|a| {
                let ids: Vec<u32> = a.iter().map(|v| pool_id(mc, *v)).collect();
                (0..ids.len())
                    .filter(|k| state.contains(&ids[*k]))
                    .collect()
            })
            .collect();
        let clauses = node_clauses(horn);
        let todo: VecDeque<usize> = (0..clauses.len())
            .filter(|&k| horn.clauses[clauses[k]].src.is_none())
            .collect();
        let mut queued = vec![false; clauses.len()];
        todo.iter().for_each(|&i| queued[i] = true);
        Analysis {
            keys,
            states: vec![BTreeMap::new(); horn.nodes.len()],
            todo,
            queued,
        }
    }

    /// Goes on until every relation's states are final (true) or `deadline`.
    fn run(&mut self, horn: &Horn, mc: &mut ModelChecker, deadline: Instant) -> bool {
        let ids: Vec<Vec<u32>> = (horn.args.iter())
            .map(|a| a.iter().map(|v| pool_id(mc, *v)).collect())
            .collect();
        let clauses = node_clauses(horn);
        let mut from: Vec<Vec<usize>> = vec![vec![]; horn.nodes.len()];
        for (k, &i) in clauses.iter().enumerate() {
            if let Some(s) = horn.clauses[i].src {
                from[s].push(k);
            }
        }
        let Analysis {
            keys,
            states,
            todo,
            queued,
        } = self;
        let mut steps = 0u64;
        while let Some(&k) = todo.front() {
            steps += 1;
            if steps.is_multiple_of(64) && Instant::now() >= deadline {
                return false;
            }
            todo.pop_front();
            queued[k] = false;
            let c = &horn.clauses[clauses[k]];
            let Head::Node(d) = c.head else { continue };
            let sources: Vec<Part> = match c.src {
                Some(s) => states[s].values().cloned().collect(),
                None => vec![vec![]],
            };
            let src_ids: &[u32] = c.src.map_or(&[], |s| &ids[s]);
            let assigned: HashMap<u32, ExprId> = c.effect.assigns.iter().copied().collect();
            let exprs: Vec<ExprId> = horn.args[d]
                .iter()
                .map(|&v| match assigned.get(&v) {
                    Some(&e) => e,
                    None => mc.model.var_expr(v),
                })
                .collect();
            let mut changed = false;
            for part in sources {
                let mut env: HashMap<u32, Values> = src_ids.iter().copied().zip(part).collect();
                if !admit(mc, &c.effect.guards, &mut env) {
                    continue;
                }
                // The state variables' next values are computed once per combination of the
                // values they depend on (`state = ite(c, next, state)`), each its own part:
                // merged, the states would lose what each implies about the others.
                let key_exprs: Vec<ExprId> = keys[d].iter().map(|k| exprs[*k]).collect();
                for env in split(mc, &c.effect.guards, env, &key_exprs) {
                    let head: Part = exprs.iter().map(|e| values(mc, *e, &env)).collect();
                    changed |= join(&mut states[d], &mut keys[d], head);
                }
            }
            if changed {
                for &j in &from[d] {
                    if !queued[j] {
                        queued[j] = true;
                        todo.push_back(j);
                    }
                }
            }
        }
        if crate::debug_on!("chc") {
            let parts: usize = states.iter().map(|s| s.len()).sum();
            crate::debug_log!(
                "chc",
                "value sets: {} parts in {} relations",
                parts,
                horn.nodes.len()
            );
        }
        true
    }

    /// The invariant of each relation (true where nothing is known) of a finished analysis.
    /// Relations no clause reaches get false.
    fn invariants(&self, horn: &Horn, mc: &mut ModelChecker) -> Vec<ExprId> {
        (self.states.iter())
            .zip(&horn.args)
            .map(|(parts, args)| formula(mc, parts, args))
            .collect()
    }
}

/// The clauses between relations, by position: the same in every system of one fingerprint
/// (`Horn::fingerprint`), where the clauses of goals, interleaved, may differ.
fn node_clauses(horn: &Horn) -> Vec<usize> {
    (horn.clauses.iter().enumerate())
        .filter(|(_, c)| matches!(c.head, Head::Node(_)))
        .map(|(i, _)| i)
        .collect()
}

/// The most time the value sets get on one clause system: after cuts at 1 and 2 s, 4 s is the
/// last try (a system they cannot finish costs at most 7 s of analysis, each try with up to
/// 5 s more for its check).
const MAX_VALUE_SETS_TIME: Duration = Duration::from_secs(4);

/// What the value sets gave on one clause system.
pub enum ValueSets {
    /// An invariant that passed the check, and the goals with a clause it admits (found so
    /// far: the goals are checked in turns, each going on where the last stopped).
    Checked(Vec<ExprId>, HashSet<usize>),
    /// The check found a clause the invariant does not hold for (an analysis fault; nothing
    /// is proven from it).
    Refuted,
    /// The analysis (where it stands) or its check ran out of the time given: tried again
    /// with twice as much.
    CutShort(Duration, Option<Box<Analysis>>),
}

/// The goals of `wanted` the value-set invariant rules out, once it passed the check. The
/// invariant is computed and checked once per system of clauses (the model checker's turns
/// rebuild the same few), unless time ran out.
pub fn rule_out(
    horn: &Horn,
    mc: &mut ModelChecker,
    wanted: &HashSet<usize>,
    deadline: Instant,
) -> Option<HashSet<usize>> {
    let debug = crate::debug_on!("chc");
    let print = horn.fingerprint();
    // A fifth of the turn, at least a second, for the analysis and as much for the check;
    // after a cut, twice the time before (past the turn's share if need be: on a loaded
    // machine the turns stay short), up to `MAX_VALUE_SETS_TIME`, never past the session.
    let share =
        (deadline.saturating_duration_since(Instant::now()) / 5).max(Duration::from_secs(1));
    let (budget, analysis) = match mc.value_sets.remove(&print) {
        None => (Some(share), None),
        Some(ValueSets::CutShort(t, analysis)) if t < MAX_VALUE_SETS_TIME => {
            (Some(share.max(t * 2)), analysis)
        }
        Some(done) => {
            mc.value_sets.insert(print, done);
            (None, None)
        }
    };
    let room = mc.session_end.map_or(Duration::MAX, |e| {
        e.saturating_duration_since(Instant::now())
    });
    if let Some(budget) = budget.map(|b| b.min(MAX_VALUE_SETS_TIME).min(room)) {
        let mut analysis = analysis.unwrap_or_else(|| Box::new(Analysis::start(horn, mc)));
        let outcome = match analysis.run(horn, mc, Instant::now() + budget) {
            false => ValueSets::CutShort(budget, Some(analysis)),
            true => {
                let inv = analysis.invariants(horn, mc);
                let check_until = Instant::now() + budget.max(Duration::from_secs(5));
                match horn.check(mc, &inv, &HashSet::new(), check_until) {
                    Ok(()) => ValueSets::Checked(inv, HashSet::new()),
                    Err(e) if e.contains("not implied") => ValueSets::Refuted,
                    // The analysis is done; the check starts over.
                    Err(_) => ValueSets::CutShort(budget, Some(analysis)),
                }
            }
        };
        if debug {
            let what = match &outcome {
                ValueSets::Checked(..) => "checked".to_string(),
                ValueSets::Refuted => "refuted by the check".to_string(),
                ValueSets::CutShort(t, _) => format!("cut short at {t:?}"),
            };
            crate::debug_log!("chc", "value sets: {what}");
        }
        // One cut analysis is kept (the clause system of the next turn is often this one):
        // their parts take memory.
        if let ValueSets::CutShort(_, Some(_)) = outcome {
            for kept in mc.value_sets.values_mut() {
                if let ValueSets::CutShort(_, analysis) = kept {
                    *analysis = None;
                }
            }
        }
        mc.value_sets.insert(print, outcome);
    }
    let Some(ValueSets::Checked(inv, admitted)) = mc.value_sets.get(&print) else {
        return None;
    };
    let (inv, mut admitted) = (inv.clone(), admitted.clone());
    let open: HashSet<usize> = wanted.difference(&admitted).copied().collect();
    // Building the clauses may have taken the turn: the goals get a second at least, and
    // the next turn goes on with those not checked.
    let until = deadline.max(Instant::now() + Duration::from_secs(1));
    let until = mc.session_end.map_or(until, |end| until.min(end));
    let ruled_out = horn.contradicted_noting(mc, &inv, &open, until, &mut admitted);
    if debug {
        crate::debug_log!(
            "chc",
            "value sets rule out {ruled_out:?} of {open:?} ({} admitted)",
            admitted.len()
        );
    }
    mc.value_sets
        .insert(print, ValueSets::Checked(inv, admitted));
    (!ruled_out.is_empty()).then_some(ruled_out)
}

/// A relation's states as a formula over its arguments: one of the parts, each a conjunction
/// of `x ∈ set` for the arguments it knows.
fn formula(mc: &mut ModelChecker, parts: &BTreeMap<Key, Part>, args: &[u32]) -> ExprId {
    let mut any = mc.model.pool.constant(1, 0);
    for part in parts.values() {
        let mut all = mc.model.pool.constant(1, 1);
        for (vals, &v) in part.iter().zip(args) {
            let Some(vals) = vals else { continue };
            let x = mc.model.var_expr(v);
            let w = mc.model.var_width(v);
            let mut one_of = mc.model.pool.constant(1, 0);
            for &k in vals {
                let k = mc.model.pool.constant(w, k);
                let eq = mc.model.pool.cmp(IPred::Eq, x, k);
                one_of = mc.model.pool.bin(BinOp::Or, 1, one_of, eq);
            }
            all = mc.model.pool.and(all, one_of);
        }
        any = mc.model.pool.bin(BinOp::Or, 1, any, all);
    }
    any
}

/// The program's state variables: those the clauses compare with at least
/// `MIN_STATE_CONSTANTS` constants, and every variable copied to or from one (the next state
/// kept aside, the state before the step).
fn state_variables(horn: &Horn, mc: &mut ModelChecker) -> HashSet<u32> {
    let mut consts: HashMap<u32, BTreeSet<u64>> = HashMap::new();
    for e in horn.guard_terms(&mc.model.pool) {
        if let Some((id, k, _)) = compared(mc, e) {
            consts.entry(id).or_default().insert(k);
        }
    }
    let mut state: HashSet<u32> = consts
        .into_iter()
        .filter(|(_, ks)| ks.len() >= MIN_STATE_CONSTANTS)
        .map(|(id, _)| id)
        .collect();
    let mut copies: Vec<(u32, u32)> = vec![];
    for c in &horn.clauses {
        for &(v, e) in &c.effect.assigns {
            if let Node::Var { id, .. } = *mc.model.pool.node(e) {
                let v = pool_id(mc, v);
                if v != id {
                    copies.push((v, id));
                }
            }
        }
    }
    loop {
        let before = state.len();
        for &(a, b) in &copies {
            if state.contains(&a) || state.contains(&b) {
                state.insert(a);
                state.insert(b);
            }
        }
        if state.len() == before {
            return state;
        }
    }
}

/// `x == k` or `x != k` (either side): the variable, the constant, and whether it is `==`.
fn compared(mc: &ModelChecker, e: ExprId) -> Option<(u32, u64, bool)> {
    let pool = &mc.model.pool;
    let Node::Cmp { pred, a, b } = pool.node(e) else {
        return None;
    };
    let eq = match pred {
        IPred::Eq => true,
        IPred::Ne => false,
        _ => return None,
    };
    let (x, k) = match (
        pool.node(*a),
        pool.as_const(*b),
        pool.node(*b),
        pool.as_const(*a),
    ) {
        (Node::Var { id, .. }, Some(k), _, _) => (*id, k),
        (_, _, Node::Var { id, .. }, Some(k)) => (*id, k),
        _ => return None,
    };
    Some((x, k, eq))
}

/// `env` split by the values of the variables the `keys` read (when they are few and some
/// key may take several values), each piece narrowed again by the guards.
fn split(
    mc: &mut ModelChecker,
    guards: &[ExprId],
    env: HashMap<u32, Values>,
    keys: &[ExprId],
) -> Vec<HashMap<u32, Values>> {
    let mut vars: BTreeSet<u32> = BTreeSet::new();
    for &k in keys {
        if values(mc, k, &env).is_none_or(|s| s.len() > 1) {
            vars.extend(mc.model.pool.vars_of(k).iter().copied());
        }
    }
    let mut pieces = vec![env];
    for id in vars {
        let mut next = vec![];
        for piece in pieces {
            match piece.get(&id) {
                Some(Some(set)) if set.len() > 1 => {
                    for &v in set {
                        let mut p = piece.clone();
                        p.insert(id, Some(BTreeSet::from([v])));
                        next.push(p);
                    }
                }
                _ => next.push(piece),
            }
        }
        pieces = next;
        if pieces.len() > MAX_SPLITS {
            break;
        }
    }
    if pieces.len() > 1 {
        pieces.retain_mut(|p| admit(mc, guards, p));
    }
    pieces
}

/// Narrows `env` by the guards; false when some guard cannot hold in it.
fn admit(mc: &mut ModelChecker, guards: &[ExprId], env: &mut HashMap<u32, Values>) -> bool {
    let mut conjuncts = vec![];
    let mut stack: Vec<ExprId> = guards.to_vec();
    while let Some(g) = stack.pop() {
        match mc.model.pool.node(g) {
            Node::Bin {
                op: BinOp::And,
                w: 1,
                a,
                b,
            } => {
                stack.push(*a);
                stack.push(*b);
            }
            _ => conjuncts.push(g),
        }
    }
    // Equalities and disequalities with constants narrow the sets first, so the other
    // guards are evaluated on the narrowed values.
    for &g in &conjuncts {
        let Some((x, k, eq)) = compared(mc, g) else {
            continue;
        };
        let Some(slot) = env.get_mut(&x) else {
            continue;
        };
        match (slot.as_mut(), eq) {
            (Some(set), true) => set.retain(|v| *v == k),
            (None, true) => *slot = Some(BTreeSet::from([k])),
            (Some(set), false) => {
                set.remove(&k);
            }
            (None, false) => {}
        }
        if slot.as_ref().is_some_and(|s| s.is_empty()) {
            return false;
        }
    }
    for &g in &conjuncts {
        if values(mc, g, env).is_some_and(|s| !s.contains(&1)) {
            return false;
        }
    }
    true
}

/// The values `e` may take when its variables range over `env` (variables not in `env`, such
/// as havocked ones, may have any value).
fn values(mc: &mut ModelChecker, e: ExprId, env: &HashMap<u32, Values>) -> Values {
    match mc.model.pool.node(e) {
        Node::Const { v, .. } => return Some(BTreeSet::from([*v])),
        Node::Var { id, .. } => return env.get(id).cloned().flatten(),
        _ => {}
    }
    let vars = mc.model.pool.vars_of(e);
    let mut sets: Vec<Vec<u64>> = vec![];
    let mut combinations = 1usize;
    for id in vars.iter() {
        let set = env.get(id)?.as_ref()?;
        combinations = combinations.saturating_mul(set.len());
        if combinations > MAX_COMBINATIONS {
            return None;
        }
        sets.push(set.iter().copied().collect());
    }
    let mut out = BTreeSet::new();
    if let [set] = &sets[..] {
        // One variable (most terms): no valuation map per value.
        for &v in set {
            out.insert(mc.model.pool.eval(e, &|_| v, &mut Memo::default()));
            if out.len() > MAX_VALUES {
                return None;
            }
        }
        return Some(out);
    }
    let mut pick = vec![0usize; sets.len()];
    loop {
        let vals: HashMap<u32, u64> = vars
            .iter()
            .zip(&pick)
            .enumerate()
            .map(|(k, (id, &p))| (*id, sets[k][p]))
            .collect();
        let mut memo = Memo::default();
        out.insert(mc.model.pool.eval(e, &|id| vals[&id], &mut memo));
        if out.len() > MAX_VALUES {
            return None;
        }
        // The next combination, odometer-style.
        let mut k = 0;
        loop {
            if k == pick.len() {
                return Some(out);
            }
            pick[k] += 1;
            if pick[k] < sets[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
    }
}

/// Adds `part` to a relation's states; true when they grew. A relation split into too many
/// parts becomes one part, and stays one (`key` is emptied).
fn join(states: &mut BTreeMap<Key, Part>, key: &mut Vec<usize>, part: Part) -> bool {
    let k: Key = key
        .iter()
        .map(|&k| match &part[k] {
            Some(s) if s.len() == 1 => s.iter().next().copied(),
            _ => None,
        })
        .collect();
    let Some(into) = states.get_mut(&k) else {
        let width = part.len();
        states.insert(k, part);
        if states.len() > MAX_PARTS {
            let mut all: Part = vec![Some(BTreeSet::new()); width];
            for p in states.values() {
                merge_into(&mut all, p);
            }
            states.clear();
            states.insert(vec![], all);
            key.clear();
        }
        return true;
    };
    merge_into(into, &part)
}

/// `into` ∪= `part`, per argument; true when `into` grew.
fn merge_into(into: &mut Part, part: &Part) -> bool {
    let mut changed = false;
    for (a, b) in into.iter_mut().zip(part) {
        match (a.as_mut(), b) {
            (None, _) => {}
            (Some(_), None) => {
                *a = None;
                changed = true;
            }
            (Some(x), Some(y)) => {
                let before = x.len();
                x.extend(y.iter().copied());
                if x.len() > MAX_VALUES {
                    *a = None;
                    changed = true;
                } else {
                    changed |= x.len() != before;
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mc::arg::McConfig;
    use crate::mc::model::Model;

    /// A protocol's state machine, as the value sets are for: a state variable compared with
    /// many constants, set by each step (state 41 is never entered).
    fn machine() -> String {
        let cases: String = (1..=40)
            .map(|k| {
                format!(
                    "    case {k}: state = in == {k} ? {} : (in > 0 ? {} : 1); break;\n",
                    k % 40 + 1,
                    (k * 7) % 40 + 1
                )
            })
            .collect();
        format!(
            "extern int __VERIFIER_nondet_int(void);\n\
             int main(void) {{\n  int state = 1;\n  for (;;) {{\n    \
             int in = __VERIFIER_nondet_int();\n    switch (state) {{\n{cases}    \
             case 41: return 41;\n    }}\n  }}\n}}\n"
        )
    }

    /// An analysis stopped at each deadline check (every 64 steps) and resumed ends with the
    /// invariant of one run without a stop.
    #[test]
    fn an_analysis_cut_again_and_again_ends_as_one_run_does() {
        let dir = std::env::temp_dir().join(format!("cairn-vs-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let src = dir.join("machine.c");
        std::fs::write(&src, machine()).unwrap();
        let opts = crate::ir::frontend::CompileOptions::default();
        let module = crate::ir::frontend::load(std::slice::from_ref(&src), &opts).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let exts = crate::ir::externs::resolve(&module);
        let entry = crate::analysis::expectation::start_function(&module, "main").unwrap();
        let model = Model::new(&module, &exts, false);
        let mut mc = ModelChecker::new(model, entry, McConfig::default());
        let later = Instant::now() + Duration::from_secs(60);
        let horn = super::super::build(&mut mc, &|_| None, 50_000, later).unwrap();
        let mut whole = Analysis::start(&horn, &mut mc);
        assert!(whole.run(&horn, &mut mc, later));
        let mut cut = Analysis::start(&horn, &mut mc);
        let mut stops = 0;
        while !cut.run(&horn, &mut mc, Instant::now()) {
            stops += 1;
        }
        assert!(stops >= 2, "{stops} stops: too few steps to test resuming");
        let (a, b) = (
            whole.invariants(&horn, &mut mc),
            cut.invariants(&horn, &mut mc),
        );
        assert_eq!(a, b);
        // The states the machine never enters are known: the invariant is no `true`.
        let t = mc.model.pool.constant(1, 1);
        assert!(a.iter().any(|&e| e != t));
    }
}
