//! Test-Comp: a task definition runs from its .yml, TestCov validates the suite (32-bit) and
//! agrees with native replay, and BenchExec runs Cairn through its tool-info module.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The team's task, copied to `dir` with its property files (TestCov writes beside the
/// program: never into the repository).
fn task_copy(dir: &Path) -> PathBuf {
    let src = root().join("tests/programs/testcomp");
    std::fs::create_dir_all(dir.join("properties")).unwrap();
    for f in [
        "sensor_log.c",
        "sensor_log.yml",
        "properties/coverage-branches.prp",
        "properties/coverage-error-call.prp",
    ] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    dir.join("sensor_log.yml")
}

/// The number after `label` in `t` (`Coverage: 92.86%` -> 92.86).
fn number_after(t: &str, label: &str) -> Option<f64> {
    let rest = &t[t.find(label)? + label.len()..];
    let num: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    num.parse().ok()
}

#[test]
fn task_runs_from_its_yml_and_testcov_agrees_with_replay() {
    let dir = tmp("testcomp-task");
    let task = task_copy(dir.path());
    let out = dir.path().join("out");
    let o = cairn(&[
        "gen",
        task.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--time",
        "4",
        "--seed",
        "3",
    ]);
    assert!(o.status.success(), "{}", text(&o));

    // The task's data model and property reach the suite.
    let meta = std::fs::read_to_string(out.join("test-suite/metadata.xml")).unwrap();
    assert!(
        meta.contains("<architecture>32bit</architecture>"),
        "{meta}"
    );
    assert!(meta.contains("@DECISIONEDGE"), "{meta}");
    // `long` inputs are 32-bit values.
    let mut longs = 0;
    for e in std::fs::read_dir(out.join("tests")).unwrap() {
        let t: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(e.unwrap().path()).unwrap()).unwrap();
        for i in t["inputs"].as_array().unwrap() {
            if i["type"] == "long" {
                let v: i64 = i["value"].as_str().unwrap().parse().unwrap();
                assert!(
                    i32::try_from(v).is_ok(),
                    "a 64-bit long in an ILP32 suite: {v}"
                );
                longs += 1;
            }
        }
    }
    assert!(longs > 0, "the suite reads no long");

    // Native replay (gcov counts each condition's branches).
    let o = cairn(&[
        "replay",
        task.to_str().unwrap(),
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "replay:\n{}", text(&o));
    let rep: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let (hit, total) = (
        rep["branches_taken"].as_f64().unwrap(),
        rep["branches_total"].as_f64().unwrap(),
    );

    // TestCov, 32-bit, on the zip (it counts each decision's outcomes; every condition of this
    // program is a single comparison, so the goals are the same).
    let c = task.with_file_name("sensor_log.c");
    let o = Command::new("testcov")
        .args(["--no-isolation", "--no-plots", "-32", "--test-suite"])
        .arg(out.join("test-suite.zip"))
        .arg(&c)
        .current_dir(dir.path())
        .output()
        .expect("testcov is not installed: run scripts/install.sh");
    let t = text(&o);
    let tests = std::fs::read_dir(out.join("tests")).unwrap().count();
    assert!(t.contains(&format!("Tests run: {tests}")), "testcov:\n{t}");
    let goals = number_after(&t, "Number of goals:").expect("testcov's goals");
    let coverage = number_after(&t, "Coverage:").expect("testcov's coverage");
    eprintln!(
        "TestCov: {coverage}% of {goals} goals; cairn replay: {hit}/{total} = {:.2}%",
        100.0 * hit / total
    );
    assert_eq!(goals, total, "testcov:\n{t}\nreplay: {rep}");
    assert!(
        (coverage - 100.0 * hit / total).abs() < 0.01,
        "TestCov {coverage}% vs replay {hit}/{total}\n{t}"
    );
    // Cairn's own ledger says the same of the branch goals.
    let goals: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("goals.json")).unwrap()).unwrap();
    let covered = goals
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["kind"] == "branch" && g["status"] == "covered")
        .count();
    assert_eq!(covered as f64, hit);
}

#[test]
fn error_call_property_and_bad_tasks() {
    let dir = tmp("testcomp-error");
    let task = task_copy(dir.path());
    let prp = dir.path().join("properties/coverage-error-call.prp");
    let out = dir.path().join("err");
    // The property file decides the goals, as BenchExec passes it.
    let o = cairn(&[
        "gen",
        task.to_str().unwrap(),
        "--property",
        prp.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--time",
        "2",
    ]);
    // The task does not state coverage-error-call: refused, with the reason.
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("does not state"), "{}", text(&o));
    let c = task.with_file_name("sensor_log.c");
    let o = cairn(&[
        "gen",
        c.to_str().unwrap(),
        "--property",
        prp.to_str().unwrap(),
        "--data-model",
        "ilp32",
        "--out",
        out.to_str().unwrap(),
        // Ends when reach_error is called; room for compiling on a loaded machine.
        "--time",
        "10",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let meta = std::fs::read_to_string(out.join("test-suite/metadata.xml")).unwrap();
    assert!(meta.contains("@CALL(reach_error)"), "{meta}");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(s["goals"]["total"], 1, "{s}");

    // A task whose data model contradicts the command line, and a broken one.
    let o = cairn(&[
        "gen",
        task.to_str().unwrap(),
        "--data-model",
        "lp64",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("data_model"), "{}", text(&o));
    let bad = dir.path().join("bad.yml");
    std::fs::write(&bad, "format_version: '2.0'\ninput_files: 'missing.c'\n").unwrap();
    let o = cairn(&["gen", bad.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("does not exist"), "{}", text(&o));
}

fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_cairn"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn benchexec_runs_cairn_through_its_tool_info_module() {
    let dir = tmp("testcomp-benchexec");
    // BenchExec's own checker of tool-info modules.
    let sample = dir.path().join("cairn.log");
    std::fs::write(
        &sample,
        "cairn: 29 goals (28 branch outcomes, 1 error calls): 27 covered, 1 unreachable (exhaustive 1), 1 unknown; 12 tests in 4.0s -> output\n",
    )
    .unwrap();
    // Relative to the working directory, as BenchExec wants it (runs may move to other machines).
    let bin = bin_dir();
    let tool_dir = bin.strip_prefix(root()).unwrap_or(&bin);
    let o = Command::new("python3")
        .args(["-m", "benchexec.test_tool_info", "benchexec_tools.cairn"])
        .args(["--no-container", "--tool-directory"])
        .arg(tool_dir)
        .arg("--task-definition")
        .arg(root().join("tests/programs/testcomp/sensor_log.yml"))
        .arg("--tool-output")
        .arg(&sample)
        .env("PYTHONPATH", root())
        .current_dir(root())
        .output()
        .expect("python3");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let warnings: Vec<&str> = t
        .lines()
        .filter(|l| l.contains("WARNING"))
        .filter(|l| tool_dir.is_relative() || !l.contains("absolute"))
        .collect();
    assert!(warnings.is_empty(), "the checker warns:\n{t}");
    assert!(
        t.contains(&format!("Version: “{}”", env!("CARGO_PKG_VERSION"))),
        "{t}"
    );
    let task_line = t
        .lines()
        .skip_while(|l| !l.contains("sensor_log.yml with property"))
        .nth(1)
        .unwrap_or_else(|| panic!("no command line for the task:\n{t}"));
    for want in ["'--property'", "'--data-model', 'ilp32'", "sensor_log.c"] {
        assert!(task_line.contains(want), "{want} missing: {task_line}");
    }
    let sv = t
        .lines()
        .skip_while(|l| !l.contains("SV-Benchmarks task"))
        .nth(1)
        .unwrap();
    assert!(
        sv.contains("'--time'") && sv.contains("'--jobs', '1'"),
        "{sv}"
    );
    let result = t
        .lines()
        .skip_while(|l| !l.contains("Result of analyzing tool output"))
        .nth(1)
        .unwrap_or_default();
    assert!(result.contains("“done”"), "{t}");

    // BenchExec itself runs the team's task (no container: it needs overlay mounts), in the
    // scratch directory, where the run writes output/test-suite.zip.
    let o = Command::new("benchexec")
        .arg(root().join("benchexec_tools/cairn-testcomp.xml"))
        .arg("--tool-directory")
        .arg(bin_dir())
        .arg("--no-container")
        .arg("--outputpath")
        .arg(format!("{}/", dir.path().join("results").display()))
        .env("PYTHONPATH", root())
        .current_dir(dir.path())
        .output()
        .expect("benchexec");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let line = t
        .lines()
        .find(|l| l.contains("sensor_log.yml"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(line.contains("done"), "{t}");
    assert!(dir.path().join("output/test-suite.zip").is_file());
    let s: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("output/summary.json")).unwrap(),
    )
    .unwrap();
    assert!(s["goals"]["covered"].as_u64().unwrap() > 10, "{s}");
    assert_eq!(s["jobs"], 2, "BenchExec's 2 cores become 2 workers: {s}");
}

/// `cairn goals` reads a task definition like `gen` does: the same goals as its C file.
#[test]
fn goals_lists_a_task_files_goals() {
    let dir = root().join("tests/programs/testcomp");
    let list = |f: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["goals", "--json"])
            .arg(dir.join(f))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let from_task = list("sensor_log.yml");
    assert!(from_task.contains("reach_error"));
    assert_eq!(from_task, list("sensor_log.c"));
}
