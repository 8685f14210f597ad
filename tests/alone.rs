//! Tests whose claim is about the time a technique gets within a wall-clock budget. Cargo runs
//! test binaries one after another, and this one holds a single test, so it runs without the
//! rest of the suite's load (in `engine`, next to two-worker generations, the model checker's
//! proof below once did not finish within 9 s).

mod common;

use common::{cairn, json, root, text, tmp};

#[test]
fn a_first_run_that_no_smaller_value_shortens_leaves_time_to_the_other_techniques() {
    // Each interpreted run of this program takes the whole step limit (a few seconds here):
    // the first run's retries with smaller values, five runs in all, once took the budget in
    // one turn, and the model checker never ran. Now they take turns with it.
    let dir = tmp("alone-long-first-run");
    let p = root().join("tests/programs/engine/long_first_run.c");
    let out = dir.path().join("o");
    let o = cairn(&[
        "gen",
        p.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--seed",
        "1",
        "--time",
        "9s",
        "--jobs",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = json(&out.join("summary.json"));
    let used = s["load_s"].as_f64().unwrap() + s["time_s"].as_f64().unwrap();
    assert!(used < 10.0, "budget of 9s overrun: {used:.2}s");
    let goals = json(&out.join("goals.json"));
    let error = goals
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "error")
        .unwrap();
    assert_eq!(error["status"], "unreachable", "{s}");
    assert!(s["goals"]["covered"].as_u64().unwrap() >= 1, "{s}");
}
