//! Uncovered-branch expectation search (`--strategy expectation`, the default) reaches every
//! feasible branch of the team's concolic test programs within 10 s, and its tests replay
//! natively.

mod common;

#[test]
fn expectation_reaches_every_feasible_branch() {
    let failures = common::check_feasible_coverage("concolic", "expectation");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs are test inputs: each solved flip is one run, with no extra end-of-input run for a
/// program that reads no stdin (the uncovered-branch expectation paper counts inputs: CREST's
/// uniform_test takes 5 with every strategy).
#[test]
fn every_strategy_covers_nested_guards_in_one_run_per_flip() {
    let p = common::root().join("tests/programs/search/nested_guards.c");
    for strategy in ["expectation", "cfg", "dfs"] {
        let dir = common::tmp("nested-guards");
        let out = dir.path().join("o");
        let o = common::cairn(
            &[
                &[
                    "gen",
                    p.to_str().unwrap(),
                    "--out",
                    out.to_str().unwrap(),
                    "--strategy",
                    strategy,
                    "--max-iterations",
                    "5",
                ][..],
                &common::SEARCH_ALONE,
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", common::text(&o));
        let s = common::json(&out.join("summary.json"));
        assert_eq!(s["goals"]["covered"], 8, "{strategy}: {s}");
    }
}
