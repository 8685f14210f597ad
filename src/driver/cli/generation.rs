//! `cairn gen`: the options of every technique, the plan they make, and the generation of
//! each entry function (and shard) into its output directory.

use crate::driver::command::{finish, progress_bar, session};
use crate::driver::concolic::SolverArgs;
use crate::driver::dataflow::PairArgs;
use crate::driver::fuzz::FuzzArgs;
use crate::driver::generate::{Plan, SearchArgs};
use crate::driver::lazy::LazyArgs;
use crate::driver::ledger::Status;
use crate::driver::options::*;
use crate::driver::parallel::JobsArgs;
use crate::driver::prove::ProverArgs;
use crate::driver::shard::Shard;
use anyhow::Result;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct GenArgs {
    /// The program's C files, or one Test-Comp/SV-COMP task definition (TASK.yml), or
    /// (with --compile-commands) the files of the database to test.
    #[arg(required_unless_present = "compile_commands")]
    pub files: Vec<PathBuf>,
    /// Output directory.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Time budget (e.g. 30, 30s, 2m).
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    pub time: Duration,
    /// Stop after writing this many tests.
    #[arg(long)]
    pub max_tests: Option<usize>,
    /// Stop after this many program runs (a budget that does not depend on the machine's
    /// speed).
    #[arg(long)]
    pub max_iterations: Option<u64>,
    /// Instruction limit per run.
    #[arg(long, default_value_t = DEFAULT_MAX_STEPS, value_parser = parse_steps)]
    pub max_steps: u64,
    #[command(flatten)]
    pub limits: Limits,
    /// Goals: all branches and error calls (the default), or only the error calls
    /// (Test-Comp coverage-error).
    #[arg(long, value_enum)]
    pub goals: Option<GoalSet>,
    /// A Test-Comp property file (coverage-branches.prp, coverage-error-call.prp): the
    /// goals it states.
    #[arg(long, value_name = "FILE.prp")]
    pub property: Option<PathBuf>,
    /// Coverage criterion: branch outcomes, or def-use pairs of source variables (data-flow
    /// testing: the model checker decides pairs one at a time through cover flags).
    #[arg(long, value_enum, default_value = "branches")]
    pub criterion: Criterion,
    /// Exit with status 1 when a test ends in a fault (a crash, a failed assertion): for CI.
    /// The faults are listed in the summary, summary.json and faults.sarif either way.
    #[arg(long)]
    pub fail_on_fault: bool,
    /// Decide only shard K of N of the goals (K/N, 1 <= K <= N); `cairn merge` joins the
    /// shards' output directories.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub search: SearchArgs,
    #[command(flatten)]
    pub solver: SolverArgs,
    #[command(flatten)]
    pub fuzz: FuzzArgs,
    #[command(flatten)]
    pub prover: ProverArgs,
    #[command(flatten)]
    pub pairs: PairArgs,
    #[command(flatten)]
    pub lazy: LazyArgs,
    #[command(flatten)]
    pub jobs: JobsArgs,
    #[command(flatten)]
    pub front: Front,
}

impl GenArgs {
    /// The technique's plan, for runs configured by `cfg`.
    fn plan(&self, cfg: crate::exec::Config) -> Result<Plan> {
        let jobs = self.jobs.workers();
        Ok(Plan {
            strategy: self.search.search()?,
            seed: self.search.seed,
            cfg,
            tests_only: self.prover.tests_only,
            mc_share: self.prover.mc_share,
            pair_slices: self.pairs.ladder(),
            jobs,
            solver: self.solver.options(),
            lazy: self.lazy.lazy.clone(),
            // One worker asked to run one strategy runs it alone.
            fuzz_share: self
                .fuzz
                .share(self.jobs.jobs == Some(1) && self.search.strategy.is_some()),
            fuzz_native: !self.fuzz.interpreted_fuzzing,
            mc: self.prover.checker.clone(),
            random_bursts: true,
        })
    }
}

/// Runs `gen`: a multi-function target (`--entry f,g,...`) generates for each entry function
/// into OUT/<entry>, with an equal share of the time; shards share out the entry functions
/// (`Shard::entries`).
pub fn run(mut a: GenArgs) -> Result<i32> {
    let files = std::mem::take(&mut a.files);
    let files = resolve_inputs(
        files,
        &mut a.front,
        Some(&mut a.goals),
        a.property.as_deref(),
    )?;
    let entries = a.front.entries();
    if entries.len() <= 1 {
        let mut front = a.front.clone();
        front.entry = entries.first().cloned().unwrap_or_default();
        return gen_entry(&a, &files, &front, &a.out, a.time, a.shard);
    }
    let mine = match a.shard {
        Some(shard) => shard.entries(&entries),
        None => entries
            .iter()
            .map(|e| (e.as_str(), Shard { index: 1, count: 1 }))
            .collect(),
    };
    let time = a.time / mine.len() as u32;
    let mut code = 0;
    for (entry, share) in mine {
        let mut front = a.front.clone();
        front.entry = entry.to_string();
        let share = (share.count > 1).then_some(share);
        code = code.max(gen_entry(
            &a,
            &files,
            &front,
            &a.out.join(entry),
            time,
            share,
        )?);
    }
    Ok(code)
}

/// One entry function's generation into `out` (its goals' `shard`, if any).
fn gen_entry(
    a: &GenArgs,
    files: &[PathBuf],
    front: &Front,
    out: &Path,
    time: Duration,
    shard: Option<Shard>,
) -> Result<i32> {
    let goals = a.goals.unwrap_or(GoalSet::Branches);
    // A directory Cairn may not write to is refused before the program is compiled.
    crate::output::suite::check_output_dir(out)?;
    // `--time` includes loading: the search gets what compiling and lowering left.
    let loading = Instant::now();
    crate::ir::frontend::set_deadline(Some(loading + time));
    crate::driver::command::interrupt_flag();
    let mut front = front.clone();
    let p = load_program(files, &mut front, a.criterion)?;
    let load_s = loading.elapsed().as_secs_f64();
    let time = time.saturating_sub(loading.elapsed());
    let record = run_record(files, &front, a.criterion, goals);
    let mut s = session(
        &p,
        files,
        out,
        time,
        goals,
        &a.limits,
        a.max_tests,
        a.max_iterations,
        &record,
    )?;
    if a.criterion == Criterion::DefUse {
        s.only_def_use_goals();
    }
    let plan = a.plan(s.run_config(&a.limits.config(a.max_steps)))?;
    if let Some(shard) = shard {
        let others = shard.others(&s.goals);
        s.leave_goals_to_other_shards(others);
        let _ = s.shared().path_shard.set(shard);
    }
    let mut t = crate::driver::generate::technique(&s, &plan)?;
    progress_bar(&mut s);
    let mut stats = crate::driver::generate::run(&mut s, t.as_mut())?;
    s.write_a_test_if_none(&plan.cfg)?;
    s.end_progress();
    stats.insert("seed".into(), a.search.seed.into());
    stats.insert(
        "load_s".into(),
        crate::output::suite::round_ms(load_s).into(),
    );
    if let Some(shard) = shard {
        stats.insert("shard".into(), shard.to_string().into());
        // Other shards' goals this shard's tests covered or its proofs decided.
        let decided = shard.others(&s.goals).into_iter().filter(|&g| {
            matches!(
                s.ledger.status[g],
                Status::Covered(_) | Status::Unreachable(_)
            )
        });
        stats.insert("other_shards_goals_decided".into(), decided.count().into());
        // What the merge needs to prove goals from every shard's exhausted share: the same
        // split, of the same path space (program options).
        let paths = serde_json::json!({
            "split_depth": shard.split_depth(),
            "exhausted": s.shared().paths_exhausted(),
            "options": format!("{:?} {:?} {} {} {:?} {}", front.opts_for(a.criterion), front.entry,
                front.buffer_size, front.symbolic_globals, front.sym_env(),
                if a.criterion == Criterion::DefUse { "def-use" } else { "branches" }),
        });
        stats.insert("paths".into(), paths);
    }
    stats.insert("solver_kind".into(), a.solver.solver.name().into());
    finish(&mut s, out, stats, a.fail_on_fault, &plan.cfg)
}
