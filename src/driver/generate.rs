//! What `cairn gen` runs: the technique a request asks for, composed from the others, run
//! against one session until every goal is decided or the budget ends.

use crate::driver::concolic::{Concolic, SolverOptions};
use crate::driver::dataflow::DefUseProving;
use crate::driver::dead_pairs::DeadCodePairs;
use crate::driver::fuzz::Fuzzing;
use crate::driver::lazy::LazyExpansion;
use crate::driver::parallel::{Parallel, portfolio};
use crate::driver::prove::{ModelChecking, static_check};
use crate::driver::session::Session;
use crate::driver::technique::{Alternate, Technique};
use crate::exec::Config;
use crate::exec::abstraction::Selection;
use std::time::Duration;
use std::time::Instant;

#[derive(Clone)]
pub struct Plan {
    /// What searches for tests.
    pub strategy: Search,
    pub seed: u64,
    pub cfg: Config,
    /// Only generate tests: no model checking of the goals testing leaves.
    pub tests_only: bool,
    /// The model checker's share of each round when testing and proving alternate.
    pub mc_share: f64,
    /// Def-use pairs: the model checker's slice per pair in each pass (the last repeats);
    /// empty: from the budget (`DefUseProving::ladder`).
    pub pair_slices: Vec<Duration>,
    /// Workers in parallel (`driver::parallel`); 1: this technique alone, on this thread.
    pub jobs: usize,
    /// How concolic search solves path conditions.
    pub solver: SolverOptions,
    /// Lazy expansion of calls (`auto` or function names), in turns with concolic testing.
    pub lazy: Option<String>,
    /// Mutational fuzzing's share of concolic testing's time (0: none).
    pub fuzz_share: f64,
    /// Fuzz natively (a fork server) when the program builds; else in the interpreter.
    pub fuzz_native: bool,
    /// The model checker's limits.
    pub mc: crate::mc::arg::McConfig,
    /// Random bursts when concolic search stalls (`driver::concolic::stall`); off to measure a
    /// search strategy's own inputs.
    pub random_bursts: bool,
}

/// What searches for tests: a concolic strategy of `search::registry`, or a technique of
/// `driver::registry` (random testing; crabs, with the concolic strategy it runs under the
/// monitors). Written as on the command line (`dfs`, `random`, `crabs:cfg`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    Concolic(&'static str),
    Technique {
        name: &'static str,
        under: Option<&'static str>,
    },
}

impl Search {
    /// The concolic strategy that orders the pending branches (crabs: the one under the
    /// monitors); None for a technique that runs none (random testing).
    pub fn concolic(self) -> Option<&'static str> {
        match self {
            Search::Concolic(s) => Some(s),
            Search::Technique { under, .. } => under,
        }
    }

    /// A technique of `driver::registry` by name, with its default strategy under it.
    pub fn technique(name: &str) -> Option<Search> {
        let e = crate::driver::registry::by_name(name)?;
        Some(Search::Technique {
            name: e.name,
            under: e.under,
        })
    }
}

/// A strategy of the registry, by its name.
fn registered(name: &str) -> Option<&'static str> {
    crate::search::registry::STRATEGIES
        .iter()
        .find(|e| e.name == name)
        .map(|e| e.name)
}

impl std::str::FromStr for Search {
    type Err = anyhow::Error;

    fn from_str(s: &str) -> anyhow::Result<Search> {
        if let Some(t) = Search::technique(s) {
            return Ok(t);
        }
        if let Some((name, u)) = s.split_once(':') {
            let technique = Search::technique(name).filter(|t| t.concolic().is_some());
            let Some(Search::Technique { name, .. }) = technique else {
                anyhow::bail!("`{name}` runs no concolic strategy (`{s}`)");
            };
            let under = registered(u)
                .ok_or_else(|| anyhow::anyhow!("{name} runs a concolic strategy, not `{u}`"))?;
            return Ok(Search::Technique {
                name,
                under: Some(under),
            });
        }
        Ok(Search::Concolic(registered(s).ok_or_else(|| {
            anyhow::anyhow!("unknown strategy `{s}`")
        })?))
    }
}

impl std::fmt::Display for Search {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Search::Concolic(s) => write!(f, "{s}"),
            Search::Technique {
                name,
                under: Some(u),
            } => write!(f, "{name}:{u}"),
            Search::Technique { name, under: None } => write!(f, "{name}"),
        }
    }
}

/// The search's options of `gen`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Search")]
pub struct SearchArgs {
    /// Search strategy (all but `random` are concolic) [default: expectation].
    #[arg(long, value_parser = strategy_values())]
    pub strategy: Option<String>,
    /// With `--strategy crabs` (a technique that runs one): the concolic strategy that searches the product of the
    /// program and the monitors (default `expectation`; `cfg` takes its distances in the
    /// product).
    #[arg(long, value_name = "STRATEGY", value_parser = strategy_values())]
    pub under: Option<String>,
    /// Seed of every random choice (fuzzing, random strategies): the same seed and budget
    /// in iterations give the same suite.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl SearchArgs {
    /// The plan's search: a technique with `--under`'s strategy; `expectation` by default.
    pub fn search(&self) -> anyhow::Result<Search> {
        let name = self.strategy.as_deref().unwrap_or("expectation");
        let runs_one = Search::technique(name).is_some_and(|t| t.concolic().is_some());
        match (name, &self.under) {
            (t, Some(u)) if runs_one => format!("{t}:{u}").parse(),
            (_, Some(_)) => anyhow::bail!("--under needs --strategy crabs"),
            (s, None) => s.parse(),
        }
    }
}

/// The values of `--strategy`: every search strategy of `search::registry` and every
/// technique of `driver::registry`.
fn strategy_values() -> clap::builder::PossibleValuesParser {
    use clap::builder::PossibleValue;
    let strategies = crate::search::registry::STRATEGIES
        .iter()
        .map(|e| PossibleValue::new(e.name).help(e.help).hide(e.hidden));
    let techniques = crate::driver::registry::TECHNIQUES
        .iter()
        .map(|e| PossibleValue::new(e.name).help(e.help));
    clap::builder::PossibleValuesParser::new(strategies.chain(techniques))
}

/// The technique `plan` describes, for session `s`.
pub fn technique<'p>(s: &Session<'p>, plan: &Plan) -> anyhow::Result<Box<dyn Technique + 'p>> {
    let technique = match plan.strategy {
        Search::Technique { name, .. } => crate::driver::registry::by_name(name),
        Search::Concolic(_) => None,
    };
    // A technique that decides goals itself (crabs: concolic search in turns with the model
    // checker) is the whole run, on one worker.
    if let Some(t) = technique.filter(|t| t.decides) {
        if plan.tests_only || plan.lazy.is_some() {
            anyhow::bail!(
                "--strategy {} runs the model checker: not with --tests-only or --lazy",
                t.name
            );
        }
        return (t.make)(s, plan, plan.strategy.concolic().unwrap_or_default());
    }
    // A bad `--lazy` is refused now, not when a worker reaches it (the other worker would
    // have run out the budget first).
    if let Some(spec) = &plan.lazy {
        crate::exec::abstraction::Policy::new(s.program, &Selection::parse(spec))
            .map_err(|e| anyhow::anyhow!(e))?;
    }
    if plan.jobs > 1 {
        let single = Plan {
            jobs: 1,
            ..plan.clone()
        };
        // Monitors steer branch coverage; def-use pairs go to the checker one at a time.
        let monitors = s.program.def_use.is_none();
        return Ok(Box::new(Parallel::new(portfolio(
            &single, plan.jobs, monitors,
        ))));
    }
    let fuzzing = || {
        Box::new(Fuzzing::new(
            s.program,
            plan.seed,
            &plan.cfg,
            plan.fuzz_native,
        ))
    };
    let testing: Box<dyn Technique + 'p> = if let Some(t) = technique {
        if plan.lazy.is_some() {
            anyhow::bail!("--lazy needs a concolic strategy, not `{}`", t.name);
        }
        (t.make)(s, plan, plan.strategy.concolic().unwrap_or_default())?
    } else if plan.fuzz_share >= 1.0 && plan.lazy.is_none() {
        // Fuzzing alone: no turns of concolic search.
        fuzzing()
    } else {
        let name = plan.strategy.concolic().expect("a concolic strategy");
        let strategy = crate::search::by_name(name).expect("a registered strategy");
        let mut concolic = Box::new(Concolic::new(
            s,
            strategy,
            plan.seed,
            &plan.cfg,
            &plan.solver,
        )?);
        concolic.stalls.random_bursts = plan.random_bursts;
        // Turns of testing techniques with each other start short (a quick goal each).
        let first = (s.budget.time / 32).max(Duration::from_millis(250));
        match &plan.lazy {
            // Lazy expansion explores the unit's paths; concolic search, in turns, covers what
            // the callees hide. (An abstraction can be poor — callees returning positions a
            // loop goes on from — and the turns keep that from costing the whole budget.)
            Some(spec) => {
                let order = crate::search::by_name(name).expect("a registered strategy");
                let lazy =
                    LazyExpansion::new(s, &Selection::parse(spec), order, plan.seed, &plan.cfg)?;
                Box::new(Alternate::new(
                    vec![(Box::new(lazy), 0.5), (concolic, 0.5)],
                    first,
                ))
            }
            None if plan.fuzz_share > 0.0 => Box::new(Alternate::new(
                vec![
                    (concolic, 1.0 - plan.fuzz_share),
                    (fuzzing(), plan.fuzz_share),
                ],
                first,
            )),
            None => concolic,
        }
    };
    if plan.tests_only {
        return Ok(testing);
    }
    // Testing first (cheap goals go fast), the model checker on what is left, in rounds that
    // double so that deep goals get long stretches of both.
    let first = (s.budget.time / 16).max(Duration::from_millis(500));
    // Def-use pairs go to the model checker one at a time, as cover-flag goals, in turns with
    // the checker on the branch outcomes (one graph for all), whose proofs decide the pairs
    // in the code behind them.
    let prover: Box<dyn Technique + 'p> = if s.program.def_use.is_some() {
        let ladder = match plan.pair_slices.is_empty() {
            true => DefUseProving::ladder(s.budget.time),
            false => plan.pair_slices.clone(),
        };
        let slice = ladder[0];
        let pairs = Box::new(DefUseProving::new(&plan.cfg, ladder, plan.mc.clone()));
        let branches = Box::new(DeadCodePairs::new(s, &plan.cfg, plan.mc.clone(), slice)?);
        Box::new(Alternate::new(vec![(branches, 0.5), (pairs, 0.5)], first))
    } else {
        Box::new(ModelChecking::with_config(s, plan.mc.clone())?)
    };
    Ok(Box::new(Alternate::new(
        vec![(testing, 1.0 - plan.mc_share), (prover, plan.mc_share)],
        first,
    )))
}

/// How long past its deadline a run may be inside Z3 before the watchdog interrupts it (Z3
/// bounds its search by the query's timeout, not the simplification before it).
const OVERDUE_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs `t` on the session until the budget ends or every goal is decided, after the cheap
/// static check; returns the statistics for summary.json.
pub fn run(
    s: &mut Session,
    t: &mut dyn Technique,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
    let dead = static_check(s)?;
    let mut stats = run_without_static_check(s, t)?;
    stats.insert("static_unreachable".into(), dead.into());
    Ok(stats)
}

/// `run` without the static check first: what `t` decides alone (a benchmark that measures
/// one technique's share of the proofs, as a paper ran it).
pub fn run_without_static_check(
    s: &mut Session,
    t: &mut dyn Technique,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
    let deadline = s.deadline();
    let (finished, watch) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        // Z3 bounds a query's search by its timeout but not the simplification of what is
        // asserted: past the deadline, whatever Z3 does is interrupted (again while it lasts).
        scope.spawn(move || {
            use std::sync::mpsc::RecvTimeoutError::Timeout;
            let overdue = deadline + OVERDUE_GRACE;
            let mut wait = overdue.saturating_duration_since(Instant::now());
            while let Err(Timeout) = watch.recv_timeout(wait) {
                crate::smt::solver::interrupt_queries_in_flight();
                wait = std::time::Duration::from_millis(100);
            }
        });
        // A technique may return with time left and goals it might still decide (the model
        // checker's turn is two thirds of what is left): it goes on until done or out of time.
        let r = (|| {
            loop {
                t.run(s, deadline)?;
                if t.finished() || s.should_stop() || Instant::now() >= deadline {
                    break;
                }
            }
            Ok(())
        })();
        // Ends the watchdog at once.
        drop(finished);
        r
    })?;
    let mut stats = t.stats();
    stats.insert("iterations".into(), s.iterations.into());
    Ok(stats)
}
