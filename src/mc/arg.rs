//! The abstract reachability graph and the coverage-driven CEGAR loop.
//!
//! Abstract states are (location, call stack, set of predicates that hold). The abstract post
//! keeps the predicates of the target location that the source's predicates and the edge's
//! effect imply (one SMT check each). A state is covered by an earlier state at the same
//! location and stack whose predicates are a subset of its own. When an edge covering a goal
//! appears, the path to it is checked: feasible → a test (replayed in the interpreter),
//! infeasible → new predicates (weakest preconditions of the unsat core's guards, per
//! location) and a rebuild. When refinement time is up, the ARG is still completed; goals on no
//! edge of a complete ARG are unreachable.

use super::model::{Effect, Loc, Model, Next, VarKind};
use crate::analysis::goals::Goals;
use crate::driver::ledger::Status;
use crate::driver::session::Session;
use crate::exec::input::Seeded;
use crate::exec::{InputKind, InputValue};
use crate::ir::{FuncId, GoalId};
use crate::smt::expr::{ExprId, VarKey};
use crate::smt::solver::{Answer, Backend, Z3Backend};
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The pseudo-location before `main`: its one edge initializes tracked globals.
const INIT: Loc = Loc {
    func: u32::MAX,
    block: 0,
    ip: 0,
};

#[derive(Clone, Debug)]
pub struct ArgNode {
    pub loc: Loc,
    pub stack: Rc<Vec<Loc>>,
    pub preds: Vec<ExprId>,
    pub parent: Option<usize>,
    /// Effects of the edge from the parent.
    pub effects: Vec<Rc<Effect>>,
    pub goal: Option<GoalId>,
    pub error_site: Option<u32>,
    pub covered_by: Option<usize>,
}

#[derive(Default, Clone, Debug)]
pub struct Arg {
    pub nodes: Vec<ArgNode>,
    /// Goals on some edge of the ARG.
    pub reached_goals: HashSet<GoalId>,
    pub reached_error_sites: HashSet<u32>,
    /// False when a cap stopped the construction (then nothing is proved).
    pub complete: bool,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct McStats {
    pub refinements: u64,
    pub predicates: usize,
    pub arg_nodes: usize,
    pub arg_builds: u64,
    pub solver_calls: u64,
    pub solver_time_s: f64,
    pub tests: u64,
    pub proved_unreachable: usize,
    pub complete: bool,
    /// Goals the ARG reaches along paths the abstraction could not refine (havoc).
    pub unrefinable: usize,
}

pub struct McConfig {
    pub time: Duration,
    pub max_nodes: usize,
    pub max_stack: usize,
    pub max_preds_per_loc: usize,
    pub query_timeout: Duration,
}

impl Default for McConfig {
    fn default() -> Self {
        McConfig {
            time: Duration::from_secs(30),
            max_nodes: 50_000,
            max_stack: 32,
            max_preds_per_loc: 96,
            query_timeout: Duration::from_secs(5),
        }
    }
}

pub struct ModelChecker<'m> {
    pub model: Model<'m>,
    pub preds: HashMap<Loc, Vec<ExprId>>,
    solver: Z3Backend,
    pub stats: McStats,
    pub cfg: McConfig,
    /// Goals whose ARG path was feasible but whose test did not cover them, or not refinable.
    given_up: HashSet<GoalId>,
    /// Goal paths of the last run left unrefined for lack of time.
    pub deferred: usize,
    entry: FuncId,
    post_cache: HashMap<PostKey, Option<Vec<ExprId>>>,
    /// Nothing runs past this: the end of refinement plus time to complete the ARG, within the
    /// session's budget.
    hard_deadline: Option<Instant>,
}

type PostKey = (Vec<ExprId>, Loc, usize, Option<Loc>, Loc, usize);

impl<'m> ModelChecker<'m> {
    pub fn new(model: Model<'m>, entry: FuncId, cfg: McConfig) -> ModelChecker<'m> {
        ModelChecker {
            model,
            preds: HashMap::new(),
            solver: Z3Backend::new(),
            stats: McStats::default(),
            cfg,
            given_up: HashSet::new(),
            deferred: 0,
            entry,
            post_cache: HashMap::new(),
            hard_deadline: None,
        }
    }

    /// A query's timeout: never past the hard deadline.
    fn query_timeout(&self) -> Duration {
        match self.hard_deadline {
            Some(d) => crate::smt::solver::bounded_by(
                self.cfg.query_timeout,
                d.saturating_duration_since(Instant::now()),
            ),
            None => self.cfg.query_timeout,
        }
    }

    fn check(&mut self, constraints: &[ExprId]) -> Answer {
        self.stats.solver_calls += 1;
        let t = Instant::now();
        let timeout = self.query_timeout();
        let a = self
            .solver
            .check(&self.model.pool, constraints, timeout, &|_| 0);
        self.stats.solver_time_s += t.elapsed().as_secs_f64();
        a
    }

    fn transitions(&mut self, loc: Loc) -> Vec<super::model::Transition> {
        if loc == INIT {
            let assigns = self.model.initial_assigns();
            return vec![super::model::Transition {
                effect: Effect {
                    assigns,
                    guards: vec![],
                    havocs: vec![],
                },
                next: Next::Goto(Loc {
                    func: self.entry,
                    block: 0,
                    ip: 0,
                }),
                goal: None,
                error_site: None,
            }];
        }
        self.model.transitions(loc)
    }

    /// Effect of returning from `callee` to `ret_to`: the caller's result register.
    fn return_effect(&mut self, ret_to: Loc, callee: FuncId) -> Effect {
        let m = self.model.m;
        let call = &m.functions[ret_to.func as usize].blocks[ret_to.block as usize].insts
            [(ret_to.ip - 1) as usize];
        let mut eff = Effect::default();
        if let crate::ir::Inst::Call {
            ret: Some(crate::ir::Val::Reg(d, t)),
            ..
        } = call
        {
            let rv = self.model.ret_var(callee, *t);
            let src = self.model.var_expr(rv);
            let dst = self.dst_var(ret_to.func, *d, *t);
            let w = self.model.var_width(dst);
            let e = fit(&mut self.model, src, w);
            eff.assigns.push((dst, e));
        }
        eff
    }

    fn dst_var(&mut self, f: FuncId, r: crate::ir::Reg, t: crate::ir::Ty) -> u32 {
        self.model.reg_var_pub(f, r, t)
    }

    /// Substitutes an effect's assignments into `e` (weakest precondition through it).
    fn wp(&mut self, e: ExprId, eff: &Effect) -> ExprId {
        let map: HashMap<u32, ExprId> = eff.assigns.iter().copied().collect();
        let mut memo = HashMap::new();
        self.model.pool.substitute(
            e,
            &mut |_, k| {
                if k.byte == 0 {
                    map.get(&k.input).copied()
                } else {
                    None
                }
            },
            &mut memo,
        )
    }

    fn mentions_havoc(&mut self, e: ExprId) -> bool {
        let vars = self.model.pool.vars_of(e);
        vars.iter().any(|v| {
            let k = self.model.pool.vars[*v as usize];
            matches!(self.model.vars[k.input as usize], VarKind::Havoc(_))
        })
    }

    /// Abstract post: None if the edge is infeasible from `preds`.
    fn post(
        &mut self,
        preds: &[ExprId],
        effects: &[Rc<Effect>],
        target: Loc,
    ) -> Option<Vec<ExprId>> {
        // Guards, each over the pre-state of its own effect: bring all to the source state.
        let mut cons: Vec<ExprId> = preds.to_vec();
        let mut composed: Vec<Rc<Effect>> = vec![];
        for eff in effects {
            for g in &eff.guards {
                let mut g = *g;
                for prev in composed.iter().rev() {
                    g = self.wp(g, prev);
                }
                cons.push(g);
            }
            composed.push(eff.clone());
        }
        if effects.iter().any(|e| !e.guards.is_empty()) {
            match self.check(&cons) {
                Answer::Unsat => return None,
                _ => {}
            }
        }
        let candidates = self.preds.get(&target).cloned().unwrap_or_default();
        let mut negs = vec![];
        for p in &candidates {
            let mut q = *p;
            for eff in composed.iter().rev() {
                q = self.wp(q, eff);
            }
            negs.push(self.model.pool.not(q));
        }
        self.stats.solver_calls += negs.len() as u64;
        let t = Instant::now();
        let timeout = self.query_timeout();
        let answers = self
            .solver
            .check_each(&self.model.pool, &cons, &negs, timeout);
        self.stats.solver_time_s += t.elapsed().as_secs_f64();
        let mut out: Vec<ExprId> = candidates
            .iter()
            .zip(answers)
            .filter(|(_, a)| *a == Answer::Unsat)
            .map(|(p, _)| *p)
            .collect();
        out.sort();
        Some(out)
    }

    /// SSA path formula of the edges from the root to `node`: guards, and the input havocs in
    /// execution order.
    fn path_formula(
        &mut self,
        arg: &Arg,
        node: usize,
    ) -> (Vec<ExprId>, Vec<(ExprId, InputKind)>, Vec<(usize, usize)>) {
        let chain = arg.path_to(node);
        let mut env: HashMap<u32, ExprId> = HashMap::new();
        let mut occurrence: HashMap<u32, u32> = HashMap::new();
        let mut guards = vec![];
        let mut inputs = vec![];
        let mut origin = vec![];
        for &i in &chain {
            for (ei, eff) in arg.nodes[i].effects.iter().enumerate() {
                // Fresh versions for this occurrence of the effect's havocs.
                let mut hv: HashMap<u32, ExprId> = HashMap::new();
                for h in &eff.havocs {
                    let k = occurrence.entry(*h).or_insert(0);
                    *k += 1;
                    let e = self.model.var_version(*h, *k);
                    hv.insert(*h, e);
                    if let VarKind::Havoc(Some(kind)) = self.model.vars[*h as usize] {
                        inputs.push((e, kind));
                    }
                }
                let env_c = env.clone();
                let mut memo = HashMap::new();
                let mut sub = |pool: &mut crate::smt::expr::Pool, k: VarKey| -> Option<ExprId> {
                    if k.byte != 0 {
                        return None;
                    }
                    if let Some(e) = hv.get(&k.input) {
                        return Some(*e);
                    }
                    let _ = pool;
                    env_c.get(&k.input).copied()
                };
                for g in &eff.guards {
                    let s = self.model.pool.substitute(*g, &mut sub, &mut memo);
                    guards.push(s);
                    origin.push((i, ei));
                }
                let new: Vec<(u32, ExprId)> = eff
                    .assigns
                    .iter()
                    .map(|(v, e)| (*v, self.model.pool.substitute(*e, &mut sub, &mut memo)))
                    .collect();
                for (v, e) in new {
                    env.insert(v, e);
                }
            }
        }
        (guards, inputs, origin)
    }

    /// New predicates from an infeasible path: WP of the unsat core's guards, per location.
    fn refine(
        &mut self,
        arg: &Arg,
        node: usize,
        guards: &[ExprId],
        origin: &[(usize, usize)],
    ) -> usize {
        // Deletion-based unsat core over the guards.
        let mut core: Vec<usize> = (0..guards.len()).collect();
        if guards.len() <= 80 {
            let mut i = 0;
            while i < core.len() {
                let trial: Vec<ExprId> = core
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, g)| guards[*g])
                    .collect();
                if self.check(&trial) == Answer::Unsat {
                    core.remove(i);
                } else {
                    i += 1;
                }
            }
        }
        let chain = arg.path_to(node);
        let pos: HashMap<usize, usize> = chain.iter().enumerate().map(|(k, n)| (*n, k)).collect();
        let mut added = 0;
        for gi in core {
            let (n, ei) = origin[gi];
            let k = pos[&n];
            // The guard, over the pre-state of its own effect: origins of one effect are listed
            // in guard order, so count the earlier ones.
            let eff = arg.nodes[n].effects[ei].clone();
            let idx = origin[..gi].iter().filter(|o| **o == (n, ei)).count();
            let Some(mut g) = eff.guards.get(idx).copied() else {
                continue;
            };
            // Back through earlier effects of the same edge.
            for e in arg.nodes[n].effects[..ei].iter().rev() {
                g = self.wp(g, e);
            }
            // Add at the edge's source location, then at every earlier location on the path.
            let mut at = k;
            loop {
                if self.mentions_havoc(g) || self.model.pool.as_const(g).is_some() {
                    break;
                }
                let src = match arg.nodes[chain[at]].parent {
                    Some(p) => arg.nodes[p].loc,
                    None => break,
                };
                added += self.add_predicate(src, g);
                if at == 0 {
                    break;
                }
                let parent_node = chain[at - 1];
                let effs = arg.nodes[parent_node].effects.clone();
                for e in effs.iter().rev() {
                    g = self.wp(g, e);
                }
                at -= 1;
                if arg.nodes[chain[at]].parent.is_none() {
                    break;
                }
            }
        }
        // Parameters of inlined calls on the path equal their arguments for the whole call:
        // the link between caller and callee facts that per-guard preconditions miss.
        for w in chain.windows(2) {
            let (p, n) = (&arg.nodes[w[0]], &arg.nodes[w[1]]);
            if p.loc.func != n.loc.func && n.loc.block == 0 && n.loc.ip == 0 && p.loc != INIT {
                let binds: Vec<(u32, ExprId)> = n.effects[0].assigns.clone();
                for (v, e) in binds {
                    if self.mentions_havoc(e) || self.model.pool.as_const(e).is_some() {
                        continue;
                    }
                    let x = self.model.var_expr(v);
                    let eq = self.model.pool.cmp(crate::ir::IPred::Eq, x, e);
                    for l in self.locations_of(n.loc.func) {
                        added += self.add_predicate(l, eq);
                    }
                }
            }
        }
        self.stats.predicates = self.preds.values().map(|v| v.len()).sum();
        added
    }

    /// Adds `g` (and its negation, and for strict comparisons the non-strict variant, which
    /// is what loop invariants usually need) to the predicates of `loc`.
    fn add_predicate(&mut self, loc: Loc, g: ExprId) -> usize {
        use crate::ir::IPred::*;
        use crate::smt::expr::Node;
        let mut cands = vec![g];
        if let Node::Cmp { pred, a, b } = self.model.pool.node(g).clone() {
            let relaxed = match pred {
                Slt => Some(Sle),
                Ult => Some(Ule),
                Sgt => Some(Sge),
                Ugt => Some(Uge),
                _ => None,
            };
            if let Some(r) = relaxed {
                cands.push(self.model.pool.cmp(r, a, b));
            }
        }
        let mut added = 0;
        for c in cands {
            let nc = self.model.pool.not(c);
            let list = self.preds.entry(loc).or_default();
            for x in [c, nc] {
                if !list.contains(&x) && list.len() < self.cfg.max_preds_per_loc {
                    list.push(x);
                    added += 1;
                }
            }
        }
        added
    }

    /// When weakest preconditions only unroll a loop, guess invariants at the loop headers on
    /// the path: the header condition's variables compared with each other and with every
    /// constant the function compares against (`i <= n`, `n <= 1000`). The abstraction keeps
    /// the ones that hold.
    fn loop_templates(&mut self, arg: &Arg, node: usize) -> usize {
        use crate::ir::{IPred, Inst, Terminator};
        let mut count: HashMap<Loc, usize> = HashMap::new();
        let mut n = Some(node);
        while let Some(i) = n {
            *count.entry(arg.nodes[i].loc).or_insert(0) += 1;
            n = arg.nodes[i].parent;
        }
        let m = self.model.m;
        let mut added = 0;
        for (h, k) in count {
            if k < 2 || h == INIT || h.ip != 0 {
                continue;
            }
            let func = &m.functions[h.func as usize];
            let blk = &func.blocks[h.block as usize];
            let Terminator::CondBr { cond, .. } = &blk.term else {
                continue;
            };
            let Some((pred, w, a, b)) = blk.insts.iter().find_map(|i| match i {
                Inst::ICmp { pred, w, dst, a, b } if dst == cond => Some((*pred, *w, *a, *b)),
                _ => None,
            }) else {
                continue;
            };
            let signed = matches!(pred, IPred::Slt | IPred::Sle | IPred::Sgt | IPred::Sge);
            let le = if signed { IPred::Sle } else { IPred::Ule };
            let is_const = |r: u32| {
                func.reg_tys
                    .get(r as usize)
                    .is_none_or(|t| *t == crate::ir::Ty::Void)
            };
            let vars: Vec<ExprId> = [a, b]
                .into_iter()
                .filter(|r| !is_const(*r))
                .map(|r| {
                    let v = self.model.reg_var_pub(h.func, r, crate::ir::Ty::Int(w));
                    self.model.var_expr(v)
                })
                .collect();
            let mut consts: Vec<u64> = vec![];
            for i in func.blocks.iter().flat_map(|b| &b.insts) {
                if let Inst::ICmp { w: cw, a, b, .. } = i {
                    if *cw == w {
                        for r in [*a, *b] {
                            if is_const(r) && !consts.contains(&func.reg_init[r as usize]) {
                                consts.push(func.reg_init[r as usize]);
                            }
                        }
                    }
                }
            }
            let mut cands = vec![];
            for &v in &vars {
                if self.model.pool.width(v) != w {
                    continue;
                }
                for &c in &consts {
                    let k = self.model.pool.constant(w, c);
                    cands.push(self.model.pool.cmp(le, v, k));
                    cands.push(self.model.pool.cmp(le, k, v));
                }
            }
            if vars.len() == 2 {
                cands.push(self.model.pool.cmp(le, vars[0], vars[1]));
                cands.push(self.model.pool.cmp(le, vars[1], vars[0]));
            }
            // Add at the header, and (as preconditions) at the locations leading to its first
            // visit, so that the abstraction can carry the fact into the loop.
            let chain = arg.path_to(node);
            let visits: Vec<usize> = chain
                .iter()
                .enumerate()
                .filter(|(_, i)| arg.nodes[**i].loc == h)
                .map(|(k, _)| k)
                .collect();
            for c in cands {
                if self.model.pool.as_const(c).is_some() {
                    continue;
                }
                added += self.add_predicate(h, c);
                // Back from every visit: through the loop body, and before the loop.
                for &v in &visits {
                    let mut g = c;
                    let mut at = v;
                    while at > 0 {
                        for e in arg.nodes[chain[at]].effects.clone().iter().rev() {
                            g = self.wp(g, e);
                        }
                        at -= 1;
                        let l = arg.nodes[chain[at]].loc;
                        if l == h
                            || self.mentions_havoc(g)
                            || self.model.pool.as_const(g).is_some()
                            || l == INIT
                        {
                            break;
                        }
                        added += self.add_predicate(l, g);
                    }
                }
            }
        }
        self.stats.predicates = self.preds.values().map(|v| v.len()).sum();
        added
    }

    /// Every location of a function: block starts, and call sites and their return points.
    fn locations_of(&self, f: FuncId) -> Vec<Loc> {
        let func = &self.model.m.functions[f as usize];
        let mut v = vec![];
        for (bi, b) in func.blocks.iter().enumerate() {
            v.push(Loc {
                func: f,
                block: bi as u32,
                ip: 0,
            });
            for (ii, i) in b.insts.iter().enumerate() {
                if matches!(
                    i,
                    crate::ir::Inst::Call { .. } | crate::ir::Inst::CallExtern { .. }
                ) {
                    v.push(Loc {
                        func: f,
                        block: bi as u32,
                        ip: ii as u32,
                    });
                    v.push(Loc {
                        func: f,
                        block: bi as u32,
                        ip: ii as u32 + 1,
                    });
                }
            }
        }
        v
    }

    /// Replays a model of a path as a test in the interpreter.
    fn test_from_model(
        &mut self,
        s: &mut Session,
        inputs: &[(ExprId, InputKind)],
        model: &crate::smt::solver::Assignment,
    ) -> anyhow::Result<Vec<usize>> {
        let long_bits = if s.program.module.data_model == crate::ir::DataModel::ILP32 {
            32
        } else {
            64
        };
        let mut values = vec![];
        for (e, kind) in inputs {
            let id = match self.model.pool.node(*e) {
                crate::smt::expr::Node::Var { id, .. } => *id,
                _ => continue,
            };
            let v = model.get(&id).copied().unwrap_or(0);
            let w = kind.int_info(long_bits).map(|i| i.0).unwrap_or(64);
            values.push(InputValue::int(*kind, w, v));
        }
        let mut src = Seeded {
            values,
            pos: 0,
            fallback: crate::exec::input::RandomInputs {
                rng: <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(0),
            },
        };
        let mut cfg = s.run_config(&crate::exec::Config {
            max_steps: 10_000_000,
            ..Default::default()
        });
        if let Some(m) = s.memory_limit {
            cfg.mem_limit = m;
        }
        let r = s.program.run(&mut src, &cfg);
        self.stats.tests += 1;
        let covers = s.goals.covered_by(&r);
        s.record(&r, "mc")?;
        Ok(covers)
    }

    /// One ARG construction. Returns Some(arg) when complete or stopped by a cap, None when a
    /// refinement asks for a rebuild.
    fn build(
        &mut self,
        s: &mut Session,
        goals: &Goals,
        deadline: Instant,
    ) -> anyhow::Result<Option<Arg>> {
        self.stats.arg_builds += 1;
        let mut arg = Arg {
            complete: true,
            ..Default::default()
        };
        arg.nodes.push(ArgNode {
            loc: INIT,
            stack: Rc::new(vec![]),
            preds: vec![],
            parent: None,
            effects: vec![],
            goal: None,
            error_site: None,
            covered_by: None,
        });
        let mut by_loc: HashMap<(Loc, Rc<Vec<Loc>>), Vec<usize>> = HashMap::new();
        let mut work: VecDeque<usize> = VecDeque::from([0]);
        let hard_deadline = self.hard_deadline.unwrap_or(deadline + self.cfg.time / 2);
        while let Some(n) = work.pop_front() {
            if arg.nodes.len() >= self.cfg.max_nodes
                || Instant::now() > hard_deadline
                || s.interrupted.load(std::sync::atomic::Ordering::Relaxed)
            {
                arg.complete = false;
                break;
            }
            s.tick(|| {
                format!(
                    "model checker: {} ARG nodes, {} refinements",
                    arg.nodes.len(),
                    self.stats.refinements
                )
            });
            let (loc, stack, preds) = (
                arg.nodes[n].loc,
                arg.nodes[n].stack.clone(),
                arg.nodes[n].preds.clone(),
            );
            // Coverage by an earlier, weaker state at the same place.
            let key = (loc, stack.clone());
            if let Some(others) = by_loc.get(&key) {
                if let Some(&c) = others.iter().find(|&&o| {
                    o != n
                        && arg.nodes[o].covered_by.is_none()
                        && arg.nodes[o].preds.iter().all(|p| preds.contains(p))
                }) {
                    arg.nodes[n].covered_by = Some(c);
                    continue;
                }
            }
            by_loc.entry(key).or_default().push(n);
            for (ti, t) in self.transitions(loc).into_iter().enumerate() {
                let mut effects = vec![Rc::new(t.effect.clone())];
                let (next_loc, next_stack) = match &t.next {
                    Next::Goto(l) => (Some(*l), stack.clone()),
                    Next::Call { callee, ret_to } => {
                        if stack.len() >= self.cfg.max_stack {
                            arg.complete = false;
                            continue;
                        }
                        let mut st = (*stack).clone();
                        st.push(*ret_to);
                        (
                            Some(Loc {
                                func: *callee,
                                block: 0,
                                ip: 0,
                            }),
                            Rc::new(st),
                        )
                    }
                    Next::Return => match stack.last() {
                        Some(ret_to) => {
                            let re = self.return_effect(*ret_to, loc.func);
                            effects.push(Rc::new(re));
                            let mut st = (*stack).clone();
                            st.pop();
                            (Some(*ret_to), Rc::new(st))
                        }
                        None => (None, stack.clone()),
                    },
                    Next::End => (None, stack.clone()),
                };
                let target = next_loc.unwrap_or(loc);
                // Posts are pure functions of (state, edge, target predicates): rebuilds after a
                // refinement reuse them.
                let key = (
                    preds.clone(),
                    loc,
                    ti,
                    next_stack.last().copied(),
                    target,
                    self.preds.get(&target).map_or(0, |v| v.len()),
                );
                let post = match self.post_cache.get(&key) {
                    Some(p) => p.clone(),
                    None => {
                        let p = self.post(&preds, &effects, target);
                        self.post_cache.insert(key, p.clone());
                        p
                    }
                };
                let Some(new_preds) = post else { continue };
                let c = arg.nodes.len();
                arg.nodes.push(ArgNode {
                    loc: target,
                    stack: next_stack,
                    preds: new_preds,
                    parent: Some(n),
                    effects,
                    goal: t.goal,
                    error_site: t.error_site,
                    covered_by: None,
                });
                if let Some(g) = t.goal {
                    arg.reached_goals.insert(g);
                }
                if let Some(e) = t.error_site {
                    arg.reached_error_sites.insert(e);
                }
                // A goal edge not yet covered: is the path to it feasible?
                let goal_id = t.goal.map(|g| g as usize).or_else(|| {
                    t.error_site.and_then(|e| {
                        goals
                            .error_sites
                            .iter()
                            .position(|x| *x == e)
                            .map(|k| goals.num_branches + k)
                    })
                });
                if let Some(gid) = goal_id {
                    let pending = s.ledger.status[gid] == Status::Unknown
                        && !self.given_up.contains(&(gid as u32));
                    if pending {
                        let (guards, inputs, origin) = self.path_formula(&arg, c);
                        match self.check(&guards) {
                            Answer::Sat(model) => {
                                let covers = self.test_from_model(s, &inputs, &model)?;
                                if !covers.contains(&gid) {
                                    self.given_up.insert(gid as u32);
                                }
                            }
                            Answer::Unsat if Instant::now() >= deadline => {
                                // No time to refine: a later run may (predicates are kept).
                                self.deferred += 1;
                            }
                            Answer::Unsat => {
                                if self.loop_templates(&arg, c)
                                    + self.refine(&arg, c, &guards, &origin)
                                    > 0
                                {
                                    self.stats.refinements += 1;
                                    return Ok(None);
                                }
                                self.given_up.insert(gid as u32);
                                self.stats.unrefinable += 1;
                            }
                            Answer::Unknown => {
                                self.given_up.insert(gid as u32);
                            }
                        }
                    }
                }
                if next_loc.is_some() {
                    work.push_back(c);
                }
            }
        }
        Ok(Some(arg))
    }

    /// Algorithm 2: refine until the budget is spent, then report the closed ARG.
    pub fn run(&mut self, s: &mut Session) -> anyhow::Result<Arg> {
        let goals = s.goals.clone();
        let deadline = Instant::now() + self.cfg.time;
        self.deferred = 0;
        // After refinement stops, completing the ARG may take a while longer (half the
        // refinement time), but not past the session's budget.
        self.hard_deadline = Some((deadline + self.cfg.time / 2).min(s.start + s.budget.time));
        self.solver.deadline = self.hard_deadline;
        let arg = loop {
            if let Some(a) = self.build(s, &goals, deadline)? {
                break a;
            }
        };
        self.stats.arg_nodes = arg.nodes.len();
        self.stats.complete = arg.complete;
        if std::env::var_os("CAIRN_DEBUG_MC").is_some() {
            let mut locs: Vec<&Loc> = self.preds.keys().collect();
            locs.sort();
            for l in locs {
                let ps: Vec<String> = self.preds[l]
                    .iter()
                    .map(|p| self.model.pool.show(*p))
                    .collect();
                eprintln!("{l:?}: {}", ps.join("  "));
            }
        }
        if arg.complete {
            for g in &goals.goals {
                if s.ledger.status[g.id] != Status::Unknown {
                    continue;
                }
                let reached = if g.id < goals.num_branches {
                    arg.reached_goals.contains(&(g.id as u32))
                } else {
                    arg.reached_error_sites
                        .contains(&goals.error_sites[g.id - goals.num_branches])
                };
                let func = s.program.module.func_by_name.get(&g.function).copied();
                if !reached && func.is_some_and(|f| !self.model.unprovable_funcs.contains(&f)) {
                    s.prove_unreachable(g.id, "model checker")?;
                    self.stats.proved_unreachable += 1;
                }
            }
        }
        Ok(arg)
    }
}

fn fit(m: &mut Model, e: ExprId, w: u8) -> ExprId {
    let ew = m.pool.width(e);
    if ew == w {
        e
    } else if ew > w {
        m.pool.extract(w, 0, e)
    } else {
        m.pool.zext(w, e)
    }
}

impl Arg {
    /// Node indices from the root to `node`.
    pub fn path_to(&self, node: usize) -> Vec<usize> {
        let mut chain = vec![];
        let mut n = Some(node);
        while let Some(i) = n {
            chain.push(i);
            n = self.nodes[i].parent;
        }
        chain.reverse();
        chain
    }

    /// Graphviz rendering: nodes are abstract states, edges carry goals; dashed edges show
    /// coverage (subsumption).
    pub fn to_dot(&self, m: &crate::ir::Module, pool: &crate::smt::expr::Pool) -> String {
        let mut s = String::from("digraph arg {\n  node [shape=box, fontsize=9];\n");
        for (i, n) in self.nodes.iter().enumerate() {
            let place = if n.loc == INIT {
                "init".to_string()
            } else {
                let f = &m.functions[n.loc.func as usize];
                format!(
                    "{}:{}:{}",
                    f.name, f.blocks[n.loc.block as usize].name, n.loc.ip
                )
            };
            let preds: Vec<String> = n.preds.iter().map(|p| pool.show(*p)).collect();
            s.push_str(&format!(
                "  n{i} [label=\"{}\\n{}\"];\n",
                place.replace('"', "'"),
                preds.join("\\n").replace('"', "'")
            ));
            if let Some(p) = n.parent {
                let label = match (n.goal, n.error_site) {
                    (Some(g), _) => format!("goal {g}"),
                    (_, Some(_)) => "error".into(),
                    _ => String::new(),
                };
                s.push_str(&format!("  n{p} -> n{i} [label=\"{label}\"];\n"));
            }
            if let Some(c) = n.covered_by {
                s.push_str(&format!("  n{i} -> n{c} [style=dashed];\n"));
            }
        }
        s.push_str("}\n");
        s
    }
}
