//! Each technique against its baseline on programs drawn by the generators of
//! `tests/common/shapes.rs`: programs of the shape the technique is for that nobody tuned it to.
//! Prints one line per program and technique, then the distribution per technique.
//!
//! `cargo bench --bench shapes -- [--shape loop_flags|parsing|nonlinear|def_use|reactive[_called|_held]] [--count 50] [--first 0]
//!  [--time SECS] [--techniques a,b] [--dump DIR] [--cairn BINARY]`
//!
//! - `loop_flags` (crabs' shape; techniques `crabs` (default), `crabs:S` (strategy S under the
//!   monitors), `gen` (concolic search in turns with the model checker), `tests-only`): a
//!   program is *decided* when every goal is covered or proven unreachable; `decided_s` is the
//!   run's time then (`-`: not decided). A proof beyond the generator's infeasible checks is
//!   printed as UNSOUND.
//! - `parsing` (lazy expansion's shape, unit mode; techniques `lazy` (`--lazy auto`) and `dfs`
//!   (default), both `--tests-only`): `runs` is the run after which every branch of the unit
//!   was covered (`-`: not within the budget); the summary counts the programs where lazy
//!   expansion needed at most half the runs of `dfs`.
//! - `nonlinear` (the concolic walk's shape; techniques `walk` (`--solver portfolio`: Z3, then
//!   the walk) and `z3` (Z3 alone), both concolic search alone: `--tests-only --fuzz-share 0`):
//!   every check is feasible, so *decided* means every goal covered and any proof is UNSOUND.
//! - `def_use` (data-flow testing's shape, criterion def-use; techniques `cut-point` (cut-point
//!   guided search in turns with the model checker on the pairs left, the default) and `dfs`
//!   (depth-first symbolic execution alone, `--tests-only`)): pairs covered, proven infeasible
//!   and left unknown.
//!
//! - `reactive` (issue 34's reactive systems, the RERS shape; techniques `gen` (every technique,
//!   the default) and `fuzz` (random inputs and the fuzzer alone)): goals covered. Against the
//!   peers: `--dump DIR`, then `benches/peers/run.sh` on a list of the files. `reactive_called`
//!   (the loop in a function `main` calls twice) and `reactive_held` (an input held across
//!   steps, as a token ring's token): the same systems with a twist, same techniques.
//!
//! One worker each. `--dump DIR` writes the programs there and runs nothing; `--cairn` runs
//! another build (before/after a change).

#[path = "common/args.rs"]
mod args;
#[path = "../tests/common/shapes.rs"]
mod shapes;

use std::path::{Path, PathBuf};
use std::process::Command;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Quantiles of `v` (sorted here), as text.
fn spread(mut v: Vec<f64>) -> String {
    if v.is_empty() {
        return "-".into();
    }
    v.sort_by(f64::total_cmp);
    let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
    format!(
        "min {:.1} q1 {:.1} median {:.1} q3 {:.1} max {:.1}",
        q(0.0),
        q(0.25),
        q(0.5),
        q(0.75),
        q(1.0)
    )
}

/// The options of technique `t` for `shape`.
fn options(shape: &str, t: &str) -> Vec<String> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect();
    match (shape, t) {
        ("loop_flags", "crabs") => v(&["--strategy", "crabs"]),
        ("loop_flags", "gen") => vec![],
        ("loop_flags", "tests-only") => v(&["--tests-only"]),
        ("loop_flags", s) if s.starts_with("crabs:") => {
            v(&["--strategy", "crabs", "--under", &s["crabs:".len()..]])
        }
        ("parsing", "lazy") => v(&["--lazy", "auto", "--tests-only"]),
        ("parsing", "dfs") => v(&["--strategy", "dfs", "--tests-only"]),
        ("nonlinear", "walk") => v(&["--solver", "portfolio", "--tests-only", "--fuzz-share", "0"]),
        ("nonlinear", "z3") => v(&["--solver", "z3", "--tests-only", "--fuzz-share", "0"]),
        ("def_use", "cut-point") => v(&["--strategy", "cut-point", "--fuzz-share", "0"]),
        ("def_use", "dfs") => v(&["--strategy", "dfs", "--tests-only", "--fuzz-share", "0"]),
        (s, "gen") if s.starts_with("reactive") => vec![],
        (s, "fuzz") if s.starts_with("reactive") => v(&["--strategy", "random", "--tests-only"]),
        _ => panic!("technique {t} is not one for shape {shape}"),
    }
}

/// The run after which every branch of `function` was covered, from the tests' iterations.
fn runs_to_cover(out: &Path, function: &str) -> Option<u64> {
    let goals = json(&out.join("goals.json"));
    let tests: Vec<serde_json::Value> = std::fs::read_dir(out.join("tests"))
        .ok()?
        .map(|e| json(&e.unwrap().path()))
        .collect();
    let mut last = 0;
    for g in goals
        .as_array()?
        .iter()
        .filter(|g| g["function"] == function)
    {
        let first = tests
            .iter()
            .filter(|t| t["covers"].as_array().is_some_and(|c| c.contains(&g["id"])))
            .filter_map(|t| t["iteration"].as_u64())
            .min()?;
        last = last.max(first);
    }
    Some(last)
}

fn main() {
    let get = args::value;
    let shape = get("--shape").unwrap_or("loop_flags".into());
    let count: u64 = get("--count").map_or(50, |c| c.parse().expect("--count N"));
    let first: u64 = get("--first").map_or(0, |c| c.parse().expect("--first SEED"));
    let time: u64 = get("--time").map_or(60, |t| t.parse().expect("--time SECS"));
    let (generate, default): (fn(u64) -> shapes::Generated, &str) = match shape.as_str() {
        "loop_flags" => (shapes::loop_flags, "crabs,gen"),
        "parsing" => (shapes::parsing, "dfs,lazy"),
        "nonlinear" => (shapes::nonlinear, "z3,walk"),
        "def_use" => (shapes::def_use_chains, "dfs,cut-point"),
        "reactive" => (shapes::reactive, "fuzz,gen"),
        "reactive_called" => (shapes::reactive_called, "fuzz,gen"),
        "reactive_held" => (shapes::reactive_held, "fuzz,gen"),
        s => panic!(
            "unknown shape {s} (loop_flags, parsing, nonlinear, def_use, reactive, \
             reactive_called, reactive_held)"
        ),
    };
    let techniques: Vec<String> = get("--techniques")
        .unwrap_or(default.into())
        .split(',')
        .map(String::from)
        .collect();
    let cairn = args::cairn_binary();
    let dir = args::scratch("shapes");
    let dump = get("--dump");
    let programs: PathBuf = dump.as_ref().map_or(dir.clone(), Into::into);
    std::fs::create_dir_all(&programs).unwrap();
    let generated: Vec<(u64, PathBuf, shapes::Generated)> = (first..first + count)
        .map(|seed| {
            let g = generate(seed);
            let path = programs.join(&g.name);
            std::fs::write(&path, &g.source).unwrap();
            (seed, path, g)
        })
        .collect();
    if dump.is_some() {
        println!("{count} programs in {}", programs.display());
        return;
    }
    println!(
        "{shape}, seeds {first}..{}, budget {time}s, one worker",
        first + count
    );
    println!(
        "{:>5} {:<11} {:>8} {:>12} {:>8} {:>6} {:>10} {:>7}",
        "seed", "technique", "covered", "unreachable", "unknown", "total", "decided_s", "runs"
    );
    // Per technique: the time of each decided program, unknown goals, runs to cover the unit.
    let mut decided: Vec<Vec<f64>> = vec![vec![]; techniques.len()];
    let mut unknown: Vec<Vec<f64>> = vec![vec![]; techniques.len()];
    let mut covered_goals: Vec<Vec<f64>> = vec![vec![]; techniques.len()];
    let mut runs: Vec<Vec<Option<u64>>> = vec![vec![]; techniques.len()];
    let mut unsound = 0;
    for (seed, path, g) in &generated {
        for (k, t) in techniques.iter().enumerate() {
            let out = dir.join(format!("out-{seed}-{}", t.replace(':', "-")));
            let mut a = args::gen_one_worker(path, &out, time);
            a.extend(g.args.iter().cloned());
            a.extend(options(&shape, t));
            let o = Command::new(&cairn).args(&a).output().expect("run cairn");
            if !o.status.success() {
                println!(
                    "{seed:>5} {t:<11} failed: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                continue;
            }
            let s = json(&out.join("summary.json"));
            let n = |k: &str| s["goals"][k].as_u64().unwrap_or(0);
            let all = n("unknown") == 0;
            let secs = s["time_s"].as_f64().unwrap_or(f64::NAN);
            if all {
                decided[k].push(secs);
            }
            unknown[k].push(n("unknown") as f64);
            covered_goals[k].push(n("covered") as f64);
            let unit_runs = if shape == "parsing" {
                runs_to_cover(&out, "testme")
            } else {
                None
            };
            runs[k].push(unit_runs);
            // The generator's ground truth: only its infeasible checks have an outcome no
            // input reaches.
            let wrong = g
                .infeasible_checks
                .is_some_and(|i| n("unreachable") > i as u64);
            unsound += wrong as usize;
            let show = |x: Option<String>| x.unwrap_or("-".into());
            println!(
                "{:>5} {:<11} {:>8} {:>12} {:>8} {:>6} {:>10} {:>7}{}",
                seed,
                t,
                n("covered"),
                n("unreachable"),
                n("unknown"),
                n("total"),
                show(all.then(|| format!("{secs:.1}"))),
                show(unit_runs.map(|r| r.to_string())),
                if wrong {
                    "  UNSOUND: more proofs than infeasible checks"
                } else {
                    ""
                }
            );
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    println!();
    for (k, t) in techniques.iter().enumerate() {
        println!(
            "{t:<11} decided {}/{count}; time to decide: {}; unknown goals: {}",
            decided[k].len(),
            spread(decided[k].clone()),
            spread(unknown[k].clone())
        );
        println!(
            "{t:<11} covered goals: {}",
            spread(covered_goals[k].clone())
        );
        if shape == "parsing" {
            let covered: Vec<f64> = runs[k].iter().flatten().map(|r| *r as f64).collect();
            println!(
                "{t:<11} unit covered {}/{count}; runs to cover: {}",
                covered.len(),
                spread(covered)
            );
        }
    }
    if shape == "parsing"
        && let (Some(d), Some(l)) = (
            techniques.iter().position(|t| t == "dfs"),
            techniques.iter().position(|t| t == "lazy"),
        )
    {
        // A program lazy expansion covered in at most half of depth-first search's runs (or
        // that depth-first search did not cover at all).
        let halved = runs[l]
            .iter()
            .zip(&runs[d])
            .filter(|(l, d)| match (l, d) {
                (Some(l), Some(d)) => 2 * l <= *d,
                (Some(_), None) => true,
                _ => false,
            })
            .count();
        let no_worse = runs[l]
            .iter()
            .zip(&runs[d])
            .filter(|(l, d)| match (l, d) {
                (Some(l), Some(d)) => l <= d,
                (Some(_), None) | (None, None) => true,
                _ => false,
            })
            .count();
        println!(
            "lazy in at most half of dfs's runs: {halved}/{count}; no more runs: {no_worse}/{count}"
        );
    }
    println!("runs with more proofs than the generator's infeasible checks: {unsound}");
    let _ = std::fs::remove_dir_all(&dir);
}
