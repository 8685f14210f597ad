//! CFG-directed concolic search reaches every feasible branch of the team's test programs
//! within 10 s, and every test it writes replays natively with the goals it claims.
//! (tests/expectation.rs does the same for the default strategy.)

mod common;

#[test]
fn concolic_reaches_every_feasible_branch() {
    let failures = common::check_feasible_coverage("concolic", "cfg");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cairn's branch goals are the branches gcov counts natively: short-circuit operands that
/// clang computes as values (`return a >= lo && a <= hi;`, `while (n < 4 && ok(s[n]))`, a
/// `||` passed as an argument) are branches, as gcc compiles them. Every goal covered means
/// every native branch covered.
#[test]
fn branch_goals_are_the_branches_gcov_counts() {
    use std::process::Command;
    let p = common::root().join("tests/programs/concolic/short_circuit.c");
    let dir = common::tmp("short-circuit");
    let out = dir.path().join("o");
    let cairn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(args)
            .output()
            .unwrap()
    };
    let p = p.to_str().unwrap();
    let o = cairn(&["gen", p, "--out", out.to_str().unwrap(), "--time", "20s"]);
    assert!(o.status.success(), "{}", common::text(&o));
    let s = common::json(&out.join("summary.json"));
    let goals = s["goals"]["total"].as_u64().unwrap();
    assert_eq!(s["goals"]["covered"], goals, "{s}");
    let r = cairn(&["replay", p, out.to_str().unwrap()]);
    let report = common::text(&r);
    assert!(r.status.success(), "{report}");
    assert!(
        report.contains(&format!(
            "native branch coverage (gcc gcov): {goals}/{goals} "
        )),
        "{goals} goals:\n{report}"
    );
}

/// Every branch strategy the registry has (a new one is checked here without a line of its
/// own) decides every goal of a validation program within 2,000 runs, alone on one worker.
#[test]
fn every_registered_strategy_decides_a_small_program() {
    let p = common::root().join("tests/programs/search/validators.c");
    let dir = common::tmp("registry");
    for name in cairn::search::registry::branch_strategies() {
        let out = dir.path().join(name);
        let o = common::cairn(&[
            "gen",
            p.to_str().unwrap(),
            "--strategy",
            name,
            "--jobs",
            "1",
            "--tests-only",
            "--max-iterations",
            "2000",
            "--time",
            "120",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{name}: {}", common::text(&o));
        let s = common::json(&out.join("summary.json"));
        assert_eq!(s["goals"]["unknown"], 0, "{name}: {s}");
        assert!(s["goals"]["covered"].as_u64().unwrap() >= 75, "{name}: {s}");
    }
}
