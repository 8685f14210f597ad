//! Native execution: the fuzzer's fork server runs the program as a fresh process would, and
//! native fuzzing covers the shapes the interpreter is slow on (deep recursion, loops bounded
//! by an input of any input API, commands driving a scheduler) or cannot run (inline
//! assembly). Budgets are in runs (`--max-iterations`); the time limits are safety nets.

use cairn::driver::fuzz_native::NativeExecutor;
use cairn::driver::session::{Budget, Session};
use cairn::exec::forkserver::{NativeStatus, Record};
use cairn::exec::{InputKind, InputValue};
use cairn::exec::{Program, Source};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use cairn::output::suite::SuiteWriter;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn program(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/native")
        .join(name)
}

fn cairn(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn summary(out: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

/// `name` loaded as a program with its sources (native builds need them).
fn loaded(name: &str) -> (PathBuf, Program) {
    let f = program(name);
    let opts = CompileOptions::default();
    let mut p = Program::new(load(std::slice::from_ref(&f), &opts).unwrap());
    p.source = Some(Source {
        files: vec![f.clone()],
        opts,
    });
    (f, p)
}

/// A session on `p` writing to `dir`.
fn session<'p>(f: &Path, p: &'p Program, dir: &Path) -> Session<'p> {
    let w = SuiteWriter::create(dir, f, &p.module, false).unwrap();
    let budget = Budget {
        time: Duration::from_secs(60),
        max_tests: None,
        max_iterations: None,
    };
    Session::new(p, w, budget, Arc::new(AtomicBool::new(false)))
}

/// `int` inputs, as the fuzzer passes them.
fn ints(vs: &[i32]) -> Record {
    let v: Vec<InputValue> = vs
        .iter()
        .map(|&v| InputValue::int(InputKind::Int, 32, v as u32 as u64))
        .collect();
    Record::of(&v)
}

fn int_record(v: &str) -> Record {
    Record::of(&int_values(v))
}

fn int_values(v: &str) -> Vec<InputValue> {
    vec![InputValue::int(
        InputKind::Int,
        32,
        v.parse::<i32>().unwrap() as u32 as u64,
    )]
}

/// A process runs many inputs while they leave nothing behind, and is replaced once they do:
/// runs that leak a descriptor and 8 MB each (`leaks.c`) all see what a fresh process sees
/// (without the check, later runs of one process saw high descriptors and failed allocations).
#[test]
fn a_process_whose_runs_leak_is_replaced() {
    let (f, p) = loaded("leaks.c");
    let tmp = TempDir::new("native-test").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 256 << 20).unwrap();
    let limit = Duration::from_secs(5);
    let mut runners = std::collections::HashSet::new();
    for k in 0..120 {
        let v = if k % 2 == 0 { "42" } else { "7" };
        let run = x.run(&int_record(v), limit).unwrap();
        let fresh = if v == "42" { 3 } else { 0 };
        assert_eq!(run.status, NativeStatus::Exit(fresh), "run {k} of {v}");
        runners.extend(x.runner());
    }
    assert!(runners.len() > 20, "{} processes", runners.len());
    // A program that leaks nothing keeps its process past a thousand runs.
    let (f, p) = loaded("state_between_runs.c");
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let mut runners = std::collections::HashSet::new();
    for _ in 0..1500 {
        let run = x.run(&int_record("1"), limit).unwrap();
        assert_eq!(run.status, NativeStatus::Exit(0));
        runners.extend(x.runner());
    }
    assert_eq!(runners.len(), 1, "{runners:?}");
}

/// Runs in a persistent process leave nothing behind: each input takes the goals it takes in
/// a process of its own, and ends the same way (an exit deep in a call, abort, a crash).
#[test]
fn persistent_runs_take_what_fresh_processes_take() {
    let (f, p) = loaded("state_between_runs.c");
    let tmp = TempDir::new("native-test").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(5);
    let mut ends = vec![];
    let mut taken = vec![0u32; s.goals.len()];
    for round in 0..3 {
        for v in ["1", "7", "9", "2", "-1", "3", "100", "101", "5"] {
            let values = int_record(v);
            let persistent = x.run(&values, limit).unwrap();
            let hits = x.hits().to_vec();
            for (t, h) in taken.iter_mut().zip(&hits) {
                *t += *h as u32;
            }
            let (fresh, _) = x.run_fresh(&s.goals, &int_values(v), limit).unwrap();
            assert_eq!(
                hits,
                x.fresh_hits(),
                "input {v}, round {round}: goals differ"
            );
            assert_eq!(persistent.status, fresh.status, "input {v}");
            assert_eq!(persistent.aborted, fresh.aborted, "input {v}");
            assert_eq!(persistent.consumed, 1, "input {v}");
            ends.push((v, persistent.status, persistent.aborted));
        }
    }
    // The ends are the program's: exit 3 from the nested call, abort, a crash, main's result.
    assert!(
        ends.contains(&("7", NativeStatus::Exit(3), false)),
        "{ends:?}"
    );
    assert!(ends.iter().any(|e| e.0 == "9" && e.2), "{ends:?}");
    assert!(
        ends.contains(&("-1", NativeStatus::Signal(libc::SIGSEGV), false)),
        "{ends:?}"
    );
    assert!(
        ends.contains(&("101", NativeStatus::Exit(1), false)),
        "{ends:?}"
    );
    // No persistent run saw an earlier run's state: the outcomes that need it were never taken.
    let kept: Vec<usize> = s
        .goals
        .goals
        .iter()
        .filter(|g| {
            // Line 28's kept outcome is the one into the `else` on line 29.
            matches!((g.loc.line, g.outcome.as_str()), (13 | 25 | 26, "true"))
                || (g.loc.line == 28 && g.target_loc.line == 29)
        })
        .map(|g| g.id)
        .collect();
    assert_eq!(kept.len(), 4, "the program's lines moved");
    for g in kept {
        assert_eq!(taken[g], 0, "goal {g} taken: {:?}", s.goals.goals[g]);
    }
    // And the others were: the runs did what they should.
    assert!(taken.iter().filter(|&&n| n > 0).count() >= 10, "{taken:?}");
}

/// Persistent runs of a program that writes files each start in the same empty directory:
/// none sees an earlier run's file or runs inside an earlier run's directory (one level
/// deeper per run before, which also made every run clear a deeper tree: parson's fuzz
/// target ran 1,600 times a second).
#[test]
fn persistent_runs_start_in_the_same_empty_directory() {
    let (f, p) = loaded("run_directory.c");
    let tmp = TempDir::new("native-test").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    for v in ["1", "0", "2", "-3", "4", "5", "6", "7"] {
        let run = x.run(&int_record(v), Duration::from_secs(5)).unwrap();
        let expected = if v.starts_with('-') || v == "0" { 0 } else { 1 };
        assert_eq!(run.status, NativeStatus::Exit(expected), "input {v}");
    }
}

/// The comparisons a run of `entry` logs, once the log's build is ready (it starts with the
/// fork server's first run).
fn comparisons(
    x: &mut NativeExecutor,
    entry: &[InputValue],
    limit: Duration,
) -> Vec<cairn::ir::cmplog::Comparison> {
    let since = std::time::Instant::now();
    loop {
        if let Some(l) = x.comparisons(&Record::of(entry), limit) {
            return l;
        }
        assert!(
            since.elapsed() < Duration::from_secs(120),
            "no comparison log"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One input-to-state round of `entry` on `name`'s native build: the statuses of its mutants'
/// runs, and the comparisons they came from.
fn one_round(
    name: &str,
    entry: &[InputValue],
) -> (Vec<NativeStatus>, Vec<cairn::ir::cmplog::Comparison>) {
    let (f, p) = loaded(name);
    let tmp = TempDir::new("native-test").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(5);
    let logged = comparisons(&mut x, entry, limit);
    let statuses = (cairn::driver::input_to_state::mutants(entry, &logged, 256, &[]))
        .iter()
        .map(|m| x.run(&Record::of(m), limit).unwrap().status)
        .collect();
    (statuses, logged)
}

/// The comparison log's build reports a run's comparisons, and each input-to-state round
/// passes one more of `packet_checks.c`'s checks: a magic word read from the packet's bytes, a
/// keyword compared by `memcmp`, a code point spelled in hex, a checksum computed from the
/// packet. Each round keeps the mutant that got furthest (the exit status says how far).
#[test]
fn comparisons_spelled_in_the_input_are_passed_one_round_each() {
    let (f, p) = loaded("packet_checks.c");
    let tmp = TempDir::new("native-test").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(5);
    let mut seed = b"XXXXv112e9".to_vec();
    seed.resize(32, 0);
    let mut entry = vec![InputValue::buffer("pkt", seed)];
    // Checks passed: exit 1 fails the first, 0 passes all four.
    let passed = |x: &mut NativeExecutor, v: &[InputValue]| match x.run(&Record::of(v), limit) {
        Ok(run) => match run.status {
            NativeStatus::Exit(0) => 4,
            NativeStatus::Exit(c @ 1..=4) => c - 1,
            other => panic!("{other:?}"),
        },
        Err(e) => panic!("{e:#}"),
    };
    assert_eq!(passed(&mut x, &entry), 0);
    for round in 1..=4 {
        let logged = comparisons(&mut x, &entry, limit);
        assert!(!logged.is_empty(), "round {round}: nothing logged");
        let mutants = cairn::driver::input_to_state::mutants(&entry, &logged, 256, &[]);
        let best = mutants
            .into_iter()
            .map(|m| (passed(&mut x, &m), m))
            .max_by_key(|(n, _)| *n)
            .unwrap();
        assert_eq!(best.0, round, "round {round}: {logged:?}");
        entry = best.1;
    }
    let pkt = entry[0].bytes();
    assert_eq!(&pkt[..10], b"CARNv2d800", "{pkt:?}");
}

/// A string read a `char` input at a time is text to input-to-state: one round from any
/// command passes both keywords of `char_keywords.c` (`strncmp(buf, "GET ", 4)`, and
/// `strcmp(buf, "quit")`, which needs the characters after it zero). Only stdin's characters
/// were text before: neither keyword was found in 30 s of fuzzing.
#[test]
fn char_inputs_compared_with_keywords_are_spelled_as_them() {
    let entry: Vec<InputValue> = (b"xdig\n  ".iter())
        .map(|&c| InputValue::int(InputKind::Char, 8, c as u64))
        .collect();
    let (statuses, logged) = one_round("char_keywords.c", &entry);
    for want in [2, 4] {
        assert!(
            statuses.contains(&NativeStatus::Exit(want)),
            "exit {want}: {statuses:?} from {logged:?}"
        );
    }
}

/// Inputs each compared with one constant in a loop take it together: one input-to-state
/// round of random words passes all 24 checks of `sync_words.c`. The log kept 4 comparisons
/// per site and mutants fixed one input each: fuzzing alone never got there.
#[test]
fn words_compared_with_one_constant_in_a_loop_take_it_in_one_round() {
    let entry: Vec<InputValue> = (0..24)
        .map(|i| InputValue::int(InputKind::Int, 32, 1000 + 37 * i))
        .collect();
    let (statuses, logged) = one_round("sync_words.c", &entry);
    assert!(
        statuses.contains(&NativeStatus::Exit(3)),
        "{statuses:?} from {logged:?}"
    );
}

/// A `switch`'s value is logged with its cases (known from the build): one input-to-state round
/// of a random message reaches every handler of `dispatch.c`, each behind a 32-bit tag.
#[test]
fn a_switch_on_an_input_is_passed_to_every_case_in_one_round() {
    let entry = vec![InputValue::buffer("msg", b"\x13\x57\x9b\xdf0000".to_vec())];
    let (statuses, logged) = one_round("dispatch.c", &entry);
    let handlers: std::collections::BTreeSet<i32> = (statuses.iter())
        .map(|s| match s {
            NativeStatus::Exit(c) => *c,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        handlers,
        (1..=4).collect(),
        "{logged:?} gave {} mutants",
        statuses.len()
    );
}

/// A run whose limit passes before the runner takes its word (a short limit on a loaded
/// machine) ends as a time-out at once, and the next run gets its own result. Before, the
/// server did not report a runner killed while idle: the next runner took the word and ran the
/// input again, and Cairn waited for that run (5 s past the session's deadline in CI) and
/// failed if it hung.
/// AFL's hit-count buckets, as the fuzzer's feedback (bit k: bucket k).
fn bucket(n: u8) -> u8 {
    match n {
        0..=2 => n,
        3 => 4,
        4..=7 => 8,
        8..=15 => 16,
        16..=31 => 32,
        32..=127 => 64,
        _ => 128,
    }
}

/// A batch stops at each run that reaches a bucket not seen, and nowhere else: the runs it
/// reports are exactly those a run-by-run loop finds new, each with the hits and end a process
/// of its own gives it, however the runs before it ended (exit deep in a call, abort, a crash).
/// An abort that reaches nothing new ends it only when the fuzzer asks (to sample aborts).
#[test]
fn a_batch_reports_exactly_the_new_runs() {
    let (f, p) = loaded("state_between_runs.c");
    let tmp = TempDir::new("native-test").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(5);
    let texts: Vec<&str> = [
        "1", "1", "7", "7", "9", "2", "-1", "1", "3", "100", "101", "5", "2",
    ]
    .into_iter()
    .cycle()
    .take(39)
    .collect();
    let inputs: Vec<Record> = texts.iter().map(|v| int_record(v)).collect();
    // Run by run, in fresh processes: what each takes.
    let fresh: Vec<_> = texts
        .iter()
        .map(|v| {
            let (run, _) = x.run_fresh(&s.goals, &int_values(v), limit).unwrap();
            (run.status, run.aborted, x.fresh_hits().to_vec())
        })
        .collect();
    let on = batch_reports(&mut x, &inputs, &fresh, true);
    // Some runs were skipped as nothing new, and the crash and every abort were reported.
    assert!(on.len() < 20, "{on:?}");
    assert!(
        on.contains(&4) && on.contains(&6) && on.contains(&17),
        "{on:?}"
    );
    // Aborts that are not new do not end a batch when the fuzzer says so.
    let off = batch_reports(&mut x, &inputs, &fresh, false);
    assert!(
        off.contains(&4) && off.contains(&6) && !off.contains(&17),
        "{off:?}"
    );
}

/// Runs `inputs` in one batch, resumed after each run it reports, and checks each reported run
/// ends and takes what it did in a process of its own (`fresh`) and that the runs reported are
/// exactly those a run-by-run loop finds new (an abort new when `stop_at_abort`); returns them.
fn batch_reports(
    x: &mut NativeExecutor,
    inputs: &[Record],
    fresh: &[(NativeStatus, bool, Vec<u8>)],
    stop_at_abort: bool,
) -> Vec<usize> {
    let mut seen = vec![0u8; fresh[0].2.len()];
    let mut expected = vec![];
    for (i, (status, aborted, hits)) in fresh.iter().enumerate() {
        let mut new = *aborted && stop_at_abort || matches!(status, NativeStatus::Signal(_));
        for (s, &h) in seen.iter_mut().zip(hits) {
            new |= bucket(h) & !*s != 0;
            *s |= bucket(h);
        }
        if new && i + 1 < inputs.len() {
            expected.push(i);
        }
    }
    let records: Vec<&Record> = inputs.iter().collect();
    assert_eq!(x.load(&records, &Record::default()), inputs.len());
    x.stop_at_abort(stop_at_abort);
    x.seen_mut().fill(0);
    let limit = Duration::from_secs(5);
    let mut reported = vec![];
    let mut from = 0;
    while from < inputs.len() {
        let (i, run) = x.resume(from, limit).unwrap();
        // A persistent runner gives the CPU time of the runs it ends itself (what decides
        // whether a new run is interpreted, whatever the machine's load).
        if let NativeStatus::Exit(_) = run.status {
            assert!(
                run.runs_cpu.is_some_and(|t| t <= run.time),
                "run {i}: {run:?}"
            );
        }
        let hits = x.hits().to_vec();
        assert_eq!(
            (run.status, run.aborted, &hits),
            (fresh[i].0, fresh[i].1, &fresh[i].2),
            "run {i}"
        );
        for (s, &h) in x.seen_mut().iter_mut().zip(&hits) {
            *s |= bucket(h);
        }
        if i + 1 < inputs.len() {
            reported.push(i);
        }
        from = i + 1;
    }
    assert_eq!(reported, expected, "stop at abort: {stop_at_abort}");
    reported
}

/// A fuzzing run of a program that never ends stops after a thousand values past its own (as
/// libFuzzer's harness does), flagged as a time-out, instead of spending its time limit on
/// zeros; a run that ends on its own is untouched.
#[test]
fn a_run_of_an_endless_program_ends_a_thousand_values_past_its_own() {
    let (f, p) = loaded("endless.c");
    let tmp = TempDir::new("native-endless").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(20);
    let endless = x.run(&ints(&[1]), limit).unwrap();
    assert_eq!(endless.status, NativeStatus::Timeout);
    assert!(endless.out_of_values);
    assert_eq!(endless.consumed, 1 + 1001);
    let alarm = x.run(&ints(&[3, 5, 8]), limit).unwrap();
    assert_eq!(alarm.status, NativeStatus::Exit(1));
    assert!(!alarm.out_of_values);
    assert_eq!(alarm.consumed, 3);
}

/// A program that closes a descriptor its input chooses cannot close the fork server's pipes
/// (198, 199): close fails there, as in the interpreter, and the runs after it are served at
/// once. Before, a fuzzed `socket()` result closed a pipe, and each later run waited for its
/// time limit (17 time-outs took 9 s of a 10-s budget on a Juliet task).
#[test]
fn a_program_cannot_close_the_fork_servers_pipes() {
    let (f, p) = loaded("closes_descriptor.c");
    let tmp = TempDir::new("native-close").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(5);
    for round in 0..3 {
        for fd in [198, 199, 0, 1, 2, 7] {
            let r = x.run(&ints(&[fd, 1005]), limit).unwrap();
            let want = match fd {
                198 | 199 => NativeStatus::Exit(1),
                _ => NativeStatus::Exit(3),
            };
            assert_eq!(r.status, want, "fd {fd}, round {round}");
            assert!(r.time < Duration::from_secs(2), "fd {fd}: {:?}", r.time);
        }
    }
}

#[test]
fn a_run_killed_before_it_starts_is_a_time_out() {
    let (f, p) = loaded("hang.c");
    let tmp = TempDir::new("native-idle").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    let limit = Duration::from_secs(5);
    for round in 0..3 {
        let first = x.run(&ints(&[1]), limit).unwrap();
        assert_eq!(first.status, NativeStatus::Exit(0), "round {round}");
        // The runner waits for its next word; stopped, it cannot take it.
        let runner = x.runner().expect("a runner waits for the next run");
        unsafe { libc::kill(runner, libc::SIGSTOP) };
        let stalled = x.run(&ints(&[7]), Duration::from_millis(50));
        let stalled = stalled.unwrap_or_else(|e| panic!("round {round}: {e:#}"));
        assert_eq!(stalled.status, NativeStatus::Timeout, "round {round}");
        // A fresh runner serves the next run, with the program's own result.
        let next = x.run(&ints(&[101]), limit).unwrap();
        assert_eq!(next.status, NativeStatus::Exit(1), "round {round}");
    }
    // A server that does not report the killed run (stopped here; a runner killed between
    // taking its word and saying so does the same) is replaced at once.
    let runner = x.runner().expect("a runner waits for the next run");
    let server = parent(runner).expect("the runner's server");
    unsafe { libc::kill(server, libc::SIGSTOP) };
    let stalled = x.run(&ints(&[7]), Duration::from_millis(50)).unwrap();
    assert_eq!(stalled.status, NativeStatus::Timeout);
    let next = x.run(&ints(&[101]), limit).unwrap();
    assert_eq!(next.status, NativeStatus::Exit(1));
    unsafe { libc::kill(server, libc::SIGKILL) };
}

/// The parent of process `pid`.
fn parent(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces) begin after its ')'.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// One worker, tests only, a budget of runs (the time budget only bounds a stuck run).
const RUN_BUDGET: [&str; 7] = [
    "--jobs",
    "1",
    "--tests-only",
    "--max-iterations",
    "400000",
    "--time",
    "120",
];

/// The shapes that starve the interpreter, through every input API: each program's goals
/// are all covered within a budget of runs, and replay confirms every claim natively.
#[test]
fn native_fuzzing_covers_programs_the_interpreter_is_slow_on() {
    let cases: &[(&str, &[&str], u64)] = &[
        ("deep_recursion.c", &[], 20),
        ("power_klee.c", &[], 14),
        ("power_nondet.c", &[], 14),
        ("power_crest.c", &[], 14),
        ("power_stdin.c", &[], 16),
        ("power_argv.c", &["--sym-args", "1", "2", "4"], 16),
        ("scheduler_klee.c", &[], 42),
        ("inline_asm.c", &[], 14),
        ("long_loop_no_inputs.c", &[], 5),
    ];
    let mut failures = vec![];
    for (name, extra, want) in cases {
        let dir = TempDir::new("native-cover").unwrap();
        let out = dir.path().join("out");
        let f = program(name);
        let mut a = vec!["gen", f.to_str().unwrap(), "--out", out.to_str().unwrap()];
        a.extend_from_slice(&RUN_BUDGET);
        a.extend_from_slice(extra);
        let o = cairn(&a);
        assert!(o.status.success(), "{name}: {}", text(&o));
        let s = summary(&out);
        let covered = s["goals"]["covered"].as_u64().unwrap();
        // Native, or not started when concolic search covered everything first.
        let executor = s["fuzz"]["executor"].as_str().unwrap_or_default();
        assert!(
            executor == "native" || executor == "not started" && covered >= *want,
            "{name}: {}",
            s["fuzz"]
        );
        if covered < *want {
            failures.push(format!("{name}: {covered} of {want} goals covered"));
        }
        let mut r = vec!["replay", f.to_str().unwrap(), out.to_str().unwrap()];
        r.extend_from_slice(extra);
        let o = cairn(&r);
        let t = text(&o);
        assert!(o.status.success(), "{name}: replay: {t}");
        assert!(t.contains("unconfirmed: 0"), "{name}: {t}");
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// `--fuzz-share 1` is fuzzing alone, as a plain fuzzer runs (how Cairn's fuzzer is compared
/// with others): no concolic search at all, and the fuzzer still covers what it covers in
/// turns. A share past 1 is refused with the range.
#[test]
fn a_share_of_one_is_fuzzing_alone() {
    let dir = TempDir::new("native-alone").unwrap();
    let out = dir.path().join("out");
    let f = program("power_nondet.c");
    let mut a = vec!["gen", f.to_str().unwrap(), "--out", out.to_str().unwrap()];
    a.extend_from_slice(&RUN_BUDGET);
    a.extend_from_slice(&["--fuzz-share", "1"]);
    let o = cairn(&a);
    assert!(o.status.success(), "{}", text(&o));
    let s = summary(&out);
    assert!(s.get("concolic").is_none(), "{s}");
    assert_eq!(s["fuzz"]["executor"], "native", "{}", s["fuzz"]);
    assert_eq!(s["goals"]["covered"], 14, "{}", s["goals"]);
    let o = cairn(&["gen", f.to_str().unwrap(), "--fuzz-share", "1.5"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("not a share from 0 to 1"), "{}", text(&o));
}

/// A copy of Cairn under another name (a versioned install, no `cairn` beside it) still fuzzes
/// natively: it launches the program through itself. It used to fall back to the interpreter
/// without a word, and deep recursion was then out of reach.
#[test]
fn a_renamed_copy_of_cairn_fuzzes_natively() {
    let dir = TempDir::new("native-renamed").unwrap();
    let copy = dir.path().join("cairn-0.1");
    std::fs::copy(env!("CARGO_BIN_EXE_cairn"), &copy).unwrap();
    let out = dir.path().join("out");
    let f = program("deep_recursion.c");
    let o = Command::new(&copy)
        .args(["gen", f.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .args(RUN_BUDGET)
        .output()
        .unwrap();
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(!t.contains("not natively"), "{t}");
    let s = summary(&out);
    assert_eq!(s["fuzz"]["executor"], "native", "{}", s["fuzz"]);
    assert!(
        s["goals"]["covered"].as_u64().unwrap() >= 20,
        "{}",
        s["goals"]
    );
}

/// The fork server's binary values read as the interpreter reads their texts: every input kind
/// (sign extension, widths, floats, bytes shorter than their object), and zero past the values.
#[test]
fn native_runs_read_every_kind_of_value_as_the_interpreter_does() {
    use cairn::exec::input::Replay;
    use cairn::exec::{Config, Outcome};
    let (f, p) = loaded("every_kind.c");
    let tmp = TempDir::new("native-kinds").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    use InputKind::*;
    let given = [
        (Char, "-3"),
        (UChar, "250"),
        (Short, "-1000"),
        (UShort, "60000"),
        (Int, "-123456"),
        (UInt, "4000000000"),
        (Long, "-1099511627776"),
        (ULong, "9223372036854775813"),
        (Bool, "1"),
        (Float, "1.5"),
        (Double, "-2.25"),
        (Bytes, "0102ff"),
    ];
    let values: Vec<InputValue> = given
        .iter()
        .map(|&(k, t)| InputValue::parse(k, k.int_info(64).map_or(64, |i| i.0), t).unwrap())
        .collect();
    let run = x.run(&Record::of(&values), Duration::from_secs(5)).unwrap();
    assert_eq!(run.status, NativeStatus::Exit(0), "natively");
    assert_eq!(run.consumed, 13);
    let texts = values.iter().map(InputValue::to_text).collect();
    let r = p.run(&mut Replay::new(texts), &Config::default());
    assert_eq!(r.outcome, Outcome::Exit(0), "in the interpreter");
    // A value off by one in each position is caught there, natively.
    for i in 0..values.len() {
        let mut off = values.clone();
        match off[i].kind {
            Bytes => off[i].bytes_mut()[0] ^= 1,
            Float | Double => off[i] = InputValue::parse(off[i].kind, 64, "0.5").unwrap(),
            _ => off[i].bits ^= 1,
        }
        let run = x.run(&Record::of(&off), Duration::from_secs(5)).unwrap();
        assert_eq!(run.status, NativeStatus::Exit(i as i32 + 1), "value {i}");
    }
    // A value made as another kind than the program reads (the fuzzer's random values past
    // a run's own, a corpus entry read elsewhere) reads its binary record natively: a value of
    // a 64-bit kind with the right record passes every check. The run's test spells each value
    // as it was read, so its text replays what the native run did.
    for i in 0..values.len() {
        let word: u64 = match values[i].kind {
            Bytes => u64::from_le_bytes([1, 2, 0xff, 0, 0, 0, 0, 0]),
            Float => (1.5f64).to_bits(),
            Double => values[i].bits,
            _ => values[i].word(),
        };
        for other in [LongLong, ULongLong, Double, Bytes] {
            if other == values[i].kind {
                continue;
            }
            let mut mixed = values.clone();
            mixed[i] = match other {
                Bytes => InputValue::buffer("", word.to_le_bytes().to_vec()),
                k => InputValue::int(k, 64, word),
            };
            let (run, r) = x
                .run_fresh(&s.goals, &mixed, Duration::from_secs(5))
                .unwrap();
            assert_eq!(run.status, NativeStatus::Exit(0), "value {i} as {other:?}");
            let texts = r.inputs.iter().map(InputValue::to_text).collect();
            let replayed = p.run(&mut Replay::new(texts), &Config::default());
            assert_eq!(
                replayed.outcome,
                Outcome::Exit(0),
                "value {i} as {other:?}, spelled {:?}",
                r.inputs[i].to_text()
            );
        }
    }
    // In a batch, runs read the batch's tail past their own values: any split of the list
    // into a run's own values and a tail reads as the whole list.
    x.seen_mut().fill(0);
    for k in 0..=values.len() {
        let own = Record::of(&values[..k]);
        assert_eq!(x.load(&[&own], &Record::of(&values[k..])), 1);
        let (_, run) = x.resume(0, Duration::from_secs(5)).unwrap();
        assert_eq!(
            (run.status, run.consumed),
            (NativeStatus::Exit(0), 13),
            "{k} own"
        );
    }
    // Runs of one batch share the tail: a value off in a run's own part or in the tail is
    // caught at its position.
    let mut off = values.clone();
    off[2].bits ^= 1;
    let (right, wrong) = (Record::of(&values[..5]), Record::of(&off[..5]));
    let mut off_tail = values[5..].to_vec();
    off_tail[3].bits ^= 1;
    for (tail, want) in [(&values[5..], [0, 3, 0]), (&off_tail[..], [9, 3, 9])] {
        assert_eq!(x.load(&[&right, &wrong, &right], &Record::of(tail)), 3);
        for (i, code) in want.into_iter().enumerate() {
            // Nothing seen: every run is new and reported.
            let (at, run) = x.resume(i, Duration::from_secs(5)).unwrap();
            assert_eq!((at, run.status), (i, NativeStatus::Exit(code)), "run {i}");
        }
    }
}

/// With `--uninitialized-inputs` the fork server's runs give the locals read before they are
/// set (`flags`, `pending`) the run's first values, as the interpreter does: the same values
/// reach `reach_error` in both, and changing `flags` by one steers both away from it.
#[test]
fn native_runs_give_uninitialized_locals_the_values_the_interpreter_gives() {
    use cairn::exec::input::Replay;
    use cairn::exec::{Config, Outcome};
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/trust/uninitialized_inputs.c");
    let opts = CompileOptions {
        uninitialized_inputs: true,
        ..Default::default()
    };
    let mut p = Program::new(load(std::slice::from_ref(&f), &opts).unwrap());
    p.source = Some(Source {
        files: vec![f.clone()],
        opts,
    });
    let tmp = TempDir::new("native-uninitialized").unwrap();
    let s = session(&f, &p, tmp.path());
    let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
    // flags, pending (the locals, in the order of their slots), mode, fill's choice.
    for (flags, error) in [(12, true), (13, false)] {
        let given = [flags, 17, 2, 0];
        let run = x.run(&ints(&given), Duration::from_secs(5)).unwrap();
        assert_eq!(run.consumed, 4, "flags {flags}: natively");
        assert_eq!(run.aborted, error, "flags {flags}: natively {run:?}");
        let texts = given.iter().map(|v| v.to_string()).collect();
        let r = p.run(&mut Replay::new(texts), &Config::default());
        assert_eq!(
            r.outcome == Outcome::Abort,
            error,
            "flags {flags}: {:?}",
            r.outcome
        );
        let names: Vec<&str> = r.inputs.iter().map(|v| v.name()).collect();
        assert_eq!(
            names[..2],
            [
                "__cairn_uninitialized.machine.flags",
                "__cairn_uninitialized.machine.pending"
            ]
        );
    }
}

/// Lazily linked pointers (`exec::links`: in a unit-mode entry's buffers, in a made-up
/// function result's block) are built natively as the interpreter made them: on runs of random
/// values, each with the lists, children, names and groups the interpreter made on its first
/// loads, the fork server's run ends as the interpreter's did and reads every value.
#[test]
fn native_runs_link_the_pointers_the_interpreter_linked() {
    use cairn::exec::input::RandomInputs;
    use cairn::exec::{Config, Outcome};
    use rand::SeedableRng;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    for (file, entry) in [
        ("unit/linked_nodes.c", "walk"),
        ("engine/made_up_pointers.c", "main"),
    ] {
        let f = root.join(file);
        let opts = CompileOptions::default();
        let mut p = Program::new(load(std::slice::from_ref(&f), &opts).unwrap());
        p.source = Some(Source {
            files: vec![f.clone()],
            opts,
        });
        p.set_entry(entry, 64, false);
        let tmp = TempDir::new("native-links").unwrap();
        let s = session(&f, &p, tmp.path());
        let mut x = NativeExecutor::build_and_start(&s, 1 << 30).unwrap();
        let (mut linked, mut ends) = (0, std::collections::BTreeSet::new());
        for seed in 0..200 {
            let mut src = RandomInputs {
                rng: rand::rngs::StdRng::seed_from_u64(seed),
            };
            let r = p.run(&mut src, &Config::default());
            let code = match (&r.outcome, r.returned.as_deref()) {
                (_, Some(ret)) => ret.parse::<i32>().unwrap() & 0xff,
                (Outcome::Exit(c), None) => *c,
                (o, _) => panic!("{file}, seed {seed}: the interpreter's run ended {o:?}"),
            };
            linked += r.inputs.iter().filter(|v| v.link().is_some()).count();
            ends.insert(code);
            let run = x
                .run(&Record::of(&r.inputs), Duration::from_secs(5))
                .unwrap();
            assert_eq!(run.status, NativeStatus::Exit(code), "{file}, seed {seed}");
            assert_eq!(run.consumed as usize, r.inputs.len(), "{file}, seed {seed}");
        }
        assert!(linked >= 50, "{file}: {linked} pointers linked in 200 runs");
        assert!(ends.len() >= 2, "{file}: ends {ends:?}");
    }
}
