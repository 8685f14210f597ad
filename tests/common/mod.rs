//! Helpers shared by the integration tests: loading programs, native builds, runs.
#![allow(dead_code)]

use cairn::exec::{Config, InputValue, Program, RunResult};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
    let m = load(&[p.to_path_buf()], &CompileOptions::default()).unwrap_or_else(|e| panic!("{}: {e:#}", p.display()));
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
    if out.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&out.stderr).into_owned()) }
}

pub struct NativeRun {
    pub stdout: Vec<u8>,
    /// Exit status as a shell reports it (128 + signal), None on timeout.
    pub code: Option<i32>,
}

pub fn native_run(cmd: &mut Command, limit: Duration) -> NativeRun {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).stdin(Stdio::null()).spawn().expect("spawn");
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
    NativeRun { stdout: reader.join().unwrap(), code }
}

/// Writes a test file in Cairn's format holding `inputs`.
pub fn write_test(path: &Path, inputs: &[InputValue]) {
    let v = serde_json::json!({"inputs": inputs.iter().map(cairn::output::suite::input_json).collect::<Vec<_>>()});
    std::fs::write(path, v.to_string()).unwrap();
}

pub fn run_cfg() -> Config {
    Config { max_steps: 200_000_000, ..Config::default() }
}

pub fn tmp(tag: &str) -> TempDir {
    TempDir::new(tag).unwrap()
}

pub fn describe(r: &RunResult) -> String {
    format!("{:?}", r.outcome)
}
