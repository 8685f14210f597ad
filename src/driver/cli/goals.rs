//! `cairn goals`: the coverage goals of a program, one per line or as JSON.

use crate::analysis::goals::Goals;
use crate::driver::options::*;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct GoalsArgs {
    /// The program's C files (or a task definition, TASK.yml).
    #[arg(required_unless_present = "compile_commands")]
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "branches")]
    pub criterion: Criterion,
    /// Print JSON (the goals.json entries) instead of one line per goal.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub front: Front,
}

pub fn run(mut a: GoalsArgs) -> Result<i32> {
    let files = std::mem::take(&mut a.files);
    let files = resolve_inputs(files, &mut a.front, None, None)?;
    let p = load_program(&files, &mut a.front, a.criterion)?;
    let mut goals = Goals::of(&p.module);
    if let Some(du) = &p.def_use {
        goals.add_def_use(&p.module, du);
    }
    let list = &goals.goals[goals.def_use_base.unwrap_or(0)..];
    if a.json {
        let v: Vec<serde_json::Value> = list
            .iter()
            .map(|g| {
                let mut o = serde_json::json!({"id": g.id, "kind": g.kind,
                    "function": g.function, "outcome": g.outcome, "line": g.loc.line});
                if let Some(du) = &g.def_use {
                    o["variable"] = du.variable.clone().into();
                    o["def_line"] = du.def_line.into();
                    o["def_column"] = du.def_column.into();
                    o["use_line"] = du.use_line.into();
                    o["use_column"] = g.loc.col.into();
                    o["use_kind"] = du.use_kind.into();
                }
                o
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    for g in list {
        match &g.def_use {
            Some(du) => println!("{:4} {}: {}", g.id, g.function, du.label),
            None => println!(
                "{:4} {} {} {}",
                g.id,
                g.function,
                p.module.loc_string(g.loc),
                g.outcome
            ),
        }
    }
    Ok(0)
}
