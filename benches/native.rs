//! Fuzzing throughput: program runs per second of Cairn's fuzzer, natively (fork server in
//! persistent mode) and in the interpreter, against libFuzzer's executions per second on the
//! same program (the peer harness in `../shared/eval`, or `EVAL_DIR`), each for the same time
//! on one core, one after the other. Runs per second over the fuzzing time: the native build's
//! seconds, Cairn's as the peer's, are not counted.
//!
//! `cargo bench --bench native -- [--time SECS] [FILE.c ...]`; without files, the team's
//! programs of tests/programs/native and tests/programs/engine. Programs for libFuzzer must
//! read their inputs through the input API (not argv or files). `CAIRN_BENCH_PEER=RUNNER.sh`
//! measures another fuzzer through a runner with `run-libfuzzer.sh`'s interface and summary
//! (`execs N`, `wall_s S`), LibAFL's libFuzzer shim for one.

use cairn::driver::fuzz::Fuzzing;
use cairn::driver::session::{Budget, Session};
use cairn::driver::technique::Technique;
use cairn::exec::{Config, Program, Source};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[path = "common/args.rs"]
mod args;

/// Runs per second of Cairn's fuzzer alone on `p` for `time` seconds.
fn cairn_rate(p: &Program, f: &Path, native: bool, time: f64) -> (f64, String) {
    let tmp = TempDir::new("bench").unwrap();
    let w = SuiteWriter::create(tmp.path(), f, &p.module, false).unwrap();
    let budget = Budget {
        time: Duration::from_secs_f64(time),
        max_tests: None,
        max_iterations: None,
    };
    let mut s = Session::new(p, w, budget, Arc::new(AtomicBool::new(false)));
    s.stop_when_decided = false;
    let cfg = s.run_config(&Config {
        max_steps: 10_000_000,
        ..Config::default()
    });
    let mut fuzz = Fuzzing::new(p, 0, &cfg, native);
    let start = Instant::now();
    while !s.should_stop() {
        let until = s.deadline();
        fuzz.run(&mut s, until).unwrap();
    }
    let stats = fuzz.stats();
    if std::env::var_os("CAIRN_BENCH_STATS").is_some() {
        eprintln!("{}", serde_json::Value::Object(stats.clone()));
    }
    let runs = stats["fuzz"]["runs"].as_f64().unwrap_or(0.0);
    let executor = stats["fuzz"]["executor"]
        .as_str()
        .unwrap_or("?")
        .to_string();
    // The native build's seconds are not fuzzing time, as the peer's build is not its own
    // (the interpreter builds nothing).
    let build = stats["fuzz"]["native"]["build_seconds"]
        .as_f64()
        .unwrap_or(0.0);
    (runs / (start.elapsed().as_secs_f64() - build), executor)
}

/// The peer's executions per second on `f` for `time` seconds (None if it did not run).
fn peer_rate(runner: &Path, f: &Path, time: f64) -> Option<f64> {
    let tmp = TempDir::new("bench-lf").ok()?;
    // The peer's runs are in the program's working directory: its files go to the scratch
    // directory, not the project (report_writer.c left report.txt in the checkout).
    let out = Command::new("bash")
        .arg(std::path::absolute(runner).ok()?)
        .arg(std::path::absolute(f).ok()?)
        .arg(format!("{}", time.round() as u64))
        .arg(tmp.path())
        .current_dir(tmp.path())
        .output()
        .ok()?;
    let summary = std::fs::read_to_string(tmp.path().join("summary.txt")).ok()?;
    let field = |k: &str| {
        summary
            .lines()
            .find_map(|l| l.strip_prefix(k)?.trim().parse::<f64>().ok())
    };
    let (execs, wall) = (field("execs ")?, field("wall_s ")?);
    let _ = out;
    Some(execs / wall)
}

fn main() {
    let mut a = args::parse(10.0, 1, &[]);
    if std::env::args().skip(1).all(|x| !x.ends_with(".c")) {
        a.files = args::programs_in(&["tests/programs/native", "tests/programs/engine"]);
    }
    let eval = std::env::var_os("EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/eval"));
    let runner = std::env::var_os("CAIRN_BENCH_PEER")
        .map(PathBuf::from)
        .unwrap_or_else(|| eval.join("run-libfuzzer.sh"));
    let peer = runner.exists();
    println!(
        "{} s per tool and program, one after the other; runs per second; peer: {}",
        a.time,
        runner.display()
    );
    println!(
        "{:<24} {:>12} {:>12} {:>12} {:>9}",
        "program", "native", "interpreted", "peer", "native/peer"
    );
    let mut ratios = vec![];
    for f in &a.files {
        let opts = CompileOptions::default();
        let m = match load(std::slice::from_ref(f), &opts) {
            Ok(m) => m,
            Err(e) => {
                println!("{}: {e:#}", f.display());
                continue;
            }
        };
        let mut p = Program::new(m);
        p.source = Some(Source {
            files: vec![f.clone()],
            opts,
        });
        let (native, executor) = cairn_rate(&p, f, true, a.time);
        // CAIRN_BENCH_NATIVE_ONLY=1 measures our native fuzzer alone (for a profiler).
        let native_only = std::env::var_os("CAIRN_BENCH_NATIVE_ONLY").is_some();
        let interpreted = match native_only {
            true => f64::NAN,
            false => cairn_rate(&p, f, false, a.time).0,
        };
        let lf = (peer && !native_only)
            .then(|| peer_rate(&runner, f, a.time))
            .flatten();
        let ratio = lf.map(|l| native / l);
        ratios.extend(lf.map(|l| (native / l, l)));
        println!(
            "{:<24} {:>12.0} {:>12.0} {:>12} {:>9}{}",
            f.file_name().unwrap().to_string_lossy(),
            native,
            interpreted,
            lf.map_or("-".into(), |l| format!("{l:.0}")),
            ratio.map_or("-".into(), |r| format!("{r:.2}")),
            if executor == "native" {
                ""
            } else {
                "  (not native)"
            },
        );
    }
    summarize("", &ratios);
    // Where the peer's runs are long (a loop bounded by an input it draws as a large number),
    // the ratio says only that ours are short: the figure that compares like with like.
    let short: Vec<(f64, f64)> = ratios.iter().copied().filter(|r| r.1 >= 1000.0).collect();
    summarize(" where the peer runs at least 1,000 runs/s", &short);
}

/// Prints the distribution of the native/peer ratios.
fn summarize(which: &str, ratios: &[(f64, f64)]) {
    if ratios.is_empty() {
        return;
    }
    let mut r: Vec<f64> = ratios.iter().map(|r| r.0).collect();
    r.sort_by(f64::total_cmp);
    let geo = (r.iter().map(|x| x.ln()).sum::<f64>() / r.len() as f64).exp();
    println!(
        "native/peer over {} programs{which}: geometric mean {geo:.2}, median {:.2}, min {:.2}, max {:.2}",
        r.len(),
        r[r.len() / 2],
        r[0],
        r[r.len() - 1]
    );
}
