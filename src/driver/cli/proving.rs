//! `cairn prove`: the model checker and exhaustive path exploration decide the goals.

use crate::driver::command::{finish, progress_bar, session};
use crate::driver::options::*;
use crate::driver::prove::{ModelChecking, provers};
use crate::mc::arg::McConfig;
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct ProveArgs {
    /// The program's C files, or one task definition (TASK.yml).
    #[arg(required_unless_present = "compile_commands")]
    pub files: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Time budget (e.g. 30, 30s, 2m).
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    pub time: Duration,
    /// Goals: all branches and error calls (the default), or only the error calls.
    #[arg(long, value_enum)]
    pub goals: Option<GoalSet>,
    /// A Test-Comp property file: the goals it states.
    #[arg(long, value_name = "FILE.prp")]
    pub property: Option<PathBuf>,
    /// Write the final abstract reachability graph as Graphviz DOT (the model checker then
    /// takes the first turn).
    #[arg(long)]
    pub arg: Option<PathBuf>,
    /// The model checker alone, without exhaustive path exploration.
    #[arg(long)]
    pub mc_only: bool,
    #[command(flatten)]
    pub limits: Limits,
    #[command(flatten)]
    pub checker: McConfig,
    #[command(flatten)]
    pub front: Front,
}

pub fn run(mut a: ProveArgs) -> Result<i32> {
    let files = std::mem::take(&mut a.files);
    let files = resolve_inputs(
        files,
        &mut a.front,
        Some(&mut a.goals),
        a.property.as_deref(),
    )?;
    let goals = a.goals.unwrap_or(GoalSet::Branches);
    crate::output::suite::check_output_dir(&a.out)?;
    let loading = Instant::now();
    crate::ir::frontend::set_deadline(Some(loading + a.time));
    crate::driver::command::interrupt_flag();
    let p = load_program(&files, &mut a.front, Criterion::Branches)?;
    let load_s = loading.elapsed().as_secs_f64();
    let time = a.time.saturating_sub(loading.elapsed());
    let record = run_record(&files, &a.front, Criterion::Branches, goals);
    let mut s = session(
        &p, &files, &a.out, time, goals, &a.limits, None, None, &record,
    )?;
    let mut mc = ModelChecking::with_config(&s, a.checker.clone())?;
    progress_bar(&mut s);
    let cfg = s.run_config(&a.limits.config(DEFAULT_MAX_STEPS));
    let mut stats = if a.mc_only {
        crate::driver::generate::run(&mut s, &mut mc)?
    } else {
        let mut both = provers(&s, &mut mc, &cfg, a.arg.is_some())?;
        crate::driver::generate::run(&mut s, &mut both)?
    };
    s.end_progress();
    stats.insert(
        "load_s".into(),
        crate::output::suite::round_ms(load_s).into(),
    );
    if let (Some(path), Some(dot)) = (&a.arg, mc.arg_dot(&s)) {
        std::fs::write(path, dot)?;
    }
    finish(&mut s, &a.out, stats, false, &cfg)
}
