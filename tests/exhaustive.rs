//! Exhaustive exploration proofs: when the execution tree is complete and exact, every goal no
//! run covered is unreachable. Programs with a finite, exact path space are decided entirely,
//! and no such proof is ever contradicted by another technique.

mod common;
use common::*;
use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

fn cairn(args: &[&str]) -> std::process::Output {
    let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "cairn {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// (goal id, status, proof kind) of every goal of an output directory.
fn statuses(out: &Path) -> Vec<(u64, String, String)> {
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("goals.json")).unwrap()).unwrap();
    g.as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["id"].as_u64().unwrap(),
                x["status"].as_str().unwrap().to_string(),
                x["proof"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn summary(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

#[test]
fn exact_path_spaces_are_decided_and_replay() {
    let dir = tmp("exhaustive");
    for p in programs("exhaustive") {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let out = dir.path().join(&name);
        let (src, o) = (p.to_str().unwrap(), out.to_str().unwrap());
        cairn(&["gen", src, "--out", o, "--time", "20s"]);
        let s = summary(&out);
        let infeasible = infeasible_count(&std::fs::read_to_string(&p).unwrap());
        let goals = &s["goals"];
        println!("{name}: {goals} proofs {}", s["proofs"]);
        assert_eq!(goals["unknown"], 0, "{name}: undecided goals: {goals}");
        assert_eq!(goals["unreachable"], infeasible, "{name}: {goals}");
        assert!(
            s["proofs"]["exhaustive"].as_u64().unwrap_or(0) > 0,
            "{name}: no exhaustive proof: {}",
            s["proofs"]
        );
        let r = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["replay", src, o])
            .output()
            .unwrap();
        assert!(
            r.status.success(),
            "{name}: replay: {}{}",
            String::from_utf8_lossy(&r.stdout),
            String::from_utf8_lossy(&r.stderr)
        );
    }
}

#[test]
fn exhaustive_proofs_are_never_contradicted() {
    let dir = tmp("exhaustive-sound");
    let mut checked = 0;
    for p in programs("exhaustive")
        .into_iter()
        .chain(programs("mc"))
        .chain(programs("concolic"))
        .chain(programs("search"))
        .chain(programs("fidelity"))
    {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let src = p.to_str().unwrap();
        let out = dir.path().join(format!("{name}-exh"));
        // Budgets in iterations, with time to spare for loading on a loaded machine (1.5 s
        // once did not cover compiling beside a second copy of the suite): the explorations
        // that exhaust take at most 6,820 runs (nested_loops.c).
        cairn(&[
            "gen",
            src,
            "--out",
            out.to_str().unwrap(),
            "--time",
            "6s",
            "--max-iterations",
            "15000",
            "--tests-only",
        ]);
        let proven: HashSet<u64> = statuses(&out)
            .into_iter()
            .filter(|(_, _, how)| how == "exhaustive")
            .map(|(g, _, _)| g)
            .collect();
        if proven.is_empty() {
            continue;
        }
        // Tests from random testing, another strategy and the model checker.
        let runs: [&[&str]; 3] = [
            &[
                "gen",
                "--strategy",
                "random",
                "--tests-only",
                "--time",
                "10s",
                "--max-iterations",
                "5000",
            ],
            &[
                "gen",
                "--strategy",
                "cfg",
                "--tests-only",
                "--time",
                "10s",
                "--max-iterations",
                "5000",
            ],
            &["prove", "--time", "10s"],
        ];
        for (i, args) in runs.iter().enumerate() {
            let o = dir.path().join(format!("{name}-{i}"));
            let mut a = args.to_vec();
            a.extend([src, "--out", o.to_str().unwrap(), "--seed", "7"]);
            if args[0] == "prove" {
                a.truncate(a.len() - 2);
            }
            cairn(&a);
            for (g, st, _) in statuses(&o) {
                assert!(
                    !(st == "covered" && proven.contains(&g)),
                    "SOUNDNESS: {name}: goal {g} proven unreachable by exhaustive exploration \
                     but covered by `cairn {}`",
                    args.join(" ")
                );
            }
        }
        checked += proven.len();
    }
    println!("{checked} exhaustive proofs checked");
    assert!(
        checked >= 20,
        "too few exhaustive proofs to check: {checked}"
    );
}

#[test]
fn indeterminate_values_withhold_proofs() {
    let dir = tmp("exhaustive-uninit");
    let p = root().join("tests/programs/soundness/uninitialized.c");
    let out = dir.path().join("u");
    let o = out.to_str().unwrap();
    cairn(&[
        "gen",
        p.to_str().unwrap(),
        "--out",
        o,
        "--time",
        "3s",
        "--tests-only",
    ]);
    let s = summary(&out);
    assert_eq!(s["goals"]["unreachable"], 0, "{}", s["goals"]);
    assert!(
        s["concolic"]["inexact"]["uninitialized"].as_u64().unwrap() >= 3,
        "{}",
        s["concolic"]["inexact"]
    );
    // Nor may the model checker read them as zeros.
    let out = dir.path().join("p");
    cairn(&[
        "prove",
        p.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--time",
        "5s",
    ]);
    let proven: Vec<u64> = statuses(&out)
        .into_iter()
        .filter(|(_, st, _)| st == "unreachable")
        .map(|(g, _, _)| g)
        .collect();
    assert!(
        proven.is_empty(),
        "goals on garbage proven unreachable: {proven:?}"
    );
}

/// Faults that depend on inputs (a stack overflow by an input-sized array, a division by an
/// input) and callees chosen by an input (a function pointer from a table) are decisions of
/// the path: whatever the first input, the error behind them is reached, never proven
/// unreachable.
#[test]
fn input_dependent_faults_are_decisions() {
    let dir = tmp("exhaustive-faults");
    for name in ["vla_size.c", "fault_first.c", "fptr_choice.c"] {
        let p = root().join("tests/programs/soundness").join(name);
        let src = p.to_str().unwrap();
        for seed in 1..=8 {
            let out = dir.path().join(format!("{name}-{seed}"));
            let o = out.to_str().unwrap();
            let seed = seed.to_string();
            cairn(&[
                "gen", src, "--out", o, "--time", "10s", "--goals", "error", "--seed", &seed,
            ]);
            let s = summary(&out);
            assert_eq!(
                s["goals"]["unreachable"], 0,
                "{name} seed {seed}: {}",
                s["goals"]
            );
            assert_eq!(
                s["goals"]["covered"], 1,
                "{name} seed {seed}: {}",
                s["goals"]
            );
        }
    }
    // An array of size 0 is no fault.
    let p = root().join("tests/programs/soundness/vla_size.c");
    let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["run", p.to_str().unwrap(), "--inputs", "0", "--json"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["exit_code"], 0, "{r}");
    assert!(r["fault"].is_null(), "{r}");
}

/// In unit mode the harness returns the entry's value from `main`, so natively `exit` then runs
/// the atexit handlers the entry registered and the destructors: the interpreter runs them too
/// (their branches are covered and replay natively), and no prover claims them unreachable.
#[test]
fn unit_mode_runs_exit_handlers_after_the_entry() {
    let dir = tmp("exhaustive-unit-exit");
    let p = root().join("tests/programs/soundness/unit_exit_handlers.c");
    let src = p.to_str().unwrap();
    let out = dir.path().join("gen");
    let o = out.to_str().unwrap();
    cairn(&["gen", src, "--entry", "setup", "--out", o, "--time", "10s"]);
    let s = summary(&out);
    assert_eq!(s["goals"]["covered"], 4, "{}", s["goals"]);
    let r = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["replay", src, o])
        .output()
        .unwrap();
    assert!(
        r.status.success() && !String::from_utf8_lossy(&r.stderr).contains("MISMATCH"),
        "{}{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
    let proof = dir.path().join("mc");
    let o = proof.to_str().unwrap();
    cairn(&[
        "prove",
        src,
        "--entry",
        "setup",
        "--out",
        o,
        "--time",
        "5s",
        "--mc-only",
    ]);
    assert_eq!(summary(&proof)["goals"]["unreachable"], 0);
}

/// Event-condition-action systems (`shapes::reactive`) read inputs forever over finitely many
/// states: their path space never ends, and depth-first search exhausts it only by recognising
/// the states it was in at the loop's head (`exec::revisit`), in `main` or in a function `main`
/// calls twice (`shapes::reactive_called`), and with an input held across steps, where states
/// are the same only up to which input they hold (`shapes::reactive_held`). Every goal is then
/// decided, and
/// no proof is contradicted by the same search without state matching (which never ends and
/// covers what it covers) or by random testing; the suite replays.
#[test]
fn endless_reactive_systems_are_explored_to_their_end() {
    let dir = tmp("exhaustive-reactive");
    let dfs = ["--strategy", "dfs", "--tests-only", "--fuzz-share", "0"];
    let systems = [1, 2, 9, 16].map(shapes::reactive);
    for g in systems
        .into_iter()
        .chain([2, 9].map(shapes::reactive_called))
        .chain([1, 2].map(shapes::reactive_held))
    {
        let path = g.write_in(dir.path());
        let (src, name) = (path.to_str().unwrap(), g.name.as_str());
        let run = |tag: &str, extra: &[&str]| {
            let out = dir.path().join(format!("{name}-{tag}"));
            let mut a = vec!["gen", src, "--out", out.to_str().unwrap(), "--jobs", "1"];
            a.extend_from_slice(&["--time", "60s", "--seed", "1"]);
            a.extend_from_slice(extra);
            cairn(&a);
            out
        };
        let matched = run(
            "matched",
            &[&dfs[..], &["--max-iterations", "20000"]].concat(),
        );
        let s = summary(&matched);
        assert_eq!(s["goals"]["unknown"], 0, "{name}: {}", s["goals"]);
        assert!(
            s["concolic"]["revisits"].as_u64().unwrap() > 0,
            "{name}: {}",
            s["concolic"]
        );
        // A matched run ends at the match; one that took new goals before it is a test
        // (replayed below like the others).
        let ended_at_a_match = std::fs::read_dir(matched.join("tests"))
            .unwrap()
            .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
            .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .filter(|t| t["outcome"] == "revisited")
            .count();
        assert!(ended_at_a_match > 0, "{name}: no test ended at a match");
        let proven: HashSet<u64> = statuses(&matched)
            .into_iter()
            .filter(|(_, st, _)| st == "unreachable")
            .map(|(g, _, _)| g)
            .collect();
        let others = [
            run(
                "unmatched",
                &[
                    &dfs[..],
                    &["--max-iterations", "3000", "--no-state-matching"],
                ]
                .concat(),
            ),
            run(
                "random",
                &[
                    "--strategy",
                    "random",
                    "--tests-only",
                    "--max-iterations",
                    "5000",
                ],
            ),
        ];
        for o in &others {
            let u = summary(o);
            assert_eq!(u["proofs"]["exhaustive"].as_u64().unwrap_or(0), 0, "{name}");
            for (g, st, _) in statuses(o) {
                assert!(
                    !(st == "covered" && proven.contains(&g)),
                    "SOUNDNESS: {name}: goal {g} proven unreachable with state matching, \
                     covered by {}",
                    o.display()
                );
            }
        }
        let r = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["replay", src, matched.to_str().unwrap()])
            .output()
            .unwrap();
        let t = String::from_utf8_lossy(&r.stdout);
        assert!(
            r.status.success() && t.contains("unconfirmed: 0"),
            "{name}: {t}"
        );
    }
}
