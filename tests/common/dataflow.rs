//! Helpers of the data-flow tests (`tests/dataflow.rs`, `tests/dataflow_proofs.rs`).

use cairn::analysis::defuse::DefUse;
use cairn::exec::input::Replay;
use cairn::exec::{Config, Program};
use cairn::ir::frontend::{CompileOptions, load};
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn program(name: &str) -> PathBuf {
    super::root().join("tests/programs/dataflow").join(name)
}

pub fn load_dataflow(p: &Path) -> Program {
    let opts = CompileOptions {
        locals_in_memory: true,
        ..Default::default()
    };
    let m = load(&[p.to_path_buf()], &opts).unwrap_or_else(|e| panic!("{}: {e:#}", p.display()));
    let mut prog = Program::new(m);
    prog.track_def_use();
    prog
}

/// `function variable def_line use_kind use_line outcome` of a pair; `def_line:column` when
/// two definitions of the variable share the line (a `for` header).
pub fn key(p: &Program, du: &DefUse, pair: usize) -> String {
    let base = plain_key(p, du, pair);
    let d = &du.defs[du.pairs[pair].def as usize];
    let shared = du
        .defs
        .iter()
        .any(|o| o.var == d.var && o.loc.line == d.loc.line && o.loc.col != d.loc.col);
    if shared {
        let (before, after) = base.split_once(&format!(" {} ", d.loc.line)).unwrap();
        format!("{before} {}:{} {after}", d.loc.line, d.loc.col)
    } else {
        base
    }
}

pub fn plain_key(p: &Program, du: &DefUse, pair: usize) -> String {
    let pr = &du.pairs[pair];
    let u = &du.uses[pr.use_ as usize];
    let d = &du.defs[pr.def as usize];
    let def_line = match d.site {
        cairn::analysis::defuse::DefSite::Entry => 0,
        _ => d.loc.line,
    };
    let f = &p.module.functions[u.at.0 as usize].name;
    let v = &du.vars[u.var as usize].name;
    match pr.outcome {
        Some(o) => format!(
            "{f} {v} {def_line} p-use {} {}",
            u.loc.line, u.outcomes[o as usize]
        ),
        None => format!("{f} {v} {def_line} c-use {}", u.loc.line),
    }
}

pub fn pair_keys(p: &Program) -> Vec<String> {
    let du = p.def_use.as_ref().unwrap();
    (0..du.pairs.len()).map(|i| key(p, du, i)).collect()
}

pub fn covered_on(p: &Program, inputs: &[&str]) -> Vec<String> {
    let du = p.def_use.as_ref().unwrap();
    let mut src = Replay::new(inputs.iter().map(|s| s.to_string()).collect());
    let r = p.run(&mut src, &Config::default());
    pairs_of(&r)
        .iter()
        .map(|&i| key(p, du, i as usize))
        .collect()
}

/// The def-use pairs a run covered (its def-use tracker's observation).
pub fn pairs_of(r: &cairn::exec::RunResult) -> Vec<u32> {
    let run = r.observed.get::<cairn::exec::defuse::DefUseRun>();
    run.expect("the program tracks def-use pairs")
        .covered
        .clone()
}

/// Runs `cairn gen --criterion def-use ARGS` on `src` into a fresh directory (removed by the
/// caller) and returns it with the def-use entries of its goals.json.
pub fn generate(src: &Path, args: &[&str]) -> (PathBuf, Vec<serde_json::Value>) {
    let name = src.file_name().unwrap().to_string_lossy();
    let out = std::env::temp_dir().join(format!("cairn-dataflow-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let st = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["gen", "--criterion", "def-use"])
        .args(args)
        .arg(src)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());
    let goals: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("goals.json")).unwrap()).unwrap();
    let pairs = goals
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["kind"] == "def-use")
        .cloned()
        .collect();
    (out, pairs)
}

/// `cairn replay --criterion def-use` confirms every claim of the suite in `out` natively.
pub fn assert_replays(src: &Path, out: &Path) {
    // The directory alone: its run.json gives the program and `--criterion def-use` (without
    // it every def-use claim would be a mismatch).
    let replay = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .arg("replay")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}: native replay: {}{}",
        src.display(),
        String::from_utf8_lossy(&replay.stdout),
        String::from_utf8_lossy(&replay.stderr)
    );
}
