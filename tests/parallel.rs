//! All cores and many machines: `--jobs` workers share one ledger and output directory;
//! `--shard` splits the goals; `cairn merge` joins shards by goal and reports conflicts; the
//! README's GNU parallel example runs.

mod common;
use common::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn prog(p: &str) -> String {
    root().join(p).display().to_string()
}

/// Tests of a directory, in number order, checked to be numbered 1..=n without gaps.
fn numbered_tests(out: &Path) -> Vec<serde_json::Value> {
    let mut names: Vec<String> = std::fs::read_dir(out.join("tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for (i, n) in names.iter().enumerate() {
        assert_eq!(
            n,
            &format!("{:06}.json", i + 1),
            "tests are not numbered 1..n"
        );
        assert!(
            out.join(format!("test-suite/test{:06}.xml", i + 1))
                .is_file(),
            "no Test-Comp file for test {n}"
        );
    }
    names
        .iter()
        .map(|n| json(&out.join("tests").join(n)))
        .collect()
}

/// Every test covers a goal no earlier test covers, or fails at a new place.
fn assert_deduplicated(tests: &[serde_json::Value]) {
    let mut seen = HashSet::new();
    let mut crashes = HashSet::new();
    for (i, t) in tests.iter().enumerate() {
        let covers: Vec<u64> = t["covers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_u64().unwrap())
            .collect();
        let fresh = covers.iter().filter(|g| seen.insert(**g)).count();
        let crash = t["outcome"] == "fault"
            && crashes.insert(format!("{}@{}", t["fault"], t["fault_location"]));
        assert!(fresh > 0 || crash, "test {} adds nothing", i + 1);
    }
}

#[test]
fn jobs_share_one_ledger_and_one_output_directory() {
    let dir = tmp("parallel-jobs");
    // Testing workers and the model checker: the checker's proofs hold for every worker.
    let p = prog("tests/programs/mc/loop_flag.c");
    let out = dir.path().join("mc");
    let o = cairn(&[
        "gen",
        &p,
        "--out",
        out.to_str().unwrap(),
        "--time",
        "20",
        "--jobs",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = json(&out.join("summary.json"));
    assert_eq!(s["jobs"], 2, "{s}");
    assert_eq!(s["workers"].as_array().unwrap().len(), 2);
    assert_eq!(s["goals"]["unknown"], 0, "{s}");
    assert_eq!(s["goals"]["unreachable"], 2, "{s}");
    assert_eq!(s["soundness_violations"].as_array().unwrap().len(), 0);
    let tests = numbered_tests(&out);
    assert_deduplicated(&tests);
    assert_eq!(s["tests"].as_u64().unwrap() as usize, tests.len());
    // Every covered goal names a test that covers it.
    for g in json(&out.join("goals.json")).as_array().unwrap() {
        if g["status"] == "covered" {
            let n: usize = g["test"].as_str().unwrap().parse().unwrap();
            assert!(
                tests[n - 1]["covers"]
                    .as_array()
                    .unwrap()
                    .contains(&g["id"]),
                "goal {} says test {n}",
                g["id"]
            );
        }
    }
    let o = cairn(&["replay", &p, out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));

    // Four testing workers (a portfolio of strategies) on one search program.
    let p = prog("tests/programs/search/tokenizer.c");
    let out = dir.path().join("four");
    let o = cairn(&[
        "gen",
        &p,
        "--out",
        out.to_str().unwrap(),
        "--time",
        "3",
        "--jobs",
        "4",
        "--tests-only",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s = json(&out.join("summary.json"));
    let strategies: HashSet<&str> = s["workers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(strategies.len(), 4, "a portfolio of strategies: {s}");
    assert_deduplicated(&numbered_tests(&out));
    let o = cairn(&["replay", &p, out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = cairn(&["gen", &p, "--out", out.to_str().unwrap(), "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2));
}

fn gen_shard(p: &str, out: &Path, shard: &str) -> Output {
    cairn(&[
        "gen",
        p,
        "--out",
        out.to_str().unwrap(),
        "--time",
        "2",
        "--jobs",
        "1",
        "--shard",
        shard,
    ])
}

#[test]
fn shards_split_the_goals_and_merge_by_goal() {
    let dir = tmp("parallel-shards");
    let p = prog("tests/programs/search/validators.c");
    let (s1, s2, m) = (
        dir.path().join("s1"),
        dir.path().join("s2"),
        dir.path().join("m"),
    );
    let (a, b) = std::thread::scope(|sc| {
        let a = sc.spawn(|| gen_shard(&p, &s1, "1/2"));
        let b = sc.spawn(|| gen_shard(&p, &s2, "2/2"));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert!(
        a.status.success() && b.status.success(),
        "{}{}",
        text(&a),
        text(&b)
    );
    // The shards' goals partition the program's goals.
    let (g1, g2) = (json(&s1.join("goals.json")), json(&s2.join("goals.json")));
    let (g1, g2) = (g1.as_array().unwrap(), g2.as_array().unwrap());
    // Each goal is some shard's (ignored in the other unless the other decided it on the way),
    // and each shard leaves goals to the other.
    for (x, y) in g1.iter().zip(g2) {
        assert!(
            x["status"] != "ignored" || y["status"] != "ignored",
            "goal {} is in no shard",
            x["id"]
        );
    }
    for g in [g1, g2] {
        assert!(
            g.iter().any(|x| x["status"] == "ignored"),
            "a shard has all goals"
        );
    }
    assert_eq!(json(&s1.join("summary.json"))["shard"], "1/2");
    // A shard keeps what it decides of the other's goals (its first tests cover goals of both).
    let across: u64 = [&s1, &s2]
        .iter()
        .map(|s| {
            json(&s.join("summary.json"))["other_shards_goals_decided"]
                .as_u64()
                .unwrap()
        })
        .sum();
    assert!(across > 0, "no shard decided a goal of the other");

    let o = cairn(&[
        "merge",
        m.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let merged = json(&m.join("goals.json"));
    let merged = merged.as_array().unwrap();
    assert_eq!(merged.len(), g1.len());
    for ((x, y), z) in g1.iter().zip(g2).zip(merged) {
        // What a shard decided stays decided.
        for s in [x, y] {
            if s["status"] == "covered" {
                assert_eq!(z["status"], "covered");
            }
            if s["status"] == "unreachable" {
                assert_eq!(z["status"], "unreachable");
            }
        }
        assert_ne!(z["status"], "ignored");
    }
    let tests = numbered_tests(&m);
    assert_deduplicated(&tests);
    let s = json(&m.join("summary.json"));
    let decided = |v: &serde_json::Value| {
        v["goals"]["covered"].as_u64().unwrap() + v["goals"]["unreachable"].as_u64().unwrap()
    };
    let in_a_shard = g1
        .iter()
        .zip(g2)
        .filter(|(x, y)| {
            let d =
                |g: &serde_json::Value| g["status"] == "covered" || g["status"] == "unreachable";
            d(x) || d(y)
        })
        .count() as u64;
    // (More when every share of the paths was explored: the merge proves the rest.)
    assert!(decided(&s) >= in_a_shard, "{s}");
    let o = cairn(&["replay", &p, m.to_str().unwrap()]);
    assert!(
        o.status.success(),
        "merged suite does not replay:\n{}",
        text(&o)
    );

    // A proof in one shard of a goal a test of the other covers: a soundness violation.
    let covered = g2
        .iter()
        .position(|g| g["status"] == "covered")
        .expect("shard 2 covered nothing");
    let mut forged = g1.clone();
    forged[covered]["status"] = "unreachable".into();
    forged[covered]["proof"] = "forged".into();
    std::fs::write(
        s1.join("goals.json"),
        serde_json::to_string(&forged).unwrap(),
    )
    .unwrap();
    let m2 = dir.path().join("m2");
    let o = cairn(&[
        "merge",
        m2.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
    assert!(text(&o).contains("SOUNDNESS VIOLATION"), "{}", text(&o));
    assert_eq!(
        json(&m2.join("summary.json"))["soundness_violations"][0],
        covered
    );

    // Directories of different programs do not merge; nor into one of the inputs.
    let other = dir.path().join("other");
    let o = cairn(&[
        "gen",
        &prog("tests/programs/search/tokenizer.c"),
        "--out",
        other.to_str().unwrap(),
        "--max-iterations",
        "20",
        "--time",
        "30",
    ]);
    assert!(o.status.success());
    let o = cairn(&[
        "merge",
        m2.to_str().unwrap(),
        s2.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("different programs"), "{}", text(&o));
    let o = cairn(&[
        "merge",
        s2.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = cairn(&["gen", &p, "--out", m.to_str().unwrap(), "--shard", "3/2"]);
    assert_eq!(o.status.code(), Some(2));
}

/// A multi-function target (`--entry f,g,...`): shards share out the entry functions
/// deterministically (sorted by name, whatever order each shard was given them in), each entry
/// function's run goes to OUT/<entry>, and `cairn merge` joins them entry by entry.
#[test]
fn shards_split_entry_functions() {
    let dir = tmp("parallel-entries");
    let p = prog("tests/programs/unit/library.c");
    let (s1, s2, m) = (
        dir.path().join("s1"),
        dir.path().join("s2"),
        dir.path().join("m"),
    );
    let run_shard = |out: &Path, entries: &str, shard: &str| {
        let o = cairn(&[
            "gen",
            &p,
            "--entry",
            entries,
            "--out",
            out.to_str().unwrap(),
            "--time",
            "10",
            "--jobs",
            "1",
            "--shard",
            shard,
        ]);
        assert!(o.status.success(), "{}", text(&o));
    };
    std::thread::scope(|sc| {
        sc.spawn(|| run_shard(&s1, "clamp,classify,checksum", "1/2"));
        sc.spawn(|| run_shard(&s2, "checksum,clamp,classify", "2/2"));
    });
    let listing = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert_eq!(listing(&s1), ["checksum", "classify"]);
    assert_eq!(listing(&s2), ["clamp"]);
    let o = cairn(&[
        "merge",
        m.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(listing(&m), ["checksum", "clamp", "classify"]);
    for e in ["checksum", "clamp", "classify"] {
        // Each entry function's own branches are all covered (they are feasible), and the
        // merged suite replays natively with that entry.
        let goals = json(&m.join(e).join("goals.json"));
        for g in goals.as_array().unwrap() {
            if g["function"] == e {
                assert_eq!(g["status"], "covered", "{e}: {g}");
            }
        }
        let o = cairn(&["replay", &p, m.join(e).to_str().unwrap(), "--entry", e]);
        assert!(o.status.success(), "{e}: {}", text(&o));
    }
}

/// The README's worked example (between `<!-- shard-example -->` markers), with its output in
/// a scratch directory and a shorter budget.
#[test]
fn readme_gnu_parallel_example_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = readme
        .split("<!-- shard-example -->")
        .nth(1)
        .expect("README has no shard example");
    let script: String = block
        .lines()
        .filter(|l| !l.starts_with("```") && !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    let dir = tmp("parallel-readme");
    let script = script
        .replace(
            "OUT=/tmp/cairn-shards",
            &format!("OUT={}", dir.path().display()),
        )
        .replace("--time 20", "--time 2");
    assert!(
        script.contains(&format!("OUT={}", dir.path().display())),
        "{script}"
    );
    let bin: PathBuf = Path::new(env!("CARGO_BIN_EXE_cairn"))
        .parent()
        .unwrap()
        .into();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .env("PATH", path)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}\n{}", text(&o));
    let s = json(&dir.path().join("merged/summary.json"));
    assert_eq!(s["merged_from"].as_array().unwrap().len(), 2, "{s}");
    assert!(text(&o).contains("replayed"), "{}", text(&o));
}

/// The progress bar (shown on a terminal: `script` gives the run one) counts goals against
/// their total and says how many are proven, with every worker's heartbeat.
#[test]
fn progress_bar_shows_the_goal_total_and_proofs() {
    let dir = tmp("parallel-progress");
    // A goal no technique decides keeps both workers busy to the deadline.
    let p = prog("tests/programs/report/thermostat.c");
    let out = dir.path().join("o");
    let cmd = format!(
        "stty cols 300 rows 40; exec '{}' gen '{p}' --out '{}' --time 3 --jobs 2",
        env!("CARGO_BIN_EXE_cairn"),
        out.display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .expect("script (util-linux) runs the generation on a terminal");
    let screen = text(&o);
    assert!(o.status.success(), "{screen}");
    let total = json(&out.join("summary.json"))["goals"]["total"]
        .as_u64()
        .unwrap();
    assert!(total > 0);
    let frames: Vec<&str> = screen
        .split(['\r', '\n'])
        .filter(|l| l.contains("% of reachable"))
        .collect();
    assert!(
        frames
            .iter()
            .any(|l| l.contains(&format!("covered of {total},"))
                && l.contains("proven unreachable")
                && l.contains(" unknown | tests ")),
        "no frame shows the goal total {total}:\n{screen}"
    );
    // Both workers report what they do (the second one also runs the model checker).
    assert!(
        frames
            .iter()
            .any(|l| l.contains(" | ") && l.contains("+mc: ")),
        "{screen}"
    );
}

/// Shards split the paths: each explores its share exactly, and the merge proves the goals no
/// shard's test covers once every share is explored, as one exhaustive exploration does (the
/// same goals); without every shard, or with a share left unexplored, it proves nothing.
#[test]
fn shards_explore_shares_of_the_paths_and_merge_proves_together() {
    let dir = tmp("parallel-path-shares");
    let p = prog("tests/programs/exhaustive/door_controller.c");
    let run = |out: &Path, extra: &[&str]| {
        let mut a = vec![
            "gen",
            &p,
            "--out",
            out.to_str().unwrap(),
            "--time",
            "8",
            "--jobs",
            "1",
        ];
        a.extend(extra);
        let o = cairn(&a);
        assert!(o.status.success(), "{}", text(&o));
    };
    let (one, s1, s2, m) = (
        dir.path().join("one"),
        dir.path().join("s1"),
        dir.path().join("s2"),
        dir.path().join("m"),
    );
    // Ample time: the unsharded run ends at its exhaustive proof, the shards at the deadline
    // (their model checkers try the goals left after their shares are explored).
    run(&one, &[]);
    std::thread::scope(|sc| {
        sc.spawn(|| run(&s1, &["--shard", "1/2"]));
        sc.spawn(|| run(&s2, &["--shard", "2/2"]));
    });
    for s in [&s1, &s2] {
        let sum = json(&s.join("summary.json"));
        assert_eq!(sum["paths"]["exhausted"], true, "{sum}");
        assert!(
            sum["concolic"]["other_shards_paths"].as_u64().unwrap() > 0,
            "{sum}"
        );
        // A share proves nothing by exhaustion on its own.
        assert!(sum["proofs"].get("exhaustive").is_none(), "{sum}");
    }
    let merge = |out: &Path, dirs: &[&Path]| {
        let mut a = vec!["merge", out.to_str().unwrap()];
        a.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        let o = cairn(&a);
        assert!(o.status.success(), "{}", text(&o));
        json(&out.join("goals.json"))
    };
    let merged = merge(&m, &[&s1, &s2]);
    let unsharded = json(&one.join("goals.json"));
    let status = |g: &serde_json::Value| g["status"].as_str().unwrap().to_string();
    let proven: Vec<String> = unsharded.as_array().unwrap().iter().map(status).collect();
    assert!(proven.iter().any(|s| s == "unreachable"), "{unsharded}");
    assert_eq!(
        merged
            .as_array()
            .unwrap()
            .iter()
            .map(status)
            .collect::<Vec<_>>(),
        proven
    );
    let union_proofs = |goals: &serde_json::Value| {
        let proofs = goals.as_array().unwrap().iter();
        proofs
            .filter(|g| g["proof"] == "exhaustive (shards)")
            .count()
    };
    assert!(union_proofs(&merged) > 0, "{merged}");
    let o = cairn(&["replay", &p, m.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));

    // One shard alone, or a share not explored, proves nothing.
    let alone = merge(&dir.path().join("m1"), &[&s1]);
    assert_eq!(union_proofs(&alone), 0, "{alone}");
    let mut sum = json(&s2.join("summary.json"));
    sum["paths"]["exhausted"] = false.into();
    std::fs::write(s2.join("summary.json"), sum.to_string()).unwrap();
    let partial = merge(&dir.path().join("m2"), &[&s1, &s2]);
    assert_eq!(union_proofs(&partial), 0, "{partial}");
}
