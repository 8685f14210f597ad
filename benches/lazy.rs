//! Lazy expansion against plain concolic testing on the team's calculator
//! (tests/programs/lazy/calculator.c, unit mode `calc`, 24-byte input), bounded to 1, 2 and 3
//! operations as in Table 2 of the LATEST paper. Same time budget for every technique.
//!
//! `cargo bench --bench lazy -- [--time SECS] [--seeds N] [--ops 1,2,3]
//!  [--strategies expectation,dfs,lazy-only,lazy]` (figures are means over seeds)
//!
//! Columns: runs (program runs, abstract ones included); valid paths (distinct paths of the
//! parser that accept, i.e. sequences of operations, as the paper counts valid inputs: its
//! calculator has one input per path) and valid inputs (distinct accepted strings) among real
//! runs; covered goals; time to reach the final coverage; time to the last new valid path;
//! whether the technique finished before the budget. `lazy` is `--lazy auto` (lazy expansion,
//! then concolic search on what is left), `lazy-only` lazy expansion alone.

#[path = "common/args.rs"]
mod args;

use cairn::driver::session::{Budget, Session};
use cairn::exec::{Config, Outcome, Program};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use std::cell::RefCell;
use std::collections::HashSet;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let get = args::value;
    let time: f64 = get("--time").map_or(10.0, |t| t.parse().expect("--time SECS"));
    let seeds: u64 = get("--seeds").map_or(1, |t| t.parse().expect("--seeds N"));
    let ops: Vec<u32> = get("--ops").map_or(vec![1, 2, 3], |o| {
        o.split(',')
            .map(|x| x.parse().expect("--ops 1,2,3"))
            .collect()
    });
    let techniques: Vec<String> = get("--strategies").map_or(
        vec![
            "expectation".into(),
            "dfs".into(),
            "lazy-only".into(),
            "lazy".into(),
        ],
        |s| s.split(',').map(|x| x.to_string()).collect(),
    );
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/lazy/calculator.c");
    println!(
        "calculator.c, unit mode `calc`, 24-byte input, budget {time}s per run, mean of {seeds} seed(s)"
    );
    println!(
        "{:>3} {:<12} {:>9} {:>6} {:>7} {:>9} {:>9} {:>10} {:>7}",
        "ops", "technique", "runs", "paths", "valid", "covered", "t_cov_s", "t_paths_s", "finished"
    );
    for n in ops {
        let opts = CompileOptions {
            defines: vec![format!("OPS={n}")],
            ..Default::default()
        };
        let mut p = Program::new(load(std::slice::from_ref(&file), &opts).expect("load"));
        p.set_entry("calc", 24, false);
        for t in &techniques {
            let rows: Vec<Row> = (0..seeds).map(|k| run_one(&p, &file, t, time, k)).collect();
            let mean = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / seeds as f64;
            println!(
                "{:>3} {:<12} {:>9.0} {:>6.1} {:>7.1} {:>5.1}/{:<3} {:>9.2} {:>10.2} {:>5}/{}",
                n,
                t,
                mean(&|r| r.runs as f64),
                mean(&|r| r.paths as f64),
                mean(&|r| r.valid as f64),
                mean(&|r| r.covered as f64),
                rows[0].total,
                mean(&|r| r.t_cov),
                mean(&|r| r.t_valid),
                rows.iter().filter(|r| r.finished).count(),
                seeds
            );
        }
    }
}

struct Row {
    runs: u64,
    paths: usize,
    valid: usize,
    covered: usize,
    total: usize,
    t_cov: f64,
    t_valid: f64,
    finished: bool,
}

/// Distinct accepted inputs, distinct parser paths, and when the last path was found (seconds).
type Accepted = (HashSet<Vec<u8>>, HashSet<Vec<u8>>, f64);

fn run_one(p: &Program, file: &std::path::Path, technique: &str, time: f64, seed: u64) -> Row {
    let tmp = TempDir::new("bench-lazy").unwrap();
    let mut w = SuiteWriter::create(tmp.path(), file, &p.module, false).unwrap();
    w.set_entry(&p.module, &p.entry, &p.unit).unwrap();
    let budget = Budget {
        time: Duration::from_secs_f64(time),
        max_tests: None,
        max_iterations: None,
    };
    let mut s = Session::new(p, w, budget, Arc::new(AtomicBool::new(false)));
    // Every technique gets the whole budget to find accepted inputs, also after covering
    // every branch.
    s.stop_when_decided = false;
    // Distinct accepted inputs (the buffer up to its NUL) and parser paths (what `calc`
    // prints), and when the last path was found.
    let valid: Rc<RefCell<Accepted>> = Rc::default();
    let start = Instant::now();
    {
        let valid = valid.clone();
        s.on_run(move |r, _| {
            if r.outcome == Outcome::Exit(1) {
                let b = r.inputs[0].bytes();
                let text = b[..b.iter().position(|c| *c == 0).unwrap_or(b.len())].to_vec();
                let mut v = valid.borrow_mut();
                v.0.insert(text);
                if v.1.insert(r.stdout.clone()) {
                    v.2 = start.elapsed().as_secs_f64();
                }
            }
        });
    }
    let (strategy, lazy) = match technique {
        "lazy" | "lazy-only" => ("expectation", Some("auto".to_string())),
        t => (t, None),
    };
    let plan = cairn::driver::generate::Plan {
        strategy: strategy.parse().expect("a strategy"),
        seed,
        cfg: Config {
            max_steps: 10_000_000,
            ..Config::default()
        },
        tests_only: true,
        mc_share: 0.25,
        pair_slices: vec![],
        jobs: 1,
        solver: Default::default(),
        lazy,
        fuzz_share: 0.0,
        fuzz_native: false,
        mc: Default::default(),
        random_bursts: true,
    };
    let mut t = if technique == "lazy-only" {
        Box::new(
            cairn::driver::lazy::LazyExpansion::new(
                &s,
                &cairn::exec::abstraction::Selection::Auto,
                cairn::search::by_name("expectation").unwrap(),
                seed,
                &plan.cfg,
            )
            .unwrap(),
        )
    } else {
        cairn::driver::generate::technique(&s, &plan).unwrap()
    };
    cairn::driver::generate::run(&mut s, t.as_mut()).unwrap();
    let finished = t.finished();
    if std::env::var_os("CAIRN_BENCH_MISSED").is_some() {
        let missed: Vec<String> = (0..s.goals.len())
            .filter(|&g| s.ledger.status[g] == cairn::driver::ledger::Status::Unknown)
            .map(|g| format!("{:?}", s.goals.goals[g]))
            .collect();
        eprintln!("{technique} seed {seed}: missed {missed:?}");
    }
    let history = s.history();
    let last = history.iter().rev().find(|m| m.covered == s.ledger.covered);
    let v = valid.borrow();
    Row {
        runs: s.iterations,
        paths: v.1.len(),
        valid: v.0.len(),
        covered: s.ledger.covered,
        total: s.goals.len(),
        t_cov: last.map_or(0.0, |m| m.time_s),
        t_valid: v.2,
        finished,
    }
}
