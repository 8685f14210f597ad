//! All cores: workers on threads of their own, each running its own technique against its own
//! session view of the generation's shared results (one ledger, one output directory).
//!
//! Techniques are built inside their thread: they hold `Rc`s, and Z3 contexts are per thread.
//! Only plans (plain data) cross threads; the shared results are the one point of contact.

use crate::driver::generate::{Plan, Search, technique};
use crate::driver::session::Session;
use crate::driver::technique::Technique;
use serde_json::{Map, Value};
use std::time::{Duration, Instant};

/// The model checker's share in the worker that runs it next to a testing strategy.
const MC_WORKER_SHARE: f64 = 0.6;

/// Plans for `jobs` workers from the plan asked for. Worker 0 tests as asked (its strategy,
/// lazy expansion if asked, and mutational fuzzing in turns with it: `fuzz_share`); when goals are decided (not `--tests-only`), worker 1 runs
/// the model checker, alternating with a second strategy once its share is spent or the
/// checker has finished (one checker: a second would build the same graph) — with
/// `monitors`, as abstraction-driven concolic testing (`crabs`: the second strategy searches
/// the product with the checker's monitors, which decides goals behind control-dependent
/// flags that plain search does not reach); the others test with further strategies and
/// seeds, concolically on the whole program (a different technique from lazy expansion's,
/// and one lazy worker's statistics stay its own).
pub fn portfolio(plan: &Plan, jobs: usize, monitors: bool) -> Vec<Plan> {
    if jobs <= 1 {
        return vec![plan.clone()];
    }
    let others: Vec<&str> = crate::search::registry::portfolio()
        .into_iter()
        .filter(|&s| Some(s) != plan.strategy.concolic())
        .collect();
    (0..jobs)
        .map(|i| {
            let mut p = plan.clone();
            p.seed = plan.seed.wrapping_add(i as u64);
            // The workers' runs are in memory at the same time: each gets its share.
            p.cfg.mem_limit = plan.cfg.mem_limit / jobs as u64;
            if i == 0 {
                p.tests_only = true;
                return p;
            }
            p.lazy = None;
            // One fuzzer: the corpus and the hit counts are one worker's.
            p.fuzz_share = 0.0;
            // Workers of random testing test at random too.
            if plan.strategy.concolic().is_some() {
                p.strategy = Search::Concolic(others[(i - 1) % others.len()]);
            }
            if i == 1 && !plan.tests_only {
                p.mc_share = MC_WORKER_SHARE.max(plan.mc_share);
                if let (true, Some(under)) = (monitors, p.strategy.concolic()) {
                    p.strategy = Search::Technique {
                        name: "crabs",
                        under: Some(under),
                    };
                }
            } else {
                p.tests_only = true;
            }
            p
        })
        .collect()
}

/// The portfolio's option of `gen`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Workers")]
pub struct JobsArgs {
    /// Workers in parallel (a portfolio of strategies and the model checker sharing one
    /// ledger and output directory); default: the number of cores.
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

impl JobsArgs {
    /// The workers asked for, or one per core.
    pub fn workers(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!(
            "invalid number of jobs `{s}`: a whole number from 1 to 256"
        )),
    }
}

/// Workers in parallel until the deadline. Not resumable: each run starts fresh workers.
pub struct Parallel {
    plans: Vec<Plan>,
    /// Statistics of each worker's last run.
    stats: Vec<Map<String, Value>>,
    finished: bool,
}

impl Parallel {
    pub fn new(plans: Vec<Plan>) -> Parallel {
        Parallel {
            plans,
            stats: vec![],
            finished: false,
        }
    }
}

/// What a worker hands back.
struct Done {
    stats: Map<String, Value>,
    iterations: u64,
    runs: crate::driver::session::RunCounts,
    memory_exceeded: bool,
    finished: bool,
}

fn worker(
    i: usize,
    fork: crate::driver::session::Fork<'_>,
    plan: &Plan,
    until: Instant,
) -> anyhow::Result<Done> {
    let mut s = fork.session();
    let shared = s.shared().clone();
    let label = if plan.tests_only {
        plan.strategy.to_string()
    } else {
        format!("{}+mc", plan.strategy)
    };
    s.on_progress(move |_, _, what| shared.heartbeat(i, format!("{label}: {what}")));
    let mut t = technique(&s, plan)?;
    t.run(&mut s, until)?;
    let mut stats = t.stats();
    stats.insert("technique".into(), t.name().into());
    Ok(Done {
        stats,
        iterations: s.iterations,
        runs: s.runs.clone(),
        memory_exceeded: s.memory_exceeded.get(),
        finished: t.finished(),
    })
}

impl Technique for Parallel {
    fn name(&self) -> &'static str {
        "parallel"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        let forks: Vec<_> = self.plans.iter().map(|_| s.fork()).collect();
        let results: Vec<anyhow::Result<Done>> = std::thread::scope(|scope| {
            let handles: Vec<_> = forks
                .into_iter()
                .zip(&self.plans)
                .enumerate()
                .map(|(i, (fork, plan))| {
                    std::thread::Builder::new()
                        .name(format!("cairn-worker-{i}"))
                        // The interpreter and the shadow recurse with the program.
                        .stack_size(64 << 20)
                        .spawn_scoped(scope, move || worker(i, fork, plan, until))
                })
                .collect::<Result<_, _>>()?;
            // The progress display follows the shared results while the workers run.
            while handles.iter().any(|h| !h.is_finished()) {
                std::thread::sleep(Duration::from_millis(50));
                s.sync();
                let shared = s.shared().clone();
                s.tick(|| shared.heartbeats().join(" | "));
            }
            Ok::<_, anyhow::Error>(
                handles
                    .into_iter()
                    .enumerate()
                    .map(|(i, h)| {
                        h.join()
                            .unwrap_or_else(|_| Err(anyhow::anyhow!("worker {i} panicked")))
                    })
                    .collect(),
            )
        })?;
        s.sync();
        self.stats.clear();
        self.finished = true;
        for r in results {
            let d = r?;
            s.iterations += d.iterations;
            add_runs(&mut s.runs, &d.runs);
            if d.memory_exceeded {
                s.memory_exceeded.set(true);
            }
            self.finished &= d.finished;
            self.stats.push(d.stats);
        }
        Ok(())
    }

    fn finished(&self) -> bool {
        self.finished
    }

    /// Each worker's statistics under `workers`; the sections of all workers added up at the
    /// top (counts and times add, flags hold if any worker's does); `strategy`: the one asked.
    fn stats(&self) -> Map<String, Value> {
        let mut m = Map::new();
        for w in &self.stats {
            for (k, v) in w {
                if k == "technique" || k == "strategy" {
                    continue;
                }
                let slot = m.entry(k.clone()).or_insert(Value::Null);
                add_up(slot, v);
            }
        }
        // The strategy asked for is worker 0's.
        if let Some(first) = self.stats.first().and_then(|w| w.get("strategy")) {
            m.insert("strategy".into(), first.clone());
        }
        m.insert("jobs".into(), self.stats.len().into());
        m.insert("workers".into(), self.stats.clone().into());
        m
    }
}

fn add_runs(a: &mut crate::driver::session::RunCounts, b: &crate::driver::session::RunCounts) {
    a.cut_by_deadline += b.cut_by_deadline;
    a.cut_by_interrupt += b.cut_by_interrupt;
    a.cut_by_memory_limit += b.cut_by_memory_limit;
    a.cut_by_link_limit += b.cut_by_link_limit;
    a.unsupported += b.unsupported;
    if a.first_unsupported.is_none() {
        a.first_unsupported.clone_from(&b.first_unsupported);
    }
    a.uninitialized += b.uninitialized;
    if a.first_uninitialized.is_none() {
        a.first_uninitialized.clone_from(&b.first_uninitialized);
    }
}

/// `acc += v` for statistics: numbers add, flags or, objects by key, the rest keeps the first.
fn add_up(acc: &mut Value, v: &Value) {
    match (acc, v) {
        (acc @ Value::Null, v) => *acc = v.clone(),
        (Value::Number(a), Value::Number(b)) => {
            *a = match (a.as_u64(), b.as_u64()) {
                (Some(x), Some(y)) => x.saturating_add(y).into(),
                _ => {
                    let f = a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0);
                    serde_json::Number::from_f64(f).unwrap_or_else(|| 0.into())
                }
            }
        }
        (Value::Bool(a), Value::Bool(b)) => *a |= *b,
        (Value::Object(a), Value::Object(b)) => {
            for (k, x) in b {
                add_up(a.entry(k.clone()).or_insert(Value::Null), x);
            }
        }
        _ => {}
    }
}
