//! Lazy expansion (`cairn gen --lazy`): fewer runs than depth-first search on a unit that calls
//! a comparison function twice (Figure 1 of the LATEST paper), every abstract path of a small
//! calculator concretized, abstract runs never counted as coverage, and every test replays
//! natively. The calculator benchmark is `cargo bench --bench lazy`.

mod common;
use common::*;
use std::path::Path;

fn prog(name: &str) -> String {
    root()
        .join("tests/programs/lazy")
        .join(name)
        .display()
        .to_string()
}

/// One worker (`--jobs 1`): these are figures of lazy expansion itself, not of a portfolio
/// whose other workers decide goals before it.
fn generate(file: &str, out: &Path, args: &[&str]) -> serde_json::Value {
    let mut a = vec![
        "gen",
        file,
        "--out",
        out.to_str().unwrap(),
        "--tests-only",
        "--jobs",
        "1",
    ];
    a.extend_from_slice(args);
    let o = cairn(&a);
    assert!(o.status.success(), "{}", text(&o));
    json(&out.join("summary.json"))
}

/// `cairn replay` with the unit-mode options: every claim holds natively.
fn replays(file: &str, out: &Path, unit: &[&str]) -> String {
    let mut a = vec!["replay", file, out.to_str().unwrap()];
    a.extend_from_slice(unit);
    let o = cairn(&a);
    assert!(o.status.success(), "replay failed:\n{}", text(&o));
    text(&o)
}

/// The run after which every branch of `function` was covered (from the tests' iterations).
fn runs_to_cover(out: &Path, function: &str) -> u64 {
    let goals = json(&out.join("goals.json"));
    let tests: Vec<serde_json::Value> = std::fs::read_dir(out.join("tests"))
        .unwrap()
        .map(|e| json(&e.unwrap().path()))
        .collect();
    goals
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["function"] == function)
        .map(|g| {
            tests
                .iter()
                .filter(|t| t["covers"].as_array().unwrap().contains(&g["id"]))
                .map(|t| t["iteration"].as_u64().unwrap())
                .min()
                .unwrap_or_else(|| panic!("goal {g} of {function} not covered"))
        })
        .max()
        .unwrap()
}

#[test]
fn lazy_expansion_covers_figure_1_in_at_most_half_the_runs_of_depth_first_search() {
    let dir = tmp("lazy-fig1");
    let p = prog("compare_words.c");
    let unit = ["--entry", "testme", "--buffer-size", "16"];
    let (dfs, lazy) = (dir.path().join("dfs"), dir.path().join("lazy"));
    let mut a = unit.to_vec();
    a.extend(["--time", "60s", "--strategy", "dfs"]);
    generate(&p, &dfs, &a);
    let mut a = unit.to_vec();
    a.extend(["--time", "60s", "--lazy", "auto"]);
    let s = generate(&p, &lazy, &a);
    let (d, l) = (
        runs_to_cover(&dfs, "testme"),
        runs_to_cover(&lazy, "testme"),
    );
    eprintln!("runs to cover every branch of testme: depth-first {d}, lazy {l}");
    assert!(2 * l <= d, "lazy {l} runs, depth-first {d}");
    // The comparisons were abstracted and expanded; each abstract path became a real run.
    let z = &s["lazy"];
    assert!(
        z["functions"]["compare"]["expansions"].as_u64().unwrap() >= 3,
        "{z}"
    );
    assert_eq!(z["dropped"], 0, "{z}");
    assert!(
        z["inexact"]["abstracted_calls"].as_u64().unwrap() > 0,
        "{z}"
    );
    // Tests of lazy mode are runs of the real program: they replay natively.
    let r = replays(&p, &lazy, &unit);
    assert!(
        r.contains("native branch coverage (gcc gcov): 10/10"),
        "{r}"
    );
}

#[test]
fn every_abstract_path_of_the_calculator_is_concretized_and_replays() {
    let dir = tmp("lazy-calc");
    let p = prog("calculator.c");
    let out = dir.path().join("calc");
    let unit = ["--entry", "calc", "--buffer-size", "24"];
    let mut a = unit.to_vec();
    // Lazy expansion takes the first turn, a 32nd of the budget; concolic search, in the next,
    // covers every goal and ends the session. With 4 s (a 125 ms turn) lazy expansion had not
    // finished its paths in 8 of 9 runs three at a time on 2 cores; with 16 s, 9 of 9, but
    // with a second copy of the suite beside it one run concretized 15 of 16. With 64 s (a 2-s
    // turn) the session still ends in about a second.
    a.extend(["--time", "64s", "--lazy", "auto"]);
    let s = generate(&p, &out, &a);
    let z = &s["lazy"];
    // One operation: 16 paths through `calc` with its lexer abstracted, all realizable.
    assert_eq!(z["exhausted"], true, "{z}");
    assert_eq!(z["abstract_paths"], 16, "{z}");
    assert_eq!(z["concretized"], 16, "{z}");
    assert_eq!(z["dropped"], 0, "{z}");
    assert!(
        z["functions"]["next_token"]["stitched"].as_u64().unwrap() >= 16,
        "{z}"
    );
    // At most half the paper's 206 runs (Table 2, one operation): an abstract path solved
    // from a concretized one takes its parent's real inputs where its query leaves them free,
    // so the lexer calls they share are not expanded again (228 runs before, 90 now).
    assert!(z["witness_inputs_reused"].as_u64().unwrap() > 0, "{z}");
    assert!(z["runs"].as_u64().unwrap() <= 103, "{z}");
    let found_by_lazy = std::fs::read_dir(out.join("tests"))
        .unwrap()
        .filter(|e| json(&e.as_ref().unwrap().path())["found_by"] == "lazy")
        .count();
    assert!(
        found_by_lazy >= 5,
        "{found_by_lazy} tests from lazy expansion"
    );
    replays(&p, &out, &unit);
}

#[test]
fn abstract_runs_never_cover_goals_and_side_effects_are_respected() {
    let dir = tmp("lazy-side");
    let p = prog("side_effects.c");
    let out = dir.path().join("side");
    let s = generate(
        &p,
        &out,
        &["--entry", "top", "--time", "3s", "--lazy", "auto"],
    );
    let z = &s["lazy"];
    // Abstracting `count` makes `touched` an input: the abstraction has paths where it stays
    // 0. None of them is realizable, and none counts as coverage.
    assert!(z["abstract_paths"].as_u64().unwrap() >= 4, "{z}");
    assert!(z["dropped"].as_u64().unwrap() >= 2, "{z}");
    let goals = json(&out.join("goals.json"));
    let line17: Vec<&serde_json::Value> = goals
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["function"] == "top" && g["line"] == 17)
        .collect();
    let covered = line17.iter().filter(|g| g["status"] == "covered").count();
    assert_eq!(covered, 1, "only `touched != 0` is feasible: {line17:?}");
    replays(&p, &out, &["--entry", "top"]);
}

#[test]
fn lazy_names_must_be_functions_it_can_abstract() {
    let dir = tmp("lazy-names");
    let p = prog("calculator.c");
    for (names, msg) in [("nope", "no function `nope`"), ("main", "program's start")] {
        let o = cairn(&[
            "gen",
            &p,
            "--entry",
            "calc",
            "--lazy",
            names,
            "--out",
            dir.path().join("x").to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(msg), "{}", text(&o));
    }
}

/// Parsing programs drawn by `tests/common/shapes.rs` in Figure 1's order (every helper call
/// first, then the branches on the results): lazy expansion covers every branch of the unit
/// within 300 runs, depth-first search does not (it varies the later calls' paths under each
/// path of the earlier ones). Budgets in runs. The 50-program distribution, both orders, is
/// `cargo bench --bench shapes -- --shape parsing`.
#[test]
fn lazy_expansion_covers_generated_parsers_where_depth_first_search_does_not() {
    for seed in [4, 5] {
        let program = shapes::parsing(seed);
        assert!(program.source.contains("int t0 = "), "{}", program.source);
        let dir = tmp(&format!("lazy-shape-{seed}"));
        let file = program.write_in(dir.path());
        let file = file.display().to_string();
        let covered = |technique: &[&str]| {
            let out = dir.path().join(technique.join("-"));
            let mut a: Vec<&str> = program.args.iter().map(String::as_str).collect();
            a.extend(["--max-iterations", "300", "--time", "60s"]);
            a.extend(technique);
            generate(&file, &out, &a);
            json(&out.join("goals.json"))
                .as_array()
                .unwrap()
                .iter()
                .filter(|g| g["function"] == "testme")
                .all(|g| g["status"] == "covered")
        };
        assert!(
            covered(&["--lazy", "auto"]),
            "seed {seed}:\n{}",
            program.source
        );
        assert!(
            !covered(&["--strategy", "dfs"]),
            "seed {seed}:\n{}",
            program.source
        );
    }
}
