//! Tests whose claim is about the time a technique gets within a wall-clock budget. Cargo runs
//! test binaries one after another, and this one holds a single test, so it runs without the
//! rest of the suite's load.

mod common;

use common::{cairn, json, root, text, tmp};

#[test]
fn a_first_run_that_no_smaller_value_shortens_leaves_time_to_the_other_techniques() {
    // Each interpreted run of this program takes the whole step limit (a few seconds here):
    // the first run's retries with smaller values, five runs in all, once took the budget in
    // one turn, and the model checker never ran. Now they take turns with it. Whether its
    // proof of the error call also fits in 9 s depends on the machine's load (it did in 8 s
    // idle; with the rest of a suite still running beside it, once not: 2 rounds instead of
    // 3), so the claim is the turn. Under heavier load still (load average 3.3 on 2 cores) a
    // single run took the whole first round and this failed too: it needs the machine to
    // itself, which this binary gives it.
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
    assert!(
        s["mc"]["chc_queries"].as_u64().unwrap() >= 1,
        "no model checker turn: {s}"
    );
    assert!(s["goals"]["covered"].as_u64().unwrap() >= 1, "{s}");
    let goals = json(&out.join("goals.json"));
    let error = goals
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "error")
        .unwrap();
    assert_ne!(error["status"], "covered", "{s}");
}
