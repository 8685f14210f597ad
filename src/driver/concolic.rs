//! Concolic testing (Algorithm 1 of the abstraction-driven concolic testing paper): run, record
//! the symbolic path, let the strategy pick a pending branch, solve its path condition, run the
//! solution.

use crate::analysis::cfg::{Distances, Icfg};
use crate::driver::ledger::Status;
use crate::driver::session::Session;
use crate::exec::input::{RandomInputs, Seeded};
use crate::exec::shadow::Shadow;
use crate::exec::{Config, InputKind, InputValue, Machine, RunResult};
use crate::search::tree::{Pending, RunPath, Tree};
use crate::search::{Ctx, PendingPool, Strategy};
use crate::smt::expr::Pool;
use crate::smt::solver::{Answer, SolverFront, SolverKind};
use crate::smt::walk::WalkConfig;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::rc::Rc;
use std::time::Duration;

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ConcolicStats {
    pub paths: u64,
    pub pending_left: usize,
    pub infeasible: u64,
    pub solver_unknown: u64,
    /// Runs that did not follow the predicted prefix and branch.
    pub divergences: u64,
    pub concretizations: u64,
    pub tree_nodes: usize,
    pub exhausted: bool,
}

/// How concolic search solves path conditions (`cairn gen --solver`, `--walk`, `--opaque`).
#[derive(Clone, Debug)]
pub struct SolverOptions {
    pub kind: SolverKind,
    pub walk: WalkConfig,
    /// Program functions whose calls stay opaque in path conditions.
    pub opaque: Vec<String>,
    /// More walks on a pending branch the walk did not solve.
    pub walk_retries: u32,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            kind: SolverKind::Portfolio,
            walk: WalkConfig::default(),
            opaque: vec![],
            walk_retries: 2,
        }
    }
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
    /// Retries of pending branches the walk did not solve, by (tree node, outcome).
    walk_tries: std::collections::HashMap<(u32, usize), u32>,
    walk_retries: u32,
}

/// Runs the program once with a symbolic shadow; returns the result and its decisions.
pub fn symbolic_run(
    s: &Session,
    pool: &mut Pool,
    input: &mut dyn crate::exec::InputSource,
    cfg: &Config,
) -> RunResult {
    let p = s.program;
    let mut m = Machine::new(&p.module, &p.exts, cfg.clone(), input);
    m.sym = Some(Shadow::new(pool));
    m.run_main(&p.entry)
}

impl Concolic {
    pub fn new(
        s: &Session,
        mut strategy: Box<dyn Strategy>,
        seed: u64,
        solver_timeout: Duration,
        opts: &SolverOptions,
        cfg: &Config,
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
        Ok(Concolic {
            pool,
            solver: SolverFront::new(opts.kind, solver_timeout, opts.walk.clone(), seed),
            tree: Tree::default(),
            pending: PendingPool::default(),
            strategy,
            rng: SmallRng::seed_from_u64(seed),
            stats: ConcolicStats::default(),
            icfg,
            dist: Distances::unknown(),
            dist_covered: usize::MAX,
            runs: 0,
            walk_tries: Default::default(),
            walk_retries: opts.walk_retries,
        })
    }

    fn covered(s: &Session) -> Vec<bool> {
        s.ledger
            .status
            .iter()
            .map(|st| !matches!(st, Status::Unknown))
            .collect()
    }

    fn refresh_distances(&mut self, s: &Session) {
        let c = s.ledger.covered + s.ledger.unreachable;
        if c != self.dist_covered {
            self.dist = Distances::compute(&self.icfg, &Self::covered(s));
            self.dist_covered = c;
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
        let mut r = symbolic_run(s, &mut self.pool, input, cfg);
        let records = std::mem::take(&mut r.path);
        if std::env::var_os("CAIRN_DEBUG_PATHS").is_some() {
            eprintln!(
                "run: {} symbolic decisions, {} concretizations, inputs {:?}",
                records.len(),
                r.concretized,
                r.inputs.iter().map(|i| i.to_text()).collect::<Vec<_>>()
            );
        }
        self.stats.paths += 1;
        self.stats.concretizations += r.concretized;
        let fresh = s.record(&r, found_by)?;
        self.runs += 1;
        let run = Rc::new(RunPath {
            id: self.runs,
            records,
            inputs: r.inputs.clone(),
            new_goals: fresh.len(),
            bound,
        });
        let new = self.tree.insert(&run);
        self.refresh_distances(s);
        let covered = Self::covered(s);
        let mut ctx = Ctx {
            rng: &mut self.rng,
            covered: &covered,
            dist: &self.dist,
        };
        for p in new {
            let id = self.pending.add(p.clone());
            self.strategy.add(id, &p, &mut ctx);
        }
        self.strategy.on_run(&run, &mut ctx);
        self.stats.tree_nodes = self.tree.len();
        Ok(run)
    }

    /// Inputs for a pending branch from a solver model: the inputs of the run it came from,
    /// with the solved variables replaced.
    fn inputs_for(&self, p: &Pending, a: &crate::smt::solver::Assignment) -> Vec<InputValue> {
        let mut v = p.run.inputs.clone();
        for (var, val) in a {
            let key = self.pool.vars[*var as usize];
            let Some(iv) = v.get_mut(key.input as usize) else {
                continue;
            };
            if iv.kind == InputKind::Bytes {
                if let Some(b) = iv.bytes.get_mut(key.byte as usize) {
                    *b = *val as u8;
                }
            } else if key.w as u32 == iv.width {
                iv.bits = crate::exec::ops::mask(*val, iv.width);
            }
        }
        v
    }

    /// Tries one pending branch: solve, run. Returns false when no pending branch is left.
    pub fn step(&mut self, s: &mut Session, cfg: &Config) -> anyhow::Result<bool> {
        self.refresh_distances(s);
        let covered = Self::covered(s);
        let id = {
            let mut ctx = Ctx {
                rng: &mut self.rng,
                covered: &covered,
                dist: &self.dist,
            };
            self.strategy.select(&self.pending, &mut ctx)
        };
        let Some(id) = id else {
            self.stats.pending_left = self.pending.live();
            return Ok(false);
        };
        let Some(p) = self.pending.take(id) else {
            return Ok(true);
        };
        let (prefix, goal) = p.query();
        let inputs: Vec<InputValue> = p.run.inputs.clone();
        let ans = {
            // A shared handle, released before the next run adds variables (no copy is made).
            let vars = self.pool.vars.clone();
            let current = |v: u32| -> u64 {
                let k = vars[v as usize];
                match p.run.inputs.get(k.input as usize) {
                    Some(iv) if iv.kind == InputKind::Bytes => {
                        iv.bytes.get(k.byte as usize).copied().unwrap_or(0) as u64
                    }
                    Some(iv) => iv.bits,
                    None => 0,
                }
            };
            self.solver.solve(&mut self.pool, &prefix, goal, &current)
        };
        match ans {
            Answer::Sat(a) => {
                let values = if a.is_empty() {
                    inputs
                } else {
                    self.inputs_for(&p, &a)
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
                    self.stats.divergences += 1;
                }
            }
            Answer::Unsat => self.stats.infeasible += 1,
            Answer::Unknown => {
                self.stats.solver_unknown += 1;
                // The walk is a randomized search: a branch it missed gets a few more tries
                // (each continues the walk's random sequence).
                let tries = self.walk_tries.entry((p.node, p.outcome)).or_insert(0);
                if self.solver.last_backend == "walk" && *tries < self.walk_retries {
                    *tries += 1;
                    let mut ctx = Ctx {
                        rng: &mut self.rng,
                        covered: &covered,
                        dist: &self.dist,
                    };
                    let id = self.pending.add(p.clone());
                    self.strategy.add(id, &p, &mut ctx);
                }
            }
        }
        self.stats.pending_left = self.pending.live();
        Ok(true)
    }
}

/// `cairn gen --strategy NAME`: concolic testing until the budget is spent or every path has
/// been explored.
pub fn run(
    s: &mut Session,
    strategy: Box<dyn Strategy>,
    seed: u64,
    cfg: &Config,
    progress: &mut dyn FnMut(&Session, &Concolic),
) -> anyhow::Result<Concolic> {
    run_with(s, strategy, seed, cfg, &SolverOptions::default(), progress)
}

/// `run` with the solver chosen by `opts`.
pub fn run_with(
    s: &mut Session,
    strategy: Box<dyn Strategy>,
    seed: u64,
    cfg: &Config,
    opts: &SolverOptions,
    progress: &mut dyn FnMut(&Session, &Concolic),
) -> anyhow::Result<Concolic> {
    let mut c = Concolic::new(s, strategy, seed, Duration::from_secs(5), opts, cfg)?;
    c.solver.deadline = Some(s.start + s.budget.time);
    let mut first = RandomInputs {
        rng: SmallRng::seed_from_u64(seed),
    };
    c.execute(s, &mut first, cfg, 0, "concolic")?;
    // When symbolic search stalls, a short burst of random testing (a hundred times more paths
    // per second) often covers what the solver cannot; starting with one was measured to starve
    // the CFG-directed search of its nearby targets, so it only runs on stalls.
    let burst = (s.budget.time / 50).clamp(Duration::from_millis(20), Duration::from_millis(500));
    let stall = (s.budget.time / 10).max(Duration::from_millis(200));
    let mut last_covered = s.ledger.covered;
    let mut last_progress = std::time::Instant::now();
    let mut bursts = 0u64;
    while !s.should_stop() {
        if !c.step(s, cfg)? {
            // Every pending branch has been tried: the (bounded) path space is exhausted.
            // Random restarts can still help where the shadow was concretized.
            if c.stats.concretizations == 0 && c.tree.divergent_nodes == 0 {
                c.stats.exhausted = true;
                break;
            }
            let mut r = RandomInputs {
                rng: SmallRng::seed_from_u64(seed.wrapping_add(c.stats.paths)),
            };
            c.execute(s, &mut r, cfg, 0, "concolic")?;
        }
        if s.ledger.covered > last_covered {
            last_covered = s.ledger.covered;
            last_progress = std::time::Instant::now();
        } else if last_progress.elapsed() >= stall {
            bursts += 1;
            random_burst(s, seed.wrapping_add(bursts), cfg, burst)?;
            last_covered = s.ledger.covered;
            last_progress = std::time::Instant::now();
        }
        progress(s, &c);
    }
    c.stats.pending_left = c.pending.live();
    Ok(c)
}

/// Random runs for `time`.
fn random_burst(s: &mut Session, seed: u64, cfg: &Config, time: Duration) -> anyhow::Result<()> {
    let end = std::time::Instant::now() + time;
    let mut src = RandomInputs {
        rng: SmallRng::seed_from_u64(seed ^ 0x5eed),
    };
    while std::time::Instant::now() < end && !s.should_stop() {
        let r = s.program.run(&mut src, cfg);
        s.record(&r, "random")?;
    }
    Ok(())
}
