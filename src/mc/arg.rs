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

use super::host::McHost;
use super::model::{Effect, Loc, Model, Next, VarKind};
use crate::analysis::goals::Goals;
use crate::analysis::ledger::Status;
use crate::ir::inputs::InputKind;
use crate::ir::{FuncId, GoalId};
use crate::smt::expr::{ExprId, VarKey};
use crate::smt::solver::{Answer, Backend, Z3Backend};
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The pseudo-location before `main`: its one edge initializes tracked globals.
pub(crate) const INIT: Loc = Loc {
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
    /// Index of the parent's transition this node follows (`usize::MAX` for the root).
    pub edge: usize,
    /// The path ends here (exit, abort, return from the entry): never expanded.
    pub terminal: bool,
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
    /// Horn-clause queries given to Spacer, and the time they took (with their checks).
    pub chc_queries: u64,
    pub chc_time_s: f64,
    /// Goals proven by checked inductive invariants.
    pub proved_by_invariant: usize,
    /// Proofs whose independent check failed (the goals stay unknown).
    pub certificate_failures: u64,
    /// Time spent checking the final ARG.
    pub certificate_time_s: f64,
    /// What the model checker could not bound or decide, and why.
    pub notes: Vec<String>,
    /// Program functions whose goals are never proven, with the reason.
    pub unprovable: Vec<String>,
    /// Per decided or attempted goal: how and at what cost.
    pub goals: Vec<GoalStat>,
}

/// What the model checker spent on one goal.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct GoalStat {
    pub goal: usize,
    /// "arg" (unreached by a certified ARG), "invariant" (checked Spacer invariants),
    /// "test" (covered by a test the model checker produced), or "unknown".
    pub result: String,
    /// Seconds from the model checker's start until the goal was decided.
    pub time_s: f64,
    /// Refinements triggered by paths to this goal.
    pub refinements: u64,
    /// Predicates those refinements added.
    pub predicates: usize,
    /// Why it stays unknown, when the model knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

/// The model checker's configuration; its limits are options of `gen` and `prove`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Model checking")]
pub struct McConfig {
    /// The time of one run (set by the technique that runs the checker).
    #[arg(skip = Duration::from_secs(30))]
    pub time: Duration,
    /// Nodes of an abstract reachability graph before a build gives up.
    #[arg(long = "mc-max-nodes", value_name = "N", default_value_t = 50_000)]
    pub max_nodes: usize,
    /// Call depth the model checker inlines.
    #[arg(long = "mc-max-stack", value_name = "N", default_value_t = 32)]
    pub max_stack: usize,
    /// Predicates kept per program location.
    #[arg(long = "mc-max-predicates", value_name = "N", default_value_t = 96)]
    pub max_preds_per_loc: usize,
    /// Time of one solver query of the model checker (e.g. 5s).
    #[arg(long = "mc-query-timeout", value_name = "TIME", default_value = "5s",
          value_parser = crate::units::parse_duration)]
    pub query_timeout: Duration,
    /// How long an invariant's check may run past a short turn or probe (e.g. 3s): the
    /// invariant is found, and losing it to the clock wastes the work (on a slower machine
    /// every check of textfmt's def-use pairs, about 2 s each, missed a 1-s limit: no proof
    /// in 90 s where there were 14). Never past the session's budget.
    #[arg(long = "mc-check-grace", value_name = "TIME", default_value = "3s",
          value_parser = crate::units::parse_duration)]
    pub check_grace: Duration,
    /// Horn-clause queries before CEGAR (off when a caller wants the ARG, as crabs does for
    /// its monitors: Spacer then only runs on what CEGAR leaves).
    #[arg(skip = true)]
    pub chc_first: bool,
    /// Check every complete ARG, also one that proves nothing (a monitor is built from it).
    #[arg(skip)]
    pub certify_always: bool,
    /// Refinements on paths through loops add bounds of the loop counters against every
    /// program constant (loop proofs need them; they multiply the predicates on loop paths).
    /// Off: fewer predicates, fewer loop proofs.
    #[arg(long = "mc-loop-templates", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub loop_templates: bool,
    /// Crabs seeds every loop's head with relations between its counters (`f == i`: every
    /// iteration so far took `f`'s branch) and its bound (see `mc::loops`).
    #[arg(long = "mc-loop-relations", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub loop_relations: bool,
}

impl Default for McConfig {
    /// The options' defaults (one source for the command line and the library).
    fn default() -> Self {
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            mc: McConfig,
        }
        <Defaults as clap::Parser>::parse_from(["cairn"]).mc
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
    /// How long the last complete graph build took (a refinement needs at least one).
    pub last_build: Duration,
    /// The last run's ARG was complete and its certificate accepted.
    pub last_certified: bool,
    /// Runs in a row in which the Horn-clause prover proved nothing though it had its time: its
    /// share halves with each (down to a quarter: its invariants may need more time than the
    /// first turns had).
    chc_misses: i32,
    /// The Horn-clause prover's last call ran out of time with goals left it might prove.
    pub chc_cut: bool,
    /// The least time a Spacer query gets (doubled each time one is cut by its share, up to
    /// `MAX_SPACER_FLOOR`): Spacer does not resume, so on a loaded machine equal slices of
    /// short turns would never give one query the time it needs.
    pub spacer_floor: Duration,
    /// When the session's budget ends (no query outlasts it).
    pub session_end: Option<Instant>,
    /// Per goal: refinements its paths triggered and the predicates they added.
    goal_refinements: HashMap<usize, (u64, usize)>,
    /// Per goal decided here: how, and when (seconds after `started`).
    decided: HashMap<usize, (String, f64)>,
    started: Instant,
    entry: FuncId,
    post_cache: HashMap<PostKey, Option<Vec<ExprId>>>,
    /// The last post had every predicate decided (no solver timeout).
    post_exact: bool,
    /// Every post of the current build was exact: a spurious path through a weakened post
    /// needs no new predicate, only time.
    build_exact: bool,
    /// Nothing runs past this: the end of refinement plus time to complete the ARG, within the
    /// session's budget.
    hard_deadline: Option<Instant>,
    /// Guess-and-check invariants, carried from turn to turn.
    pub(crate) guessed: super::chc::guess::Progress,
    /// What the value sets gave on each Horn-clause system analysed, by its fingerprint.
    pub(crate) value_sets: HashMap<u64, super::chc::valueset::ValueSets>,
    /// The loops' counter relations and where they go, once found (`mc::loops`).
    pub(super) loop_seeds: Option<Vec<(Loc, ExprId)>>,
}

type PostKey = (Vec<ExprId>, Loc, usize, Option<Loc>, Loc, usize);

/// A path's SSA formula (`path_formula`): its guards, its input havocs with their kinds, and
/// each guard's origin (ARG node, effect index).
type PathFormula = (Vec<ExprId>, Vec<(ExprId, InputKind)>, Vec<(usize, usize)>);

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
            last_build: Duration::ZERO,
            last_certified: false,
            chc_misses: 0,
            chc_cut: false,
            spacer_floor: Duration::from_millis(250),
            session_end: None,
            goal_refinements: HashMap::new(),
            decided: HashMap::new(),
            started: Instant::now(),
            entry,
            post_cache: HashMap::new(),
            post_exact: true,
            build_exact: true,
            guessed: Default::default(),
            value_sets: HashMap::new(),
            loop_seeds: None,
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

    pub(crate) fn transitions(&mut self, loc: Loc) -> Vec<super::model::Transition> {
        if loc == INIT {
            let mut assigns = self.model.initial_assigns();
            let unknown = self.model.init_havocs();
            for (v, e) in &unknown.assigns {
                for a in assigns.iter_mut().filter(|a| a.0 == *v) {
                    a.1 = *e;
                }
            }
            return vec![super::model::Transition {
                effect: Effect {
                    assigns,
                    guards: vec![],
                    havocs: unknown.havocs,
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
    pub(crate) fn return_effect(&mut self, ret_to: Loc, callee: FuncId) -> Effect {
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
    pub(crate) fn wp(&mut self, e: ExprId, eff: &Effect) -> ExprId {
        self.wp_all(&[e], eff)[0]
    }

    /// `wp` of each of `es`, sharing the work on their common subterms (an effect's
    /// assignments share most of theirs).
    pub(crate) fn wp_all(&mut self, es: &[ExprId], eff: &Effect) -> Vec<ExprId> {
        let map: HashMap<u32, ExprId> = eff.assigns.iter().copied().collect();
        let mut memo = HashMap::new();
        let mut subst = |_: &mut crate::smt::expr::Pool, k: crate::smt::expr::VarKey| {
            if k.byte == 0 {
                map.get(&k.input).copied()
            } else {
                None
            }
        };
        es.iter()
            .map(|&e| self.model.pool.substitute(e, &mut subst, &mut memo))
            .collect()
    }

    pub(super) fn mentions_havoc(&mut self, e: ExprId) -> bool {
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
                Answer::Unknown => self.post_exact = false,
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
        // A post weakened by a solver timeout (near the deadline) must not be cached.
        self.post_exact &= !answers.iter().any(|a| matches!(a, Answer::Unknown));
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
    fn path_formula(&mut self, arg: &Arg, node: usize) -> PathFormula {
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
    pub(super) fn add_predicate(&mut self, loc: Loc, g: ExprId) -> usize {
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
                if let Inst::ICmp { w: cw, a, b, .. } = i
                    && *cw == w
                {
                    for r in [*a, *b] {
                        if is_const(r) && !consts.contains(&func.reg_init[r as usize]) {
                            consts.push(func.reg_init[r as usize]);
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

    /// Drops every predicate, with what was derived from them: the cached posts (their key
    /// counts a location's predicates, which a fresh start reuses) and the goals given up for
    /// lack of a new predicate.
    pub fn forget_predicates(&mut self) {
        self.preds.clear();
        self.post_cache.clear();
        self.given_up.clear();
    }

    /// Seeds the abstraction with the guards of open branch goals (crabs): each guard at its
    /// branch, and its weakest preconditions back through the function's control flow until
    /// they become constant or mention a havoc. Refinement finds such predicates only from a
    /// counterexample that happens to pass where the guard's variables change; a monitor needs
    /// them to tell apart the states from which a goal is still reachable (the paper's flag
    /// example). Adds at most `cap` predicates; returns how many.
    pub fn seed_goal_guards(&mut self, open: &[GoalId], cap: usize) -> usize {
        let m = self.model.m;
        let mut added = 0;
        for (fi, f) in m.functions.iter().enumerate() {
            let fid = fi as FuncId;
            if f.blocks.is_empty() || self.model.summarized.contains(&fid) {
                continue;
            }
            // Edges between the function's locations, reversed: (target, source, transition).
            let mut preds_of: HashMap<Loc, Vec<(Loc, usize)>> = HashMap::new();
            let mut seeds: Vec<(Loc, usize)> = vec![];
            for loc in self.locations_of(fid) {
                for (ti, t) in self.transitions(loc).iter().enumerate() {
                    if let Next::Goto(to) = t.next {
                        preds_of.entry(to).or_default().push((loc, ti));
                    }
                    if t.goal.is_some_and(|g| open.contains(&g)) {
                        seeds.push((loc, ti));
                    }
                }
            }
            for (loc, ti) in seeds {
                let guards = self.transitions(loc)[ti].effect.guards.clone();
                for g in guards {
                    if self.model.pool.as_const(g).is_some() || self.mentions_havoc(g) {
                        continue;
                    }
                    let mut work = vec![(loc, g)];
                    let mut seen: HashSet<(Loc, ExprId)> = HashSet::new();
                    while let Some((l, p)) = work.pop() {
                        if added >= cap || seen.len() > 256 {
                            break;
                        }
                        if !seen.insert((l, p)) {
                            continue;
                        }
                        added += self.add_predicate(l, p);
                        for (src, sti) in preds_of.get(&l).cloned().unwrap_or_default() {
                            let eff = self.transitions(src)[sti].effect.clone();
                            let q = self.wp(p, &eff);
                            if self.model.pool.as_const(q).is_none() && !self.mentions_havoc(q) {
                                work.push((src, q));
                            }
                        }
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

    /// Tries a model of a path as a test.
    fn test_from_model(
        &mut self,
        s: &mut dyn McHost,
        inputs: &[(ExprId, InputKind)],
        model: &crate::smt::solver::Assignment,
    ) -> anyhow::Result<Vec<usize>> {
        let long_bits = if s.module().data_model == crate::ir::DataModel::ILP32 {
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
            values.push((*kind, w, v));
        }
        self.stats.tests += 1;
        s.try_inputs(&values)
    }

    /// One ARG construction. Returns Some(arg) when complete or stopped by a cap, None when a
    /// refinement asks for a rebuild.
    fn build(
        &mut self,
        s: &mut dyn McHost,
        goals: &Goals,
        deadline: Instant,
    ) -> anyhow::Result<Option<Arg>> {
        self.stats.arg_builds += 1;
        self.build_exact = true;
        let built = Instant::now();
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
            edge: usize::MAX,
            terminal: false,
        });
        let mut by_loc: HashMap<(Loc, Rc<Vec<Loc>>), Vec<usize>> = HashMap::new();
        let mut work: VecDeque<usize> = VecDeque::from([0]);
        let hard_deadline = self.hard_deadline.unwrap_or(deadline + self.cfg.time / 2);
        while let Some(n) = work.pop_front() {
            if arg.nodes.len() >= self.cfg.max_nodes
                || Instant::now() > hard_deadline
                || s.interrupted()
            {
                arg.complete = false;
                break;
            }
            let (nodes, refinements) = (arg.nodes.len(), self.stats.refinements);
            s.tick(&|| format!("model checker: {nodes} ARG nodes, {refinements} refinements"));
            let (loc, stack, preds) = (
                arg.nodes[n].loc,
                arg.nodes[n].stack.clone(),
                arg.nodes[n].preds.clone(),
            );
            // Coverage by an earlier, weaker state at the same place.
            let key = (loc, stack.clone());
            if let Some(others) = by_loc.get(&key)
                && let Some(&c) = others.iter().find(|&&o| {
                    o != n
                        && arg.nodes[o].covered_by.is_none()
                        && arg.nodes[o].preds.iter().all(|p| preds.contains(p))
                })
            {
                arg.nodes[n].covered_by = Some(c);
                continue;
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
                        self.post_exact = true;
                        let p = self.post(&preds, &effects, target);
                        if self.post_exact {
                            self.post_cache.insert(key, p.clone());
                        }
                        self.build_exact &= self.post_exact;
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
                    edge: ti,
                    terminal: next_loc.is_none(),
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
                    let pending = s.status()[gid] == Status::Unknown
                        && !self.given_up.contains(&(gid as u32));
                    if pending {
                        let (guards, inputs, origin) = self.path_formula(&arg, c);
                        match self.check(&guards) {
                            Answer::Sat(model) => {
                                let open: Vec<usize> = (0..s.status().len())
                                    .filter(|g| s.status()[*g] == Status::Unknown)
                                    .collect();
                                let covers = self.test_from_model(s, &inputs, &model)?;
                                let t = self.started.elapsed().as_secs_f64();
                                for g in open {
                                    if matches!(s.status()[g], Status::Covered(_)) {
                                        self.decided.entry(g).or_insert(("test".into(), t));
                                    }
                                }
                                if !covers.contains(&gid) {
                                    if crate::debug_on!("mc") {
                                        let vals: Vec<String> = inputs
                                            .iter()
                                            .map(|(e, _)| {
                                                let id = match self.model.pool.node(*e) {
                                                    crate::smt::expr::Node::Var { id, .. } => *id,
                                                    _ => 0,
                                                };
                                                format!("{:?}", model.get(&id))
                                            })
                                            .collect();
                                        crate::debug_log!(
                                            "mc",
                                            "mc: test for goal {gid} missed it: {vals:?}"
                                        );
                                    }
                                    self.given_up.insert(gid as u32);
                                }
                            }
                            Answer::Unsat if Instant::now() >= deadline => {
                                // No time to refine: a later run may (predicates are kept).
                                self.deferred += 1;
                            }
                            Answer::Unsat => {
                                let added = if Instant::now() < deadline {
                                    let templates = if self.cfg.loop_templates {
                                        self.loop_templates(&arg, c)
                                    } else {
                                        0
                                    };
                                    templates + self.refine(&arg, c, &guards, &origin)
                                } else {
                                    0
                                };
                                if added > 0 {
                                    self.stats.refinements += 1;
                                    let r = self.goal_refinements.entry(gid).or_default();
                                    r.0 += 1;
                                    r.1 += added;
                                    return Ok(None);
                                }
                                if self.build_exact {
                                    self.given_up.insert(gid as u32);
                                    self.stats.unrefinable += 1;
                                } else {
                                    // The path may pass a post a solver timeout weakened (a
                                    // loaded machine): a later, exact build may refine it.
                                    self.deferred += 1;
                                }
                            }
                            Answer::Unknown => {
                                // Out of time or beyond the solver: a later run may decide it.
                                if crate::debug_on!("mc") {
                                    crate::debug_log!(
                                        "mc",
                                        "mc: goal {gid}: solver unknown ({} guards, timeout {:?})",
                                        guards.len(),
                                        self.query_timeout()
                                    );
                                }
                                self.deferred += 1;
                            }
                        }
                    }
                }
                if next_loc.is_some() {
                    work.push_back(c);
                }
            }
        }
        self.last_build = built.elapsed();
        Ok(Some(arg))
    }

    /// Per-goal statistics for the summary, and why unprovable functions are.
    fn goal_statistics(&mut self, s: &dyn McHost, goals: &Goals) {
        let m = self.model.m;
        let mut why: Vec<String> = self
            .model
            .unprovable_why
            .iter()
            .filter(|(f, _)| {
                !self.model.summarized.contains(f) && {
                    let file = m.functions[**f as usize].loc.file as usize;
                    !m.files
                        .get(file)
                        .is_some_and(|p| p.ends_with(crate::ir::frontend::RUNTIME_FILE))
                }
            })
            .map(|(_, w)| w.clone())
            .collect();
        why.sort();
        why.dedup();
        self.stats.unprovable = why;
        self.stats.goals = goals
            .goals
            .iter()
            .filter(|g| s.status()[g.id] != Status::Ignored)
            .filter(|g| {
                self.decided.contains_key(&g.id)
                    || self.goal_refinements.contains_key(&g.id)
                    || s.status()[g.id] == Status::Unknown
            })
            .map(|g| {
                let (r, p) = self
                    .goal_refinements
                    .get(&g.id)
                    .copied()
                    .unwrap_or_default();
                let (result, t) = self
                    .decided
                    .get(&g.id)
                    .cloned()
                    .unwrap_or(("unknown".into(), self.started.elapsed().as_secs_f64()));
                let why = (result == "unknown")
                    .then(|| {
                        let f = m.func_by_name.get(&g.function)?;
                        self.model.unprovable_why.get(f).cloned()
                    })
                    .flatten();
                GoalStat {
                    goal: g.id,
                    result,
                    time_s: (t * 1000.0).round() / 1000.0,
                    refinements: r,
                    predicates: p,
                    why,
                }
            })
            .collect();
    }

    /// Goals still open that a proof may claim.
    fn provable_pending(&self, s: &dyn McHost, goals: &Goals) -> Vec<usize> {
        goals
            .goals
            .iter()
            .filter(|g| s.status()[g.id] == Status::Unknown)
            .filter(|g| {
                s.module()
                    .func_by_name
                    .get(&g.function)
                    .is_some_and(|f| !self.model.unprovable_funcs.contains(f))
            })
            .map(|g| g.id)
            .collect()
    }

    /// The Horn-clause prover on the open goals for `time`.
    fn run_chc(
        &mut self,
        s: &mut dyn McHost,
        goals: &Goals,
        time: Duration,
        joint_only: bool,
    ) -> anyhow::Result<()> {
        let targets = self.provable_pending(s, goals);
        self.chc_cut = !targets.is_empty();
        if targets.is_empty() || time.is_zero() {
            return Ok(());
        }
        let t = Instant::now();
        let started_at = t;
        let out = super::chc::prove(
            self,
            &goals.error_sites,
            goals.num_branches,
            &targets,
            time,
            self.cfg.max_nodes,
            joint_only,
        );
        self.stats.chc_queries += out.queries;
        self.stats.chc_time_s += t.elapsed().as_secs_f64();
        self.stats.certificate_failures += out.check_failures;
        self.chc_cut = out.cut;
        for n in out.notes {
            if !self.stats.notes.contains(&n) {
                self.stats.notes.push(n);
            }
        }
        for (g, t) in out.proven {
            if s.status()[g] == Status::Unknown {
                let t = t + (started_at - self.started).as_secs_f64();
                self.decided.insert(g, ("invariant".into(), t));
                s.prove_unreachable(g, "model checker (invariant)")?;
                self.stats.proved_unreachable += 1;
                self.stats.proved_by_invariant += 1;
            }
        }
        s.note_progress()?;
        Ok(())
    }

    /// Algorithm 2, with a second prover around it: Horn clauses first on every open goal
    /// (a quarter of the budget), then CEGAR until its share is spent (the closed ARG proves
    /// what it never reaches), then Horn clauses goal by goal on what is still open.
    pub fn run(&mut self, s: &mut dyn McHost) -> anyhow::Result<Arg> {
        let goals = s.goals().clone();
        let start = Instant::now();
        self.session_end = Some(s.budget_end());
        self.deferred = 0;
        self.started = start;
        let total = self.cfg.time;
        self.stats.notes = self.model.notes.clone();
        // Few open goals (error goals, or what testing left): invariants first. Many: CEGAR
        // first, which also turns the reachable ones into tests.
        // Many: one joint query first (all open goals may be infeasible, as after testing).
        let open = self.provable_pending(s, &goals).len();
        let chc_share = 0.5f64.powi(self.chc_misses.min(2));
        let by_invariant = self.stats.proved_by_invariant;
        if !self.cfg.chc_first {
        } else if open <= 4 {
            self.run_chc(s, &goals, (total * 2 / 5).mul_f64(chc_share), false)?;
        } else {
            self.run_chc(s, &goals, (total / 5).mul_f64(chc_share), true)?;
        }
        if self.provable_pending(s, &goals).is_empty()
            && goals
                .goals
                .iter()
                .all(|g| s.status()[g.id] != Status::Unknown)
        {
            self.goal_statistics(s, &goals);
            return Ok(Arg::default());
        }
        // CEGAR refines until 60% of the budget is spent; completing the ARG may take longer.
        let deadline = start + total * 3 / 5;
        self.cfg.time = total.saturating_sub(start.elapsed()) / 2;
        // Completing the ARG may take a while longer, but never past the session's budget.
        let session_end = s.budget_end();
        self.hard_deadline = Some((deadline + self.cfg.time / 2).min(session_end));
        self.solver.set_deadline(self.hard_deadline);
        let arg = loop {
            if let Some(a) = self.build(s, &goals, deadline)? {
                break a;
            }
        };
        self.cfg.time = total;
        self.stats.arg_nodes = arg.nodes.len();
        self.stats.complete = arg.complete;
        if crate::debug_on!("mc") {
            let mut locs: Vec<&Loc> = self.preds.keys().collect();
            locs.sort();
            for l in locs {
                let ps: Vec<String> = self.preds[l]
                    .iter()
                    .map(|p| self.model.pool.show(*p))
                    .collect();
                crate::debug_log!("mc", "{l:?}: {}", ps.join("  "));
            }
        }
        // The closed ARG proves what it never reaches, once a fresh solver has checked it.
        let reached_goals: HashSet<u32> = arg.nodes.iter().filter_map(|n| n.goal).collect();
        let reached_sites: HashSet<u32> = arg.nodes.iter().filter_map(|n| n.error_site).collect();
        let provable: Vec<usize> = goals
            .goals
            .iter()
            // Branch and error goals (a session of a def-use run has the pairs after them).
            .take(goals.num_branches + goals.error_sites.len())
            .filter(|g| {
                let reached = if g.id < goals.num_branches {
                    reached_goals.contains(&(g.id as u32))
                } else {
                    reached_sites.contains(&goals.error_sites[g.id - goals.num_branches])
                };
                let func = s.module().func_by_name.get(&g.function).copied();
                s.status()[g.id] == Status::Unknown
                    && !reached
                    && func.is_some_and(|f| !self.model.unprovable_funcs.contains(&f))
            })
            .map(|g| g.id)
            .collect();
        let certified = arg.complete && (!provable.is_empty() || self.cfg.certify_always) && {
            let t = Instant::now();
            let budget = total.saturating_sub(start.elapsed()).max(total / 4);
            let r = super::certify::check_arg(self, &arg, (t + budget).min(session_end));
            self.stats.certificate_time_s += t.elapsed().as_secs_f64();
            if let Err(e) = &r {
                if crate::debug_on!("mc") {
                    crate::debug_log!("mc", "ARG certificate rejected: {e}");
                }
                self.stats.certificate_failures += 1;
                self.stats.notes.push(format!(
                    "ARG certificate rejected ({e}): its proofs are dropped"
                ));
            }
            r.is_ok()
        };
        self.last_certified = certified;
        if certified {
            for g in provable {
                let t = self.started.elapsed().as_secs_f64();
                self.decided.insert(g, ("arg".into(), t));
                s.prove_unreachable(g, "model checker")?;
                self.stats.proved_unreachable += 1;
            }
        }
        let left = total.saturating_sub(start.elapsed());
        if !s.interrupted() {
            // With nothing left for CEGAR to refine, the invariants get all the time left.
            let share = if self.deferred == 0 { 1.0 } else { chc_share };
            self.run_chc(s, &goals, left.mul_f64(share), false)?;
        }
        // A prover cut short by the clock has not missed: on a loaded machine its share must
        // not shrink, or it never gets the time it needs.
        self.chc_misses = if self.stats.proved_by_invariant > by_invariant {
            0
        } else if self.chc_cut {
            self.chc_misses
        } else {
            self.chc_misses + 1
        };
        self.goal_statistics(s, &goals);
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
