//! Abstraction-driven concolic testing against pure concolic search and the default
//! alternation of testing and model checking, on the team's programs in the spirit of the
//! paper's Figure 1 (tests/programs/crabs/loop30.c: a call behind thirty equal inputs) and a mix
//! of hard and infeasible goals (tests/programs/crabs/mixed.c). Same budget for every technique.
//!
//! `cargo bench --bench crabs -- [--time SECS] [--techniques crabs,crabs:dfs,cfg,dfs,...] [--seeds N]
//! [--dir DIR] [--cairn BINARY]`
//!
//! Columns: covered, unreachable and unknown goals of the total, coverage as the paper counts it
//! (covered / (total - unreachable)); `call` is when the hard call
//! (the goal behind the equal inputs) was covered, in seconds (`-` if never); time is the run's
//! wall time (shorter than the budget when every goal was decided). Techniques: `crabs`
//! (`--strategy crabs`: CFG-directed search with distances in the product), `crabs:S` (strategy
//! S under the monitors, `--under S`), `gen` (default strategy, testing in turns with the model
//! checker), and concolic strategies alone (`--tests-only`). The issue asks that the pure
//! strategies miss the call for 60 s: `--time 60 --techniques cfg,dfs,expectation,...`.

#[path = "common/args.rs"]
mod args;

use std::path::{Path, PathBuf};
use std::process::Command;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Seconds from the start until the test that covered `goal` was found.
fn covered_at(out: &Path, goal: u64) -> Option<f64> {
    let goals = json(&out.join("goals.json"));
    let g = goals.as_array()?.iter().find(|g| g["id"] == goal)?;
    let test = g["test"].as_str()?;
    let t = json(&out.join("tests").join(format!("{test}.json")));
    t["time_s"].as_f64()
}

fn main() {
    let get = args::value;
    let time: u64 = get("--time").map_or(30, |t| t.parse().expect("--time SECS"));
    let seeds: u64 = get("--seeds").map_or(1, |t| t.parse().expect("--seeds N"));
    let techniques: Vec<String> = get("--techniques").map_or(
        [
            "crabs",
            "crabs:dfs",
            "gen",
            "cfg",
            "dfs",
            "expectation",
            "generational",
        ]
        .map(String::from)
        .to_vec(),
        |s| s.split(',').map(String::from).collect(),
    );
    // The team's programs, with the hard call's goal (the `else` outcome of `if (flag)` / the
    // `then` of `if (all)`); or every C file and task definition of `--dir` (the paper's
    // subjects, copied there for measurement only).
    let programs: Vec<(PathBuf, Option<u64>)> = match get("--dir") {
        Some(dir) => {
            let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("--dir DIR")
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    let yml = p.extension().is_some_and(|e| e == "yml");
                    let c = p.extension().is_some_and(|e| e == "c");
                    // A C file with a task definition beside it runs as the task.
                    yml || (c && !p.with_extension("yml").exists())
                })
                .collect();
            v.sort();
            v.into_iter().map(|p| (p, None)).collect()
        }
        None => {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/crabs");
            vec![
                (root.join("loop30.c"), Some(5)),
                (root.join("mixed.c"), Some(4)),
            ]
        }
    };
    println!("budget {time}s per run, one worker, {seeds} seed(s)");
    println!(
        "{:<20} {:<13} {:>4} {:>8} {:>12} {:>8} {:>6} {:>7} {:>8} {:>7}",
        "program",
        "technique",
        "seed",
        "covered",
        "unreachable",
        "unknown",
        "total",
        "cov%",
        "call_s",
        "time_s"
    );
    for (path, call) in &programs {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for t in &techniques {
            for seed in 0..seeds {
                let out = args::scratch(&format!("crabs-{}-{file}", t.replace(':', "-")));
                let _ = std::fs::remove_dir_all(&out);
                let mut a = args::gen_one_worker(path, &out, time);
                a.extend(["--seed".into(), seed.to_string()]);
                match t.as_str() {
                    "crabs" => a.extend(["--strategy".into(), "crabs".into()]),
                    "gen" => {}
                    s if s.starts_with("crabs:") => a.extend([
                        "--strategy".into(),
                        "crabs".into(),
                        "--under".into(),
                        s["crabs:".len()..].into(),
                    ]),
                    s => a.extend(["--strategy".into(), s.into(), "--tests-only".into()]),
                }
                let o = Command::new(args::cairn_binary())
                    .args(&a)
                    .output()
                    .expect("run cairn");
                if !o.status.success() {
                    println!(
                        "{file:<20} {t:<13} failed: {}",
                        String::from_utf8_lossy(&o.stderr)
                    );
                    continue;
                }
                let s = json(&out.join("summary.json"));
                let g = &s["goals"];
                let n = |k: &str| g[k].as_u64().unwrap_or(0);
                let at = call
                    .and_then(|c| covered_at(&out, c))
                    .map_or("-".to_string(), |x| format!("{x:.1}"));
                // The paper's coverage: covered / (total - proven unreachable).
                let cov =
                    100.0 * n("covered") as f64 / (n("total") - n("unreachable")).max(1) as f64;
                println!(
                    "{:<20} {:<13} {:>4} {:>8} {:>12} {:>8} {:>6} {:>7.1} {:>8} {:>7.1}",
                    file,
                    t,
                    seed,
                    n("covered"),
                    n("unreachable"),
                    n("unknown"),
                    n("total"),
                    cov,
                    at,
                    s["time_s"].as_f64().unwrap_or(f64::NAN)
                );
            }
        }
    }
}
