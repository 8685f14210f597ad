//! Helpers shared by the integration tests: loading programs, native builds, runs.
#![allow(dead_code)]

pub mod dataflow;
pub mod shapes;

use cairn::exec::{Config, InputValue, Program, RunResult};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `gen` flags for one concolic search alone (no model checker, no fuzzer, one worker): what a
/// test counting a strategy's runs or tests needs.
pub const SEARCH_ALONE: [&str; 5] = ["--tests-only", "--fuzz-share", "0", "--jobs", "1"];

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `cairn` binary with `args`.
pub fn cairn(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .output()
        .expect("run cairn")
}

/// A command's stdout and stderr, for assertion messages.
pub fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A JSON file, parsed.
pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub fn programs(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("tests/programs").join(dir))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

pub fn load_program(p: &Path) -> Program {
    let m = load(&[p.to_path_buf()], &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e:#}", p.display()));
    Program::new(m)
}

/// Compiles `sources` natively (clang-19 -O0) into `exe`.
pub fn native_build(sources: &[PathBuf], exe: &Path, extra: &[&str]) -> Result<(), String> {
    let out = Command::new("clang-19")
        .args(["-O0", "-g", "-w", "-fno-stack-protector"])
        .args(extra)
        .args(sources)
        .arg("-o")
        .arg(exe)
        .arg("-lm")
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

pub struct NativeRun {
    pub stdout: Vec<u8>,
    /// Exit status as a shell reports it (128 + signal), None on timeout.
    pub code: Option<i32>,
}

pub fn native_run(cmd: &mut Command, limit: Duration) -> NativeRun {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = vec![];
        let _ = out.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let code = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break Some(st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0)));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    NativeRun {
        stdout: reader.join().unwrap(),
        code,
    }
}

/// Writes a test file in Cairn's format holding `inputs`.
pub fn write_test(path: &Path, inputs: &[InputValue]) {
    let v = serde_json::json!({"inputs": inputs.iter().map(cairn::output::suite::input_json).collect::<Vec<_>>()});
    std::fs::write(path, v.to_string()).unwrap();
}

pub fn run_cfg() -> Config {
    Config {
        max_steps: 200_000_000,
        ..Config::default()
    }
}

pub fn tmp(tag: &str) -> TempDir {
    TempDir::new(tag).unwrap()
}

pub fn describe(r: &RunResult) -> String {
    format!("{:?}", r.outcome)
}

/// The `/* infeasible: N */` annotation of a team test program.
pub fn infeasible_count(src: &str) -> u64 {
    src.lines()
        .find_map(|l| l.split("infeasible:").nth(1))
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Runs `cairn gen --strategy S` for 10 s on every program of `dir`; returns the failures:
/// programs where a feasible branch stays uncovered, or whose suite does not replay natively.
pub fn check_feasible_coverage(dir: &str, strategy: &str) -> Vec<String> {
    let tmpdir = tmp(strategy);
    let mut failures = vec![];
    for p in programs(dir) {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let out = tmpdir.path().join(&name);
        let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args([
                "gen",
                p.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--time",
                "10s",
                "--seed",
                "1",
                "--strategy",
                strategy,
            ])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        assert_eq!(s["strategy"], strategy);
        let expect = s["goals"]["total"].as_u64().unwrap()
            - infeasible_count(&std::fs::read_to_string(&p).unwrap());
        let got = s["goals"]["covered"].as_u64().unwrap();
        println!(
            "{name}: {got}/{} goals ({expect} feasible) in {}s, {} tests, {} paths",
            s["goals"]["total"], s["time_s"], s["tests"], s["concolic"]["paths"]
        );
        if got != expect {
            failures.push(format!("{name}: covered {got}, feasible {expect}"));
        }
        let r = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["replay", p.to_str().unwrap(), out.to_str().unwrap()])
            .output()
            .unwrap();
        if !r.status.success() {
            failures.push(format!(
                "{name}: replay failed:\n{}{}",
                String::from_utf8_lossy(&r.stdout),
                String::from_utf8_lossy(&r.stderr)
            ));
        }
    }
    failures
}
