//! Concolic testing (Algorithm 1 of the abstraction-driven concolic testing paper): run, record
//! the symbolic path, let the strategy pick a pending branch, solve its path condition, run the
//! solution. Its guests live beside it: crabs' monitors (`monitors`), the handling of runs cut
//! by the step limit (`step_limit`), inputs run besides the solver's (`seeds`), and what it does
//! when it stops finding anything (`stall`).

mod audit;
mod monitors;
mod seeds;
mod stall;
mod step_limit;

pub use monitors::MonitorStats;
pub use stall::STALL_BURST;

use crate::analysis::cfg::{Distances, Icfg};
use crate::analysis::ledger::Status;
use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::exec::input::{RandomInputs, Seeded};
use crate::exec::revisit::{LoopHeads, Visited};
use crate::exec::shadow::{BranchRecord, Exactness, Shadow};
use crate::exec::{Config, InputKind, InputValue, Outcome, RunResult};
use crate::search::product::Product;
use crate::search::slow_goals::SlowGoals;
use crate::search::tree::{Pending, RunPath, Tree};
use crate::search::{Ctx, PendingPool, Strategy};
use crate::smt::expr::Pool;
use crate::smt::solver::{Answer, SolverFront, SolverKind};
use crate::smt::walk::WalkConfig;
use monitors::MonitorGuide;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use seeds::WordSpelling;
use stall::Stalls;
use std::rc::Rc;
use std::time::{Duration, Instant};
use step_limit::{STEP_LIMIT_RETRIES, StepLimits, signed_magnitude};

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ConcolicStats {
    pub paths: u64,
    pub pending_left: usize,
    pub infeasible: u64,
    pub tree_nodes: usize,
    /// Every pending branch was tried.
    pub exhausted: bool,
    /// Goals proven unreachable because the exhausted tree was exact.
    pub exhaustive_proofs: usize,
    /// Why the tree may not be exact, per reason (all zero: it is).
    pub inexact: Inexactness,
    /// Solutions solved again with smaller values after their run hit the step limit.
    pub step_limit_retries: u64,
    /// Of those, retries that finished within the limit.
    pub step_limit_recovered: u64,
    /// Pending branches deep in a step-limited run, held back until nothing else is pending.
    pub deep_deferred: u64,
    /// Inputs other techniques or workers found, explored from.
    pub seeds_imported: u64,
    /// `--shard`: branches left to other shards (their paths are in another share), and
    /// whether this shard's share of the paths was explored exactly.
    pub other_shards_paths: u64,
    pub path_share_exhausted: bool,
    /// Searches started afresh because their tree held half of Cairn's memory.
    pub memory_restarts: u64,
    /// Fresh random inputs run after long stretches without new coverage.
    pub fresh_starts: u64,
    /// Flips solved with a fraction of the solver's time: earlier flips toward their goal
    /// timed out (`search::slow_goals`).
    pub shortened_queries: u64,
    /// The exhausted tree's check before it proved (`audit`); proofs only when it holds.
    pub exhaustion_audit: Option<audit::ExhaustionAudit>,
    /// Runs whose recording stopped at a loop header in a state an earlier run was in there
    /// (`exec::revisit`), and the distinct states seen at loop headers.
    pub revisits: u64,
    pub revisit_states: usize,
}

/// Everything that withholds exhaustive-exploration proofs. An exhausted execution tree proves
/// every goal it did not cover unreachable only when all of these are zero: then the recorded
/// decisions are exactly the input-dependent branches, every alternative was decided by the
/// solver, and every run ran to its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Inexactness {
    /// Symbolic values concretized, paths truncated, calls not modelled (per run, summed).
    #[serde(flatten)]
    pub shadow: Exactness,
    /// Runs that did not follow the predicted prefix and branch.
    pub divergences: u64,
    /// Pending branches abandoned because the solver answered unknown or timed out.
    pub solver_unknown: u64,
    /// Runs cut by the instruction limit.
    pub step_limit_runs: u64,
    /// Runs stopped by a construct Cairn cannot execute.
    pub unsupported_runs: u64,
    /// Runs stopped at a memory error a native run usually goes past, or meets elsewhere
    /// (`natively_silent`): the branches after it are natively reachable, and the tree does
    /// not hold them.
    pub silent_fault_runs: u64,
    /// Runs cut short by the deadline, an interrupt or the memory limit: the tree holds only
    /// their prefix, the branches after the cut are missing from it.
    pub cut_runs: u64,
    /// Inputs given a fixed size or value: unit-mode pointer parameters (buffers of a fixed
    /// size), `main`'s argc/argv when the program reads them.
    pub bounded_inputs: u64,
    /// Branches never negated because a monitor proved them infeasible: the tree is then
    /// only as exact as the model checker's abstraction, and the model checker proves goals.
    pub monitor_blocked: u64,
}

impl Inexactness {
    pub fn is_exact(&self) -> bool {
        *self == Inexactness::default()
    }
}

/// A fault the interpreter stops at but a native run usually goes past: glibc lets a read or
/// write a little out of bounds, or into freed memory, through without a signal (an
/// SV-COMP task reading `b[-2]` of a heap block takes a branch on what lies there). Null
/// dereferences, division by zero and bad frees do stop the native run (SIGSEGV, SIGFPE,
/// glibc's abort).
/// A stack overflow counts too: the interpreter's frames are estimates of native ones, and
/// natively an oversized array (`int A[n][n][n]`) faults at an access to it, if ever, not where
/// it is declared — the branches before that access are natively reachable.
fn natively_silent(kind: &str) -> bool {
    use crate::exec::memory::MemFault;
    [MemFault::OutOfBounds, MemFault::UseAfterFree]
        .iter()
        .any(|f| f.describe() == kind)
        || kind.starts_with(MemFault::StackOverflow.describe())
}

/// Inputs the harness fixes: pointer parameters of a unit-mode entry, argc/argv of a `main`
/// that reads them.
fn bounded_inputs(p: &crate::exec::Program) -> u64 {
    let Some(f) = p.module.function(&p.entry) else {
        return 0;
    };
    if p.entry != "main" {
        // A struct passed by value is all input; a buffer has a fixed size.
        return f
            .params
            .iter()
            .enumerate()
            .filter(|(i, v)| v.ty() == crate::ir::Ty::Ptr && !f.byval.iter().any(|b| b.0 == *i))
            .count() as u64;
    }
    let params: Vec<crate::ir::Reg> = f
        .params
        .iter()
        .filter_map(|v| match v {
            crate::ir::Val::Reg(r, _) => Some(*r),
            _ => None,
        })
        .collect();
    let used = f.blocks.iter().any(|b| {
        b.insts
            .iter()
            .flat_map(crate::ir::operands::inst_operands)
            .chain(crate::ir::operands::term_operands(&b.term))
            .any(|r| params.contains(&r))
    });
    used as u64
}

/// How concolic search solves path conditions (`cairn gen --solver`, `--walk`, `--opaque`) and
/// whether it matches states at loop headers (`--no-state-matching`).
#[derive(Clone, Debug)]
pub struct SolverOptions {
    pub kind: SolverKind,
    pub walk: WalkConfig,
    /// Program functions whose calls stay opaque in path conditions.
    pub opaque: Vec<String>,
    /// More walks on a pending branch the walk did not solve.
    pub walk_retries: u32,
    /// Stop recording a run at a loop header in a state another run was in there
    /// (`exec::revisit`).
    pub state_matching: bool,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            kind: SolverKind::Portfolio,
            walk: WalkConfig::default(),
            opaque: vec![],
            walk_retries: 2,
            state_matching: true,
        }
    }
}

/// The solver's options of `gen`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Solver")]
pub struct SolverArgs {
    /// Path-condition solver: z3, walk (concolic walk), portfolio (z3, then the walk), or
    /// concretize (non-linear and opaque terms replaced by their values; the baseline).
    #[arg(long, default_value = "portfolio", value_parser = parse_solver)]
    pub solver: SolverKind,
    /// Concolic-walk parameters, `key=value,...` (steps, neighbours, tabu, samples, step,
    /// levels, bisection, restarts, time).
    #[arg(long, default_value = "", value_parser = WalkConfig::parse)]
    pub walk: WalkConfig,
    /// Functions of the program whose calls stay opaque in path conditions (evaluated
    /// concretely by the solver; they must be pure).
    #[arg(long, value_delimiter = ',')]
    pub opaque: Vec<String>,
    /// Record every run's decisions to its end, also past a loop header it reaches in a state
    /// another run was in there (by default the search stops recording there: that run's
    /// continuations are the same). For comparisons.
    #[arg(long)]
    pub no_state_matching: bool,
}

impl SolverArgs {
    pub fn options(&self) -> SolverOptions {
        SolverOptions {
            kind: self.solver,
            walk: self.walk.clone(),
            opaque: self.opaque.clone(),
            state_matching: !self.no_state_matching,
            ..Default::default()
        }
    }
}

fn parse_solver(s: &str) -> Result<SolverKind, String> {
    SolverKind::by_name(s)
        .ok_or_else(|| format!("unknown solver `{s}` (z3, walk, portfolio, concretize)"))
}

pub struct Concolic {
    pub pool: Pool,
    pub solver: SolverFront,
    pub tree: Tree,
    pub pending: PendingPool,
    pub strategy: Box<dyn Strategy>,
    pub rng: SmallRng,
    pub stats: ConcolicStats,
    icfg: Icfg,
    dist: Distances,
    dist_covered: usize,
    runs: usize,
    cfg: Config,
    seed: u64,
    pub stalls: Stalls,
    /// Pending branches the solver could not decide, kept for another try with more time
    /// once everything else is explored.
    undecided: Vec<Pending>,
    /// Trying the undecided branches again: every turn must hold one query with the longer
    /// time, or the retry is cut by the turn's end as the first try was.
    retrying: bool,
    /// Goals whose flips keep running the solver out of time.
    slow_goals: SlowGoals,
    /// Retries of pending branches the walk did not solve, by (tree node, outcome).
    walk_tries: std::collections::HashMap<(u32, usize), u32>,
    walk_retries: u32,
    /// The product explored (crabs); without monitors: the program itself.
    monitors: MonitorGuide,
    step_limits: StepLimits,
    /// Variables of the pool already classified as floating-point or not.
    vars_classified: usize,
    /// Entries of the session's corpus already explored from.
    seeds_seen: usize,
    spelling: WordSpelling,
    /// Inputs of runs that covered something new, ended right after the decision that did
    /// (`ended_after_news`): run before the next selection.
    ended_inputs: Vec<Vec<InputValue>>,
    /// The program's loop headers (None: it has none outside functions with aggregate
    /// registers) and the states runs were in there (`exec::revisit`).
    loop_heads: Option<Rc<LoopHeads>>,
    visited: Visited,
}

/// How often concolic search picks up what other workers found.
const IMPORT_EVERY: Duration = Duration::from_millis(500);
/// How often the search checks Cairn's memory: as often as the session checks its limit
/// (a search adding 15,000 paths in 2 s went from half the limit to all of it between two
/// checks 500 ms apart, and stopped instead of starting afresh).
const MEMORY_CHECK: Duration = Duration::from_millis(50);
/// A tree this small is not what fills the memory (another worker's is, or the model
/// checker's): it is kept.
const RESTART_MIN_NODES: usize = 100_000;

/// A run with its symbolic decisions.
pub struct SymbolicRun {
    pub result: RunResult,
    pub path: Vec<BranchRecord>,
    /// Where the decisions fall short of the run's input dependence.
    pub exactness: Exactness,
    /// The last input read as a character of stdin.
    pub last_char: Option<usize>,
}

/// Runs the program once with a symbolic shadow; with `revisits`, its recording stops at a
/// loop header in a state seen there before.
pub fn symbolic_run(
    s: &Session,
    pool: &mut Pool,
    input: &mut dyn crate::exec::InputSource,
    cfg: &Config,
    revisits: Option<(&LoopHeads, &mut Visited)>,
) -> SymbolicRun {
    let mut shadow = Shadow::for_search(pool);
    shadow.revisits = revisits;
    let mut result = s.program.run_observed(input, cfg, &mut shadow);
    shadow.annotate(&mut result);
    SymbolicRun {
        result,
        path: shadow.path,
        exactness: shadow.exactness,
        last_char: shadow.last_char,
    }
}

impl Concolic {
    pub fn new(
        s: &Session,
        mut strategy: Box<dyn Strategy>,
        seed: u64,
        cfg: &Config,
        opts: &SolverOptions,
    ) -> anyhow::Result<Concolic> {
        strategy.prepare(s.program);
        let icfg = Icfg::new(&s.program.module);
        let mut pool = Pool::new();
        if !opts.opaque.is_empty() {
            let fns = crate::exec::opaque::InterpretedFns::new(
                &s.program.module,
                &s.program.exts,
                &opts.opaque,
                cfg.max_steps,
            )
            .map_err(anyhow::Error::msg)?;
            pool.user_fns = Some(crate::smt::opaque::UserFnsRef(Rc::new(fns)));
        }
        let mut solver =
            SolverFront::new(opts.kind, Duration::from_secs(5), opts.walk.clone(), seed);
        solver.small_models = true;
        Ok(Concolic {
            pool,
            solver,
            tree: Tree::default(),
            pending: PendingPool::default(),
            strategy,
            rng: SmallRng::seed_from_u64(seed),
            stats: ConcolicStats {
                inexact: Inexactness {
                    bounded_inputs: bounded_inputs(s.program),
                    ..Default::default()
                },
                ..Default::default()
            },
            icfg,
            dist: Distances::unknown(),
            dist_covered: usize::MAX,
            runs: 0,
            cfg: cfg.clone(),
            seed,
            stalls: Stalls::default(),
            undecided: vec![],
            retrying: false,
            slow_goals: SlowGoals::default(),
            walk_tries: Default::default(),
            walk_retries: opts.walk_retries,
            monitors: MonitorGuide::default(),
            step_limits: StepLimits::default(),
            vars_classified: 0,
            seeds_seen: 0,
            spelling: WordSpelling::default(),
            ended_inputs: vec![],
            // Data-flow goals depend on which definitions reach a state (the def-use tracker's,
            // not the program's), which a state's fingerprint does not hold.
            loop_heads: (opts.state_matching && s.program.def_use.is_none())
                .then(|| LoopHeads::of(&s.program.module))
                .flatten()
                .map(Rc::new),
            visited: Visited::default(),
        })
    }

    /// Explores the product of the program with `product`'s monitors from now on.
    pub fn set_product(&mut self, product: Product) {
        self.monitors = MonitorGuide::new(product);
        // The product's distances and reach are computed afresh at the next run.
        self.dist_covered = usize::MAX;
    }

    /// What the product's monitors did (crabs).
    pub fn monitor_stats(&self) -> &MonitorStats {
        &self.monitors.stats
    }

    /// Adds pending branches to the pool and to the strategy.
    fn enqueue(&mut self, ps: Vec<Pending>, covered: &[bool]) {
        let mut ctx = Ctx {
            rng: &mut self.rng,
            covered,
            dist: &self.dist,
            product: Some(self.monitors.distances()),
        };
        for p in ps {
            let id = self.pending.add(p.clone());
            self.strategy.add(id, &p, &mut ctx);
        }
    }

    /// Goals the search no longer aims at. A shard aims at other shards' goals too: its share
    /// of the paths may be the only one that reaches them.
    fn covered(s: &Session) -> Vec<bool> {
        s.ledger
            .status
            .iter()
            .map(|st| !matches!(st, Status::Unknown | Status::OtherShard))
            .collect()
    }

    fn refresh_distances(&mut self, s: &Session) {
        let c = s.ledger.covered + s.ledger.unreachable;
        if c != self.dist_covered {
            let covered = Self::covered(s);
            self.dist = Distances::compute(&self.icfg, &covered);
            self.dist_covered = c;
            let open: Vec<bool> = covered.iter().map(|c| !c).collect();
            self.monitors.refresh(&open);
        }
    }

    /// Executes one input, records it in the session and the tree.
    pub fn execute(
        &mut self,
        s: &mut Session,
        input: &mut dyn crate::exec::InputSource,
        cfg: &Config,
        bound: usize,
        found_by: &str,
    ) -> anyhow::Result<Rc<RunPath>> {
        let (
            SymbolicRun {
                result: r,
                path: records,
                exactness,
                last_char,
            },
            decisions,
        ) = if self.monitors.active() {
            self.monitors.run(s, &mut self.pool, input, cfg)
        } else {
            // A shard's tree holds its share of the paths only: another shard's run may be
            // the one that reached a state first.
            let revisits = (s.shared().path_shard.get().is_none())
                .then_some(self.loop_heads.as_deref())
                .flatten()
                .map(|h| (h, &mut self.visited));
            (
                symbolic_run(s, &mut self.pool, input, cfg, revisits),
                vec![],
            )
        };
        self.stats.revisits = self.visited.revisits;
        self.stats.revisit_states = self.visited.states();
        self.stats.paths += 1;
        let inexact = &mut self.stats.inexact;
        inexact.shadow.add(&exactness);
        match r.outcome {
            Outcome::StepLimit => inexact.step_limit_runs += 1,
            Outcome::Unsupported { .. } if r.uninitialized_at.is_none() => {
                inexact.unsupported_runs += 1
            }
            Outcome::Cut(_) => inexact.cut_runs += 1,
            Outcome::Fault { ref kind, .. } if natively_silent(kind) => {
                inexact.silent_fault_runs += 1
            }
            _ => {}
        }
        self.classify_vars(&r.inputs);
        self.step_limits.last = r.outcome == Outcome::StepLimit;
        let fresh = if self.step_limits.last {
            vec![]
        } else {
            s.record(&r, found_by)?
        };
        if crate::debug_on!("paths") {
            crate::debug_log!(
                "paths",
                "run: {} symbolic decisions, {} goals new, {exactness:?}, inputs {:?}",
                records.len(),
                fresh.len(),
                r.inputs.iter().map(|i| i.to_text()).collect::<Vec<_>>()
            );
        }
        self.stalls.note_run(!fresh.is_empty());
        if !fresh.is_empty()
            && let Some(ended) =
                seeds::ended_after_news(&mut self.pool, &records, &r, &fresh, last_char)
        {
            self.ended_inputs.push(ended);
        }
        self.runs += 1;
        let run = Rc::new(RunPath {
            id: self.runs,
            records,
            inputs: r.inputs.clone(),
            new_goals: fresh.len(),
            bound,
            // A step-limited run is held with its observations, to be recorded later.
            observed: r.observed.clone(),
        });
        let mut new = self.tree.insert(&run);
        self.refresh_distances(s);
        // Those the monitors lack are infeasible: never negated.
        self.stats.inexact.monitor_blocked += self.monitors.admit(&decisions, &mut new);
        let covered = Self::covered(s);
        let mut kept = Vec::with_capacity(new.len());
        let path_shard = s.shared().path_shard.get().copied();
        for p in new {
            // Another shard explores the paths this branch leads to.
            if let Some(shard) = path_shard {
                let taken = p.run.records[..p.depth].iter().map(|r| r.taken);
                if shard.owns_path(taken.chain([p.outcome])) == Some(false) {
                    self.stats.other_shards_paths += 1;
                    self.tree.leave_to_other_shard(p.node, p.outcome);
                    continue;
                }
            }
            if self.step_limits.defers(&p, bound) {
                self.stats.deep_deferred += 1;
                continue;
            }
            kept.push(p);
        }
        self.enqueue(kept, &covered);
        let mut ctx = Ctx {
            rng: &mut self.rng,
            covered: &covered,
            dist: &self.dist,
            product: Some(self.monitors.distances()),
        };
        self.strategy.on_run(&run, &mut ctx);
        self.stats.tree_nodes = self.tree.len();
        if self.step_limits.last {
            self.step_limits.hold(r, found_by);
        }
        Ok(run)
    }

    /// Runs `values` (random inputs from `rng_seed` past their end) into the tree.
    fn run_values(
        &mut self,
        s: &mut Session,
        cfg: &Config,
        values: Vec<InputValue>,
        rng_seed: u64,
    ) -> anyhow::Result<Rc<RunPath>> {
        let mut src = Seeded {
            values,
            pos: 0,
            fallback: RandomInputs {
                rng: SmallRng::seed_from_u64(rng_seed),
            },
        };
        self.execute(s, &mut src, cfg, 0, "concolic")
    }

    /// Runs the inputs other techniques and workers found since the last call, so that the
    /// search goes on from them too (a model checker's deep counterexample, lazy expansion's
    /// concretized paths, another strategy's tests).
    fn import_seeds(&mut self, s: &mut Session, cfg: &Config) -> anyhow::Result<()> {
        let seeds = s.seeds_since(self.seeds_seen);
        self.seeds_seen += seeds.len();
        for seed in seeds {
            let own = seed.session == s.id && matches!(seed.found_by.as_str(), "concolic" | "walk");
            if own || s.should_stop() {
                continue;
            }
            self.stats.seeds_imported += 1;
            self.run_values(s, cfg, seed.inputs, self.seed)?;
        }
        Ok(())
    }

    /// Notes the pool's new variables that hold floating-point inputs (the solver prefers
    /// small integers, not small bit patterns).
    fn classify_vars(&mut self, inputs: &[InputValue]) {
        let vars = self.pool.vars.clone();
        for key in &vars[self.vars_classified..] {
            if let Some(iv) = inputs.get(key.input as usize)
                && matches!(iv.kind, InputKind::Float | InputKind::Double)
            {
                let id = self.pool.var(*key);
                if let crate::smt::expr::Node::Var { id, .. } = self.pool.node(id) {
                    self.solver.floats.insert(*id);
                }
            }
        }
        self.vars_classified = vars.len();
    }

    /// Inputs for a pending branch from a solver model: the inputs of the run it came from,
    /// with the solved variables replaced.
    fn inputs_for(&self, p: &Pending, a: &crate::smt::solver::Assignment) -> Vec<InputValue> {
        with_solution(&self.pool, p.run.inputs.clone(), a)
    }

    /// Tries one pending branch: solve, run. Returns false when no pending branch is left.
    pub fn step(&mut self, s: &mut Session, cfg: &Config) -> anyhow::Result<bool> {
        if let Some(values) = self.ended_inputs.pop() {
            self.run_values(s, cfg, values, self.stats.paths)?;
            return Ok(true);
        }
        if self.stalls.fresh_start_due() {
            // Every flip near the paths explored so far may be caught in the same trap (a loop
            // bound parsed from the input's first line that every later path inherits): a new
            // random input adds paths elsewhere, and the strategies' picks from the latest path
            // start from it.
            self.stats.fresh_starts += 1;
            self.run_values(s, cfg, vec![], self.seed ^ self.stats.paths)?;
            return Ok(true);
        }
        self.refresh_distances(s);
        let covered = Self::covered(s);
        let id = {
            let mut ctx = Ctx {
                rng: &mut self.rng,
                covered: &covered,
                dist: &self.dist,
                product: Some(self.monitors.distances()),
            };
            self.strategy.select(&self.pending, &mut ctx)
        };
        let Some(id) = id else {
            // Deferred deep branches of step-limited runs, then the set-aside ones: the
            // product says they lead to no open goal.
            let mut released = self.step_limits.release_shallowest();
            if released.is_empty() {
                released = self.monitors.release();
            }
            if released.is_empty() {
                self.stats.pending_left = self.pending.live();
                return Ok(false);
            }
            self.enqueue(released, &covered);
            return Ok(true);
        };
        let Some(p) = self.pending.take(id) else {
            return Ok(true);
        };
        let Some(p) = self.monitors.unless_hopeless(p, &covered) else {
            return Ok(true);
        };
        let (prefix, goal) = p.query();
        let ans = self.solve_pending(&p, &prefix, goal);
        if crate::debug_on!("paths") {
            let r = &p.run.records[p.depth];
            crate::debug_log!(
                "paths",
                "flip: depth {} of {} ({:?}/{:?} -> {}) by {}: {ans:?}",
                p.depth,
                p.run.records.len(),
                r.func,
                r.block,
                p.outcome,
                self.solver.last_backend
            );
        }
        match ans {
            Answer::Sat(a) => {
                self.run_solution(s, &p, &a, cfg)?;
            }
            Answer::Unsat => {
                self.stats.infeasible += 1;
                self.tree.mark_infeasible(p.node, p.outcome);
            }
            Answer::Unknown => {
                // The walk is a randomized search: a branch it missed gets a few more tries
                // (each continues the walk's random sequence). Only a branch given up on
                // makes the exploration inexact.
                let tries = self.walk_tries.entry((p.node, p.outcome)).or_insert(0);
                if self.solver.last_backend == "walk" && *tries < self.walk_retries {
                    *tries += 1;
                    self.enqueue(vec![p], &covered);
                } else {
                    self.stats.inexact.solver_unknown += 1;
                    self.undecided.push(p);
                }
            }
        }
        self.stats.pending_left = self.pending.live();
        Ok(true)
    }
}

impl Concolic {
    /// Solves a pending branch's query from its run's values.
    fn solve_pending(
        &mut self,
        p: &Pending,
        prefix: &[crate::smt::expr::ExprId],
        goal: crate::smt::expr::ExprId,
    ) -> Answer {
        // A shared handle, released before the next run adds variables (no copy is made).
        let vars = self.pool.vars.clone();
        let current = |v: u32| -> u64 {
            let k = vars[v as usize];
            match p.run.inputs.get(k.input as usize) {
                Some(iv) if iv.kind == InputKind::Bytes => {
                    iv.bytes().get(k.byte as usize).copied().unwrap_or(0) as u64
                }
                Some(iv) => iv.bits,
                None => 0,
            }
        };
        // Flips toward a goal whose queries kept timing out get a fraction of the time.
        let divisor = self.slow_goals.time_divisor(p.goal);
        if divisor > 1 {
            self.stats.shortened_queries += 1;
        }
        let (timeout, short) = (self.solver.timeout, self.solver.short_timeout);
        self.solver.timeout /= divisor;
        self.solver.short_timeout /= divisor;
        let start = Instant::now();
        let ans = self.solver.solve(&mut self.pool, prefix, goal, &current);
        (self.solver.timeout, self.solver.short_timeout) = (timeout, short);
        self.slow_goals
            .record(p.goal, ans != Answer::Unknown, start.elapsed());
        ans
    }

    /// Runs a solution of a pending branch; when the run hits the step limit, solves again
    /// with every integer input at most an eighth of the largest magnitude the solution used,
    /// until a run finishes.
    fn run_solution(
        &mut self,
        s: &mut Session,
        p: &Pending,
        a: &crate::smt::solver::Assignment,
        cfg: &Config,
    ) -> anyhow::Result<()> {
        let mut a = a.clone();
        let mut retries = 0;
        loop {
            let values = if a.is_empty() {
                p.run.inputs.clone()
            } else {
                self.inputs_for(p, &a)
            };
            let mut src = Seeded {
                values,
                pos: 0,
                fallback: RandomInputs {
                    rng: SmallRng::seed_from_u64(self.stats.paths),
                },
            };
            let by = if self.solver.last_backend == "walk" {
                "walk"
            } else {
                "concolic"
            };
            let run = self.execute(s, &mut src, cfg, p.depth + 1, by)?;
            let followed = run.records.len() > p.depth
                && run.records[p.depth].taken == p.outcome
                && (p.depth == 0
                    || run.records[p.depth - 1].block == p.run.records[p.depth - 1].block);
            if !followed {
                self.stats.inexact.divergences += 1;
            }
            if retries > 0 && !self.step_limits.last {
                self.stats.step_limit_recovered += 1;
            }
            if !self.step_limits.last || retries == STEP_LIMIT_RETRIES || s.should_stop() {
                return Ok(());
            }
            let largest = a
                .iter()
                .filter(|(v, _)| !self.solver.floats.contains(v))
                .map(|(v, x)| {
                    let w = self.pool.vars[*v as usize].w as u32;
                    signed_magnitude(*x, w)
                })
                .max()
                .unwrap_or(0);
            if largest < 8 {
                return Ok(());
            }
            retries += 1;
            self.stats.step_limit_retries += 1;
            let (prefix, goal) = p.query();
            self.solver.magnitude_cap = Some(largest / 8);
            let ans = self.solve_pending(p, &prefix, goal);
            self.solver.magnitude_cap = None;
            match ans {
                Answer::Sat(b) if !b.is_empty() => a = b,
                _ => return Ok(()),
            }
        }
    }

    /// A random run to start the tree from.
    fn first_run(&mut self, s: &mut Session, cfg: &Config) -> anyhow::Result<()> {
        let mut first = RandomInputs {
            rng: SmallRng::seed_from_u64(self.seed.wrapping_add(self.stats.memory_restarts)),
        };
        let run = self.execute(s, &mut first, cfg, 0, "concolic")?;
        if self.step_limits.last {
            self.step_limits.start_shrinking(run.inputs.clone());
        }
        Ok(())
    }

    /// Runs the program's keywords spelled into its latest tests, once (`seeds::WordSpelling`).
    fn spell_words(&mut self, s: &mut Session, cfg: &Config) -> anyhow::Result<()> {
        // Slow runs (long loops, step limits) must not make spelling the search's main work.
        let started = Instant::now();
        let share = s.budget.time / 20;
        for values in self.spelling.due(s, self.runs) {
            if s.should_stop() || started.elapsed() > share {
                break;
            }
            self.run_values(s, cfg, values, self.seed)?;
        }
        Ok(())
    }

    /// Cairn's memory is past half its limit and this search's tree is big enough to be why.
    /// Wide path spaces fill gigabytes in seconds (a million pending branches), and the
    /// session's limit would end the whole run, the model checker's turns included.
    fn holds_half_the_memory(&self, s: &Session) -> bool {
        self.tree.len() >= RESTART_MIN_NODES
            && s.memory_limit.is_some_and(|limit| {
                crate::exec::memory::resident_memory().is_some_and(|r| r > limit / 2)
            })
    }

    /// Drops the tree, the pending branches and the terms, and starts a new search (with
    /// another random seed): what is covered stays covered, and the statistics add up.
    /// Exhausting the new tree still proves what it leaves uncovered: it is a tree of its own.
    pub fn start_afresh(&mut self, s: &mut Session) -> anyhow::Result<()> {
        self.step_limits.record_held(s)?;
        self.stats.memory_restarts += 1;
        self.pool = self.pool.emptied();
        self.solver.forget_terms();
        self.tree = Tree::default();
        self.visited = Visited::default();
        self.pending = PendingPool::default();
        let mut strategy = self.strategy.fresh();
        strategy.prepare(s.program);
        self.strategy = strategy;
        self.rng = SmallRng::seed_from_u64(self.seed.wrapping_add(self.stats.memory_restarts));
        self.dist_covered = usize::MAX;
        self.monitors.forget_tree();
        self.undecided.clear();
        self.retrying = false;
        self.walk_tries.clear();
        self.step_limits.forget_tree();
        self.vars_classified = 0;
        self.seeds_seen = 0;
        self.runs = 0;
        crate::exec::memory::release_free_memory();
        Ok(())
    }

    /// A first run cut by the step limit runs again with its integer inputs shifted 8 bits
    /// towards zero, until one finishes (a few times at most), within the turn: each retry can
    /// be as long as the first run, and the other techniques' turns must still come.
    fn shrink_first_run(
        &mut self,
        s: &mut Session,
        cfg: &Config,
        until: Instant,
    ) -> anyhow::Result<()> {
        // Called at every step: nothing to do costs no clock read.
        while self.step_limits.shrinking() && !s.should_stop() && Instant::now() < until {
            let Some(values) = self.step_limits.next_shrunk() else {
                return Ok(());
            };
            self.stats.step_limit_retries += 1;
            let cut = self.stats.inexact.cut_runs;
            let run = self.run_values(s, cfg, values, self.stats.paths)?;
            if self.step_limits.last {
                self.step_limits.retry_limited(run.inputs.clone());
            } else if self.stats.inexact.cut_runs == cut {
                self.stats.step_limit_recovered += 1;
                self.step_limits.stop_shrinking();
            }
        }
        Ok(())
    }

    /// Queues again, with twice the solver time, the pending branches the solver could not
    /// decide (a loaded machine or a hard query); false when there are none.
    fn retry_undecided(&mut self, s: &Session) -> bool {
        let left = s.deadline().saturating_duration_since(Instant::now());
        // The portfolio gives Z3 the short timeout: a retry is worth it while twice that fits.
        self.retrying = !self.undecided.is_empty() && self.solver.short_timeout * 2 <= left;
        if !self.retrying {
            return false;
        }
        self.solver.timeout *= 2;
        self.solver.short_timeout *= 2;
        let covered = Self::covered(s);
        let undecided = std::mem::take(&mut self.undecided);
        self.stats.inexact.solver_unknown -= undecided.len() as u64;
        self.enqueue(undecided, &covered);
        true
    }

    /// The tree holds every path of the program, exactly.
    fn exhausted_exactly(&self) -> bool {
        self.pending.live() == 0 && self.tree.divergent_nodes == 0 && self.stats.inexact.is_exact()
    }

    /// Exhaustive exploration proof: the exact tree has every feasible path, so every goal no
    /// run covered is unreachable (other shards' goals too: the proof is of the whole program).
    fn prove_uncovered(&mut self, s: &mut Session) -> anyhow::Result<()> {
        for g in 0..s.goals.len() {
            if matches!(s.ledger.status[g], Status::Unknown | Status::OtherShard) {
                s.prove_unreachable(g, "exhaustive")?;
                self.stats.exhaustive_proofs += 1;
            }
        }
        Ok(())
    }
}

impl Technique for Concolic {
    fn name(&self) -> &'static str {
        "concolic"
    }

    /// Concolic testing until `until`, the end of the budget, or every path has been explored.
    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        let cfg = self.cfg.clone();
        self.solver.deadline = Some(until.min(s.deadline()));
        if self.runs == 0 {
            self.first_run(s, &cfg)?;
        }
        self.stalls.turn_starts(s.ledger.covered);
        let mut imported = Instant::now();
        let mut memory_checked = Instant::now();
        self.import_seeds(s, &cfg)?;
        while !s.should_stop() && Instant::now() < until && !self.stats.exhausted {
            if imported.elapsed() >= IMPORT_EVERY {
                imported = Instant::now();
                self.import_seeds(s, &cfg)?;
            }
            self.spell_words(s, &cfg)?;
            if memory_checked.elapsed() >= MEMORY_CHECK {
                memory_checked = Instant::now();
                if self.holds_half_the_memory(s) {
                    self.start_afresh(s)?;
                    self.first_run(s, &cfg)?;
                    self.import_seeds(s, &cfg)?;
                }
            }
            // Within the loop: a restart's first run is retried as well.
            self.shrink_first_run(s, &cfg, until)?;
            if !self.step(s, &cfg)? {
                // Every pending branch the strategy offers has been tried.
                if self.retry_undecided(s) {
                    // In a turn of their own (`min_turn`): what is left of this one may be as
                    // short as what the first tries had.
                    break;
                }
                if self.exhausted_exactly() {
                    self.stats.exhausted = true;
                    let audit = audit::ExhaustionAudit::of(
                        &self.tree,
                        &self.solver,
                        &self.pool,
                        s.deadline(),
                    );
                    self.stats.exhaustion_audit = Some(audit);
                    if !audit.holds() {
                        if audit.found_a_fault() {
                            eprintln!(
                                "cairn: warning: the explored paths failed their check, no exhaustive proofs (please report): {audit:?}"
                            );
                        }
                        break;
                    }
                    if s.shared().path_shard.get().is_some() {
                        self.stats.path_share_exhausted = true;
                        s.shared().exhaust_paths();
                    }
                    // A shard that left no branch to the others explored every path; one that
                    // did, only its share: the merge proves once every share is explored.
                    if self.stats.other_shards_paths == 0 {
                        self.prove_uncovered(s)?;
                    }
                    break;
                }
                // Random restarts can still help where the shadow lost track of the inputs.
                let lost = &self.stats.inexact;
                if lost.shadow.concretized == 0
                    && lost.shadow.unmodelled_calls == 0
                    && lost.divergences == 0
                    && self.tree.divergent_nodes == 0
                {
                    self.stats.exhausted = true;
                    break;
                }
                let mut r = RandomInputs {
                    rng: SmallRng::seed_from_u64(self.seed.wrapping_add(self.stats.paths)),
                };
                self.execute(s, &mut r, &cfg, 0, "concolic")?;
            }
            self.stalls.after_step(s, self.seed, &cfg, until)?;
            s.tick(|| {
                format!(
                    "paths {} | pending {} | solver {} calls {:.1}s",
                    self.stats.paths,
                    self.pending.live(),
                    self.solver.stats.backend_calls,
                    self.solver.stats.time_s
                )
            });
        }
        self.stats.pending_left = self.pending.live() + self.step_limits.deferred();
        self.stalls.turn_ends();
        self.step_limits.record_held(s)
    }

    fn finished(&self) -> bool {
        self.stats.exhausted
    }

    /// A query's time: `bounded_by` gives it two thirds of what the turn has left.
    fn min_turn(&self) -> Duration {
        if self.retrying {
            self.solver.short_timeout * 3 / 2
        } else {
            Duration::ZERO
        }
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("strategy".into(), self.strategy.name().into());
        m.extend(self.strategy.stats());
        // The monitors' counts (crabs) sit with the search's.
        let mut concolic = serde_json::to_value(&self.stats).unwrap();
        if let (Some(c), serde_json::Value::Object(monitors)) = (
            concolic.as_object_mut(),
            serde_json::to_value(self.monitor_stats()).unwrap(),
        ) {
            c.extend(monitors);
        }
        m.insert("concolic".into(), concolic);
        m.insert(
            "solver".into(),
            serde_json::to_value(&self.solver.stats).unwrap(),
        );
        m
    }
}

/// `inputs` with the values of solution `a` in place: the variables of `pool` name which input
/// (and which byte of a buffer) each is.
pub fn with_solution(
    pool: &Pool,
    mut inputs: Vec<InputValue>,
    a: &crate::smt::solver::Assignment,
) -> Vec<InputValue> {
    for (var, val) in a {
        let key = pool.vars[*var as usize];
        let Some(iv) = inputs.get_mut(key.input as usize) else {
            continue;
        };
        if iv.kind == InputKind::Bytes {
            if let Some(b) = iv.bytes_mut().get_mut(key.byte as usize) {
                *b = *val as u8;
            }
        } else if key.w as u32 == iv.width {
            iv.bits = crate::ir::ops::mask(*val, iv.width);
        }
    }
    inputs
}
