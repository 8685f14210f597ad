//! Each technique against its baseline on programs drawn by the generators of
//! `tests/common/shapes.rs`: programs of the shape the technique is for that nobody tuned it to.
//! Prints one line per program and technique, then the distribution per technique.
//!
//! `cargo bench --bench shapes -- [--shape loop_flags] [--count 50] [--first 0] [--time SECS]
//!  [--techniques crabs,gen] [--dump DIR] [--cairn BINARY]`
//!
//! `loop_flags` (crabs' shape): a program is *decided* when every goal is covered or proven
//! unreachable; `decided_s` is when the last goal was decided (the run's time if it decided all,
//! else `-`). Techniques: `crabs` (`--strategy crabs`), `gen` (the default: concolic search in
//! turns with the model checker), `crabs:S` (strategy S under the monitors), `tests-only` (concolic search alone). `--dump DIR` writes the
//! programs there and runs nothing; `--cairn` runs another build (before/after a change).

#[path = "../tests/common/shapes.rs"]
mod shapes;

use std::path::Path;
use std::process::Command;

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Quantiles of `v` (sorted here): min, median, max, as text.
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let shape = get("--shape").unwrap_or("loop_flags".into());
    let count: u64 = get("--count").map_or(50, |c| c.parse().expect("--count N"));
    let first: u64 = get("--first").map_or(0, |c| c.parse().expect("--first SEED"));
    let time: u64 = get("--time").map_or(60, |t| t.parse().expect("--time SECS"));
    let techniques: Vec<String> = get("--techniques")
        .unwrap_or("crabs,gen".into())
        .split(',')
        .map(String::from)
        .collect();
    let generate = match shape.as_str() {
        "loop_flags" => shapes::loop_flags,
        s => panic!("unknown shape {s} (loop_flags)"),
    };
    let cairn = get("--cairn").unwrap_or(env!("CARGO_BIN_EXE_cairn").into());
    let dir = std::env::temp_dir().join(format!("cairn-bench-shapes-{}", std::process::id()));
    let dump = get("--dump");
    let programs = dump.as_ref().map_or(dir.clone(), Into::into);
    std::fs::create_dir_all(&programs).unwrap();
    let mut files = vec![];
    for seed in first..first + count {
        let g = generate(seed);
        let path = programs.join(&g.name);
        std::fs::write(&path, &g.source).unwrap();
        files.push((seed, path, g.infeasible_checks as u64));
    }
    if dump.is_some() {
        println!("{count} programs in {}", programs.display());
        return;
    }
    println!(
        "{shape}, seeds {first}..{}, budget {time}s, one worker",
        first + count
    );
    println!(
        "{:>5} {:<11} {:>8} {:>12} {:>8} {:>6} {:>10}",
        "seed", "technique", "covered", "unreachable", "unknown", "total", "decided_s"
    );
    // Per technique: programs decided, and the time each decided one took.
    let mut decided: Vec<Vec<f64>> = vec![vec![]; techniques.len()];
    let mut unknown: Vec<Vec<f64>> = vec![vec![]; techniques.len()];
    let mut unsound = 0;
    for (seed, path, infeasible) in &files {
        for (k, t) in techniques.iter().enumerate() {
            let out = dir.join(format!("out-{seed}-{t}"));
            let mut a: Vec<String> = vec![
                "gen".into(),
                path.display().to_string(),
                "--out".into(),
                out.display().to_string(),
                "--time".into(),
                format!("{time}s"),
                "--jobs".into(),
                "1".into(),
            ];
            match t.as_str() {
                "crabs" => a.extend(["--strategy".into(), "crabs".into()]),
                "gen" => {}
                "tests-only" => a.push("--tests-only".into()),
                s if s.starts_with("crabs:") => a.extend([
                    "--strategy".into(),
                    "crabs".into(),
                    "--under".into(),
                    s["crabs:".len()..].into(),
                ]),
                s => panic!("unknown technique {s} (crabs, crabs:S, gen, tests-only)"),
            }
            let o = Command::new(&cairn).args(&a).output().expect("run cairn");
            if !o.status.success() {
                println!(
                    "{seed:>5} {t:<11} failed: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                continue;
            }
            let s = json(&out.join("summary.json"));
            let g = &s["goals"];
            let n = |k: &str| g[k].as_u64().unwrap_or(0);
            let all = n("unknown") == 0;
            let secs = s["time_s"].as_f64().unwrap_or(f64::NAN);
            if all {
                decided[k].push(secs);
            }
            unknown[k].push(n("unknown") as f64);
            // The generator's ground truth: only its infeasible checks have an outcome no
            // input reaches.
            let wrong = n("unreachable") > *infeasible;
            unsound += wrong as usize;
            println!(
                "{:>5} {:<11} {:>8} {:>12} {:>8} {:>6} {:>10}{}",
                seed,
                t,
                n("covered"),
                n("unreachable"),
                n("unknown"),
                n("total"),
                if all {
                    format!("{secs:.1}")
                } else {
                    "-".into()
                },
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
    }
    println!("runs with more proofs than the generator's infeasible checks: {unsound}");
    let _ = std::fs::remove_dir_all(&dir);
}
