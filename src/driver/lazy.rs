//! Lazy expansion (LATEST: Majumdar and Sen, "Lazy dynamic test input generation").
//!
//! *Abstract exploration* (section 3): concolic search over the entry function with every
//! input-dependent call of a chosen function abstracted — its result, and what it may write,
//! are fresh inputs ([`Abstracting`]). Each such run is an *abstract path*; it covers nothing.
//!
//! *Concretization* (sections 4.1–4.2), stateless: an abstract path is its inputs, the number
//! of candidate calls it expands, and its branch decisions. To concretize it, expand its first
//! abstracted call: explore the callee's paths (its own calls abstracted in turn) under the
//! decisions before the call, depth-first; for each callee path, re-execute concolically to
//! force the branches after the call to go the abstract path's way ("stitching": branches on
//! the callee's result are often concrete once it runs, so the whole branch trace is
//! compared, and only symbolic decisions can be forced); once they do,
//! the result is an abstract path with one more call expanded — recurse. A callee path that
//! cannot be stitched is backtracked over; when the callee has no path left, the level fails
//! and the level above tries its next callee path. A path with no abstracted call is a real
//! run: it is recorded, and only such runs cover goals or become tests. Side effects need no
//! special care: every check is a re-execution of the real program.
//!
//! An abstract path whose search ends without a real run is *dropped*; one that takes more than
//! `max_runs_per_path` runs is *abandoned* (both counted). Lazy expansion proves nothing: its
//! runs of the abstraction are inexact (`abstracted_calls`).

use crate::analysis::cfg::{Distances, Icfg};

/// Lazy expansion's option of `gen`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Lazy expansion")]
pub struct LazyArgs {
    /// Lazy expansion: abstract calls of these functions (comma-separated), or of every
    /// input-dependent function (`auto`), and expand them on demand.
    #[arg(long, value_name = "auto|F,G")]
    pub lazy: Option<String>,
}
use crate::analysis::ledger::Status;
use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::exec::abstraction::{
    Abstracting, Branch, CallMark, InputKey, LazyInputs, Policy, RunPoint, Selection,
};
use crate::exec::shadow::{BranchRecord, Exactness, Shadow};
use crate::exec::{Config, InputKind, InputValue};
use crate::search::tree::{Pending, RunPath, Tree};
use crate::search::{Ctx, PendingPool, Strategy};
use crate::smt::expr::Pool;
use crate::smt::solver::{Answer, Assignment, SolverFront};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::cell::RefCell;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Per abstracted function: how its expansions went.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct FunctionStats {
    /// Calls abstracted in runs (all levels).
    pub abstracted_calls: u64,
    /// Abstracted calls expanded (a search over the callee's paths started).
    pub expansions: u64,
    /// Callee paths explored.
    pub callee_paths: u64,
    /// Callee paths stitched to the rest of their abstract path.
    pub stitched: u64,
    /// Expansions whose callee had no path left that could be stitched.
    pub exhausted: u64,
    /// Runs spent expanding calls of this function.
    pub runs: u64,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct LazyStats {
    /// Functions that may be abstracted.
    pub abstractable_functions: usize,
    /// Runs of the entry function with at least one abstracted call.
    pub abstract_paths: u64,
    /// Runs of the entry function in which no call had to be abstracted (real runs).
    pub concrete_paths: u64,
    /// Abstract paths turned into real runs.
    pub concretized: u64,
    /// Abstract paths whose free inputs came from the real run of the path they were solved
    /// from.
    pub witness_inputs_reused: u64,
    /// Abstract paths no real run follows (their search ended).
    pub dropped: u64,
    /// Abstract paths given up: after `max_runs_per_path` runs, or cut by the instruction
    /// limit (`runaway`).
    pub abandoned: u64,
    pub runaway: u64,
    /// Lazy expansion stopped: abstract paths kept running away.
    pub gave_up: bool,
    /// Program runs: of the abstraction, and real ones.
    pub runs: u64,
    pub abstract_runs: u64,
    pub real_runs: u64,
    /// Runs that left the path they were meant to follow.
    pub divergences: u64,
    pub infeasible: u64,
    pub solver_unknown: u64,
    pub pending_left: usize,
    /// Every abstract path of the entry function was explored.
    pub exhausted: bool,
    /// What made runs inexact (abstracted calls among them), summed over runs.
    pub inexact: Exactness,
    pub functions: BTreeMap<String, FunctionStats>,
}

/// Instruction limit of runs that may abstract calls (see `LazyExpansion::execute`).
const ABSTRACT_RUN_STEPS: u64 = 200_000;

/// Abstract paths in a row that ran away before lazy expansion gives up on the program: its
/// abstraction does not describe it (callees return positions a loop goes on from, ...).
const RUNAWAY_LIMIT: u64 = 8;

/// What one observed run left.
struct Observed {
    result: crate::exec::RunResult,
    calls: Vec<CallMark>,
    trace: Option<Vec<Branch>>,
    records: Vec<BranchRecord>,
    exactness: Exactness,
    tags: Vec<Option<InputKey>>,
}

/// One run under a given expansion: its decisions, branch trace, candidate calls and inputs.
struct LazyRun {
    path: Rc<RunPath>,
    /// Every branch taken; None if the trace was cut (too long to compare).
    trace: Option<Vec<Branch>>,
    calls: Vec<CallMark>,
    tags: Vec<Option<InputKey>>,
    expand: usize,
    /// The run was cut by the instruction limit.
    cut: bool,
}

impl LazyRun {
    fn records(&self) -> &[BranchRecord] {
        &self.path.records
    }

    fn abstracted(&self) -> bool {
        self.calls.iter().any(|c| c.abstracted)
    }

    /// The program's own inputs and the abstract ones, with `a`'s values in place.
    fn values(
        &self,
        pool: &Pool,
        a: &Assignment,
    ) -> (Vec<InputValue>, HashMap<InputKey, InputValue>) {
        let all = crate::driver::concolic::with_solution(pool, self.path.inputs.clone(), a);
        let mut real = vec![];
        let mut abs = HashMap::new();
        for (v, tag) in all.into_iter().zip(&self.tags) {
            match tag {
                None => real.push(v),
                Some(k) => {
                    abs.insert(*k, v);
                }
            }
        }
        (real, abs)
    }

    /// Takes into `real` (this run's program inputs, as `values` gave them) the values of
    /// `witness` (a real run's) for the inputs and bytes no query variable in `used` names,
    /// when both runs read the same kinds of input in the same order; true if it did.
    fn adopt(
        &self,
        real: &mut [InputValue],
        witness: &[InputValue],
        used: &HashSet<(u32, u32)>,
    ) -> bool {
        let own: Vec<usize> = (0..self.tags.len())
            .filter(|i| self.tags[*i].is_none())
            .collect();
        let same_shape = own.len() == real.len()
            && real.len() == witness.len()
            && real.iter().zip(witness).all(|(r, w)| {
                r.kind == w.kind && r.width == w.width && r.bytes().len() == w.bytes().len()
            });
        if !same_shape {
            return false;
        }
        for ((r, w), &i) in real.iter_mut().zip(witness).zip(&own) {
            let i = i as u32;
            if r.kind == InputKind::Bytes {
                for (j, (rb, wb)) in r.bytes_mut().iter_mut().zip(w.bytes()).enumerate() {
                    if !used.contains(&(i, j as u32)) {
                        *rb = *wb;
                    }
                }
            } else if !used.contains(&(i, 0)) {
                r.bits = w.bits;
            }
        }
        true
    }

    /// Value of solver variable `v` in this run.
    fn current(&self, pool: &Pool, v: u32) -> u64 {
        let k = pool.vars[v as usize];
        match self.path.inputs.get(k.input as usize) {
            Some(iv) if iv.kind == InputKind::Bytes => {
                iv.bytes().get(k.byte as usize).copied().unwrap_or(0) as u64
            }
            Some(iv) => iv.bits,
            None => 0,
        }
    }

    /// The same run without its trace (what pending branches need).
    fn light(&self) -> LazyRun {
        LazyRun {
            path: self.path.clone(),
            trace: Some(vec![]),
            calls: self.calls.clone(),
            tags: self.tags.clone(),
            expand: self.expand,
            cut: self.cut,
        }
    }
}

fn same_branch(a: &Branch, b: &Branch) -> bool {
    a.func == b.func && a.block == b.block && a.taken == b.taken
}

/// How a callee path's continuation compares with the abstract path's.
#[derive(Debug)]
enum Stitch {
    /// Every branch and abstracted call after the callee's return is the abstract path's.
    Whole,
    /// The first branch after the return that went the other way is a symbolic decision:
    /// its position in the trace after the return, its record, the outcome wanted.
    Deviates {
        at: usize,
        record: usize,
        want: usize,
    },
    /// Something cannot be forced: a concrete branch went the other way, other branches or
    /// calls followed, the run ended elsewhere.
    Broken,
}

/// An untried branch of a callee, ordered for a max-heap: smallest key first, then the
/// latest pushed.
struct Candidate {
    key: (u32, std::cmp::Reverse<usize>),
    order: u64,
    pending: Pending,
    from: Rc<LazyRun>,
}

impl PartialEq for Candidate {
    fn eq(&self, o: &Self) -> bool {
        (self.key, self.order) == (o.key, o.order)
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Candidate {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.key.cmp(&self.key).then(self.order.cmp(&o.order))
    }
}

/// Expanding candidate call `level` of the abstract path `path`.
struct Level {
    path: Rc<LazyRun>,
    level: usize,
    /// Where `path` made the call.
    split: RunPoint,
    callee: String,
    tree: Tree,
    /// Untried branches inside the callee with the run they come from, by priority (see
    /// `next_branch`).
    frontier: BinaryHeap<Candidate>,
    pushed: u64,
    started: bool,
    /// The callee path being stitched: its run and where the callee returned in it.
    current: Option<(Rc<LazyRun>, RunPoint)>,
    /// `current` is stitched and a deeper level works on it.
    descended: bool,
    /// Distances to the callee's returns that can return what the abstract path assumed it
    /// returned (None: no such knowledge).
    towards: Option<Distances>,
}

impl Level {
    /// The callee's next untried branch: those closest to a return of the value the abstract
    /// path assumed first, then the deepest (of the latest run among equals), which extends
    /// the callee path found last: a comparison loop matches one more character per run.
    /// (Shallowest first, with outcomes no callee path took before ahead, took 51 runs where
    /// this takes 41 on the median generated parsing program, 57 against 44 on
    /// compare_words.c, the same on the calculator.)
    fn next_branch(&mut self) -> Option<(Pending, Rc<LazyRun>)> {
        self.frontier.pop().map(|c| (c.pending, c.from))
    }

    /// Priority of a branch (smaller first).
    fn key(&self, p: &Pending) -> (u32, std::cmp::Reverse<usize>) {
        let d = self
            .towards
            .as_ref()
            .map_or(0, |t| t.of(p.target.0, p.target.1));
        (d, std::cmp::Reverse(p.depth))
    }

    fn push_branch(&mut self, pending: Pending, from: Rc<LazyRun>) {
        self.pushed += 1;
        let key = self.key(&pending);
        self.frontier.push(Candidate {
            key,
            order: self.pushed,
            pending,
            from,
        });
    }

    /// Whether `run` (expanding this level's call) took the branches and made the candidate
    /// calls of the abstract path before the call, and reached the call at the same place.
    fn follows_prefix(&self, run: &LazyRun) -> bool {
        let (Some(p), Some(r)) = (&self.path.trace, &run.trace) else {
            return false;
        };
        let n = self.split.trace;
        r.len() >= n
            && p[..n].iter().zip(&r[..n]).all(|(a, b)| same_branch(a, b))
            && run.calls.len() > self.level
            && self.path.calls[..=self.level]
                .iter()
                .zip(&run.calls[..=self.level])
                .all(|(a, b)| a.site == b.site && a.at.trace == b.at.trace)
    }

    /// Compares what `run` did after the callee returned (at `end`) with what the abstract path
    /// did after the call.
    fn compare(&self, run: &LazyRun, end: RunPoint) -> Stitch {
        let (Some(pt), Some(rt)) = (&self.path.trace, &run.trace) else {
            return Stitch::Broken;
        };
        let (p, r) = (&pt[self.split.trace..], &rt[end.trace..]);
        for (i, (a, b)) in p.iter().zip(r).enumerate() {
            if a.func != b.func || a.block != b.block {
                return Stitch::Broken;
            }
            if a.taken != b.taken {
                return match b.record {
                    Some(k) => Stitch::Deviates {
                        at: i,
                        record: k as usize,
                        want: a.taken as usize,
                    },
                    None => Stitch::Broken,
                };
            }
        }
        if p.len() != r.len() {
            return Stitch::Broken;
        }
        // The candidate calls after the return (the callee's nested ones come first in `run`).
        let (pc, rc) = (&self.path.calls[self.level + 1..], &run.calls[end.calls..]);
        let same_calls = pc.len() == rc.len()
            && pc.iter().zip(rc).all(|(a, b)| {
                a.site == b.site
                    && a.abstracted == b.abstracted
                    && a.at.trace - self.split.trace == b.at.trace - end.trace
            });
        if same_calls {
            Stitch::Whole
        } else {
            Stitch::Broken
        }
    }

    /// Whether `run` took the same path through the callee as `before` (ending at `end`).
    fn same_callee_path(&self, before: &LazyRun, end: RunPoint, run: &LazyRun) -> bool {
        let Some(e) = run.calls.get(self.level).and_then(|c| c.end) else {
            return false;
        };
        let range = self.split.trace..end.trace;
        self.follows_prefix(run)
            && e.trace == end.trace
            && match (&before.trace, &run.trace) {
                (Some(a), Some(b)) => a[range.clone()]
                    .iter()
                    .zip(&b[range])
                    .all(|(x, y)| same_branch(x, y)),
                _ => false,
            }
    }
}

pub struct LazyExpansion {
    policy: Policy,
    pool: Pool,
    solver: SolverFront,
    cfg: Config,
    seed: u64,
    // Abstract exploration of the entry function.
    tree: Tree,
    pending: PendingPool,
    strategy: Box<dyn Strategy>,
    rng: SmallRng,
    icfg: Icfg,
    dist: Distances,
    dist_covered: usize,
    /// The runs of the abstract tree, for the pending branches that come from them.
    runs_by_id: HashMap<usize, Rc<LazyRun>>,
    /// Per abstract run concretized: the program's inputs of the real run that followed it.
    /// An abstract path solved from it takes them where its query leaves them free, so the
    /// calls it shares with its parent return what they must at once (with a call behind
    /// each branch, every path re-expanded them otherwise).
    witnesses: HashMap<usize, Vec<InputValue>>,
    // Concretization of one abstract path: a stack of expansions.
    levels: Vec<Level>,
    path_runs: u64,
    pub max_runs_per_path: u64,
    next_id: usize,
    runaway_in_a_row: u64,
    pub stats: LazyStats,
}

impl LazyExpansion {
    pub fn new(
        s: &Session,
        selection: &Selection,
        mut strategy: Box<dyn Strategy>,
        seed: u64,
        cfg: &Config,
    ) -> anyhow::Result<LazyExpansion> {
        let policy = Policy::new(s.program, selection).map_err(|e| anyhow::anyhow!(e))?;
        strategy.prepare(s.program);
        Ok(LazyExpansion {
            stats: LazyStats {
                abstractable_functions: policy.count(),
                ..Default::default()
            },
            policy,
            pool: Pool::new(),
            solver: SolverFront::with_z3(Duration::from_secs(5)),
            cfg: cfg.clone(),
            seed,
            tree: Tree::default(),
            pending: PendingPool::default(),
            strategy,
            rng: SmallRng::seed_from_u64(seed),
            icfg: Icfg::new(&s.program.module),
            dist: Distances::unknown(),
            dist_covered: usize::MAX,
            runs_by_id: HashMap::new(),
            witnesses: HashMap::new(),
            levels: vec![],
            path_runs: 0,
            max_runs_per_path: 20_000,
            next_id: 0,
            runaway_in_a_row: 0,
        })
    }

    fn function_stats(&mut self, name: &str) -> &mut FunctionStats {
        self.stats.functions.entry(name.to_string()).or_default()
    }

    /// Runs the program once, expanding the first `expand` candidate calls. A run without an
    /// abstracted call is real: the session records it (coverage, tests); any other run only
    /// counts.
    fn execute(
        &mut self,
        s: &mut Session,
        expand: usize,
        real: Vec<InputValue>,
        abs: HashMap<InputKey, InputValue>,
    ) -> anyhow::Result<Rc<LazyRun>> {
        self.next_id += 1;
        // A run of an abstraction can run away (a loop on results that never end it): such
        // runs get a shorter instruction limit; a real run cut by it runs again in full.
        let short = Config {
            max_steps: self.cfg.max_steps.min(ABSTRACT_RUN_STEPS),
            ..self.cfg.clone()
        };
        let mut o = self.observed_run(s, expand, real.clone(), abs.clone(), &short);
        if o.result.outcome == crate::exec::Outcome::StepLimit
            && !o.calls.iter().any(|c| c.abstracted)
            && short.max_steps < self.cfg.max_steps
        {
            let full = self.cfg.clone();
            o = self.observed_run(s, expand, real, abs, &full);
        }
        let Observed {
            result: r,
            calls,
            trace,
            records,
            exactness,
            tags,
        } = o;
        self.stats.runs += 1;
        self.path_runs += 1;
        self.stats.inexact.add(&exactness);
        let abstracted = calls.iter().any(|c| c.abstracted);
        let mut new_goals = 0;
        if abstracted {
            s.count_run();
            self.stats.abstract_runs += 1;
            for c in calls.iter().filter(|c| c.abstracted) {
                let name = s.program.module.functions[c.callee as usize].name.clone();
                self.function_stats(&name).abstracted_calls += 1;
            }
        } else {
            new_goals = s.record(&r, "lazy")?.len();
            self.stats.real_runs += 1;
        }
        if crate::debug_on!("lazy") {
            crate::debug_log!(
                "lazy",
                "lazy run {}: expand {expand}, {} decisions, {:?} branches, calls {:?}, {:?}",
                self.next_id,
                records.len(),
                trace.as_ref().map(|t| t.len()),
                calls
                    .iter()
                    .map(|c| (c.site, c.at.trace, c.abstracted, c.end.map(|e| e.trace)))
                    .collect::<Vec<_>>(),
                r.outcome
            );
        }
        Ok(Rc::new(LazyRun {
            path: Rc::new(RunPath {
                id: self.next_id,
                records,
                inputs: r.inputs,
                new_goals,
                bound: 0,
                observed: r.observed,
            }),
            trace,
            calls,
            tags,
            expand,
            cut: r.outcome == crate::exec::Outcome::StepLimit,
        }))
    }

    fn observed_run(
        &mut self,
        s: &Session,
        expand: usize,
        real: Vec<InputValue>,
        abs: HashMap<InputKey, InputValue>,
        cfg: &Config,
    ) -> Observed {
        let keys = Rc::new(RefCell::new(VecDeque::new()));
        let fallback = SmallRng::seed_from_u64(self.seed.wrapping_add(self.next_id as u64));
        let mut src = LazyInputs::new(real, abs, fallback, keys.clone());
        let mut obs = Abstracting::new(Shadow::new(&mut self.pool), &self.policy, expand, keys);
        let mut result = s.program.run_observed(&mut src, cfg, &mut obs);
        obs.shadow.annotate(&mut result);
        Observed {
            result,
            calls: std::mem::take(&mut obs.calls),
            trace: (!obs.trace_cut).then(|| std::mem::take(&mut obs.trace)),
            records: std::mem::take(&mut obs.shadow.path),
            exactness: obs.shadow.exactness,
            tags: src.tags,
        }
    }

    fn covered(s: &Session) -> Vec<bool> {
        s.ledger
            .status
            .iter()
            .map(|st| !matches!(st, Status::Unknown))
            .collect()
    }

    /// A run of the entry function (nothing expanded): into the abstract tree; an abstract
    /// path starts a concretization.
    fn abstract_path(&mut self, s: &mut Session, run: Rc<LazyRun>) {
        let c = s.ledger.covered + s.ledger.unreachable;
        if c != self.dist_covered {
            self.dist = Distances::compute(&self.icfg, &Self::covered(s));
            self.dist_covered = c;
        }
        let covered = Self::covered(s);
        let mut ctx = Ctx {
            rng: &mut self.rng,
            covered: &covered,
            dist: &self.dist,
            product: None,
        };
        // A run that ran away keeps only the alternatives before its second abstracted call:
        // the others would be long queries about a path no real run takes.
        let keep = if run.cut {
            let mut abstracted = run.calls.iter().filter(|c| c.abstracted);
            abstracted.nth(1).map_or(usize::MAX, |c| c.at.records)
        } else {
            usize::MAX
        };
        for p in self.tree.insert(&run.path) {
            if p.depth >= keep {
                continue;
            }
            let id = self.pending.add(p.clone());
            self.strategy.add(id, &p, &mut ctx);
        }
        self.strategy.on_run(&run.path, &mut ctx);
        self.runs_by_id.insert(run.path.id, Rc::new(run.light()));
        if run.abstracted() && run.cut {
            // An abstraction that runs away: no real run follows it within the limit either.
            self.stats.abstract_paths += 1;
            self.stats.abandoned += 1;
            self.stats.runaway += 1;
            self.runaway_in_a_row += 1;
            if self.runaway_in_a_row >= RUNAWAY_LIMIT {
                self.stats.gave_up = true;
            }
        } else if run.abstracted() {
            self.runaway_in_a_row = 0;
            self.stats.abstract_paths += 1;
            self.path_runs = 0;
            self.push_level(s, run);
        } else {
            self.stats.concrete_paths += 1;
        }
    }

    /// Starts expanding the first abstracted call of `path`.
    fn push_level(&mut self, s: &Session, path: Rc<LazyRun>) {
        let level = path.expand;
        let mark = &path.calls[level];
        debug_assert!(mark.abstracted);
        let callee = s.program.module.functions[mark.callee as usize]
            .name
            .clone();
        self.function_stats(&callee).expansions += 1;
        // The value the abstract path took for the result, and the returns that can give it.
        let assumed = path
            .tags
            .iter()
            .position(|t| *t == Some(mark.key))
            .map(|i| path.path.inputs[i].bits);
        let towards = assumed.and_then(|want| {
            let f = &s.program.module.functions[mark.callee as usize];
            let w = f.ret.bits(s.program.module.data_model);
            let sites = &self.policy.effects.funcs[mark.callee as usize].return_sites;
            let good: Vec<usize> = sites
                .iter()
                .filter(|(_, v)| {
                    v.as_ref()
                        .is_none_or(|v| v.iter().any(|x| crate::ir::ops::mask(*x, w) == want))
                })
                .map(|(b, _)| self.icfg.index(mark.callee, *b))
                .collect();
            let informative = sites.iter().any(|(_, v)| v.is_some());
            (informative && !good.is_empty()).then(|| Distances::to_blocks(&self.icfg, good))
        });
        self.levels.push(Level {
            towards,
            split: mark.at,
            path,
            level,
            callee,
            tree: Tree::default(),
            frontier: BinaryHeap::new(),
            pushed: 0,
            started: false,
            current: None,
            descended: false,
        });
    }

    /// The next abstract path: solve a pending branch of the abstract tree and run it.
    /// False when none is left.
    fn next_abstract_path(&mut self, s: &mut Session) -> anyhow::Result<bool> {
        let covered = Self::covered(s);
        let id = {
            let mut ctx = Ctx {
                rng: &mut self.rng,
                covered: &covered,
                dist: &self.dist,
                product: None,
            };
            self.strategy.select(&self.pending, &mut ctx)
        };
        let Some(id) = id else {
            return Ok(false);
        };
        let Some(p) = self.pending.take(id) else {
            return Ok(true);
        };
        let from = self.runs_by_id[&p.run.id].clone();
        let (prefix, goal) = p.query();
        if let Some(a) = self.solve(&from, &prefix, goal) {
            let (mut real, abs) = from.values(&self.pool, &a);
            if let Some(w) = self.witnesses.get(&p.run.id) {
                let mut used = HashSet::new();
                for &c in prefix.iter().chain([&goal]) {
                    for &v in self.pool.vars_of(c).iter() {
                        let k = self.pool.vars[v as usize];
                        used.insert((k.input, k.byte));
                    }
                }
                if from.adopt(&mut real, w, &used) {
                    self.stats.witness_inputs_reused += 1;
                }
            }
            let run = self.execute(s, 0, real, abs)?;
            self.abstract_path(s, run);
        }
        Ok(true)
    }

    fn solve(
        &mut self,
        from: &LazyRun,
        prefix: &[crate::smt::expr::ExprId],
        goal: crate::smt::expr::ExprId,
    ) -> Option<Assignment> {
        let pool = &self.pool;
        let vars: Vec<u64> = (0..pool.vars.len() as u32)
            .map(|v| from.current(pool, v))
            .collect();
        let current = |v: u32| vars.get(v as usize).copied().unwrap_or(0);
        match self.solver.solve(&mut self.pool, prefix, goal, &current) {
            Answer::Sat(a) => Some(a),
            Answer::Unsat => {
                self.stats.infeasible += 1;
                None
            }
            Answer::Unknown => {
                self.stats.solver_unknown += 1;
                None
            }
        }
    }

    /// One step of the concretization in progress (at most one run).
    fn concretize_step(&mut self, s: &mut Session) -> anyhow::Result<()> {
        if self.path_runs > self.max_runs_per_path {
            self.stats.abandoned += 1;
            self.levels.clear();
            return Ok(());
        }
        let top = self.levels.len() - 1;
        let lv = &mut self.levels[top];
        if !lv.started {
            // The first callee path: the abstract path's own inputs, one more call expanded.
            lv.started = true;
            let (path, level) = (lv.path.clone(), lv.level);
            let (real, abs) = path.values(&self.pool, &Assignment::new());
            let run = self.execute(s, level + 1, real, abs)?;
            return self.callee_path(s, run);
        }
        if lv.descended {
            // The deeper level found no real run for this callee path: try the next one.
            lv.descended = false;
            lv.current = None;
        }
        if let Some((run, end)) = lv.current.clone() {
            return self.force(s, run, end);
        }
        // The callee's untried branches, shallowest first.
        while let Some((p, from)) = self.levels[top].next_branch() {
            if s.should_stop() {
                self.levels[top].push_branch(p, from);
                return Ok(());
            }
            let (prefix, goal) = p.query();
            if let Some(a) = self.solve(&from, &prefix, goal) {
                let (real, abs) = from.values(&self.pool, &a);
                let run = self.execute(s, self.levels[top].level + 1, real, abs)?;
                return self.callee_path(s, run);
            }
        }
        // No callee path left: this expansion fails, the level above backtracks.
        let lv = self.levels.pop().unwrap();
        self.function_stats(&lv.callee).exhausted += 1;
        if self.levels.is_empty() {
            self.stats.dropped += 1;
        }
        Ok(())
    }

    /// A run of the callee of the top level: record its untried branches inside the callee,
    /// and start stitching it.
    fn callee_path(&mut self, s: &mut Session, run: Rc<LazyRun>) -> anyhow::Result<()> {
        let top = self.levels.len() - 1;
        let lv = &mut self.levels[top];
        let callee = lv.callee.clone();
        if !lv.follows_prefix(&run) {
            self.stats.divergences += 1;
            return Ok(());
        }
        let mark = &run.calls[lv.level];
        let (start, end) = (mark.at.records, mark.end);
        let stop = end.map_or(run.records().len(), |e| e.records);
        for p in lv.tree.insert(&run.path) {
            if p.depth >= start && p.depth < stop {
                lv.push_branch(p, run.clone());
            }
        }
        let fs = self.function_stats(&callee);
        fs.callee_paths += 1;
        fs.runs += 1;
        let Some(end) = end else {
            // The run ended inside the callee: nothing to stitch.
            return Ok(());
        };
        self.stitch(s, run, end)
    }

    /// Acts on how the callee path `run` continues: a whole stitch descends (or ends the
    /// concretization with a real run), a deviation is forced next, a broken one is dropped.
    fn stitch(&mut self, s: &mut Session, run: Rc<LazyRun>, end: RunPoint) -> anyhow::Result<()> {
        let top = self.levels.len() - 1;
        let verdict = self.levels[top].compare(&run, end);
        if crate::debug_on!("lazy") {
            let lv = &self.levels[top];
            let show = |t: &Option<Vec<Branch>>, from: usize| {
                t.as_ref().map(|t| {
                    t[from..]
                        .iter()
                        .map(|b| format!("{}:{}:{}", b.func, b.block, b.taken))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            };
            crate::debug_log!(
                "lazy",
                "  stitch level {}: {verdict:?}\n    want {:?}\n    got  {:?}",
                lv.level,
                show(&lv.path.trace, lv.split.trace),
                show(&run.trace, end.trace)
            );
        }
        match verdict {
            Stitch::Whole => {
                let callee = self.levels[top].callee.clone();
                self.function_stats(&callee).stitched += 1;
                if !run.abstracted() {
                    // A real run following the abstract path: it was recorded when it ran
                    // (kept as a test if it covered a goal first). Either way concolic search
                    // explores from it: what the callees hide on this path.
                    self.stats.concretized += 1;
                    let root = self.levels[0].path.path.id;
                    let (inputs, _) = run.values(&self.pool, &Assignment::new());
                    self.witnesses.insert(root, inputs);
                    if run.path.new_goals == 0 {
                        s.add_seed(run.path.inputs.clone(), "lazy");
                    }
                    self.levels.clear();
                    return Ok(());
                }
                let lv = &mut self.levels[top];
                lv.current = Some((run.clone(), end));
                lv.descended = true;
                self.push_level(s, run);
            }
            Stitch::Deviates { .. } => self.levels[top].current = Some((run, end)),
            Stitch::Broken => self.levels[top].current = None,
        }
        Ok(())
    }

    /// Forces the first symbolic decision after the callee's return that deviates from the
    /// abstract path, keeping the callee path and everything before.
    fn force(&mut self, s: &mut Session, run: Rc<LazyRun>, end: RunPoint) -> anyhow::Result<()> {
        let top = self.levels.len() - 1;
        let Stitch::Deviates {
            at,
            record: d,
            want,
        } = self.levels[top].compare(&run, end)
        else {
            self.levels[top].current = None;
            return Ok(());
        };
        let prefix: Vec<_> = run.records()[..d].iter().map(|r| r.taken_cond()).collect();
        let goal = run.records()[d].outcomes[want].0;
        let Some(a) = self.solve(&run, &prefix, goal) else {
            self.levels[top].current = None;
            return Ok(());
        };
        let (real, abs) = run.values(&self.pool, &a);
        let level = self.levels[top].level;
        let next = self.execute(s, level + 1, real, abs)?;
        let callee = self.levels[top].callee.clone();
        self.function_stats(&callee).runs += 1;
        // The same callee path, and further along the abstract path than before.
        let lv = &self.levels[top];
        let further = lv.same_callee_path(&run, end, &next)
            && match lv.compare(&next, end) {
                Stitch::Deviates { at: a, .. } => a > at,
                _ => true,
            };
        if !further {
            self.stats.divergences += 1;
            self.levels[top].current = None;
            return Ok(());
        }
        let end = next.calls[level].end.unwrap_or(end);
        self.stitch(s, next, end)
    }
}

impl Technique for LazyExpansion {
    fn name(&self) -> &'static str {
        "lazy"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        self.solver.deadline = Some(until.min(s.deadline()));
        if self.next_id == 0 {
            let first = self.execute(s, 0, vec![], HashMap::new())?;
            self.abstract_path(s, first);
        }
        while !s.should_stop() && Instant::now() < until && !self.finished() {
            if !self.levels.is_empty() {
                self.concretize_step(s)?;
            } else if !self.next_abstract_path(s)? {
                self.stats.exhausted = true;
            }
            s.tick(|| {
                format!(
                    "lazy: abstract paths {} | concretized {} | dropped {} | runs {}",
                    self.stats.abstract_paths,
                    self.stats.concretized,
                    self.stats.dropped,
                    self.stats.runs
                )
            });
        }
        self.stats.pending_left = self.pending.live();
        Ok(())
    }

    fn finished(&self) -> bool {
        self.stats.exhausted || self.stats.gave_up
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        let mut lazy = serde_json::to_value(&self.stats).unwrap();
        lazy["strategy"] = self.strategy.name().into();
        lazy["solver"] = serde_json::to_value(&self.solver.stats).unwrap();
        m.insert("lazy".into(), lazy);
        m
    }
}
