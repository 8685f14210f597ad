//! Uncovered-branch expectation search (`--strategy expectation`, the default) reaches every
//! feasible branch of the team's concolic test programs within 10 s, and its tests replay
//! natively.

mod common;

#[test]
fn expectation_reaches_every_feasible_branch() {
    let failures = common::check_feasible_coverage("concolic", "expectation");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
