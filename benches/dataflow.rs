//! Data-flow testing strategies compared on the team's data-flow programs, at the same budget:
//! def-use pairs covered, proven infeasible (exhaustive exploration) and left unknown, median
//! time to cover a pair, and program runs.
//!
//! `cargo bench --bench dataflow -- [--time SECS] [--seeds N] [--strategies a,b,..] [FILE.c ...]`
//! (default: every program in tests/programs/dataflow, 5 s, 3 seeds, dfs, random-branch,
//! shortest-distance, cut-point, and cut-point+mc: cut-point guided search alternating with
//! the model checker on cover-flag copies of the pairs left, half the time each).
//! `cut-point-unpruned` is cut-point without redefinition pruning. `--no-static`: no static
//! proofs before the search, as the DFT paper ran its symbolic execution (which proves a pair
//! only by exhausting its paths) and its combination (whose model checker proves the rest).
//! `--uninitialized-inputs`: locals read before they are set are inputs (`cairn gen`'s option),
//! as the paper's model checkers read them.
//! `coverage` is the paper's data-flow coverage: covered / (pairs - proven infeasible).

use cairn::driver::session::{Budget, Session};
use cairn::exec::{Config, Program};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[path = "common/args.rs"]
mod args;

#[derive(Default)]
struct Row {
    covered: f64,
    infeasible: f64,
    unknown: f64,
    median_s: f64,
    runs: f64,
}

fn main() {
    let mut a = args::parse(
        5.0,
        3,
        &[
            "dfs",
            "random-branch",
            "shortest-distance",
            "cut-point",
            "cut-point+mc",
        ],
    );
    if std::env::args().all(|x| !x.ends_with(".c")) {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/dataflow");
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        v.sort();
        a.files = v;
    }
    println!(
        "budget {}s per run, {} seed(s); figures are means over seeds (median: of the pairs' cover times)",
        a.time, a.seeds
    );
    println!(
        "{:<14} {:<22} {:>6} {:>8} {:>11} {:>8} {:>9} {:>11} {:>8}",
        "program",
        "strategy",
        "pairs",
        "covered",
        "infeasible",
        "unknown",
        "coverage",
        "median_ms",
        "runs"
    );
    let static_check = !std::env::args().any(|x| x == "--no-static");
    let uninitialized_inputs = std::env::args().any(|x| x == "--uninitialized-inputs");
    for f in &a.files {
        let opts = CompileOptions {
            locals_in_memory: true,
            uninitialized_inputs,
            ..Default::default()
        };
        let m = match load(std::slice::from_ref(f), &opts) {
            Ok(m) => m,
            Err(e) => {
                println!("{}: {e:#}", f.display());
                continue;
            }
        };
        let mut p = Program::new(m);
        p.track_def_use();
        let pairs = p.def_use.as_ref().unwrap().pairs.len();
        for st in &a.strategies {
            let mut acc = Row::default();
            let n = a.seeds as f64;
            for seed in 0..a.seeds {
                let r = run_one(&p, f, st, seed, a.time, static_check);
                acc.covered += r.covered / n;
                acc.infeasible += r.infeasible / n;
                acc.unknown += r.unknown / n;
                acc.median_s += r.median_s / n;
                acc.runs += r.runs / n;
            }
            let coverage = 100.0 * acc.covered / (pairs as f64 - acc.infeasible).max(1.0);
            println!(
                "{:<14} {:<22} {:>6} {:>8.1} {:>11.1} {:>8.1} {:>8.1}% {:>11.1} {:>8.0}",
                f.file_name().unwrap().to_string_lossy(),
                st,
                pairs,
                acc.covered,
                acc.infeasible,
                acc.unknown,
                coverage,
                acc.median_s * 1000.0,
                acc.runs
            );
        }
    }
}

fn run_one(
    p: &Program,
    f: &std::path::Path,
    strategy: &str,
    seed: u64,
    time: f64,
    static_check: bool,
) -> Row {
    let tmp = TempDir::new("bench").unwrap();
    let w = SuiteWriter::create(tmp.path(), f, &p.module, false).unwrap();
    let budget = Budget {
        time: Duration::from_secs_f64(time),
        max_tests: None,
        max_iterations: None,
    };
    let mut s = Session::new(p, w, budget, Arc::new(AtomicBool::new(false)));
    s.only_def_use_goals();
    let (strategy, with_mc) = match strategy.strip_suffix("+mc") {
        Some(s) => (s, true),
        None => (strategy, false),
    };
    let plan = cairn::driver::generate::Plan {
        strategy: strategy.parse().expect("a strategy"),
        seed,
        cfg: Config {
            max_steps: 10_000_000,
            ..Config::default()
        },
        tests_only: !with_mc,
        mc_share: 0.5,
        pair_slices: vec![],
        solver: Default::default(),
        lazy: None,
        fuzz_share: 0.0,
        fuzz_native: false,
        jobs: 1,
        mc: Default::default(),
        random_bursts: true,
    };
    let mut t = cairn::driver::generate::technique(&s, &plan).unwrap();
    match static_check {
        true => cairn::driver::generate::run(&mut s, t.as_mut()).unwrap(),
        false => cairn::driver::generate::run_without_static_check(&mut s, t.as_mut()).unwrap(),
    };
    // Each pair's cover time, from the milestones (covered counts rise in steps).
    let mut times = vec![];
    let mut last = 0;
    for m in &s.history() {
        for _ in last..m.covered {
            times.push(m.time_s);
        }
        last = last.max(m.covered);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    Row {
        covered: s.ledger.covered as f64,
        infeasible: s.ledger.unreachable as f64,
        unknown: s.ledger.unknown() as f64,
        median_s: times.get(times.len() / 2).copied().unwrap_or(0.0),
        runs: s.iterations as f64,
    }
}
