//! Command-line options shared by the search benchmarks.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The value after `name` on the bench's command line.
pub fn value(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).cloned()
}

/// The C files named on the bench's command line.
pub fn c_files() -> Vec<PathBuf> {
    std::env::args()
        .skip(1)
        .filter(|a| a.ends_with(".c"))
        .map(PathBuf::from)
        .collect()
}

/// The Cairn to run: `--cairn BINARY` (another build, to compare before and after a change
/// in one run), else this build's.
pub fn cairn_binary() -> String {
    value("--cairn").unwrap_or(env!("CARGO_BIN_EXE_cairn").into())
}

/// A scratch directory of this bench process: two benches at once do not share one.
pub fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cairn-bench-{name}-{}", std::process::id()))
}

/// `gen PROGRAM --out OUT --time SECSs --jobs 1`: the benches compare techniques on one worker.
pub fn gen_one_worker(program: &Path, out: &Path, secs: impl std::fmt::Display) -> Vec<String> {
    [
        "gen".into(),
        program.display().to_string(),
        "--out".into(),
        out.display().to_string(),
        "--time".into(),
        format!("{secs}s"),
        "--jobs".into(),
        "1".into(),
    ]
    .into()
}

pub struct BenchArgs {
    pub time: f64,
    pub seeds: u64,
    pub strategies: Vec<String>,
    pub files: Vec<PathBuf>,
    /// `--cflags "FLAGS"`: compiler flags for every program (`-I DIR`, `-std=gnu89`).
    pub cflags: Vec<String>,
}

/// `[--time SECS] [--seeds N] [--strategies a,b,..] [--cflags FLAGS] [FILE.c ...]`; without files, every program
/// in tests/programs/concolic and tests/programs/search.
pub fn parse(time: f64, seeds: u64, strategies: &[&str]) -> BenchArgs {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut a = BenchArgs {
        time,
        seeds,
        strategies: strategies.iter().map(|s| s.to_string()).collect(),
        files: vec![],
        cflags: vec![],
    };
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1);
        match (args[i].as_str(), value) {
            ("--time", Some(v)) => a.time = v.parse().expect("--time SECS"),
            ("--seeds", Some(v)) => a.seeds = v.parse().expect("--seeds N"),
            ("--cflags", Some(v)) => a.cflags = v.split_whitespace().map(str::to_string).collect(),
            ("--strategies", Some(v)) => {
                a.strategies = v.split(',').map(|s| s.to_string()).collect()
            }
            (f, _) if f.ends_with(".c") => {
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
        a.files = programs_in(&["tests/programs/concolic", "tests/programs/search"]);
    }
    a
}

/// The C programs of the team's directories `dirs`, sorted within each.
pub fn programs_in(dirs: &[&str]) -> Vec<PathBuf> {
    let mut files = vec![];
    for d in dirs {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(d);
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "c"))
            .collect();
        v.sort();
        files.extend(v);
    }
    files
}
