//! `cairn run`: the program once, on given values or on a test's.

use super::Given;
use crate::analysis::goals::Goals;
use crate::driver::options::*;
use crate::exec::Outcome;
use crate::exec::input::Replay;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct RunArgs {
    /// The program's C files (not needed with --test of an output directory).
    #[arg(required_unless_present_any = ["compile_commands", "test"])]
    pub files: Vec<PathBuf>,
    /// Input values, in the order the program asks for them (comma-separated).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub inputs: Vec<String>,
    /// Read the inputs of a test file (tests/NNNNNN.json) instead.
    #[arg(long, conflicts_with = "inputs")]
    pub test: Option<PathBuf>,
    /// Print a JSON result instead of the program's output.
    #[arg(long)]
    pub json: bool,
    /// Instruction limit.
    #[arg(long, default_value_t = 1_000_000_000, value_parser = parse_steps)]
    pub max_steps: u64,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub front: Front,
}

pub fn run(mut a: RunArgs, given: Given) -> Result<i32> {
    let files = std::mem::take(&mut a.files);
    let files = match (&a.test, files.is_empty()) {
        // A test of an output directory: the run that made it names the program.
        (Some(t), true) => {
            let dir = t.parent().and_then(Path::parent).unwrap_or(Path::new("."));
            recorded_run(files, dir, &mut a.front, Criterion::Branches, given)?.0
        }
        _ => files,
    };
    let files = resolve_inputs(files, &mut a.front, None, None)?;
    let p = load_program(&files, &mut a.front, Criterion::Branches)?;
    let values = match &a.test {
        Some(t) => crate::output::suite::read_test_values(t)?
            .into_iter()
            .map(|(_, v)| v)
            .collect(),
        None => std::mem::take(&mut a.inputs),
    };
    let mut src = Replay::new(values);
    let r = p.run(&mut src, &a.limits.config(a.max_steps));
    for e in &src.errors {
        eprintln!("cairn: warning: {e}");
    }
    if a.json {
        let goals = Goals::of(&p.module);
        let mut o = serde_json::json!({
            "outcome": r.outcome.label(),
            "exit_code": r.outcome.exit_code(),
            "covered": goals.covered_by(&r),
            "inputs": r.inputs.iter().map(crate::output::suite::input_json).collect::<Vec<_>>(),
            "steps": r.steps,
            "stdout": String::from_utf8_lossy(&r.stdout),
        });
        if let Some(v) = &r.returned {
            o["returned"] = serde_json::json!(v);
        }
        if let Outcome::Fault { kind, loc }
        | Outcome::Unsupported {
            what: kind, loc, ..
        } = &r.outcome
        {
            o["fault"] = serde_json::json!(kind);
            o["location"] = serde_json::json!(p.module.loc_string(*loc));
            if let Some(d) = &r.fault_detail {
                o["fault_detail"] = serde_json::json!(d);
            }
        }
        if let Some(l) = crate::output::suite::LeakReport::of(&p.module, &r) {
            o["leak"] = l.json();
        }
        println!("{}", serde_json::to_string_pretty(&o)?);
    } else {
        std::io::stdout().write_all(&r.stdout)?;
        std::io::stderr().write_all(&r.stderr)?;
        if let Some(v) = &r.returned {
            eprintln!("cairn: {} returned {v}", p.entry);
        }
        let at = |loc| p.module.loc_string(loc);
        match &r.outcome {
            Outcome::Fault { kind, loc } => {
                let detail = crate::output::faults::said(r.fault_detail.as_deref());
                eprintln!("cairn: the program failed: {kind} at {}{detail}", at(*loc))
            }
            Outcome::Unsupported { what, loc, .. } => {
                eprintln!("cairn: unsupported: {what} at {}", at(*loc))
            }
            Outcome::StepLimit => eprintln!("cairn: instruction limit reached"),
            Outcome::AssumeFailed => {
                eprintln!("cairn: an assumption does not hold on these inputs")
            }
            Outcome::Cut(crate::exec::machine::Limit::Links) => eprintln!(
                "cairn: the run walked a structure of more than {} blocks Cairn linked and was stopped",
                crate::exec::links::MAX_BLOCKS
            ),
            Outcome::Cut(_) => {
                eprintln!("cairn: the run reached the memory limit (--max-memory) and was stopped")
            }
            _ => {}
        }
        if let Some(l) = crate::output::suite::LeakReport::of(&p.module, &r) {
            eprintln!(
                "cairn: memory leak: {} bytes in {} blocks unreachable at exit, allocated at {}",
                l.bytes,
                l.blocks,
                l.allocated_at.join(", ")
            );
        }
    }
    if r.stdout.len() >= crate::exec::libc::OUTPUT_CAP {
        eprintln!(
            "cairn: warning: only the first {} MiB of the program's output were kept",
            crate::exec::libc::OUTPUT_CAP >> 20
        );
    }
    Ok(match r.outcome {
        Outcome::StepLimit | Outcome::Unsupported { .. } | Outcome::Cut(_) | Outcome::Revisited => {
            3
        }
        Outcome::AssumeFailed => 0,
        o => o.exit_code(),
    })
}
