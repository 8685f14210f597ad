//! CFG-directed concolic search reaches every feasible branch of the team's test programs
//! within 10 s, and every test it writes replays natively with the goals it claims.
//! (tests/expectation.rs does the same for the default strategy.)

mod common;

#[test]
fn concolic_reaches_every_feasible_branch() {
    let failures = common::check_feasible_coverage("concolic", "cfg");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
