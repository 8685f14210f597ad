//! Differential fidelity: Cairn's interpreter against the natively compiled program.
//!
//! For every program in tests/programs/fidelity, random input vectors are drawn by running the
//! program in Cairn; the same vector is replayed natively through Cairn's own replay harness;
//! stdout and exit status must agree exactly.

mod common;
use cairn::exec::Outcome;
use cairn::exec::input::RandomInputs;
use cairn::ir::DataModel;
use cairn::ir::frontend::{CompileOptions, load};
use common::*;
use rand::SeedableRng;
use std::process::Command;
use std::time::Duration;

const VECTORS: u64 = 40;

#[test]
fn interpreter_agrees_with_native_on_team_programs() {
    check(DataModel::LP64, VECTORS);
}

#[test]
fn interpreter_agrees_with_native_on_team_programs_ilp32() {
    check(DataModel::ILP32, VECTORS / 3);
}

fn check(dm: DataModel, vectors: u64) {
    let progs = programs("fidelity");
    assert!(progs.len() >= 10, "expected the fidelity programs");
    let dir = tmp("fidelity");
    let mut agree = 0usize;
    let mut total = 0usize;
    let mut failures = vec![];
    for p in &progs {
        let m = match load(
            std::slice::from_ref(p),
            &CompileOptions {
                data_model: dm,
                ..Default::default()
            },
        ) {
            Ok(m) => m,
            // Some programs assume 64-bit longs and are not valid C for ILP32.
            Err(e) if dm == DataModel::ILP32 && format!("{e:#}").contains("does not compile") => {
                println!("skipped for ILP32 (not 32-bit C): {}", p.display());
                continue;
            }
            Err(e) => panic!("{}: {e:#}", p.display()),
        };
        let prog = cairn::exec::Program::new(m);
        let harness = dir.path().join("harness.c");
        std::fs::write(&harness, cairn::output::harness::harness_c(&prog.module)).unwrap();
        let exe = dir.path().join("prog");
        native_build(
            &[p.clone(), harness.clone()],
            &exe,
            if dm == DataModel::ILP32 {
                &["-m32"]
            } else {
                &[]
            },
        )
        .unwrap_or_else(|e| panic!("{}: native build failed: {e}", p.display()));
        for seed in 0..vectors {
            let mut src = RandomInputs {
                rng: rand::rngs::SmallRng::seed_from_u64(seed * 7919 + 1),
            };
            let r = prog.run(&mut src, &run_cfg());
            if matches!(r.outcome, Outcome::StepLimit | Outcome::AssumeFailed) {
                continue;
            }
            let test = dir.path().join("t.json");
            write_test(&test, &r.inputs);
            let n = native_run(
                Command::new(&exe).env("CAIRN_TEST", &test),
                Duration::from_secs(10),
            );
            total += 1;
            let same_out = n.stdout == r.stdout;
            let same_code = n.code == Some(r.outcome.exit_code());
            if same_out && same_code {
                agree += 1;
            } else if failures.len() < 30 {
                failures.push(format!(
                    "{} seed {seed}: cairn {:?} exit {} / native exit {:?}{}",
                    p.file_name().unwrap().to_string_lossy(),
                    r.outcome,
                    r.outcome.exit_code(),
                    n.code,
                    if same_out {
                        String::new()
                    } else {
                        format!(
                            "\n  cairn stdout:  {:?}\n  native stdout: {:?}",
                            String::from_utf8_lossy(&r.stdout),
                            String::from_utf8_lossy(&n.stdout)
                        )
                    }
                ));
            }
        }
    }
    println!(
        "fidelity ({dm:?}): {} programs, {agree}/{total} input vectors agree exactly",
        progs.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        total - agree,
        failures.join("\n")
    );
}
