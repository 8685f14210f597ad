//! All cores and many machines, on the team's programs: `--jobs 1` against `--jobs 2` at the
//! same wall time, and one unsharded run (`--jobs 1`) against two shards merged at the same
//! total time (each shard gets half; they run one after the other, so that each gets the CPU
//! the unsharded run got). The CPU time each configuration got is printed beside.
//!
//! `cargo bench --bench jobs -- [--time SECS] [--seeds N] [--cairn BINARY] [FILE.c|TASK.yml ...]`
//! (default: tests/programs/search, tests/programs/mc, tests/programs/exhaustive and the
//! Test-Comp task; 10 s; 1 seed). Figures are goals covered / decided (covered or proven
//! unreachable), summed over seeds, and the time the last of them was decided (mean).

#[path = "common/args.rs"]
mod args;

use std::path::{Path, PathBuf};
use std::process::Command;

fn cairn() -> Command {
    Command::new(args::cairn_binary())
}

#[derive(Default, Clone, Copy)]
struct Figures {
    total: u64,
    covered: u64,
    decided: u64,
    /// When the last goal was decided (s).
    t_last: f64,
    tests: u64,
    /// CPU seconds the run got (user + system, all threads and processes).
    cpu: f64,
}

impl std::ops::AddAssign for Figures {
    fn add_assign(&mut self, o: Figures) {
        self.total = o.total;
        self.covered += o.covered;
        self.decided += o.decided;
        self.t_last += o.t_last;
        self.tests += o.tests;
        self.cpu += o.cpu;
    }
}

fn figures(out: &Path) -> Figures {
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let g = &s["goals"];
    let covered = g["covered"].as_u64().unwrap_or(0);
    let decided = covered + g["unreachable"].as_u64().unwrap_or(0);
    let csv = std::fs::read_to_string(out.join("coverage.csv")).unwrap_or_default();
    let t_last = csv
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let t: f64 = f.first()?.parse().ok()?;
            let d: u64 = f.get(1)?.parse::<u64>().ok()? + f.get(2)?.parse::<u64>().ok()?;
            Some((t, d))
        })
        .find(|&(_, d)| d >= decided)
        .map_or(0.0, |(t, _)| t);
    Figures {
        total: g["total"].as_u64().unwrap_or(0),
        covered,
        decided,
        t_last,
        tests: s["tests"].as_u64().unwrap_or(0),
        cpu: 0.0,
    }
}

/// CPU seconds used by finished children so far.
fn children_cpu() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    s(u.ru_utime) + s(u.ru_stime)
}

/// `run`'s figures with the CPU time its processes got.
fn measured(run: impl FnOnce() -> Figures) -> Figures {
    let before = children_cpu();
    let mut f = run();
    f.cpu = children_cpu() - before;
    f
}

fn generate(file: &Path, out: &Path, time: f64, seed: u64, extra: &[&str]) -> std::process::Child {
    let _ = std::fs::remove_dir_all(out);
    cairn()
        .arg("gen")
        .arg(file)
        .arg("--out")
        .arg(out)
        .args(["--time", &format!("{time}"), "--seed", &seed.to_string()])
        .args(extra)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("cairn")
}

fn main() {
    let mut time = 10.0;
    let mut seeds = 1u64;
    let mut files: Vec<PathBuf> = vec![];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--time", Some(v)) => {
                time = v.parse().expect("--time SECS");
                i += 1;
            }
            ("--seeds", Some(v)) => {
                seeds = v.parse().expect("--seeds N");
                i += 1;
            }
            (f, _) if f.ends_with(".c") || f.ends_with(".yml") => files.push(f.into()),
            _ => {}
        }
        i += 1;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    if files.is_empty() {
        for d in [
            "tests/programs/search",
            "tests/programs/mc",
            "tests/programs/exhaustive",
        ] {
            let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(d))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "c"))
                .collect();
            v.sort();
            files.extend(v);
        }
        files.push(root.join("tests/programs/testcomp/sensor_log.yml"));
    }
    let scratch = args::scratch("jobs");
    std::fs::create_dir_all(&scratch).unwrap();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "budget {time}s, {seeds} seed(s), {} cores, load average at start {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "covered/decided goals (summed over seeds); t: when the last was decided (mean s); cpu: CPU s the run got (mean)"
    );
    println!(
        "{:<20} {:>5} | {:>11} {:>5} {:>4} | {:>11} {:>5} {:>4} | {:>11} {:>5} {:>4}",
        "program", "goals", "jobs 1", "t", "cpu", "jobs 2", "t", "cpu", "2 shards", "t", "cpu"
    );
    let (mut all1, mut all2, mut alls) =
        (Figures::default(), Figures::default(), Figures::default());
    let mut totals = 0;
    for f in &files {
        let (mut one, mut two, mut shards) =
            (Figures::default(), Figures::default(), Figures::default());
        for seed in 0..seeds {
            let o1 = scratch.join("j1");
            one += measured(|| {
                generate(f, &o1, time, seed, &["--jobs", "1"])
                    .wait()
                    .unwrap();
                figures(&o1)
            });
            let o2 = scratch.join("j2");
            two += measured(|| {
                generate(f, &o2, time, seed, &["--jobs", "2"])
                    .wait()
                    .unwrap();
                figures(&o2)
            });
            let (s1, s2, m) = (scratch.join("s1"), scratch.join("s2"), scratch.join("m"));
            shards += measured(|| {
                // One after the other: on a loaded machine side by side they would get less CPU
                // than the unsharded run (on two machines they run side by side).
                generate(f, &s1, time / 2.0, seed, &["--jobs", "1", "--shard", "1/2"])
                    .wait()
                    .unwrap();
                generate(f, &s2, time / 2.0, seed, &["--jobs", "1", "--shard", "2/2"])
                    .wait()
                    .unwrap();
                let _ = std::fs::remove_dir_all(&m);
                let st = cairn()
                    .arg("merge")
                    .args([&m, &s1, &s2])
                    .stdout(std::process::Stdio::null())
                    .status()
                    .unwrap();
                assert!(st.success(), "merge failed on {}", f.display());
                figures(&m)
            });
        }
        let n = seeds as f64;
        let cell = |x: &Figures| format!("{}/{}", x.covered, x.decided);
        println!(
            "{:<20} {:>5} | {:>11} {:>5.2} {:>4.1} | {:>11} {:>5.2} {:>4.1} | {:>11} {:>5.2} {:>4.1}",
            f.file_name().unwrap().to_string_lossy(),
            one.total,
            cell(&one),
            one.t_last / n,
            one.cpu / n,
            cell(&two),
            two.t_last / n,
            two.cpu / n,
            cell(&shards),
            shards.t_last / n,
            shards.cpu / n
        );
        totals += one.total * seeds;
        all1 += one;
        all2 += two;
        alls += shards;
    }
    let runs = (files.len() as u64 * seeds) as f64;
    println!(
        "{:<20} {:>5} | {:>11} {:>5} {:>4.1} | {:>11} {:>5} {:>4.1} | {:>11} {:>5} {:>4.1}",
        "all",
        totals,
        format!("{}/{}", all1.covered, all1.decided),
        "",
        all1.cpu / runs,
        format!("{}/{}", all2.covered, all2.decided),
        "",
        all2.cpu / runs,
        format!("{}/{}", alls.covered, alls.decided),
        "",
        alls.cpu / runs
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
