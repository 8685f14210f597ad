//! Abstraction-driven concolic testing against pure concolic search and the default
//! alternation of testing and model checking, on the team's programs in the spirit of the
//! paper's Figure 1 (tests/programs/crabs/loop30.c: a call behind thirty equal inputs) and a mix
//! of hard and infeasible goals (tests/programs/crabs/mixed.c). Same budget for every technique.
//!
//! `cargo bench --bench crabs -- [--time SECS] [--techniques crabs,crabs:dfs,cfg,dfs,...] [--seeds N]`
//!
//! Columns: covered, unreachable and unknown goals of the total; `call` is when the hard call
//! (the goal behind the equal inputs) was covered, in seconds (`-` if never); time is the run's
//! wall time (shorter than the budget when every goal was decided). Techniques: `crabs`
//! (`--strategy crabs`: CFG-directed search with distances in the product), `crabs:S` (strategy
//! S under the monitors, `--under S`), `gen` (default strategy, testing in turns with the model
//! checker), and concolic strategies alone (`--tests-only`). The issue asks that the pure
//! strategies miss the call for 60 s: `--time 60 --techniques cfg,dfs,expectation,...`.

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
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
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/crabs");
    // The hard call's goal: the `else` outcome of `if (flag)` / `then` of `if (all)`.
    let programs = [("loop30.c", 5u64), ("mixed.c", 4u64)];
    println!("budget {time}s per run, {seeds} seed(s)");
    println!(
        "{:<10} {:<13} {:>4} {:>8} {:>12} {:>8} {:>6} {:>8} {:>7}",
        "program",
        "technique",
        "seed",
        "covered",
        "unreachable",
        "unknown",
        "total",
        "call_s",
        "time_s"
    );
    for (file, call) in programs {
        let path = root.join(file);
        for t in &techniques {
            for seed in 0..seeds {
                let out = std::env::temp_dir()
                    .join(format!("cairn-bench-crabs-{}-{file}", t.replace(':', "-")));
                let _ = std::fs::remove_dir_all(&out);
                let mut a: Vec<String> = vec![
                    "gen".into(),
                    path.display().to_string(),
                    "--out".into(),
                    out.display().to_string(),
                    "--time".into(),
                    format!("{time}s"),
                    "--seed".into(),
                    seed.to_string(),
                ];
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
                let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
                    .args(&a)
                    .output()
                    .expect("run cairn");
                if !o.status.success() {
                    println!(
                        "{file:<10} {t:<13} failed: {}",
                        String::from_utf8_lossy(&o.stderr)
                    );
                    continue;
                }
                let s = json(&out.join("summary.json"));
                let g = &s["goals"];
                let at = covered_at(&out, call).map_or("-".to_string(), |x| format!("{x:.1}"));
                println!(
                    "{:<10} {:<13} {:>4} {:>8} {:>12} {:>8} {:>6} {:>8} {:>7.1}",
                    file,
                    t,
                    seed,
                    g["covered"].as_u64().unwrap_or(0),
                    g["unreachable"].as_u64().unwrap_or(0),
                    g["unknown"].as_u64().unwrap_or(0),
                    g["total"].as_u64().unwrap_or(0),
                    at,
                    s["time_s"].as_f64().unwrap_or(f64::NAN)
                );
            }
        }
    }
}
