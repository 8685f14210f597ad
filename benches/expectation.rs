//! The uncovered-branch expectation paper's measure: how many test inputs a strategy needs to
//! cover all reachable branches, and the coverage it reaches within the budget, averaged over
//! seeds, with the ratio expectation / other per program.
//!
//! `cargo bench --bench expectation -- [--time SECS] [--seeds N] [--strategies a,b,..]
//! [--cflags FLAGS] [--env "MIN MAX LEN [FILES SIZE]"] [--random-bursts] [FILE.c ...]`
//! (`--env`: argv and files as inputs, as `gen --sym-args/--sym-files`)
//! (default: tests/programs/concolic and tests/programs/search, 3 s, 10 seeds,
//! expectation,cfg,random-branch,uniform-random).
//!
//! A *test input* is one program run the strategy asked for (the paper's "test inputs
//! generated"); `cairn gen` keeps only the runs that cover something new, shown as `kept`.
//! Stalled concolic search also runs bursts of random inputs when coverage has not grown for a
//! tenth of the budget (`gen` does): those runs are no strategy's choice, and how many fit in a
//! burst depends on the machine's speed, so they are off unless `--random-bursts`, and then
//! counted apart (the inputs to the best coverage with them, and in how many runs a burst
//! reached it). Reachable = total goals minus the program's `/* infeasible: N */` comment; a
//! run stops once it covers all reachable goals. A run
//! that does not reach them within the budget is censored: its `inputs_all` is the number of
//! inputs it ran (a lower bound), and figures built on it are marked `>=` or `~`. Since a
//! censored lower bound flatters a strategy that runs few inputs per second (slow solver
//! queries), each program also gets `common`: the coverage every run of every strategy reached,
//! and `inputs_common`, the inputs each needed to get there (never censored). Coverage is
//! observed after each search step, so the first (random) input's coverage is seen together
//! with the second's: counts can be one too high at levels the first input reached.

use cairn::driver::concolic::STALL_BURST;
use cairn::driver::session::{Budget, Session};
use cairn::exec::{Config, Program};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use std::cell::{Cell, RefCell};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

struct Run {
    covered: usize,
    total: usize,
    /// Inputs run until the last coverage increase.
    inputs_final: u64,
    /// Kept tests at the last coverage increase.
    kept: usize,
    t_final: f64,
    /// Inputs run until all reachable goals were covered, or in the whole budget (censored).
    inputs_all: u64,
    reached: bool,
    curve: Curve,
}

/// (covered, inputs run, runs, whether a random burst's run covered it) at every coverage
/// increase.
type Curve = Vec<(usize, u64, u64, bool)>;

impl Run {
    /// Inputs run until `level` goals were covered (None if never).
    fn inputs_to(&self, level: usize) -> Option<u64> {
        self.curve.iter().find(|c| c.0 >= level).map(|c| c.1)
    }

    /// Runs, the random bursts included, until `level` goals were covered.
    fn runs_to(&self, level: usize) -> Option<u64> {
        self.curve.iter().find(|c| c.0 >= level).map(|c| c.2)
    }
}

#[path = "common/args.rs"]
mod args;
use args::BenchArgs;

fn main() {
    let BenchArgs {
        time,
        seeds,
        strategies,
        files,
        cflags,
    } = args::parse(
        3.0,
        10,
        &["expectation", "cfg", "random-branch", "uniform-random"],
    );
    // Off by default: the paper measured strategies, and bursts are no strategy's choice.
    let random_bursts = std::env::args().any(|a| a == "--random-bursts");
    println!(
        "budget {time}s per run, {seeds} seeds; means over seeds; random bursts on stalls {}",
        if random_bursts { "on" } else { "off" }
    );
    println!(
        "inputs = test inputs (runs) until the final coverage; inputs_all = until all reachable goals are covered"
    );
    println!(
        "(censored at the budget when not reached: a lower bound, marked >=); kept = tests kept by cairn"
    );
    println!(
        "(common = coverage every run of every strategy reached; inputs_common = inputs to reach it)"
    );
    println!(
        "{:<20} {:<15} {:>10} {:>6} {:>9} {:>11} {:>7} {:>8} {:>6} {:>9}",
        "program",
        "strategy",
        "covered",
        "reach",
        "inputs",
        "inputs_all",
        "kept",
        "t_final",
        "common",
        "inp_comm"
    );
    let mut total_ratio: Vec<(String, Vec<f64>, Vec<f64>)> = strategies
        .iter()
        .skip(1)
        .map(|s| (s.clone(), vec![], vec![]))
        .collect();
    for f in &files {
        let opts = CompileOptions {
            flags: cflags.clone(),
            ..CompileOptions::default()
        };
        let m = match load(std::slice::from_ref(f), &opts) {
            Ok(m) => m,
            Err(e) => {
                println!("{}: {e:#}", f.display());
                continue;
            }
        };
        let mut p = Program::new(m);
        // `--env "MIN MAX LEN [FILES SIZE]"`: argv (and files) as inputs, as `--sym-args`.
        if let Some(env) = args::value("--env") {
            let n: Vec<u32> = env.split_whitespace().map(|x| x.parse().unwrap()).collect();
            let env = cairn::exec::env::SymEnv {
                args_min: n[0],
                args_max: n[1],
                arg_len: n[2],
                files: n.get(3).copied().unwrap_or(0),
                file_size: n.get(4).copied().unwrap_or(0),
            };
            p.set_env(&env).expect("--env");
        }
        let infeasible = infeasible_count(f);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let all_runs: Vec<Vec<Run>> = strategies
            .iter()
            .map(|st| {
                (0..seeds)
                    .map(|seed| run_one(&p, f, st, seed, time, infeasible, random_bursts))
                    .collect()
            })
            .collect();
        let common = all_runs
            .iter()
            .flatten()
            .map(|r| r.covered)
            .min()
            .unwrap_or(0);
        // The most any run covered: the reachable goals as far as anyone knows (the paper's
        // "reachable branches" on programs without a count of infeasible goals).
        let best = all_runs
            .iter()
            .flatten()
            .map(|r| r.covered)
            .max()
            .unwrap_or(0);
        let mut means: Vec<(f64, bool, f64)> = vec![];
        for (st, runs) in strategies.iter().zip(&all_runs) {
            let n = runs.len() as f64;
            let mean = |g: &dyn Fn(&Run) -> f64| runs.iter().map(g).sum::<f64>() / n;
            let reached = runs.iter().filter(|r| r.reached).count();
            let censored = reached < runs.len();
            let all = mean(&|r| r.inputs_all as f64);
            let at_common = mean(&|r| r.inputs_to(common).unwrap_or(0) as f64);
            means.push((all, censored, at_common));
            println!(
                "{:<20} {:<15} {:>6.1}/{:<3} {:>3}/{:<2} {:>9.1} {:>11} {:>7.1} {:>8.3} {:>6} {:>9.1}",
                name,
                st,
                mean(&|r| r.covered as f64),
                runs[0].total,
                reached,
                runs.len(),
                mean(&|r| r.inputs_final as f64),
                format!("{}{:.1}", if censored { ">=" } else { "" }, all),
                mean(&|r| r.kept as f64),
                mean(&|r| r.t_final),
                common,
                at_common,
            );
        }
        let to_best: Vec<String> = strategies
            .iter()
            .zip(&all_runs)
            .map(|(st, runs)| {
                let mut got: Vec<u64> = runs.iter().filter_map(|r| r.inputs_to(best)).collect();
                got.sort_unstable();
                let mean = got.iter().sum::<u64>() as f64 / got.len().max(1) as f64;
                let median = got.get(got.len() / 2).copied().unwrap_or(0);
                let with: Vec<u64> = runs.iter().filter_map(|r| r.runs_to(best)).collect();
                let with = with.iter().sum::<u64>() as f64 / with.len().max(1) as f64;
                let by_burst = runs
                    .iter()
                    .filter(|r| r.curve.iter().find(|c| c.0 >= best).is_some_and(|c| c.3))
                    .count();
                format!(
                    "{st} {mean:.1} (median {median}; {with:.1} with random bursts, which \
                     reached it in {by_burst}; {}/{} runs)",
                    got.len(),
                    runs.len()
                )
            })
            .collect();
        println!(
            "{:<20} inputs to the best coverage ({best}): {}",
            name,
            to_best.join(", ")
        );
        let stem = name.trim_end_matches(".c");
        if let Some((_, n)) = PAPER.iter().find(|(p, _)| *p == stem) {
            println!("{:<20} the paper (CREST, Expectation): {n} inputs", name);
        }
        if strategies.len() > 1 {
            let (e, ec, e_common) = means[0];
            let parts: Vec<String> = strategies
                .iter()
                .zip(&means)
                .skip(1)
                .enumerate()
                .map(|(k, (s, (o, oc, o_common)))| {
                    let r = e / o.max(1e-9);
                    let rc = e_common / o_common.max(1e-9);
                    total_ratio[k].1.push(r);
                    total_ratio[k].2.push(rc);
                    format!(
                        "{s} {}{r:.2} (common {rc:.2})",
                        if ec || *oc { "~" } else { "" }
                    )
                })
                .collect();
            println!(
                "{:<20} ratio {} / other, inputs_all (inputs_common): {}",
                name,
                strategies[0],
                parts.join(", ")
            );
        }
    }
    if strategies.len() > 1 {
        println!();
        for (s, v, vc) in &total_ratio {
            for (what, v) in [("inputs_all", v), ("inputs_common", vc)] {
                let geo =
                    (v.iter().map(|x| x.max(1e-9).ln()).sum::<f64>() / v.len().max(1) as f64).exp();
                let below = v.iter().filter(|x| **x < 0.995).count();
                let above = v.iter().filter(|x| **x > 1.005).count();
                println!(
                    "{} / {s}, {what}: geometric mean ratio {geo:.2} over {} programs ({below} below 1, {above} above 1)",
                    strategies[0],
                    v.len()
                );
            }
        }
    }
}

/// The paper's Tables I and II: test inputs Expectation needed to cover the reachable branches
/// (CREST's test programs; the Siemens programs with CREST drivers), averaged over 10 runs.
const PAPER: &[(&str, f64)] = &[
    ("cfg_search_test", 2.0),
    ("cfg_test", 10.8),
    ("function", 2.0),
    ("math", 2.0),
    ("simple", 2.0),
    ("uniform_test", 5.0),
    ("replace", 391.0),
    ("schedule", 65.0),
    ("schedule2", 34.0),
    ("tcas", 17.0),
];

/// The `/* infeasible: N */` comment of a test program (None: unknown, run the whole budget).
fn infeasible_count(f: &Path) -> Option<usize> {
    let src = std::fs::read_to_string(f).ok()?;
    src.lines()
        .find_map(|l| l.split("infeasible:").nth(1))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
}

fn run_one(
    p: &Program,
    f: &Path,
    strategy: &str,
    seed: u64,
    time: f64,
    infeasible: Option<usize>,
    random_bursts: bool,
) -> Run {
    let tmp = TempDir::new("bench").unwrap();
    let w = SuiteWriter::create(tmp.path(), f, &p.module, false).unwrap();
    let budget = Budget {
        time: Duration::from_secs_f64(time),
        max_tests: None,
        max_iterations: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut s = Session::new(p, w, budget, stop.clone());
    let reachable = infeasible.map(|n| s.goals.len().saturating_sub(n));
    // (inputs, runs, the last run a burst's): the strategy's inputs, and every run.
    let counts: Rc<Cell<(u64, u64, bool)>> = Rc::default();
    let (count, total) = (counts.clone(), counts.clone());
    s.on_run(move |_, by| {
        let (inputs, runs, _) = count.get();
        let burst = by == STALL_BURST;
        count.set((inputs + u64::from(!burst), runs + 1, burst));
    });
    let curve: Rc<RefCell<Curve>> = Rc::default();
    let at = curve.clone();
    let cfg = Config {
        max_steps: 10_000_000,
        ..Config::default()
    };
    // All reachable goals covered: nothing left to measure.
    let stop_at = stop.clone();
    s.on_milestone(move |m| {
        if reachable.is_some_and(|r| m.covered >= r) {
            stop_at.store(true, Ordering::Relaxed);
        }
        let mut c = at.borrow_mut();
        if c.last().is_none_or(|l| m.covered > l.0) {
            let (inputs, runs, burst) = counts.get();
            c.push((m.covered, inputs, runs, burst));
        }
    });
    let plan = cairn::driver::generate::Plan {
        strategy: strategy.parse().expect("a strategy"),
        seed,
        cfg,
        tests_only: true,
        mc_share: 0.25,
        pair_slices: vec![],
        jobs: 1,
        solver: Default::default(),
        lazy: None,
        fuzz_share: 0.0,
        fuzz_native: false,
        mc: Default::default(),
        random_bursts,
    };
    let mut t = cairn::driver::generate::technique(&s, &plan).unwrap();
    let deadline = s.deadline();
    t.run(&mut s, deadline).unwrap();
    let curve = curve.take();
    let history = s.history();
    let last = history
        .iter()
        .find(|m| m.covered == s.ledger.covered)
        .map_or((0, 0.0), |m| (m.tests, m.time_s));
    let inputs_final = curve
        .iter()
        .find(|c| c.0 == s.ledger.covered)
        .map_or(0, |c| c.1);
    let reached = reachable.is_some_and(|r| s.ledger.covered >= r);
    Run {
        covered: s.ledger.covered,
        total: s.goals.len(),
        inputs_final,
        kept: last.0,
        t_final: last.1,
        inputs_all: if reached { inputs_final } else { total.get().0 },
        reached,
        curve,
    }
}
