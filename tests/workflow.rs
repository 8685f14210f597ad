//! A C developer's workflow: a CMake project in through its compile_commands.json, tests out as
//! a CTest/GoogleTest suite the project builds and runs, faults listed and in SARIF, coverage
//! as lcov, and directories that remember how they were made.

mod common;
use common::{cairn, json, root, text};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cairn-workflow-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> std::process::Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e} (run scripts/install.sh)"))
}

/// `cairn gen` on one worker with a budget in runs (`--time` only a safety net), into `out`;
/// `args` (the program, its options, clang flags after `--`) come last.
fn generate(args: &[&str], runs: u64, out: &Path) -> std::process::Output {
    let runs = runs.to_string();
    let mut all = vec![
        "gen",
        "--jobs",
        "1",
        "--max-iterations",
        &runs,
        "--time",
        "120",
        "-o",
    ];
    all.push(out.to_str().unwrap());
    all.extend_from_slice(args);
    cairn(&all)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Exports the run in `out` into `t/suite`, builds it in `t/build` and runs it: it passes.
fn export_and_ctest(out: &Path, t: &Path) {
    let suite = t.join("suite");
    let o = cairn(&[
        "export",
        out.to_str().unwrap(),
        "-o",
        suite.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = build_and_ctest(&suite, &t.join("build"));
    assert!(o.status.success(), "{}", text(&o));
}

/// `cairn replay OUT --lcov LCOV`.
fn replay_with_lcov(out: &Path, lcov: &Path) -> std::process::Output {
    cairn(&[
        "replay",
        out.to_str().unwrap(),
        "--lcov",
        lcov.to_str().unwrap(),
    ])
}

/// Builds an exported suite with CMake and runs it with CTest; the output of ctest.
fn build_and_ctest(suite: &Path, build: &Path) -> std::process::Output {
    let o = run(Command::new("cmake")
        .arg("-S")
        .arg(suite)
        .arg("-B")
        .arg(build));
    assert!(o.status.success(), "cmake configure:\n{}", text(&o));
    let o = run(Command::new("cmake").arg("--build").arg(build).arg("-j2"));
    assert!(o.status.success(), "cmake build:\n{}", text(&o));
    run(Command::new("ctest")
        .arg("--test-dir")
        .arg(build)
        .arg("--output-on-failure"))
}

/// The team's library project: configured with CMake (compile_commands.json, `-std=c99`, a
/// define), tested by Cairn per function from the database alone, exported as a CTest and a
/// GoogleTest suite that pass on the library and fail when its behaviour changes.
#[test]
fn cmake_project_in_exported_suites_out() {
    let t = tmp("cmake");
    let project = t.join("project");
    copy_dir(&root().join("tests/programs/cmake_project"), &project);
    let build = t.join("build");
    let o = run(Command::new("cmake")
        .arg("-S")
        .arg(&project)
        .arg("-B")
        .arg(&build)
        .arg("-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"));
    assert!(o.status.success(), "{}", text(&o));
    let db = build.join("compile_commands.json");
    assert!(std::fs::read_to_string(&db).unwrap().contains("-std=c99"));

    let out = t.join("out");
    let entries = "ring_push,ring_classify,ring_clamp,ring_checksum,ring_digits";
    let o = generate(
        &[
            "--compile-commands",
            db.to_str().unwrap(),
            "--entry",
            entries,
        ],
        3000,
        &out,
    );
    assert!(o.status.success(), "{}", text(&o));
    for f in entries.split(',') {
        let s = json(&out.join(f).join("summary.json"));
        assert_eq!(s["goals"]["unknown"], 0, "{f}: {s}");
        let run = json(&out.join(f).join("run.json"));
        let flags = run["options"]["front"]["flags"].to_string();
        assert!(
            flags.contains("-std=c99") && flags.contains("-DRING_CAPACITY=8"),
            "{run}"
        );
    }
    // Every branch of the library's functions is covered (the database gave the define the
    // code needs: without it, ring.c does not compile). `ring_push` takes a pointer to an
    // 80-byte struct: its buffer is sized by the declared type, so no access faults.
    let push = json(&out.join("ring_push/summary.json"));
    assert_eq!(push["faults"].as_array().map(Vec::len), Some(0), "{push}");
    assert_eq!(push["goals"]["covered"], 2, "{push}");
    let first = json(&out.join("ring_clamp/tests/000001.json"));
    assert!(
        first["returned"].as_str().is_some(),
        "unit-mode tests record the return value: {first}"
    );
    let classify = json(&out.join("ring_classify/summary.json"));
    assert_eq!(classify["goals"]["covered"], 6, "{classify}");

    for format in ["ctest", "gtest"] {
        let suite = t.join(format!("suite-{format}"));
        let o = cairn(&[
            "export",
            out.to_str().unwrap(),
            "--format",
            format,
            "-o",
            suite.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", text(&o));
        // The interpreter's return values (in every unit-mode test) agree with the native ones.
        assert!(
            !text(&o).contains("predicted the return value"),
            "{}",
            text(&o)
        );
        let o = build_and_ctest(&suite, &t.join(format!("build-{format}")));
        let log = text(&o);
        assert!(
            o.status.success(),
            "{format}: the exported suite fails on the library it was made from:\n{log}"
        );
        assert!(log.contains("100% tests passed"), "{log}");
        let tests: usize = entries
            .split(',')
            .map(|f| {
                json(&out.join(f).join("summary.json"))["tests"]
                    .as_u64()
                    .unwrap() as usize
            })
            .sum();
        assert!(
            log.contains(&format!("out of {tests}")),
            "{format}: every test exported:\n{log}"
        );
    }
    // The project changes behaviour: large values are classified 3 now, and the checksum
    // mixes differently. The exported suites catch it.
    let ring = project.join("src/ring.c");
    let src = std::fs::read_to_string(&ring).unwrap();
    assert!(src.contains("  return 2;\n}"));
    std::fs::write(&ring, src.replace("  return 2;\n}", "  return 3;\n}")).unwrap();
    let sum = project.join("src/checksum.c");
    let src = std::fs::read_to_string(&sum).unwrap();
    std::fs::write(&sum, src.replace("sum * 31", "sum * 33")).unwrap();
    for format in ["ctest", "gtest"] {
        let o = build_and_ctest(
            &t.join(format!("suite-{format}")),
            &t.join(format!("build-{format}")),
        );
        let log = text(&o);
        assert!(
            !o.status.success(),
            "{format}: a changed library passes:\n{log}"
        );
        assert!(
            failed(&log, "ring_classify") && failed(&log, "ring_checksum"),
            "{format}: the failing tests are those of the changed functions:\n{log}"
        );
        for unchanged in ["ring_clamp", "ring_push", "ring_digits"] {
            assert!(
                !failed(&log, unchanged),
                "{format}: {unchanged} did not change:\n{log}"
            );
        }
        assert!(
            log.contains("return value"),
            "{format}: the failure says what differs:\n{log}"
        );
    }
    let _ = std::fs::remove_dir_all(&t);
}

/// Whether ctest's list of failed tests names a test of `function`.
fn failed(log: &str, function: &str) -> bool {
    log.split("The following tests FAILED:")
        .nth(1)
        .is_some_and(|l| l.contains(function))
}

/// Faults are counted and listed (summary line, summary.json, report), give exit status 1
/// with --fail-on-fault, are written as SARIF 2.1.0 that validates against the official schema,
/// and a test reproduces one with `cairn run --test` alone.
#[test]
fn faults_are_listed_in_sarif_and_fail_ci() {
    let t = tmp("faults");
    let out = t.join("out");
    let program = root().join("tests/programs/workflow/faults.c");
    let o = generate(&[program.to_str().unwrap(), "--fail-on-fault"], 2000, &out);
    let log = text(&o);
    assert_eq!(
        o.status.code(),
        Some(1),
        "--fail-on-fault with faults found:\n{log}"
    );
    assert!(log.contains("2 distinct faults"), "{log}");
    assert!(
        log.contains("null pointer dereference at") && log.contains("faults.c:12:"),
        "{log}"
    );
    assert!(
        log.contains("abort") && log.contains("faults.c:14:"),
        "{log}"
    );
    let s = json(&out.join("summary.json"));
    let faults = s["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 2, "{s}");

    // The reproducer of the null dereference, with nothing but the test file.
    let null = faults
        .iter()
        .find(|f| f["kind"] == "null pointer dereference")
        .unwrap();
    let test = out.join(format!(
        "tests/{}.json",
        null["reproducer"].as_str().unwrap()
    ));
    let o = cairn(&["run", "--test", test.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(139), "{}", text(&o));
    assert!(
        text(&o).contains("null pointer dereference at"),
        "{}",
        text(&o)
    );

    // SARIF, validated against the schema; a broken log is rejected by the same check.
    let sarif = out.join("faults.sarif");
    assert_sarif_valid(&sarif, true);
    let mut broken = json(&sarif);
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    let bad = t.join("broken.sarif");
    std::fs::write(&bad, broken.to_string()).unwrap();
    assert_sarif_valid(&bad, false);
    let log = json(&sarif);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "null-pointer-dereference"
                && r["locations"][0]["physicalLocation"]["region"]["startLine"] == 12)
    );

    // The report lists them.
    let o = cairn(&["report", out.to_str().unwrap()]);
    assert!(o.status.success());
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(html.contains("Faults (2)"), "the report lists the faults");

    // Without --fail-on-fault, the same run exits 0.
    let o = generate(&[program.to_str().unwrap()], 2000, &t.join("again"));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&t);
}

/// Validates `path` against the SARIF 2.1.0 schema (scripts/install.sh fetches it) and checks
/// the verdict is `valid`.
fn assert_sarif_valid(path: &Path, valid: bool) {
    let schema = std::env::var("CAIRN_SARIF_SCHEMA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join(".tools/sarif-2.1.0.json"));
    assert!(
        schema.is_file(),
        "{} missing: run scripts/install.sh",
        schema.display()
    );
    let check = "import json, sys, jsonschema\n\
                 schema = json.load(open(sys.argv[1]))\n\
                 doc = json.load(open(sys.argv[2]))\n\
                 jsonschema.validators.validator_for(schema)(schema).validate(doc)\n";
    let o = run(Command::new("python3")
        .arg("-c")
        .arg(check)
        .arg(&schema)
        .arg(path));
    assert_eq!(
        o.status.success(),
        valid,
        "SARIF validation of {}:\n{}",
        path.display(),
        text(&o)
    );
}

/// The program's own compiler flags after `--` reach clang for generation and replay (the
/// program compiles only with them), and `replay --lcov` writes a tracefile genhtml accepts.
#[test]
fn compiler_flags_after_dashes_and_lcov() {
    let t = tmp("flags");
    let dir = root().join("tests/programs/workflow");
    let out = t.join("out");
    let program = dir.join("needs_flags.c");
    let o = generate(&[program.to_str().unwrap()], 500, &out);
    assert!(
        !o.status.success(),
        "compiles without its flags:\n{}",
        text(&o)
    );
    assert!(text(&o).contains("LIMIT"), "{}", text(&o));
    // Relative paths in the flags mean the same from any directory: run from the program's.
    let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .current_dir(&dir)
        .args([
            "gen",
            "needs_flags.c",
            "--jobs",
            "1",
            "--max-iterations",
            "500",
            "-o",
        ])
        .arg(&out)
        .args(["--", "-std=c99", "-include", "limit.h", "-O2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("left out compiler flags Cairn sets itself: -O2"),
        "{}",
        text(&o)
    );
    let s = json(&out.join("summary.json"));
    assert_eq!(s["goals"]["covered"], s["goals"]["total"], "{s}");
    let lcov = t.join("suite.info");
    let o = replay_with_lcov(&out, &lcov);
    assert!(
        o.status.success(),
        "replay with the recorded flags:\n{}",
        text(&o)
    );
    let info = std::fs::read_to_string(&lcov).unwrap();
    assert!(
        info.contains(&format!("SF:{}", program.display())),
        "{info}"
    );
    assert!(info.contains("BRDA:") && info.contains("LH:"), "{info}");
    let html = t.join("html");
    let o = run(Command::new("genhtml").arg(&lcov).arg("-o").arg(&html));
    assert!(
        o.status.success(),
        "genhtml rejects the tracefile:\n{}",
        text(&o)
    );
    assert!(html.join("index.html").is_file());
    let _ = std::fs::remove_dir_all(&t);
}

/// `replay`, `report`, `merge` and `export` of runs made with non-default options (def-use
/// criterion, ILP32, an entry function, compiler flags) need no option typed again.
#[test]
fn directories_remember_their_options() {
    let t = tmp("remember");
    let program = root().join("tests/programs/workflow/needs_flags.c");
    let inc = root().join("tests/programs/workflow/limit.h");
    let mut dirs = vec![];
    for (name, extra) in [
        ("defuse", vec!["--criterion", "def-use"]),
        ("ilp32", vec!["--data-model", "ilp32"]),
        ("unit", vec!["--entry", "sum"]),
    ] {
        let out = t.join(name);
        let mut args = vec![program.to_str().unwrap()];
        args.extend(extra);
        args.extend(["--", "-std=c99", "-include", inc.to_str().unwrap()]);
        let o = generate(&args, 400, &out);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let o = cairn(&["replay", out.to_str().unwrap()]);
        assert!(
            o.status.success(),
            "{name}: replay of the directory alone:\n{}",
            text(&o)
        );
        assert!(!text(&o).contains("MISMATCH"), "{name}: {}", text(&o));
        let o = cairn(&["report", out.to_str().unwrap()]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        dirs.push(out);
    }
    // Two shards of one run, merged, then replayed from the merge alone.
    let mut shards = vec![];
    for k in ["1/2", "2/2"] {
        let out = t.join(format!("shard{}", &k[..1]));
        let o = generate(
            &[
                program.to_str().unwrap(),
                "--shard",
                k,
                "--data-model",
                "ilp32",
                "--",
                "-std=c99",
                "-include",
                inc.to_str().unwrap(),
            ],
            400,
            &out,
        );
        assert!(o.status.success(), "{}", text(&o));
        shards.push(out.to_str().unwrap().to_string());
    }
    let merged = t.join("merged");
    let mut args = vec!["merge", merged.to_str().unwrap()];
    args.extend(shards.iter().map(String::as_str));
    let o = cairn(&args);
    assert!(o.status.success(), "{}", text(&o));
    let o = cairn(&["replay", merged.to_str().unwrap()]);
    assert!(
        o.status.success() && !text(&o).contains("MISMATCH"),
        "{}",
        text(&o)
    );
    // The unit-mode run exported and passing, from its directory alone.
    export_and_ctest(&dirs[2], &t);
    let _ = std::fs::remove_dir_all(&t);
}

/// A fault's reproducer is minimized: the bytes of a buffer the fault does not need are
/// zeroed (the search found it with random ones), and the fault names the minimized test.
#[test]
fn fault_reproducers_are_minimized() {
    let t = tmp("shrink");
    let out = t.join("out");
    let program = root().join("tests/programs/workflow/shrink.c");
    let o = generate(&[program.to_str().unwrap(), "--entry", "parse"], 2000, &out);
    assert!(o.status.success(), "{}", text(&o));
    let s = json(&out.join("summary.json"));
    let faults = s["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 1, "{s}");
    let test = json(&out.join(format!(
        "tests/{}.json",
        faults[0]["reproducer"].as_str().unwrap()
    )));
    assert_eq!(test["found_by"], "minimize", "{test}");
    // Whether the buffer is NULL, then its bytes.
    let buffer = test["inputs"][1]["value"].as_str().unwrap();
    let nonzero: Vec<usize> = (0..buffer.len() / 2)
        .filter(|&b| &buffer[2 * b..2 * b + 2] != "00")
        .collect();
    assert_eq!(
        nonzero,
        vec![3],
        "only the byte the fault needs is left: {buffer}"
    );
    assert_eq!(&buffer[6..8], "78");
    // It still reproduces the fault.
    let path = out.join(format!(
        "tests/{}.json",
        faults[0]["reproducer"].as_str().unwrap()
    ));
    let o = cairn(&["run", "--test", path.to_str().unwrap()]);
    assert!(
        text(&o).contains("null pointer dereference"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&t);
}

/// A program whose `main` returns -1 and -2 (exit statuses 255 and 254, not signals) with its
/// code partly in a header: replay confirms the statuses and counts the header's branches,
/// and the exported suite passes on the program as it is.
#[test]
fn negative_statuses_and_header_code_replay_and_export() {
    let t = tmp("negative");
    let out = t.join("out");
    let program = root().join("tests/programs/workflow/negative_status.c");
    let o = generate(&[program.to_str().unwrap()], 300, &out);
    assert!(o.status.success(), "{}", text(&o));
    let s = json(&out.join("summary.json"));
    assert_eq!(s["goals"]["covered"], s["goals"]["total"], "{s}");
    let lcov = t.join("suite.lcov");
    let o = replay_with_lcov(&out, &lcov);
    let r = text(&o);
    assert!(o.status.success() && !r.contains("MISMATCH"), "{r}");
    assert!(r.contains("unconfirmed: 0)"), "{r}");
    let lcov = std::fs::read_to_string(&lcov).unwrap();
    let header = lcov.split("SF:").find(|f| {
        f.starts_with(
            &*root()
                .join("tests/programs/workflow/ring.h")
                .to_string_lossy(),
        )
    });
    let taken = header.map_or(0, |f| {
        f.lines()
            .filter(|l| l.starts_with("BRDA:") && !l.ends_with(",0") && !l.ends_with(",-"))
            .count()
    });
    assert_eq!(
        taken, 4,
        "the header's 4 branch outcomes, all taken natively:\n{lcov}"
    );
    export_and_ctest(&out, &t);
    let _ = std::fs::remove_dir_all(&t);
}

/// An exported suite of a function walking linked structures: each test builds the list, the
/// children and the names its run linked (`exec::links`), and passes on the program it was made
/// from; the bytes of a linked pointer (an address, another in every run) are not asserted,
/// the rest of the parameter's buffer is. A program that counts differently fails it.
#[test]
fn exported_tests_build_the_structures_their_runs_linked() {
    let t = tmp("linked");
    let src = root().join("tests/programs/unit/linked_nodes.c");
    let out = t.join("out");
    let o = generate(&[src.to_str().unwrap(), "--entry", "walk"], 300, &out);
    assert!(o.status.success(), "{}", text(&o));
    let s = json(&out.join("summary.json"));
    assert_eq!(s["goals"]["unknown"], 0, "{s}");
    export_and_ctest(&out, &t);
    // The same suite on a program whose walk counts one more: some test fails.
    let changed = t.join("changed.c");
    let text_of = std::fs::read_to_string(&src).unwrap();
    std::fs::write(
        &changed,
        text_of.replace("int count = 0;", "int count = 1;"),
    )
    .unwrap();
    let cm = t.join("suite/CMakeLists.txt");
    let cmake = std::fs::read_to_string(&cm).unwrap();
    std::fs::write(
        &cm,
        cmake.replace(src.to_str().unwrap(), changed.to_str().unwrap()),
    )
    .unwrap();
    let o = build_and_ctest(&t.join("suite"), &t.join("build-changed"));
    assert!(!o.status.success(), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&t);
}
