//! Budgets hold within a second: `cairn gen` on many programs with a short `--time`, each
//! process's wall time from its start to its exit (loading, the search, writing the outputs,
//! tearing down) against the budget.
//!
//! `cargo bench --bench budget -- [--time SECS] [--at-once N] [--cairn BINARY] [FILE.c ...]`
//! (default: every program under tests/programs; 2 s; one at a time). `--at-once N` runs N
//! generations side by side: on a loaded machine the work no deadline bounds shows first.
//! Prints the programs over the budget, then the distribution of the overrun and how many
//! ran past a second. Programs that do not compile as they are (unit-mode entries, projects)
//! are counted apart.

#[path = "common/args.rs"]
mod args;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

/// One generation: the program, its wall time, and whether it made a summary.
struct Measured {
    program: PathBuf,
    wall: f64,
    summarized: bool,
}

fn c_files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            c_files_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
}

fn measure(program: &Path, out: &Path, secs: f64) -> Measured {
    let _ = std::fs::remove_dir_all(out);
    let started = Instant::now();
    let status = Command::new(args::cairn_binary())
        .args(["gen", &program.display().to_string(), "--out"])
        .arg(out)
        .args(["--time", &format!("{secs}s")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    let wall = started.elapsed().as_secs_f64();
    let summarized = status.is_ok() && out.join("summary.json").exists();
    let _ = std::fs::remove_dir_all(out);
    Measured {
        program: program.to_path_buf(),
        wall,
        summarized,
    }
}

fn main() {
    let secs: f64 = args::value("--time").map_or(2.0, |v| v.parse().expect("--time SECS"));
    let at_once: usize = args::value("--at-once").map_or(1, |v| v.parse().expect("--at-once N"));
    let mut files = args::c_files();
    if files.is_empty() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
        c_files_under(&root, &mut files);
    }
    let scratch = args::scratch("budget");
    let queue = Mutex::new(files.iter().enumerate());
    let results = Mutex::new(vec![]);
    std::thread::scope(|s| {
        for _ in 0..at_once.max(1) {
            s.spawn(|| {
                loop {
                    let Some((i, p)) = queue.lock().unwrap().next() else {
                        break;
                    };
                    let m = measure(p, &scratch.join(i.to_string()), secs);
                    results.lock().unwrap().push(m);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    let results = results.into_inner().unwrap();
    let (mut done, refused): (Vec<Measured>, Vec<Measured>) =
        results.into_iter().partition(|m| m.summarized);
    done.sort_by(|a, b| b.wall.total_cmp(&a.wall));
    let root = env!("CARGO_MANIFEST_DIR");
    println!("--time {secs}s, {at_once} at once: wall time of each generation over the budget");
    for m in done.iter().take_while(|m| m.wall > secs) {
        let name = m.program.strip_prefix(root).unwrap_or(&m.program);
        println!(
            "  {:>6.2}s  +{:.2}s  {}",
            m.wall,
            m.wall - secs,
            name.display()
        );
    }
    let overruns: Vec<f64> = done.iter().rev().map(|m| m.wall - secs).collect();
    let at = |q: f64| overruns[((overruns.len() - 1) as f64 * q).round() as usize];
    if overruns.is_empty() {
        println!("no generation made a summary");
        return;
    }
    println!(
        "{} programs ({} refused or without a summary): overrun median {:+.2}s, 90th percentile \
         {:+.2}s, max {:+.2}s; past a second: {}",
        done.len(),
        refused.len(),
        at(0.5),
        at(0.9),
        at(1.0),
        overruns.iter().filter(|&&o| o > 1.0).count()
    );
}
