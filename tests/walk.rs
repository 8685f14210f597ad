//! The concolic walk end to end: branches over math-library results and opaque user functions
//! get covered by tests the walk found, and those tests replay natively like all others.

mod common;

use common::{root, text, tmp};
use std::path::Path;
use std::process::{Command, Output};

fn cairn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .output()
        .unwrap()
}

fn program(name: &str) -> String {
    root()
        .join("tests/programs/walk")
        .join(name)
        .display()
        .to_string()
}

fn generate(file: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["gen", file, "--out", out.to_str().unwrap(), "--seed", "3"];
    args.extend_from_slice(extra);
    let o = cairn(&args);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

/// (exit code, found_by) of every test of a suite.
fn tests_of(out: &Path) -> Vec<(i64, String)> {
    let mut v = vec![];
    for e in std::fs::read_dir(out.join("tests")).unwrap() {
        let t: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap();
        v.push((
            t["exit_code"].as_i64().unwrap_or(-1),
            t["found_by"].as_str().unwrap_or("").to_string(),
        ));
    }
    v
}

fn replay_ok(file: &str, out: &Path) {
    let o = cairn(&["replay", file, out.to_str().unwrap()]);
    assert!(o.status.success(), "replay failed:\n{}", text(&o));
}

#[test]
fn walk_covers_math_library_branches_and_its_tests_replay() {
    let dir = tmp("walk-math");
    let p = program("math_targets.c");
    let out = dir.path().join("portfolio");
    let s = generate(&p, &out, &["--time", "20s"]);
    // Every branch, including the five targets (each needs its bit set in some exit status).
    assert_eq!(s["goals"]["unknown"], 0, "{s}");
    let tests = tests_of(&out);
    let bits = tests.iter().fold(0, |acc, (code, _)| acc | code);
    assert_eq!(bits, 31, "targets reached: {bits:#b}; tests {tests:?}");
    assert!(
        tests.iter().any(|(_, by)| by == "walk"),
        "no test found by the walk: {tests:?}"
    );
    assert!(s["solver"]["walk_sat"].as_u64().unwrap() >= 3, "{s}");
    replay_ok(&p, &out);

    // Z3 alone never calls the walk; the walk alone still covers everything.
    let out = dir.path().join("z3");
    let s = generate(&p, &out, &["--solver", "z3", "--time", "2s"]);
    assert_eq!(s["solver"]["walk"]["calls"], 0, "{s}");
    let out = dir.path().join("walk");
    let s = generate(
        &p,
        &out,
        &[
            "--time",
            "20s",
            "--solver",
            "walk",
            "--walk",
            "steps=300,neighbours=4",
        ],
    );
    assert_eq!(s["goals"]["unknown"], 0, "{s}");
    replay_ok(&p, &out);
}

#[test]
fn opaque_user_function_is_solved_through_its_result() {
    let dir = tmp("walk-opaque");
    let p = program("opaque_user.c");
    let out = dir.path().join("o");
    let s = generate(&p, &out, &["--time", "20s", "--opaque", "power"]);
    let tests = tests_of(&out);
    assert!(
        tests.iter().any(|(code, by)| *code == 1 && by == "walk"),
        "target not covered by the walk: {tests:?} {s}"
    );
    replay_ok(&p, &out);

    let o = cairn(&[
        "gen",
        &p,
        "--opaque",
        "nosuch",
        "--out",
        dir.path().join("x").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no function `nosuch`"), "{}", text(&o));
    let o = cairn(&[
        "gen",
        &p,
        "--walk",
        "steps=many",
        "--out",
        dir.path().join("y").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("walk parameter `steps`"), "{}", text(&o));
}

/// Programs of the walk's shape drawn by `tests/common/shapes.rs` (checks that pass only for a
/// product, a polynomial or a narrow window of `sin`/`sqrt`/`log`/`exp`/`pow`, all feasible):
/// concolic search with the walk behind Z3 covers every goal of the first three, proves none
/// (every check is feasible), and its tests replay; with Z3 alone some stay unknown. The
/// 50-program distribution is `cargo bench --bench shapes -- --shape nonlinear`.
#[test]
fn walk_covers_generated_nonlinear_programs_where_z3_alone_does_not() {
    let mut z3_unknown = 0;
    for seed in [0, 1, 2] {
        let program = common::shapes::nonlinear(seed);
        let dir = tmp(&format!("walk-shape-{seed}"));
        let file = program.write_in(dir.path());
        let file = file.display().to_string();
        let budget = [
            &common::SEARCH_ALONE[..],
            &["--max-iterations", "300", "--time", "60s"],
        ]
        .concat();
        let out = dir.path().join("walk");
        let s = generate(&file, &out, &budget);
        assert_eq!(
            s["goals"]["unknown"], 0,
            "seed {seed}:\n{}\n{s}",
            program.source
        );
        assert_eq!(s["goals"]["unreachable"], 0, "seed {seed}: {s}");
        replay_ok(&file, &out);
        let out = dir.path().join("z3");
        let s = generate(&file, &out, &[&budget[..], &["--solver", "z3"]].concat());
        assert_eq!(s["goals"]["unreachable"], 0, "seed {seed}: {s}");
        z3_unknown += s["goals"]["unknown"].as_u64().unwrap();
    }
    assert!(z3_unknown > 0, "Z3 alone decided every generated program");
}
