//! Data-flow testing: def-use pairs, their dynamic coverage by last definitions, and what
//! `cairn gen --criterion def-use` decides about the team's programs with known infeasible pairs.

mod common;
use cairn::exec::input::Replay;
use cairn::exec::{Config, Program};
use common::dataflow::*;

#[test]
fn pairs_of_the_power_function() {
    let p = load_dataflow(&program("power.c"));
    let keys = pair_keys(&p);
    for k in [
        "power y 4 p-use 7 true",
        "power y 4 p-use 7 false",
        "power exp 8 p-use 12 false",
        "power res 11 c-use 13",
        "power res 13 c-use 13",
        "power res 11 c-use 19",
        "power res 19 c-use 21",
        "main y 26 c-use 30",
    ] {
        assert!(
            keys.contains(&k.to_string()),
            "missing pair {k} in {keys:#?}"
        );
    }
    // Redefinitions kill: the loop's res (line 13) never pairs with itself through line 11.
    assert!(
        !keys
            .iter()
            .any(|k| k.contains(" 0 ") && k.starts_with("power"))
    );
}

#[test]
fn last_definitions_decide_coverage() {
    let p = load_dataflow(&program("power.c"));
    let c = covered_on(&p, &["2", "3"]);
    assert!(c.contains(&"power res 11 c-use 13".to_string()), "{c:?}");
    assert!(c.contains(&"power res 13 c-use 13".to_string()));
    assert!(c.contains(&"power y 4 p-use 16 false".to_string()));
    assert!(!c.contains(&"power y 4 p-use 16 true".to_string()));
    // y = 0: the loop does not run, res = 1 reaches the return.
    let c = covered_on(&p, &["2", "0"]);
    assert!(c.contains(&"power res 11 c-use 21".to_string()), "{c:?}");
    assert!(!c.contains(&"power res 13 c-use 21".to_string()));
}

#[test]
fn stores_through_pointers_redefine_variables() {
    let p = load_dataflow(&program("alias.c"));
    // sel > 0: p points to v, *p = 7 redefines it before the use.
    let c = covered_on(&p, &["1"]);
    assert!(!c.contains(&"main v 11 c-use 14".to_string()), "{c:?}");
    assert!(
        c.contains(&"main total 6 p-use 15 true".to_string()),
        "{c:?}"
    );
    // sel <= 0: p points to w and v = 1 reaches the use.
    let c = covered_on(&p, &["0"]);
    assert!(c.contains(&"main v 11 c-use 14".to_string()), "{c:?}");
    // Interprocedural: the global's value from add() reaches main's uses.
    assert!(
        c.contains(&"main total 6 p-use 15 false".to_string()),
        "{c:?}"
    );
    assert!(c.contains(&"add total 0 c-use 6".to_string()), "{c:?}");
}

/// Runs `cairn gen --criterion def-use` and checks every pair: covered pairs are confirmed by
/// re-running their test in a fresh interpreter and by native replay of the suite, the known
/// infeasible pairs are never covered, every other pair is covered.
fn check_generation(name: &str, infeasible: &[&str]) {
    let src = program(name);
    let (out, pairs) = generate(&src, &["--strategy", "dfs", "--time", "4s"]);
    let p = load_dataflow(&src);
    let du = p.def_use.as_ref().unwrap();
    assert_eq!(pairs.len(), du.pairs.len());
    // Only the pairs count: branch goals are ignored (in every worker's ledger).
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(
        summary["goals"]["total"],
        du.pairs.len(),
        "{name}: goals counted"
    );
    let base = pairs[0]["id"].as_u64().unwrap() as usize;
    for known in infeasible {
        assert!(
            pair_keys(&p).iter().any(|k| k == known),
            "{name}: no pair {known}"
        );
    }
    for g in &pairs {
        let pair = g["id"].as_u64().unwrap() as usize - base;
        let k = key(&p, du, pair);
        assert_eq!(
            g["variable"],
            du.vars[du.uses[du.pairs[pair].use_ as usize].var as usize].name
        );
        let bad = infeasible.contains(&k.as_str());
        match g["status"].as_str().unwrap() {
            "covered" => {
                assert!(!bad, "{name}: infeasible pair {k} reported covered");
                let test = out
                    .join("tests")
                    .join(format!("{}.json", g["test"].as_str().unwrap()));
                let values: Vec<String> = cairn::output::suite::read_test_values(&test)
                    .unwrap()
                    .into_iter()
                    .map(|(_, v)| v)
                    .collect();
                let r = p.run(&mut Replay::new(values), &Config::default());
                assert!(
                    pairs_of(&r).contains(&(pair as u32)),
                    "{name}: test {} does not cover {k} when run again",
                    g["test"]
                );
            }
            "unreachable" => assert!(bad, "{name}: feasible pair {k} reported infeasible"),
            _ => assert!(bad, "{name}: feasible pair {k} left unknown"),
        }
    }
    assert_replays(&src, &out);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn generation_covers_the_power_function() {
    check_generation(
        "power.c",
        &["power exp 8 p-use 12 false", "power res 11 c-use 19"],
    );
}

#[test]
fn generation_covers_triangle_classification() {
    check_generation(
        "triangle.c",
        &[
            "classify kind 12 p-use 15 true",
            "classify kind 14 p-use 15 false",
            "classify kind 12 p-use 17 true",
            "classify kind 14 p-use 17 false",
            "classify kind 14 c-use 19",
        ],
    );
}

#[test]
fn generation_covers_aliases_and_globals() {
    check_generation(
        "alias.c",
        &[
            "main total 0 p-use 15 true",
            "main total 0 p-use 15 false",
            "main total 0 c-use 16",
        ],
    );
}

#[test]
fn generation_covers_factorization() {
    check_generation(
        "factor.c",
        &[
            "factor n 6 p-use 19 false",
            "factor last 9 c-use 20",
            "main count 0 p-use 28 true",
            "main count 0 p-use 28 false",
            "main count 8 p-use 28 true",
            "main count 8 p-use 28 false",
            "main count 15 p-use 28 true",
        ],
    );
}

#[test]
fn generation_proves_string_matching_pairs_infeasible() {
    check_generation(
        "strmatch.c",
        &[
            "find i 8:12 p-use 8 false",
            "find j 9 p-use 10 false",
            "find j 9 p-use 12 true",
            "main k 21:14 p-use 21 false",
        ],
    );
}

/// `gen --criterion def-use` on modes.c: the model checker's branch graph proves `mode == 3`
/// never true, and the pairs behind it are reported infeasible with that proof; none of them
/// is among the pairs the suite covers, and the suite replays natively.
#[test]
fn generation_decides_pairs_behind_unreachable_branches() {
    let src = program("modes.c");
    let args = ["--strategy", "cut-point", "--time", "30s", "--seed", "1"];
    let (out, pairs) = generate(&src, &args);
    let p = load_dataflow(&src);
    let du = p.def_use.as_ref().unwrap();
    let base = pairs[0]["id"].as_u64().unwrap() as usize;
    let behind: Vec<String> = pairs
        .iter()
        .filter(|g| g["proof"] == "model checker: the pair's code is unreachable")
        .map(|g| key(&p, du, g["id"].as_u64().unwrap() as usize - base))
        .collect();
    // The block behind the first `mode == 3` holds 16 pairs' uses (its outcome's own pairs
    // go to the constant-definition proofs first); a loaded machine may leave `count > n`
    // to the per-pair checker.
    assert!(behind.len() >= 16, "{behind:#?}");
    for k in &behind {
        assert!(modes_pair_behind_never(k), "{k} proven by the branch graph");
    }
    assert_replays(&src, &out);
    let _ = std::fs::remove_dir_all(&out);
}

/// The cover-flag copy of a pair reaches its goal on every run that covers the pair (and,
/// without pointers or repeated calls, only on those): the model checker's verdicts on the
/// copy are verdicts on the pair.
#[test]
fn cover_flag_copies_reach_their_goal_exactly_when_the_pair_is_covered() {
    use cairn::analysis::coverflag::{recursive_functions, reduce};
    for (name, inputs, exact) in [
        (
            "power.c",
            vec![
                vec!["2", "3"],
                vec!["2", "0"],
                vec!["0", "-2"],
                vec!["3", "-1"],
                vec!["1", "9"],
            ],
            true,
        ),
        (
            "factor.c",
            vec![vec!["12"], vec!["7"], vec!["49"], vec!["1"], vec!["150"]],
            true,
        ),
        ("alias.c", vec![vec!["1"], vec!["0"]], false),
    ] {
        let p = load_dataflow(&program(name));
        let du = p.def_use.as_ref().unwrap();
        let rec = recursive_functions(&p.module);
        let runs: Vec<Vec<u32>> = inputs
            .iter()
            .map(|i| {
                let vals = i.iter().map(|s| s.to_string()).collect();
                pairs_of(&p.run(&mut Replay::new(vals), &Config::default()))
            })
            .collect();
        for pair in 0..du.pairs.len() {
            let red = reduce(&p.module, du, pair as u32, &rec).expect("reducible");
            let mut copy = Program::new(red.module);
            copy.entry = p.entry.clone();
            for (i, run) in inputs.iter().zip(&runs) {
                let vals = i.iter().map(|s| s.to_string()).collect();
                let r = copy.run(&mut Replay::new(vals), &Config::default());
                let reached = r.branches[red.goal as usize] > 0;
                let covered = run.contains(&(pair as u32));
                let k = key(&p, du, pair);
                assert!(
                    !covered || reached,
                    "{name} {i:?}: {k} covered, copy's goal missed"
                );
                if exact {
                    assert!(
                        covered || !reached,
                        "{name} {i:?}: {k} not covered, goal reached"
                    );
                }
            }
        }
    }
}

/// The model checker proves pairs infeasible through their cover-flag copies: the initial
/// value of `count` never reaches main's test (factor always sets it), nor does count = 0 with
/// the outcome true; the value from factor's line 19 does, and is never proven infeasible.
#[test]
fn model_checker_decides_cover_flag_goals() {
    use cairn::analysis::coverflag::{recursive_functions, reduce};
    use cairn::driver::ledger::Status;
    use cairn::driver::session::{Budget, Session};
    use cairn::driver::technique::Technique;
    let p = load_dataflow(&program("factor.c"));
    let du = p.def_use.as_ref().unwrap();
    let rec = recursive_functions(&p.module);
    let keys = pair_keys(&p);
    for (k, infeasible) in [
        ("main count 0 p-use 28 true", true),
        ("main count 8 p-use 28 true", true),
        ("main count 19 p-use 28 true", false),
    ] {
        let pair = keys
            .iter()
            .position(|x| x == k)
            .unwrap_or_else(|| panic!("no {k}"));
        let red = reduce(&p.module, du, pair as u32, &rec).unwrap();
        let mut copy = Program::new(red.module);
        copy.entry = p.entry.clone();
        let tmp = cairn::ir::frontend::TempDir::new("dataflow-mc").unwrap();
        let w =
            cairn::output::suite::SuiteWriter::create(tmp.path(), tmp.path(), &copy.module, false)
                .unwrap();
        let budget = Budget {
            time: std::time::Duration::from_secs(if infeasible { 60 } else { 5 }),
            max_tests: None,
            max_iterations: None,
        };
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut s = Session::new(&copy, w, budget, flag);
        let goal = red.goal as usize;
        for g in 0..s.goals.len() {
            if g != goal {
                s.ledger.ignore(g);
            }
        }
        let mut mc = cairn::driver::prove::ModelChecking::new(&s).unwrap();
        let deadline = s.deadline();
        mc.run(&mut s, deadline).unwrap();
        match (&s.ledger.status[goal], infeasible) {
            (Status::Unreachable(_), true) => {}
            (Status::Unreachable(_), false) => panic!("{k}: feasible, proven infeasible"),
            (_, false) => {}
            (st, true) => panic!("{k}: {st:?}"),
        }
    }
}

/// Pairs a constant definition rules out (`analysis::constdef`) are never covered by any run,
/// on every team program; on the lexer's state machine they are most of the infeasible pairs,
/// including those behind a branch the constant decides before the use.
#[test]
fn constant_definitions_prove_only_pairs_no_run_covers() {
    use rand::SeedableRng;
    let mut proven_somewhere = 0;
    for entry in std::fs::read_dir(common::root().join("tests/programs/dataflow")).unwrap() {
        let src = entry.unwrap().path();
        let p = load_dataflow(&src);
        let du = p.def_use.as_ref().unwrap();
        let proven = cairn::analysis::constdef::infeasible_pairs(&p.module, du);
        proven_somewhere += proven.len();
        let mut covered = std::collections::BTreeSet::new();
        for seed in 0..3000 {
            let mut inputs = cairn::exec::input::RandomInputs {
                rng: rand::rngs::SmallRng::seed_from_u64(seed),
            };
            let r = p.run(&mut inputs, &Config::default());
            for pair in &pairs_of(&r) {
                assert!(
                    !proven.contains(pair),
                    "{}: pair {} proven infeasible, covered by a run",
                    src.display(),
                    key(&p, du, *pair as usize)
                );
                covered.insert(*pair);
            }
        }
        if src.ends_with("lexer.c") {
            // The runs reach the state machine's pairs (the check above can fail).
            eprintln!("lexer: {} pairs covered by random runs", covered.len());
            assert!(covered.len() >= 60, "{} pairs covered", covered.len());
            let keys: Vec<String> = proven.iter().map(|&i| key(&p, du, i as usize)).collect();
            for k in ["main state 7 p-use 12 true", "main state 7 p-use 29 false"] {
                assert!(
                    keys.iter().any(|x| x == k),
                    "lexer: {k} not proven: {keys:?}"
                );
            }
            assert!(keys.len() >= 30, "lexer: only {} proven", keys.len());
        }
        if src.ends_with("device.c") {
            // A global's constant decides its p-uses in other functions, its address taken
            // (`pending`'s sits in an initializer) or not: the write through the pointer ends
            // `pending = 0`'s definition, so where a definition holds, so does its constant.
            let keys: Vec<String> = proven.iter().map(|&i| key(&p, du, i as usize)).collect();
            for k in [
                "main state 13 p-use 52 false",
                "main state 19 p-use 52 true",
                "stop state 13 p-use 18 false",
                "main state 24 p-use 58 case 0",
                "main state 49 p-use 52 true",
                "main pending 50 p-use 68 true",
                "main pending 25 p-use 68 false",
            ] {
                assert!(keys.iter().any(|x| x == k), "device: {k} not proven");
            }
            assert!(
                covered.len() >= 25,
                "device: {} pairs covered",
                covered.len()
            );
        }
        if src.ends_with("startup.c") {
            // Globals settled by start-up code (`analysis::settled`): `main`'s zeroing never
            // reaches a use past `init()`, `state = BUSY` stores 2, a read during the start
            // reads what the start wrote; `limit` (written later too) and `epoch` (its store runs
            // in the loop too) prove nothing.
            let keys: Vec<String> = proven.iter().map(|&i| key(&p, du, i as usize)).collect();
            for k in [
                "take READY 45 p-use 30 true",
                "main state 31 p-use 63 true",
                "main state 21 p-use 63 true",
                "finish state 21 p-use 36 true",
            ] {
                assert!(
                    keys.iter().any(|x| x == k),
                    "startup: {k} not proven: {keys:?}"
                );
            }
            // Their initial values are another matter: `init()` and `reset()` write them on
            // every path before the loop (`CALLED`).
            assert!(
                keys.iter()
                    .all(|k| (!k.contains(" limit ") && !k.contains(" epoch "))
                        || k.starts_with("main limit 0 ")
                        || k.starts_with("main epoch 0 ")),
                "{keys:?}"
            );
            let covered: Vec<String> = covered.iter().map(|&i| key(&p, du, i as usize)).collect();
            for k in ["main limit 39 c-use 50", "main epoch 26 p-use 69 true"] {
                assert!(covered.iter().any(|x| x == k), "startup: {k} not covered");
            }
        }
        if src.ends_with("copies.c") {
            // A constant copied in one block (`phase = idle;` after `idle = 0;`, a local `b =
            // a;`) decides its uses, as does a null pointer (`head`'s initial value, `head =
            // 0`); a copy across a call that writes the global (`level`) or across a store
            // through a pointer to it (`shadow`), and an object's address, decide nothing.
            let keys: Vec<String> = proven.iter().map(|&i| key(&p, du, i as usize)).collect();
            for k in [
                "main phase 27 p-use 34 true",
                "main b 42 p-use 43 true",
                "peek head 0 p-use 13 true",
                "peek head 49 p-use 13 true",
            ] {
                assert!(
                    keys.iter().any(|x| x == k),
                    "copies: {k} not proven: {keys:?}"
                );
            }
            assert!(
                keys.iter().all(|k| !k.contains(" mirror ")
                    && !k.contains(" spare ")
                    && !k.contains(" head 47 ")),
                "{keys:?}"
            );
            let covered: Vec<String> = covered.iter().map(|&i| key(&p, du, i as usize)).collect();
            for k in [
                "main mirror 30 p-use 36 true",
                "main spare 33 p-use 38 false",
                "peek head 47 p-use 13 true",
            ] {
                assert!(covered.iter().any(|x| x == k), "copies: {k} not covered");
            }
        }
        if src.ends_with("callkill.c") {
            let keys: Vec<String> = proven.iter().map(|&i| key(&p, du, i as usize)).collect();
            let covered: Vec<String> = covered.iter().map(|&i| key(&p, du, i as usize)).collect();
            // `pick` writes `current` on every path, `pick_twice` through `pick`: what `main`
            // stored before either call reaches no use after it (`CALLED`). `arm` may return
            // before writing `flag`, `mark` writes `mode` on one path: their definitions stay.
            for k in [
                "main current 0 p-use 36 true",
                "main current 44 p-use 36 false",
                "main current 44 p-use 46 true",
                "main current 44 c-use 32",
            ] {
                assert!(
                    keys.iter().any(|x| x == k),
                    "callkill: {k} not proven: {keys:?}"
                );
            }
            for k in ["main flag 33 p-use 39 true", "main mode 34 p-use 42 true"] {
                assert!(covered.iter().any(|x| x == k), "callkill: {k} not covered");
                assert!(!keys.iter().any(|x| x == k), "callkill: {k} proven");
            }
        }
        if src.ends_with("startup_loop.c") {
            // Start-up code in a loop runs again: `rounds` is not settled, `size` is.
            let keys: Vec<String> = proven.iter().map(|&i| key(&p, du, i as usize)).collect();
            assert!(keys.iter().all(|k| !k.contains(" rounds ")), "{keys:?}");
            let covered: Vec<String> = covered.iter().map(|&i| key(&p, du, i as usize)).collect();
            let k = "main rounds 13 p-use 19 true";
            assert!(
                covered.iter().any(|x| x == k),
                "startup_loop: {k} not covered"
            );
        }
    }
    assert!(proven_somewhere > 0);
}

/// Constants decide the pairs of variables whose address is passed (`take(&current)`,
/// `next_op(&op)` in handles.c): a call receiving the address, like any write through a
/// pointer, ends the definition before it, and between a local's definition and a use, such a
/// call on every path leaves the pair infeasible, constant or not. The program's tree explored
/// to its end decides every pair; none that `constdef` proves is covered, and its proofs
/// include the null stores' checks, the local's first check, and the switch and `left`'s
/// check that the calls keep from their definitions.
#[test]
fn constants_decide_pairs_of_variables_whose_address_is_passed() {
    let src = common::root().join("tests/programs/dataflow/handles.c");
    let p = load_dataflow(&src);
    let du = p.def_use.as_ref().unwrap();
    use cairn::analysis::constdef::{ADDRESS_CALL, CONSTANT, infeasible_pairs_why};
    let why = infeasible_pairs_why(&p.module, du);
    let proven_ids: Vec<u32> = why.iter().map(|w| w.0).collect();
    let proven: Vec<(String, &str)> = (why.iter())
        .map(|&(i, how)| (key(&p, du, i as usize), how))
        .collect();
    for (k, how) in [
        ("running current 0 p-use 38 false", CONSTANT),
        ("running current 45 p-use 38 false", CONSTANT),
        ("running current 52 p-use 38 false", CONSTANT),
        ("main current 0 p-use 82 true", CONSTANT),
        ("main current 52 p-use 82 true", CONSTANT),
        ("running current 45 c-use 40", CONSTANT),
        ("main op 59 p-use 67 false", CONSTANT),
        ("main op 59 p-use 70 case 1", ADDRESS_CALL),
        ("main op 59 p-use 70 default", ADDRESS_CALL),
        ("main left 84 p-use 86 true", ADDRESS_CALL),
        ("main left 84 p-use 86 false", ADDRESS_CALL),
    ] {
        assert!(
            proven.iter().any(|x| x.0 == k && x.1 == how),
            "{k} not proven ({how}): {proven:?}"
        );
    }
    let budget = [
        &[
            "--strategy",
            "dfs",
            "--max-iterations",
            "20000",
            "--time",
            "120s",
        ][..],
        &common::SEARCH_ALONE,
    ]
    .concat();
    // `generate` fails on a soundness violation (a test covering a proven pair).
    let (out, pairs) = generate(&src, &budget);
    assert!(pairs.iter().all(|g| g["status"] != "unknown"));
    let base = pairs
        .iter()
        .map(|g| g["id"].as_u64().unwrap())
        .min()
        .unwrap();
    let covered: Vec<u32> = (pairs.iter())
        .filter(|g| g["status"] == "covered")
        .map(|g| (g["id"].as_u64().unwrap() - base) as u32)
        .collect();
    assert!(covered.len() >= 40, "{} covered", covered.len());
    for p_id in &proven_ids {
        assert!(!covered.contains(p_id), "{}", key(&p, du, *p_id as usize));
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The reads the start-up code settles, folded into constants (what the model checkers are
/// given), change nothing a run does: on every team program, 500 random runs of the folded
/// copy take the same branches and end the same way as the program's own.
#[test]
fn settled_reads_folded_into_constants_change_no_run() {
    use rand::SeedableRng;
    let mut folded_somewhere = 0;
    for entry in std::fs::read_dir(common::root().join("tests/programs/dataflow")).unwrap() {
        let src = entry.unwrap().path();
        let p = load_dataflow(&src);
        let du = p.def_use.as_ref().unwrap();
        let settled = cairn::analysis::settled::Settled::compute(&p.module, du);
        let reads = settled.reads(&p.module);
        let Some(m) = cairn::analysis::settled::fold(&p.module, &reads, du, u32::MAX) else {
            continue;
        };
        folded_somewhere += reads.len();
        let mut copy = cairn::exec::Program::new(m);
        copy.entry = p.entry.clone();
        for seed in 0..500 {
            let run = |prog: &cairn::exec::Program| {
                let mut inputs = cairn::exec::input::RandomInputs {
                    rng: rand::rngs::SmallRng::seed_from_u64(seed),
                };
                let r = prog.run(&mut inputs, &Config::default());
                (r.branches, format!("{:?}", r.outcome))
            };
            assert_eq!(run(&p), run(&copy), "{}: seed {seed}", src.display());
        }
    }
    // startup.c's READY, BUSY, DONE past the start, and device.c's constants.
    assert!(folded_somewhere >= 5, "{folded_somewhere} reads folded");
}

/// A pair of modes.c (by `key`) that no run covers once `mode == 3` (twice) and `count > n`
/// are known never true: its definition or use behind them, one of their true outcomes, or
/// `shown = 5`, which reaches the last return only through the second `mode == 3`.
fn modes_pair_behind_never(k: &str) -> bool {
    let f: Vec<&str> = k.split(' ').collect();
    let (var, def, kind, at) = (f[1], f[2], f[3], f[4].parse::<u32>().unwrap());
    let behind = (24..=27).contains(&at) || (30..=31).contains(&at) || def == "34";
    let outcome =
        kind == "p-use" && f[5] == "true" && (at == 23 || at == 29 || (at == 33 && var == "mode"));
    behind || outcome || k == "main shown 10 c-use 37"
}

/// Pairs decided by branch outcomes no run takes (`analysis::dead::dead_pairs`): on modes.c,
/// given that `mode == 3` (twice) and `count > n` are never true, exactly the pairs whose
/// definition or use lies behind those outcomes, their p-use outcomes, and `shown = 5`, which
/// reaches the last return only through the second `mode == 3`; and no run covers one.
#[test]
fn branch_outcomes_no_run_takes_decide_the_pairs_behind_them() {
    use rand::{Rng, SeedableRng};
    let p = load_dataflow(&program("modes.c"));
    let du = p.def_use.as_ref().unwrap();
    let never: std::collections::HashSet<u32> = p
        .module
        .branch_goals
        .iter()
        .enumerate()
        // By where the outcome leads: an `&&`'s two branches share their line.
        .filter(|(_, g)| g.outcome == "true" && [24, 30, 34].contains(&g.target_loc.line))
        .map(|(i, _)| i as u32)
        .collect();
    assert_eq!(never.len(), 3);
    let dead = cairn::analysis::dead::dead_pairs(&p.module, &p.entry, du, &never);
    let keys: std::collections::BTreeSet<String> =
        dead.iter().map(|&i| key(&p, du, i as usize)).collect();
    for i in 0..du.pairs.len() {
        let k = key(&p, du, i);
        assert_eq!(
            keys.contains(&k),
            modes_pair_behind_never(&k),
            "{k}: {keys:#?}"
        );
    }
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut covered = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let n: i32 = rng.gen_range(-1..=51);
        let mut inputs = vec![n.to_string()];
        inputs.extend((0..n.max(0)).map(|_| rng.gen_range(-20..30).to_string()));
        let r = p.run(&mut Replay::new(inputs), &Config::default());
        covered.extend(pairs_of(&r));
    }
    for pair in &dead {
        assert!(
            !covered.contains(pair),
            "{} decided, covered",
            key(&p, du, *pair as usize)
        );
    }
    // The runs cover the live pairs around them (the check above can fail).
    assert!(covered.len() >= 35, "{} pairs covered", covered.len());
}

/// The definition trace of a run and the redefinition pruning rule of the cut-point search:
/// on power(2, 3), the pending branches after the loop redefined `res` (the loop's second test,
/// the `y < 0` test) are pruned for the pair of `res = 1` (line 11), the loop's first test is
/// not; for the loop's definition (line 13) none is; on power(2, 0) the loop never redefines
/// `res`, so the `y < 0` test is not pruned. The cut-point search targeting that pair picks
/// the loop's first test with pruning, the `y < 0` test without.
#[test]
fn redefinition_pruning_marks_branches_whose_definition_was_overwritten() {
    use cairn::exec::shadow::Shadow;
    use cairn::search::cutpoint::redefined_before;
    use cairn::search::tree::{RunPath, Tree};
    use std::rc::Rc;
    let p = load_dataflow(&program("power.c"));
    let du = p.def_use.as_ref().unwrap();
    let def_at = |line: u32| {
        du.defs
            .iter()
            .position(|d| du.vars[d.var as usize].name == "res" && d.loc.line == line)
            .unwrap_or_else(|| panic!("no definition of res on line {line}")) as u32
    };
    let (res11, res13) = (def_at(11), def_at(13));
    // Pending branches of one run, with the source line of their decision.
    let pendings = |inputs: &[&str]| {
        let mut pool = cairn::smt::expr::Pool::new();
        let mut shadow = Shadow::new(&mut pool);
        let mut src = Replay::new(inputs.iter().map(|s| s.to_string()).collect());
        let r = p.run_observed(&mut src, &Config::default(), &mut shadow);
        let observed = r.observed.get::<cairn::exec::defuse::DefUseRun>();
        assert!(!observed.unwrap().trace.is_empty());
        let run = Rc::new(RunPath {
            id: 1,
            records: std::mem::take(&mut shadow.path),
            inputs: r.inputs,
            new_goals: 0,
            bound: 0,
            observed: r.observed,
        });
        let mut tree = Tree::default();
        tree.insert(&run)
            .into_iter()
            .map(|pd| {
                let rec = &pd.run.records[pd.depth];
                let f = &p.module.functions[rec.func as usize];
                (f.blocks[rec.block as usize].term_loc.line, pd)
            })
            .collect::<Vec<_>>()
    };
    let run = pendings(&["2", "3"]);
    let lines_of = |run: &[(u32, cairn::search::tree::Pending)]| {
        run.iter().map(|(l, _)| *l).collect::<Vec<_>>()
    };
    let loop_tests: Vec<_> = run.iter().filter(|(l, _)| *l == 12).collect();
    assert_eq!(loop_tests.len(), 4, "exp = 3: four loop tests");
    assert!(!redefined_before(&loop_tests[0].1, res11));
    for (_, pd) in &loop_tests[1..] {
        assert!(redefined_before(pd, res11));
        assert!(!redefined_before(pd, res13));
    }
    let (_, after) = run.iter().find(|(l, _)| *l == 16).expect("the y < 0 test");
    assert!(redefined_before(after, res11));
    assert!(!redefined_before(after, res13));
    let run2 = pendings(&["2", "0"]);
    let (_, after) = run2.iter().find(|(l, _)| *l == 16).expect("the y < 0 test");
    assert!(!redefined_before(after, res11));

    // The search, targeting `res = 1` reaching `return res` (y = 0) from power(2, 3)'s pending
    // branches: the y < 0 test passed the most cut points, but its run redefined res in the
    // loop, so with pruning the loop's first test (exit at once: y = 0) comes first.
    let keys = pair_keys(&p);
    let pair = keys
        .iter()
        .position(|k| k == "power res 11 c-use 21")
        .expect("the pair");
    let base = cairn::analysis::goals::Goals::of(&p.module).len();
    let mut covered = vec![true; base + du.pairs.len()];
    covered[base + pair] = false;
    let first_choice = |strategy: &str| {
        let mut st = cairn::search::by_name(strategy).unwrap();
        st.prepare(&p);
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(0);
        let dist = cairn::analysis::cfg::Distances::unknown();
        let mut ctx = cairn::search::Ctx {
            rng: &mut rng,
            covered: &covered,
            dist: &dist,
            product: None,
        };
        let mut pool = cairn::search::PendingPool::default();
        for (_, pd) in &run {
            let id = pool.add(pd.clone());
            st.add(id, pd, &mut ctx);
        }
        let id = st.select(&pool, &mut ctx).unwrap();
        let chosen = pool.get(id).unwrap();
        let at = run
            .iter()
            .position(|(_, pd)| pd.depth == chosen.depth)
            .unwrap();
        (run[at].0, at)
    };
    let (line, at) = first_choice("cut-point");
    assert_eq!(
        (line, at),
        (12, run.iter().position(|(l, _)| *l == 12).unwrap()),
        "pending lines {:?}",
        lines_of(&run)
    );
    assert!(!redefined_before(&run[at].1, res11));
    let (line, _) = first_choice("cut-point-unpruned");
    assert_eq!(line, 16, "pending lines {:?}", lines_of(&run));
}

/// Variables are named as in the source (the debug information's `llvm.dbg.declare`), not by
/// LLVM's slots: two loops' `i`, a parameter, a static local, a shadowing block-scope `s`.
#[test]
fn source_names_come_from_debug_information() {
    let p = load_dataflow(&program("scopes.c"));
    let du = p.def_use.as_ref().unwrap();
    let named = |n: &str| du.vars.iter().filter(|v| v.name == n).count();
    assert_eq!(named("i"), 2, "{:?}", du.vars);
    assert_eq!(named("s"), 2, "{:?}", du.vars);
    assert_eq!(named("x"), 1, "{:?}", du.vars);
    let calls = du
        .vars
        .iter()
        .find(|v| v.name == "calls")
        .expect("the static local");
    assert!(calls.global.is_some());
    for v in &du.vars {
        assert!(
            !v.name.contains('.') && v.name != "i1" && v.name != "s2",
            "LLVM name {} left",
            v.name
        );
    }
    let keys = pair_keys(&p);
    for k in [
        "f calls 0 c-use 8",
        "f x 6 p-use 10 true",
        "f i 12:14 p-use 12 false",
    ] {
        assert!(
            keys.contains(&k.to_string()),
            "missing pair {k} in {keys:#?}"
        );
    }
    check_generation("scopes.c", &["f i 12:14 p-use 12 false"]);
}

/// The lexer's state machine: after the constant-definition proofs, five pairs need the
/// variables' history (`value = 0` reaches `value * 10` only if state 1 was entered without a
/// digit, which never happens). The model checker proves them on the cover-flag copies, whose
/// locals live in stack slots it tracks: every pair is decided, each proof holds against
/// random runs, and the covered pairs replay natively.
#[test]
fn generation_decides_every_lexer_pair() {
    let src = program("lexer.c");
    let args = ["--strategy", "cut-point", "--time", "90s", "--seed", "1"];
    let (out, pairs) = generate(&src, &args);
    let p = load_dataflow(&src);
    let du = p.def_use.as_ref().unwrap();
    let base = pairs[0]["id"].as_u64().unwrap() as usize;
    let status = |k: &str| {
        let pair = pair_keys(&p).iter().position(|x| x == k).expect(k);
        pairs[pair]["status"].as_str().unwrap().to_string()
            + " "
            + pairs[pair]["proof"].as_str().unwrap_or("")
    };
    for k in [
        "main value 7 c-use 30",
        "main len 7 c-use 32",
        "main value 7 p-use 35 false",
        "main value 22 p-use 35 true",
        "main len 7 p-use 37 false",
    ] {
        // By the pair's cover flag, or by the branch outcomes it needs.
        let st = status(k);
        assert!(st.starts_with("unreachable model checker"), "{k}: {st}");
    }
    let unknown: Vec<String> = pairs
        .iter()
        .filter(|g| g["status"] == "unknown")
        .map(|g| key(&p, du, g["id"].as_u64().unwrap() as usize - base))
        .collect();
    assert!(unknown.is_empty(), "undecided: {unknown:?}");
    let mut covered_by_random = std::collections::BTreeSet::new();
    for seed in 0..3000 {
        let mut inputs = cairn::exec::input::RandomInputs {
            rng: <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(seed),
        };
        covered_by_random.extend(pairs_of(&p.run(&mut inputs, &Config::default())));
    }
    for g in &pairs {
        let pair = g["id"].as_u64().unwrap() as usize - base;
        if g["status"] == "unreachable" {
            assert!(
                !covered_by_random.contains(&(pair as u32)),
                "{} proven infeasible, covered by a random run",
                key(&p, du, pair)
            );
        }
    }
    assert_replays(&src, &out);
    let _ = std::fs::remove_dir_all(&out);
}

/// Programs of data-flow testing's shape drawn by `tests/common/shapes.rs` (variables defined
/// in a loop of 8-40 iterations under conditions on inputs, through a pointer an input
/// chooses and through a setter, used in later iterations and after the loop): every pair the
/// cut-point search with the model checker proves infeasible is covered by none of 3,000
/// random runs, and the suite replays without a mismatch (seed 0 found native probes that
/// missed a redefinition by `set(&g, ...)` and called a right proof wrong). Seed 1's tree is explored
/// to its end by the cut-point search (39,444 paths: before the ranks were kept per target
/// pair, 10 s gave it 2,290), which decides every pair. The 50-program distribution is
/// `cargo bench --bench shapes -- --shape def_use`.
#[test]
fn generated_def_use_chains_are_decided_soundly() {
    use rand::SeedableRng;
    for seed in [0, 1, 2] {
        let program = common::shapes::def_use_chains(seed);
        let dir = common::tmp(&format!("dataflow-shape-{seed}"));
        let src = program.write_in(dir.path());
        let (out, pairs) = generate(&src, &["--jobs", "1", "--time", "20s", "--seed", "1"]);
        let p = load_dataflow(&src);
        let du = p.def_use.as_ref().unwrap();
        let base = pairs
            .iter()
            .map(|g| g["id"].as_u64().unwrap())
            .min()
            .unwrap();
        let proven: Vec<u32> = pairs
            .iter()
            .filter(|g| g["status"] == "unreachable")
            .map(|g| (g["id"].as_u64().unwrap() - base) as u32)
            .collect();
        for s in 0..3000 {
            let mut inputs = cairn::exec::input::RandomInputs {
                rng: rand::rngs::SmallRng::seed_from_u64(s),
            };
            for pair in pairs_of(&p.run(&mut inputs, &Config::default())) {
                assert!(
                    !proven.contains(&pair),
                    "seed {seed}: pair {} proven infeasible, covered by a run:\n{}",
                    key(&p, du, pair as usize),
                    program.source
                );
            }
        }
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_cairn"))
            .arg("replay")
            .arg(&src)
            .arg(&out)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        // No mismatch (a pair claimed or proven wrongly fails the replay). Pairs of `g` and
        // of the variables `p` may point to are checked by line: a call or a store through a
        // pointer redefines them where the native probes cannot see it.
        assert!(o.status.success(), "seed {seed}: {text}");
        assert!(
            text.contains("def-use pairs); by line only"),
            "seed {seed}: {text}"
        );
        let _ = std::fs::remove_dir_all(&out);
    }
    let program = common::shapes::def_use_chains(1);
    let dir = common::tmp("dataflow-shape-exhaust");
    let src = program.write_in(dir.path());
    let budget = [
        &["--strategy", "cut-point"][..],
        &common::SEARCH_ALONE,
        &["--max-iterations", "60000", "--time", "120s"],
    ]
    .concat();
    let (out, pairs) = generate(&src, &budget);
    let unknown = pairs.iter().filter(|g| g["status"] == "unknown").count();
    assert_eq!(unknown, 0, "{}", program.source);
    let _ = std::fs::remove_dir_all(&out);
}
