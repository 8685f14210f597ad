//! End-to-end behaviour of the `cairn` command: errors, runs, generation, outputs, replay.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn prog(name: &str) -> String {
    root()
        .join("tests/programs/cli")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn c_that_does_not_compile_shows_clang_diagnostics() {
    let o = cairn(&["run", &prog("syntax_error.c")]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(
        t.contains("does not compile") && t.contains("expected ';'"),
        "{t}"
    );
}

/// A directory where a C file belongs is named as such (before, llvm-link reported a
/// temporary file missing); an output directory points to the commands that read one.
#[test]
fn a_directory_given_as_a_source_is_named() {
    let dir = tmp("cli-directory-source");
    let o = cairn(&["goals", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("a directory, not a C file"),
        "{}",
        text(&o)
    );
    std::fs::write(dir.path().join("run.json"), "{}").unwrap();
    let o = cairn(&["goals", dir.path().to_str().unwrap()]);
    assert!(text(&o).contains("`cairn replay`"), "{}", text(&o));
}

#[test]
fn unsupported_construct_is_named_with_its_location() {
    // The program loads (native runs execute the assembly); the interpreter's run stops at an
    // instruction it has no model of (`pushf`, reading the flags).
    let o = cairn(&["run", &prog("inline_asm.c")]);
    assert_eq!(o.status.code(), Some(3));
    let t = text(&o);
    assert!(
        t.contains("inline assembly") && t.contains("inline_asm.c:4"),
        "{t}"
    );
}

#[test]
fn run_reproduces_output_and_exit_code() {
    let ex = root().join("examples/triangle.c").display().to_string();
    let o = cairn(&["run", &ex, "--inputs", "3,4,6"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let o = cairn(&["run", &ex, "--inputs", "5,12,13", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["outcome"], "abort");
    assert_eq!(v["exit_code"], 134);
    assert!(!v["covered"].as_array().unwrap().is_empty());
}

#[test]
fn crashes_are_classified_never_a_cairn_panic() {
    for (k, fault) in [
        ("3", "null pointer"),
        ("5", "division by zero"),
        ("7", "out-of-bounds"),
    ] {
        let o = cairn(&["run", &prog("crashes.c"), "--inputs", k, "--json"]);
        let v: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(&o)));
        assert_eq!(v["outcome"], "fault", "{v}");
        assert!(v["fault"].as_str().unwrap().contains(fault), "{v}");
        assert!(
            v["location"].as_str().unwrap().contains("crashes.c:"),
            "{v}"
        );
    }
}

fn generate(file: &str, out: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["gen", file, "--out", out.to_str().unwrap(), "--seed", "7"];
    args.extend_from_slice(extra);
    let o = cairn(&args);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

fn replay_ok(file: &str, out: &Path) -> String {
    let o = cairn(&["replay", file, out.to_str().unwrap()]);
    assert!(o.status.success(), "replay failed:\n{}", text(&o));
    text(&o)
}

fn test_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

/// `cairn gen P --out out` then `cairn replay out`, both from the directory that holds `out`:
/// the tests are found by a relative path, and the program (run in a scratch directory) still
/// reads each one (before, every claim was a mismatch: the harness found no test file).
#[test]
fn replay_takes_a_relative_output_directory() {
    let dir = tmp("cli-relative");
    let ex = root().join("examples/triangle.c").display().to_string();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let o = run(&["gen", &ex, "--out", "out", "--max-iterations", "300"]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&["replay", "out"]);
    let t = text(&o);
    assert!(o.status.success() && !t.contains("MISMATCH"), "{t}");
    let claimed = t
        .lines()
        .find_map(|l| l.strip_prefix("claimed goals confirmed natively per goal: "))
        .and_then(|l| l.split_whitespace().next()?.parse::<u32>().ok());
    assert!(claimed.is_some_and(|n| n > 0), "{t}");
}

#[test]
fn gen_writes_every_output_and_replay_confirms_it() {
    let dir = tmp("cli-gen");
    let out = dir.path().join("tri");
    let ex = root().join("examples/triangle.c").display().to_string();
    let s = generate(&ex, &out, &["--time", "20s"]);
    assert_eq!(s["goals"]["total"], 35);
    assert_eq!(s["goals"]["covered"], 35, "{s}");
    // The run names itself, and run.json keeps what replay needs.
    assert_eq!(s["cairn"]["version"], env!("CARGO_PKG_VERSION"), "{s}");
    assert!(
        s["cairn"]["clang"].as_str().unwrap().contains("clang"),
        "{s}"
    );
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert!(
        run["files"][0]
            .as_str()
            .unwrap()
            .ends_with("examples/triangle.c"),
        "{run}"
    );
    assert_eq!(run["options"]["front"]["entry"], "main", "{run}");
    assert_eq!(s["error_reached"], true);
    // tests/*.json and Test-Comp files, one each.
    let tests = test_files(&out.join("tests"));
    let xmls: Vec<PathBuf> = test_files(&out.join("test-suite"))
        .into_iter()
        .filter(|p| p.file_name().unwrap() != "metadata.xml")
        .collect();
    assert_eq!(tests.len(), s["tests"].as_u64().unwrap() as usize);
    assert_eq!(xmls.len(), tests.len());
    for x in &xmls {
        let t = std::fs::read_to_string(x).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>"#
        );
        assert_eq!(
            lines[1],
            r#"<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN" "https://sosy-lab.org/test-format/testcase-1.1.dtd">"#
        );
        assert!(lines[2].starts_with("<testcase"));
    }
    let meta = std::fs::read_to_string(out.join("test-suite/metadata.xml")).unwrap();
    let order = [
        "sourcecodelang",
        "producer",
        "specification",
        "programfile",
        "programhash",
        "entryfunction",
        "architecture",
        "creationtime",
    ];
    let pos: Vec<usize> = order
        .iter()
        .map(|t| {
            meta.find(&format!("<{t}>"))
                .unwrap_or_else(|| panic!("missing {t}"))
        })
        .collect();
    assert!(
        pos.windows(2).all(|w| w[0] < w[1]),
        "metadata children out of order"
    );
    assert!(meta.lines().nth(1).unwrap().contains("test-metadata 1.1"));
    assert!(out.join("test-suite.zip").metadata().unwrap().len() > 100);
    let goals: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("goals.json")).unwrap()).unwrap();
    assert_eq!(goals.as_array().unwrap().len(), 35);
    assert!(
        goals
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["status"] == "covered" && g["line"].as_u64().unwrap() > 0)
    );
    // coverage.csv counts effort in runs too: the iterations column never decreases and ends
    // at most at the session's count; each test names the run that produced it.
    let csv = std::fs::read_to_string(out.join("coverage.csv")).unwrap();
    assert!(csv.starts_with("time_s,covered,unreachable,tests,iterations\n"));
    let last = csv.lines().last().unwrap();
    assert!(last.contains(&format!(",35,0,{},", tests.len())), "{csv}");
    let column = |l: &str| l.rsplit(',').next().unwrap().parse::<u64>().unwrap();
    let runs: Vec<u64> = csv.lines().skip(1).map(column).collect();
    assert!(runs.windows(2).all(|w| w[0] <= w[1]), "{csv}");
    let iterations = s["iterations"].as_u64().unwrap();
    assert!(runs[0] >= 1 && *runs.last().unwrap() <= iterations, "{csv}");
    for t in &tests {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(t).unwrap()).unwrap();
        let i = v["iteration"].as_u64().unwrap();
        assert!(i >= 1 && i <= iterations, "{v}");
    }
    // Native replay agrees with every claim and reaches every branch outcome.
    let r = replay_ok(&ex, &out);
    assert!(
        r.contains("native branch coverage (gcc gcov): 34/34"),
        "{r}"
    );
}

#[test]
fn crashing_and_hanging_programs_still_yield_suites() {
    let dir = tmp("cli-crash");
    let out = dir.path().join("c");
    let s = generate(
        &prog("crashes.c"),
        &out,
        &["--time", "5s", "--strategy", "dfs"],
    );
    assert!(s["goals"]["covered"].as_u64().unwrap() >= 5, "{s}");
    let faults: Vec<String> = test_files(&out.join("tests"))
        .iter()
        .filter_map(|p| {
            serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(p).unwrap()).ok()
        })
        .filter(|t| t["outcome"] == "fault")
        .map(|t| t["fault"].as_str().unwrap().to_string())
        .collect();
    for f in ["null pointer", "division by zero", "out-of-bounds"] {
        assert!(
            faults.iter().any(|x| x.contains(f)),
            "no crashing test for {f}: {faults:?}"
        );
    }
    replay_ok(&prog("crashes.c"), &out);

    let out = dir.path().join("h");
    let s = generate(
        &prog("hangs.c"),
        &out,
        &["--time", "5s", "--max-steps", "100000"],
    );
    // Everything but the exit of the endless loop, which no input reaches.
    assert_eq!(s["goals"]["covered"], 5, "{s}");
}

#[test]
fn input_conventions_of_klee_crest_and_unknown_externs() {
    let dir = tmp("cli-inputs");
    for (p, expect_warning) in [
        ("klee_style.c", false),
        ("crest_style.c", false),
        ("unknown_extern.c", true),
    ] {
        let out = dir.path().join(p);
        let o = cairn(&[
            "gen",
            &prog(p),
            "--out",
            out.to_str().unwrap(),
            "--time",
            "10s",
            "--seed",
            "3",
        ]);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(
            text(&o).contains("no model of external function `sensor_read`"),
            expect_warning,
            "{}",
            text(&o)
        );
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        // Concolic search decides every branch of these small programs.
        assert_eq!(s["goals"]["covered"], s["goals"]["total"], "{p}: {s}");
        // The harness defines unknown externs too: they read their results from the test.
        replay_ok(&prog(p), &out);
    }
}

#[test]
fn interrupted_generation_keeps_what_it_found() {
    let dir = tmp("cli-int");
    let out = dir.path().join("o");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args([
            "gen",
            &prog("hangs.c"),
            "--out",
            out.to_str().unwrap(),
            "--time",
            "60s",
            "--max-steps",
            "100000000",
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let st = child.wait().unwrap();
    assert!(st.success(), "cairn should finish cleanly on Ctrl-C");
    assert!(out.join("summary.json").exists());
    assert!(!test_files(&out.join("tests")).is_empty());
}

#[test]
fn testcov_accepts_the_test_comp_suite() {
    if Command::new("testcov").arg("--version").output().is_err() {
        panic!("testcov is not installed: run scripts/install.sh");
    }
    let dir = tmp("cli-testcov");
    let out = dir.path().join("tri");
    // TestCov writes `triangle.c.i` beside the program and `platform.info` in its working
    // directory: give it a copy in the scratch directory, never the repository's file.
    let ex = dir.path().join("triangle.c");
    std::fs::copy(root().join("examples/triangle.c"), &ex).unwrap();
    let ex = ex.display().to_string();
    generate(&ex, &out, &["--time", "20s"]);
    let o = Command::new("testcov")
        // Every test: TestCov otherwise stops once coverage is full (a suite whose last test
        // adds nothing then shows fewer tests run).
        .args([
            "--no-isolation",
            "--no-plots",
            "-64",
            "--no-stop-on-success",
            "--test-suite",
        ])
        .arg(out.join("test-suite.zip"))
        .arg(&ex)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let t = text(&o);
    assert!(t.contains("Coverage: 100.0%"), "testcov:\n{t}");
    let tests = test_files(&out.join("tests")).len();
    assert!(
        t.contains(&format!("Tests run: {tests}")),
        "testcov did not run every test:\n{t}"
    );
}

#[test]
fn gen_decides_everything_and_prove_writes_the_arg() {
    let dir = tmp("cli-prove");
    let p = root()
        .join("tests/programs/mc/loop_flag.c")
        .display()
        .to_string();
    let out = dir.path().join("g");
    // By default testing and proving alternate until every goal is decided.
    let s = generate(&p, &out, &["--time", "30s"]);
    assert_eq!(s["goals"]["unknown"], 0, "{s}");
    assert_eq!(s["goals"]["unreachable"], 2, "{s}");
    let goals: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("goals.json")).unwrap()).unwrap();
    let proved: Vec<&serde_json::Value> = goals
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["status"] == "unreachable")
        .collect();
    assert!(
        proved.iter().all(|g| g["proof"]
            .as_str()
            .is_some_and(|p| p.starts_with("model checker") || p == "exhaustive")),
        "{proved:?}"
    );
    replay_ok(&p, &out);

    let out = dir.path().join("p");
    let dot = dir.path().join("arg.dot");
    let o = cairn(&[
        "prove",
        &p,
        "--out",
        out.to_str().unwrap(),
        "--time",
        "30s",
        "--arg",
        dot.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // The graph of the checker's last turn, at least its root: on a loaded machine the first
    // turn can go to the Horn-clause prover, and exhaustive exploration then decides the rest
    // before the checker expands a node.
    let d = std::fs::read_to_string(&dot).unwrap();
    assert!(
        d.starts_with("digraph arg {") && d.contains("n0 [label="),
        "{d}"
    );
}

#[test]
fn static_check_proves_dead_code_unreachable() {
    let dir = tmp("cli-static");
    let src = dir.path().join("dead.c");
    std::fs::write(&src, "extern int __VERIFIER_nondet_int(void);\nint never(int x) { if (x > 3) return 1; return 0; }\nint main(void) { int x = __VERIFIER_nondet_int(); if (x) return 2; return 0; }\n").unwrap();
    let out = dir.path().join("o");
    let s = generate(src.to_str().unwrap(), &out, &["--time", "5s"]);
    assert_eq!(s["goals"]["unreachable"], 2, "{s}");
    assert_eq!(s["goals"]["covered"], 2, "{s}");
}

#[test]
fn a_local_read_before_it_is_set_is_named_and_proves_nothing() {
    let dir = tmp("cli-uninit");
    let out = dir.path().join("o");
    let o = cairn(&[
        "gen",
        &prog("uninitialized.c"),
        "--out",
        out.to_str().unwrap(),
        "--max-iterations",
        "300",
        "--time",
        "60s",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("uninitialized.c:8:7: variable 'lim' is used uninitialized")
            && t.contains("Cairn reads 0 there"),
        "{t}"
    );
    // `lim == 77` holds natively only with what the stack held: never covered, never proven.
    let goals: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("goals.json")).unwrap()).unwrap();
    let goals = goals
        .as_array()
        .or(goals["goals"].as_array())
        .unwrap()
        .clone();
    let garbage = goals
        .iter()
        .find(|g| g["line"] == 10 && g["outcome"] == "true")
        .unwrap();
    assert_eq!(garbage["status"], "unknown", "{goals:?}");
    let covered = goals.iter().filter(|g| g["status"] == "covered").count();
    assert_eq!(covered, 3, "{goals:?}");
}

#[test]
fn error_goals_mode_finds_the_error_behind_an_assumption() {
    let dir = tmp("cli-error");
    let out = dir.path().join("e");
    let s = generate(
        &prog("assume_error.c"),
        &out,
        &["--time", "20s", "--goals", "error"],
    );
    assert_eq!(s["goals"]["total"], 1, "{s}");
    assert_eq!(s["goals"]["covered"], 1, "{s}");
    assert_eq!(s["error_reached"], true);
    let meta = std::fs::read_to_string(out.join("test-suite/metadata.xml")).unwrap();
    assert!(meta.contains("COVER EDGES(@CALL(reach_error))"));
    let covers_error = test_files(&out.join("test-suite")).iter().any(|p| {
        std::fs::read_to_string(p)
            .unwrap()
            .contains("coversError=\"true\"")
    });
    assert!(covers_error);
}

#[test]
fn unit_mode_tests_one_function_and_replays_natively() {
    let dir = tmp("cli-unit");
    let p = root()
        .join("tests/programs/unit/parse_field.c")
        .display()
        .to_string();
    let out = dir.path().join("u");
    let s = generate(&p, &out, &["--time", "10s", "--entry", "parse_field"]);
    // Every branch of parse_field (and of main, which the static check proves dead here).
    assert_eq!(s["goals"]["unknown"], 0, "{s}");
    let meta = std::fs::read_to_string(out.join("test-suite/metadata.xml")).unwrap();
    assert!(meta.contains("<entryfunction>parse_field</entryfunction>"));
    let o = cairn(&[
        "replay",
        "--entry",
        "parse_field",
        &p,
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "replay failed:\n{}", text(&o));
    let o = cairn(&[
        "gen",
        &p,
        "--entry",
        "nope",
        "--out",
        dir.path().join("x").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no function `nope`"));
}

#[test]
fn unit_mode_structs_by_value_globals_and_buffer_size_replay_natively() {
    let dir = tmp("cli-unit-structs");
    let p = root()
        .join("tests/programs/unit/structs_globals.c")
        .display()
        .to_string();
    // Without --symbolic-globals the globals keep their initial values: what depends on other
    // values is proven unreachable for this harness; with it, every branch is covered.
    let fixed = dir.path().join("fixed");
    let s = generate(&p, &fixed, &["--time", "10s", "--entry", "check"]);
    assert_eq!(s["goals"]["covered"], 9, "{s}");
    assert_eq!(s["goals"]["unreachable"], 3, "{s}");
    let free = dir.path().join("free");
    let s = generate(
        &p,
        &free,
        &["--time", "10s", "--entry", "check", "--symbolic-globals"],
    );
    assert_eq!(s["goals"]["covered"], 12, "{s}");
    // The struct passed in memory is 32 input bytes; the globals follow the parameters.
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(free.join("tests/000001.json")).unwrap())
            .unwrap();
    let inputs = t["inputs"].as_array().unwrap();
    assert_eq!(inputs[0]["value"].as_str().unwrap().len(), 64, "{t}");
    let names: Vec<&str> = inputs.iter().filter_map(|i| i["name"].as_str()).collect();
    assert!(names.contains(&"mode") && names.contains(&"limit"), "{t}");
    // Typed again, or taken from the directory's run.json.
    for (out, extra) in [(&fixed, vec![]), (&free, vec!["--symbolic-globals"])] {
        let mut a = vec!["replay", &p, out.to_str().unwrap(), "--entry", "check"];
        a.extend(extra);
        let o = cairn(&a);
        assert!(o.status.success(), "replay failed:\n{}", text(&o));
        let o = cairn(&["replay", out.to_str().unwrap()]);
        assert!(
            o.status.success(),
            "replay of the directory alone failed:\n{}",
            text(&o)
        );
    }
    // --buffer-size: the bytes behind each pointer parameter, natively too.
    let words = root()
        .join("tests/programs/lazy/compare_words.c")
        .display()
        .to_string();
    let small = dir.path().join("small");
    generate(
        &words,
        &small,
        &["--time", "2s", "--entry", "testme", "--buffer-size", "12"],
    );
    let h = std::fs::read_to_string(small.join("replay/harness.c")).unwrap();
    assert!(h.contains("cairn_buf[0] = malloc(12);"), "{h}");
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(small.join("tests/000001.json")).unwrap())
            .unwrap();
    // Whether `s1` is NULL, then its 12 bytes.
    assert_eq!(t["inputs"][0]["null"], "s1", "{t}");
    assert_eq!(t["inputs"][1]["value"].as_str().unwrap().len(), 24, "{t}");
    let o = cairn(&[
        "replay",
        &words,
        small.to_str().unwrap(),
        "--entry",
        "testme",
        "--buffer-size",
        "12",
    ]);
    assert!(o.status.success(), "replay failed:\n{}", text(&o));
}

/// A memory fault says what the access hit, as AddressSanitizer does: which object (a heap
/// block by its allocation, a global by name, a unit parameter's buffer, freed or not) and how
/// far past its end or before its start, or that no object is near (a wild pointer) — in
/// `run`, the test's JSON, the summary and SARIF.
#[test]
fn memory_faults_say_which_object_and_how_far() {
    let file = prog("memory_faults.c");
    let heap = "a 10-byte heap block allocated at";
    for (inputs, says) in [
        (
            "0",
            "a 1-byte access 0 bytes past the end of a 10-byte heap block allocated at",
        ),
        (
            "1",
            "a 4-byte access 4 bytes before the start of global `table` (16 bytes)",
        ),
        (
            "2",
            "a 1-byte access at offset 3 of a 10-byte heap block allocated at",
        ),
        (
            "3",
            "a 4-byte access at offset 8 of a 10-byte heap block allocated at",
        ),
        (
            "4,5",
            "a 4-byte access at 0x50000000000, a wild pointer (no object within 1 MiB of it)",
        ),
        (
            "5",
            "`memmove`'s 15-byte access at offset 0 of a 10-byte heap block allocated at",
        ),
        (
            "6",
            "`puts`'s 1-byte access 0 bytes past the end of a 10-byte heap block allocated at",
        ),
    ] {
        let o = cairn(&["run", &file, "--inputs", inputs, "--json"]);
        let v: serde_json::Value =
            serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(&o)));
        let detail = v["fault_detail"].as_str().unwrap_or_default();
        assert!(detail.starts_with(says), "{inputs}: {v}");
        if detail.contains(heap) {
            assert!(detail.contains("memory_faults.c:9:"), "{inputs}: {v}");
        }
        assert_eq!(detail.ends_with(", freed"), inputs == "2", "{inputs}: {v}");
        assert_eq!(
            detail.ends_with("2 bytes past its end"),
            inputs == "3",
            "{inputs}: {v}"
        );
        assert_eq!(
            detail.ends_with("5 bytes past its end"),
            inputs == "5",
            "{inputs}: {v}"
        );
    }
    // `s` not NULL, its bytes, then the index.
    let o = cairn(&["run", &file, "--entry", "get", "--inputs", "0,00,64"]);
    assert!(
        text(&o).contains(
            "a 1-byte access 0 bytes past the end of the 64-byte buffer of parameter `s` (Cairn's choice in unit mode"
        ),
        "{}",
        text(&o)
    );
    // The suite's outputs carry it too.
    let dir = tmp("cli-fault-details");
    let out = dir.path().join("out");
    generate(&file, &out, &["--max-iterations", "200", "--time", "20"]);
    let sarif = std::fs::read_to_string(out.join("faults.sarif")).unwrap();
    assert!(
        sarif.contains("before the start of global `table`"),
        "{sarif}"
    );
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(
        summary.contains("past the end of a 10-byte heap block"),
        "{summary}"
    );
}
