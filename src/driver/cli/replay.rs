//! `cairn replay`: the suite natively, with coverage, each claim checked at its goal.

use super::Given;
use crate::analysis::defuse::DefUse;
use crate::analysis::goals::Goals;
use crate::driver::options::*;
use crate::ir::frontend::load;
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    /// The output directory of `cairn gen` (its run.json gives the program's files and
    /// options); or the program's C files, then the directory. Options typed here override
    /// the recorded ones.
    #[arg(required = true, num_args = 1..)]
    pub args: Vec<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the suite's native line and branch coverage as an lcov tracefile (for
    /// genhtml, IDEs and coverage services).
    #[arg(long, value_name = "FILE")]
    pub lcov: Option<PathBuf>,
    /// The criterion the suite was generated for (default: as recorded in run.json).
    #[arg(long, value_enum, default_value = "branches")]
    pub criterion: Criterion,
    /// Replay these tests instead of the suite's: another tool's, in the common replay format
    /// (a file per test, one value per line: a number, or `hex:` and a buffer's bytes; `#`
    /// comments). They claim nothing: the replay reports their native coverage and checks the
    /// run's proofs against them (a test that takes a goal proven unreachable is a mismatch).
    #[arg(long, value_name = "DIR")]
    pub tests_from: Option<PathBuf>,
    #[command(flatten)]
    pub front: Front,
}

pub fn run(mut a: ReplayArgs, given: Given) -> Result<i32> {
    let (args, dir) = split_replay_args(std::mem::take(&mut a.args))?;
    let (args, criterion) = recorded_run(args, &dir, &mut a.front, a.criterion, given)?;
    let args = resolve_inputs(args, &mut a.front, None, None)?;
    if a.tests_from.is_some() {
        // Another tool's tests give no value to a local read before it is set: it reads 0
        // (the goals are the same either way, and a proof holds for every value).
        a.front.uninitialized_inputs = false;
    }
    let opts = a.front.opts_for(criterion);
    let p = load(&args, &opts).context("loading the program")?;
    let mut goals = Goals::of(&p);
    if criterion == Criterion::DefUse {
        goals.add_def_use(&p, &DefUse::compute(&p, &a.front.entry));
    }
    // The program as the goals were computed (def-use: its locals in memory).
    let foreign = crate::ir::frontend::TempDir::new("foreign-tests")?;
    let tests = match &a.tests_from {
        Some(from) => {
            crate::output::foreign_tests::import(from, foreign.path())?;
            foreign.path().to_path_buf()
        }
        None => dir.join("tests"),
    };
    let rep =
        crate::output::replay::replay(&args, &opts, &dir, &tests, &p, &goals, &a.front.entry)?;
    if let Some(path) = &a.lcov {
        std::fs::write(path, &rep.lcov)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
    } else {
        print!("{}", rep.text());
    }
    for m in &rep.mismatches {
        eprintln!("cairn: REPLAY MISMATCH: {m}");
    }
    Ok(if rep.mismatches.is_empty() { 0 } else { 1 })
}
