//! Search strategies compared on the team's programs, at the same budget, in one run:
//! final coverage, time and tests to reach it, paths per second, solver calls and time; then
//! the time and the program runs each strategy needed to reach the coverage every run of the
//! program reached (a strategy that starves a branch needs far more than the others).
//!
//! `cargo bench --bench strategies -- [--time SECS] [--seeds N] [--strategies a,b,..] [FILE.c ...]`
//! (default: every program in tests/programs/concolic and tests/programs/search, 5 s, 1 seed,
//! every strategy).

use cairn::driver::session::{Budget, Session};
use cairn::exec::{Config, Program};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[derive(Default, Clone)]
struct Row {
    covered: f64,
    total: usize,
    t_final: f64,
    tests_final: f64,
    paths_per_s: f64,
    solver_calls: f64,
    solver_s: f64,
    /// Coverage over time and runs (one run's; empty in means).
    history: Vec<cairn::driver::shared::Milestone>,
}

/// When `history` first reached `covered` goals: (seconds, program runs).
fn reached(history: &[cairn::driver::shared::Milestone], covered: usize) -> (f64, f64) {
    history
        .iter()
        .find(|m| m.covered >= covered)
        .map_or((f64::NAN, f64::NAN), |m| (m.time_s, m.iterations as f64))
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
        ..
    } = args::parse(5.0, 1, &{
        // Random testing, then every branch strategy the registry has (a new one joins here).
        let mut all = vec!["random"];
        all.extend(cairn::search::registry::branch_strategies());
        all
    });
    println!("budget {time}s per run, {seeds} seed(s); figures are means over seeds");
    println!(
        "{:<22} {:<15} {:>9} {:>9} {:>8} {:>9} {:>9} {:>9}",
        "program", "strategy", "covered", "t_final", "tests", "paths/s", "solver#", "solver_s"
    );
    for f in &files {
        let m = match load(std::slice::from_ref(f), &CompileOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                println!("{}: {e:#}", f.display());
                continue;
            }
        };
        let p = Program::new(m);
        let mut runs: Vec<(String, Vec<cairn::driver::shared::Milestone>)> = vec![];
        for st in &strategies {
            let mut acc = Row::default();
            for seed in 0..seeds {
                let r = run_one(&p, f, st, seed, time);
                runs.push((st.clone(), r.history.clone()));
                acc.covered += r.covered / seeds as f64;
                acc.total = r.total;
                acc.t_final += r.t_final / seeds as f64;
                acc.tests_final += r.tests_final / seeds as f64;
                acc.paths_per_s += r.paths_per_s / seeds as f64;
                acc.solver_calls += r.solver_calls / seeds as f64;
                acc.solver_s += r.solver_s / seeds as f64;
            }
            println!(
                "{:<22} {:<15} {:>5.1}/{:<3} {:>9.3} {:>8.1} {:>9.0} {:>9.1} {:>9.3}",
                f.file_name().unwrap().to_string_lossy(),
                st,
                acc.covered,
                acc.total,
                acc.t_final,
                acc.tests_final,
                acc.paths_per_s,
                acc.solver_calls,
                acc.solver_s
            );
        }
        // The coverage every run reached, and what each strategy took to get there.
        let common = runs
            .iter()
            .map(|(_, h)| h.last().map_or(0, |m| m.covered))
            .min()
            .unwrap_or(0);
        for st in &strategies {
            let (mut t, mut n) = (0.0, 0.0);
            for (_, h) in runs.iter().filter(|(s, _)| s == st) {
                let (ti, ni) = reached(h, common);
                t += ti / seeds as f64;
                n += ni / seeds as f64;
            }
            println!(
                "{:<22} {:<15} reached {common} (every run's coverage) in {t:.3} s, {n:.0} runs",
                "", st
            );
        }
    }
}

fn run_one(p: &Program, f: &std::path::Path, strategy: &str, seed: u64, time: f64) -> Row {
    let tmp = TempDir::new("bench").unwrap();
    let w = SuiteWriter::create(tmp.path(), f, &p.module, false).unwrap();
    let budget = Budget {
        time: Duration::from_secs_f64(time),
        max_tests: None,
        max_iterations: None,
    };
    let mut s = Session::new(p, w, budget, Arc::new(AtomicBool::new(false)));
    let cfg = Config {
        max_steps: 10_000_000,
        ..Config::default()
    };
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
        random_bursts: true,
    };
    let mut t = cairn::driver::generate::technique(&s, &plan).unwrap();
    let stats = cairn::driver::generate::run(&mut s, t.as_mut()).unwrap();
    let history = s.history();
    let last = history.iter().rev().find(|m| m.covered == s.ledger.covered);
    let (t_final, tests_final) = last.map_or((0.0, 0), |m| (m.time_s, m.tests));
    let solver = &stats.get("solver");
    let calls = solver.map_or(0.0, |v| v["backend_calls"].as_f64().unwrap_or(0.0));
    let solver_s = solver.map_or(0.0, |v| v["time_s"].as_f64().unwrap_or(0.0));
    let paths = s.iterations as f64;
    let elapsed = s.start.elapsed().as_secs_f64().max(1e-6);
    Row {
        history,
        covered: s.ledger.covered as f64,
        total: s.goals.len(),
        t_final,
        tests_final: tests_final as f64,
        paths_per_s: paths / elapsed,
        solver_calls: calls,
        solver_s,
    }
}
