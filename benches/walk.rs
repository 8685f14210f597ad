//! The concolic-walk benchmark: solvers compared on the team's corpus of non-linear programs in
//! the style of the paper's (benches/programs/walk/: polynomials, trigonometry, exponentials,
//! roots, float/bit conversions, hash-like mixes, a power function, a ray-sphere test,
//! statistics).
//!
//! Every non-static `int` function of a corpus file is one benchmark, generated in unit mode
//! (its parameters are the inputs); its target is a test on which it returns 1. A `// opaque: f`
//! line in a file keeps the calls of `f` opaque. Per function and solver the table shows in how
//! many seeds the target was covered, the mean time to it, and the branch coverage of the
//! function (its goals and its helpers'); the totals compare the solvers over the whole set.
//!
//! `cargo bench --bench walk -- [--time SECS] [--seeds N] [--solvers a,b,..] [--walk PARAMS]
//! [--only NAME,..] [FILE.c ...]` (defaults: 2 s, 3 seeds, concretize,z3,walk,portfolio, every
//! file of benches/programs/walk).

use cairn::driver::concolic::Concolic;
use cairn::driver::concolic::SolverOptions;
use cairn::driver::session::{Budget, Session};
use cairn::driver::technique::Technique;
use cairn::exec::{Config, Program};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use cairn::smt::solver::SolverKind;
use cairn::smt::walk::WalkConfig;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

struct Args {
    time: f64,
    seeds: u64,
    solvers: Vec<SolverKind>,
    walk: WalkConfig,
    only: Vec<String>,
    files: Vec<PathBuf>,
}

fn parse_args() -> Args {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut a = Args {
        time: 2.0,
        seeds: 3,
        solvers: vec![
            SolverKind::Concretize,
            SolverKind::Z3,
            SolverKind::Walk,
            SolverKind::Portfolio,
        ],
        walk: WalkConfig::default(),
        only: vec![],
        files: vec![],
    };
    let mut i = 0;
    while i < argv.len() {
        let v = argv.get(i + 1).cloned().unwrap_or_default();
        match argv[i].as_str() {
            "--time" => a.time = v.parse().expect("--time SECS"),
            "--seeds" => a.seeds = v.parse().expect("--seeds N"),
            "--solvers" => {
                a.solvers = v
                    .split(',')
                    .map(|s| SolverKind::by_name(s).unwrap_or_else(|| panic!("solver {s}")))
                    .collect()
            }
            "--walk" => a.walk = WalkConfig::parse(&v).expect("--walk PARAMS"),
            "--only" => a.only = v.split(',').map(str::to_string).collect(),
            f if f.ends_with(".c") => {
                a.files.push(PathBuf::from(f));
                i += 1;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    if a.files.is_empty() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/programs/walk");
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        v.sort();
        a.files = v;
    }
    a
}

/// The benchmark functions of a file (non-static `int` definitions) and its opaque functions.
fn entries(src: &str) -> (Vec<String>, Vec<String>) {
    let mut fns = vec![];
    let mut opaque = vec![];
    for l in src.lines() {
        if let Some(rest) = l.strip_prefix("int ")
            && let Some(name) = rest.split('(').next()
            && rest.contains('(')
            && l.trim_end().ends_with('{')
        {
            fns.push(name.trim().to_string());
        }
        if let Some(names) = l.trim().strip_prefix("// opaque:") {
            opaque.extend(names.split(',').map(|s| s.trim().to_string()));
        }
    }
    (fns, opaque)
}

#[derive(Default, Clone)]
struct Outcome {
    target: bool,
    target_time: f64,
    covered: usize,
    goals: usize,
    walk_tests: usize,
}

fn run_one(
    p: &Program,
    file: &std::path::Path,
    others: &HashSet<String>,
    opts: &SolverOptions,
    seed: u64,
    time: f64,
) -> Outcome {
    let tmp = TempDir::new("walkbench").unwrap();
    let mut w = SuiteWriter::create(tmp.path(), file, &p.module, false).unwrap();
    w.set_entry(&p.module, &p.entry, &p.unit).unwrap();
    let budget = Budget {
        time: Duration::from_secs_f64(time),
        max_tests: None,
        max_iterations: None,
    };
    let mut s = Session::new(p, w, budget, Arc::new(AtomicBool::new(false)));
    // Goals of the other benchmark functions are out of reach from this entry.
    let ignored: Vec<usize> = s
        .goals
        .goals
        .iter()
        .filter(|g| others.contains(&g.function))
        .map(|g| g.id)
        .collect();
    s.ignore_goals(ignored.iter().copied());
    let cfg = Config {
        max_steps: 10_000_000,
        ..Config::default()
    };
    let strat = cairn::search::by_name("expectation").unwrap();
    let mut c = Concolic::new(&s, strat, seed, &cfg, opts).unwrap();
    let deadline = s.deadline();
    c.run(&mut s, deadline).unwrap();
    let mut o = Outcome {
        covered: s.ledger.covered,
        goals: s.goals.len() - ignored.len(),
        ..Outcome::default()
    };
    for e in std::fs::read_dir(tmp.path().join("tests")).unwrap() {
        let t: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap();
        if t["found_by"] == "walk" {
            o.walk_tests += 1;
        }
        if t["outcome"] == "exit" && t["exit_code"] == 1 {
            let at = t["time_s"].as_f64().unwrap_or(0.0);
            if !o.target || at < o.target_time {
                o.target = true;
                o.target_time = at;
            }
        }
    }
    o
}

fn main() {
    let a = parse_args();
    println!(
        "budget {}s per run, {} seed(s); target: seeds covering it; t: mean time to it; branches: mean covered/total",
        a.time, a.seeds
    );
    print!("{:<24}", "function");
    for k in &a.solvers {
        print!(" | {:<24}", k.name());
    }
    println!();
    let n = a.solvers.len();
    let mut targets = vec![0.0f64; n];
    let mut branches = vec![0.0f64; n];
    let mut walk_tests = vec![0usize; n];
    let mut total_goals = 0usize;
    let mut functions = 0usize;
    // Per function: did each solver cover the target in some seed?
    let mut hit_any: Vec<Vec<bool>> = vec![];
    let mut names: Vec<String> = vec![];
    for f in &a.files {
        let src = std::fs::read_to_string(f).unwrap();
        let (fns, opaque) = entries(&src);
        let m = match load(std::slice::from_ref(f), &CompileOptions::default()) {
            Ok(m) => m,
            Err(e) => {
                println!("{}: {e:#}", f.display());
                continue;
            }
        };
        for entry in &fns {
            if !a.only.is_empty() && !a.only.contains(entry) {
                continue;
            }
            let mut p = Program::new(m.clone());
            p.set_entry(entry, cairn::exec::machine::UNIT_BUFFER, false);
            let others: HashSet<String> = fns.iter().filter(|x| *x != entry).cloned().collect();
            functions += 1;
            names.push(entry.clone());
            print!("{:<24}", entry);
            let mut hits = vec![];
            let mut goals = 0;
            for (k, kind) in a.solvers.iter().enumerate() {
                let opts = SolverOptions {
                    kind: *kind,
                    walk: a.walk.clone(),
                    opaque: opaque.clone(),
                    ..Default::default()
                };
                let (mut hit, mut t, mut cov) = (0u64, 0.0, 0.0);
                for seed in 0..a.seeds {
                    let o = run_one(&p, f, &others, &opts, seed, a.time);
                    goals = o.goals;
                    if o.target {
                        hit += 1;
                        t += o.target_time;
                    }
                    cov += o.covered as f64 / a.seeds as f64;
                    walk_tests[k] += o.walk_tests;
                }
                targets[k] += hit as f64 / a.seeds as f64;
                branches[k] += cov;
                hits.push(hit > 0);
                let tt = if hit > 0 {
                    format!("{:.2}s", t / hit as f64)
                } else {
                    "-".into()
                };
                print!(
                    " | {:>2}/{:<2} {:>7} {:>5.1}/{:<3}",
                    hit, a.seeds, tt, cov, goals
                );
            }
            total_goals += goals;
            hit_any.push(hits);
            println!();
        }
    }
    println!();
    println!("totals over {functions} functions ({total_goals} branch goals):");
    for (k, kind) in a.solvers.iter().enumerate() {
        println!(
            "  {:<11} targets {:>5.2}/{functions}  branches {:>6.1}/{total_goals} ({:.1}%)  walk tests {}",
            kind.name(),
            targets[k],
            branches[k],
            100.0 * branches[k] / total_goals.max(1) as f64,
            walk_tests[k]
        );
    }
    let idx = |k: SolverKind| a.solvers.iter().position(|x| *x == k);
    if let Some(pf) = idx(SolverKind::Portfolio) {
        for base in [SolverKind::Concretize, SolverKind::Z3] {
            if let Some(b) = idx(base) {
                let missing: Vec<&str> = hit_any
                    .iter()
                    .zip(&names)
                    .filter(|(h, _)| h[b] && !h[pf])
                    .map(|(_, n)| n.as_str())
                    .collect();
                println!(
                    "  portfolio / {}: targets {:.2}x, branches {:.2}x; targets {} covers that portfolio misses: {}",
                    base.name(),
                    targets[pf] / targets[b].max(1e-9),
                    branches[pf] / branches[b].max(1e-9),
                    base.name(),
                    if missing.is_empty() {
                        "none".to_string()
                    } else {
                        missing.join(", ")
                    }
                );
            }
        }
    }
}
