//! Mutational fuzzing: AFL's loop over the shared corpus, in turns with concolic search (as
//! hybrid fuzzers pair them). A concolic run costs a path condition and solver calls; a plain
//! run of the interpreter costs microseconds, and a goal that needs two changes of the input
//! neither of which covers anything alone (a command that creates a job, then one that finds
//! it) is a matter of luck for one flip at a time but of volume for mutation. Each run's inputs
//! are mutated by `havoc`; a run is kept in the corpus when it takes some branch goal a number
//! of times no earlier run did (AFL's hit-count buckets), and recorded as a test when it covers
//! a new goal. Tests of the other techniques join the corpus, and the fuzzer's tests go to
//! them as seeds (concolic search imports them into its tree).
//!
//! The runs are native when the program builds (`fuzz_native::NativeExecutor`: a fork server,
//! a probe per goal counting hits) and interpreted otherwise. A native run that is new (hit
//! counts, or a crash) is run once more in the interpreter, fed the same values (0 past their
//! end, as natively), which makes it a test and gives its values their types.

/// The fuzzer's options of `gen`.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Fuzzing")]
pub struct FuzzArgs {
    /// Mutational fuzzing's share of the testing worker's time, in turns with concolic
    /// search (0: none; 1: fuzzing alone, as a plain fuzzer). Default: 0.5, but 0 when
    /// `--jobs 1` and `--strategy` are given (one worker runs the strategy asked for, alone).
    #[arg(long, value_parser = parse_fuzz_share)]
    pub fuzz_share: Option<f64>,
    /// Fuzz in the interpreter even when the program builds natively (by default the
    /// fuzzer runs the program natively, through a fork server, and interprets only the
    /// runs that are new).
    #[arg(long)]
    pub interpreted_fuzzing: bool,
}

impl FuzzArgs {
    /// The share given, or the default: one worker asked for one strategy runs it alone.
    pub fn share(&self, one_strategy_alone: bool) -> f64 {
        self.fuzz_share
            .unwrap_or(if one_strategy_alone { 0.0 } else { 0.5 })
    }
}

fn parse_fuzz_share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("`{s}` is not a share from 0 to 1")),
    }
}

use crate::driver::fuzz_native::{NativeExecutor, PendingBuild};
use crate::driver::havoc::{self, Dictionary, Havoc, LengthLimit};
use crate::driver::input_to_state;
use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::exec::forkserver::{NativeRun, NativeStatus, Record};
use crate::exec::input::Replay;
use crate::exec::input::{InputSource, InputValue, RandomInputs, Seeded};
use crate::exec::machine::{Outcome, RunResult};
use crate::exec::{Config, Program};
use crate::ir::Terminator;
use crate::ir::ops::sext;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

/// Input values the corpus holds at most (about 64 bytes each); past it only runs that cover
/// a new goal join.
const MAX_CORPUS_VALUES: usize = 1 << 21;

/// Step-limited runs held back until the end of a turn (a test only for goals no finished run
/// covers, as concolic search does).
const MAX_HELD: usize = 64;

/// Most distinct integer constants taken from the program.
const MAX_DICT_INTS: usize = 256;

/// Time a native run may take at most and at least (the interpreter's step limit is its own).
const NATIVE_RUN_LIMIT: Duration = Duration::from_millis(500);
const MIN_NATIVE_LIMIT: Duration = Duration::from_millis(20);
/// The fork server's first run (it starts the server): room for a slow start on a loaded
/// machine, within the second a turn may overrun by.
const FIRST_RUN_LIMIT: Duration = Duration::from_secs(1);
/// The most a native run may take while none has ended yet (the limit grows to it from the
/// least one): a program without inputs may loop for a second before its only outcome (2^28
/// iterations take 0.9 s in the probed build; AFL++'s default limit is 1 s).
const UNTRIED_RUN_LIMIT: Duration = Duration::from_secs(2);

/// Random values after a native run's list at first (a run reading past them reads zeros;
/// the number grows when runs that did so time out).
const NATIVE_PADDING: usize = 64;

/// New native runs shorter than this are interpreted to become tests (the interpreter takes
/// some hundred times as long); longer ones are recorded from a native run.
const INTERPRET_BELOW: Duration = Duration::from_millis(2);

/// Seconds of interpreting new runs the fuzzer allows itself beyond its native runs' time: on a
/// program whose runs take microseconds, the native runs' time alone would soon leave new runs
/// to be recorded natively, where a run's undefined behaviour (a read past a table) is that of
/// the fuzzer's build, not of the build replay checks against.
const INTERPRETING_ALLOWANCE: f64 = 1.0;

/// Steps the interpreter looks at a run recorded natively for a decision on uninitialized
/// memory (`Fuzzing::claims_end`): some milliseconds, for a run the fuzzer found new.
const NATIVE_WATCH_STEPS: u64 = 1_000_000;

/// Most runs in a native batch (`Fuzzing::batch_size`).
const MAX_BATCH: usize = 1024;

/// Most input-to-state mutants of one corpus entry.
const INPUT_TO_STATE_MUTANTS: usize = 256;

/// Crashing native runs with nothing new that are interpreted anyway: the first few, then one
/// in this many (the interpreter decides whether a crash is a new fault).
const CRASH_SAMPLE: u64 = 256;
const CRASH_FIRST: u64 = 16;

/// Where the runs go.
enum Executor {
    /// Native if the program builds; the build starts at the first turn.
    Untried,
    /// Being built on a thread of its own (the turns go to the other techniques meanwhile).
    Building(Box<PendingBuild>),
    Native(Box<NativeExecutor>),
    /// The interpreter; why not natively, when native runs were asked for.
    Interpreted(Option<String>),
}

/// The interpreter in place of the native executor, with why; the user hears it once (the
/// workers' fuzzers fail alike), since fuzzing interpreted is far slower.
fn not_native(why: String) -> Executor {
    static TOLD: std::sync::Once = std::sync::Once::new();
    TOLD.call_once(|| {
        eprintln!("cairn: warning: fuzzing through the interpreter, not natively: {why}")
    });
    Executor::Interpreted(Some(why))
}

pub struct Fuzzing {
    rng: SmallRng,
    cfg: Config,
    havoc: Havoc,
    corpus: Vec<Vec<InputValue>>,
    corpus_values: usize,
    /// How long mutants may grow.
    lengths: LengthLimit,
    /// Per branch goal, the hit-count buckets some run reached (bit k: bucket k).
    buckets: Vec<u8>,
    seeds_seen: usize,
    held: Vec<RunResult>,
    runs: u64,
    tests: u64,
    exec: Executor,
    /// Per goal, the hit-count buckets some native run reached.
    goal_buckets: Vec<u8>,
    native: NativeCounts,
    /// The native time limit while no run has ended yet: four times longer at each time-out,
    /// so a program whose every run takes longer than the least limit (a long loop without
    /// inputs) ends.
    untried_limit: Option<Duration>,
    /// Random values after each native run's list.
    padding: usize,
    /// A native batch's mutants and their records (kept to reuse the allocations).
    batch: (Vec<Vec<InputValue>>, Vec<Record>),
    /// Corpus entries before this one have been through the input-to-state stage.
    logged: usize,
    /// The program may act on an environment Cairn does not model: a native run is a test only
    /// once the interpreter agrees (see [`Program::touches_environment`]).
    environment: bool,
}

#[derive(Default, serde::Serialize)]
struct NativeCounts {
    runs: u64,
    timeouts: u64,
    /// Of the time-outs: runs ended after reading a thousand values past their own.
    out_of_values: u64,
    crashes: u64,
    /// Runs also interpreted (new, or a sampled crash), and the seconds that took.
    interpreted: u64,
    interpreting: f64,
    /// Runs recorded from a native run in a fresh process.
    recorded: u64,
    /// Seconds of the slowest run that ended (the time limit is ten times as much).
    slowest_ok: f64,
    /// Seconds the native runs took (fork to status), for their rate.
    seconds: f64,
    /// Seconds from the native build's start to the fork server's first answer (the fuzzer
    /// runs nothing natively before; a peer's build is outside its fuzzing time).
    build_seconds: f64,
    /// Batches of runs sent to the fork server at once.
    batches: u64,
    /// Corpus entries run with the comparison log, and the input-to-state mutants of them.
    logged_entries: u64,
    input_to_state: u64,
}

/// AFL's buckets: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128 and more.
fn bucket(n: u32) -> u8 {
    match n {
        0 => 0,
        1 => 1,
        2 => 1 << 1,
        3 => 1 << 2,
        4..=7 => 1 << 3,
        8..=15 => 1 << 4,
        16..=31 => 1 << 5,
        32..=127 => 1 << 6,
        _ => 1 << 7,
    }
}

impl Fuzzing {
    /// A fuzzer of `program`; `native`: run natively when the program builds.
    pub fn new(program: &Program, seed: u64, cfg: &Config, native: bool) -> Fuzzing {
        Fuzzing {
            rng: SmallRng::seed_from_u64(seed ^ 0x6675_7a7a),
            cfg: cfg.clone(),
            havoc: Havoc {
                dict: dictionary(program),
                lengths: program.unit.lengths.clone(),
            },
            corpus: vec![],
            corpus_values: 0,
            lengths: LengthLimit::default(),
            buckets: vec![0; program.module.branch_goals.len()],
            seeds_seen: 0,
            held: vec![],
            runs: 0,
            tests: 0,
            exec: match native {
                true => Executor::Untried,
                false => Executor::Interpreted(None),
            },
            goal_buckets: vec![],
            native: NativeCounts::default(),
            untried_limit: None,
            padding: NATIVE_PADDING,
            batch: Default::default(),
            logged: 0,
            environment: program.touches_environment(),
        }
    }

    /// Starts the native build (at `prepare`, or the first turn) and the executor once it is
    /// built; returns whether the fuzzer can run now (not while it builds).
    fn start_executor(&mut self, s: &Session) -> bool {
        match std::mem::replace(&mut self.exec, Executor::Untried) {
            Executor::Untried => {
                // A native run's memory: what an interpreted run may take (past it, allocations
                // fail, where the interpreter ends the run at its limit).
                self.exec = match NativeExecutor::build(s, self.cfg.mem_limit) {
                    Ok(pending) => Executor::Building(Box::new(pending)),
                    Err(e) => not_native(format!("{e:#}")),
                };
                !matches!(self.exec, Executor::Building(_))
            }
            Executor::Building(pending) if !pending.is_finished() => {
                self.exec = Executor::Building(pending);
                false
            }
            Executor::Building(pending) => {
                // A program that never ends its first run must not hold the session past its
                // deadline (it held an endless program's for 5 s), nor the turn for long: a
                // menu that loops at the end of stdin held a 0.2-s turn for 5 s.
                let left = s.deadline().saturating_duration_since(Instant::now());
                let limit = left.min(FIRST_RUN_LIMIT).max(Duration::from_millis(1));
                let since = pending.started;
                let started = pending.join().and_then(|b| NativeExecutor::start(b, limit));
                self.native.build_seconds = since.elapsed().as_secs_f64();
                self.exec = match started {
                    Ok(x) => Executor::Native(Box::new(x)),
                    Err(e) => not_native(format!("{e:#}")),
                };
                true
            }
            other => {
                self.exec = other;
                true
            }
        }
    }

    /// Runs `values` natively. A run that is new becomes a test: through the interpreter when
    /// it is short (the interpreter sees faults a native run does not), else from what the
    /// same values take in a fresh process.
    fn run_native(&mut self, s: &mut Session, mut values: Vec<InputValue>) -> anyhow::Result<()> {
        // Values past the list's end are drawn at random, as the interpreted fuzzer's are (a
        // character distribution, which reads as small numbers too), so a loop over the input
        // meets its end; the interpreter gets the same ones.
        let mut random = RandomInputs { rng: &mut self.rng };
        values.extend((0..self.padding).map(|_| random.next_char()));
        let record = Record::of(&values);
        let limit = self.run_limit(s);
        let Executor::Native(x) = &mut self.exec else {
            unreachable!("run_native without a native executor")
        };
        let run = x.run(&record, limit)?;
        self.judge_native(s, values, run, 1)
    }

    /// A native run's (or batch's) time limit, within the session's deadline.
    fn run_limit(&self, s: &Session) -> Duration {
        let left = s.deadline().saturating_duration_since(Instant::now());
        self.native_limit().min(left).max(Duration::from_millis(1))
    }

    /// Runs in a native batch: one at first (their time is not known yet), then as many as
    /// take a quarter of a run's time limit, so a batch is two context switches for many runs
    /// and a run that times out in it is still one that outlasts the others several times.
    fn batch_size(&self) -> usize {
        if self.native.runs < 64 {
            return 1;
        }
        let per_run = self.native.seconds / self.native.runs as f64;
        let room = self.native_limit().as_secs_f64() / 4.0;
        ((room / per_run.max(1e-7)) as usize).clamp(1, MAX_BATCH)
    }

    /// Mutates a batch of corpus entries and runs them natively; the run that ends the batch
    /// early (a new one, a crash, a time-out) is judged as `run_native` judges one, and the
    /// batch goes on after it. The runs before it reached nothing new.
    fn run_native_batch(&mut self, s: &mut Session) -> anyhow::Result<()> {
        let prepared = self.input_to_state(s);
        let size = prepared
            .as_ref()
            .map_or_else(|| self.batch_size(), Vec::len);
        // The random values past each mutant's own are the batch's (drawing and spelling them
        // per run would cost more than the run).
        let mut random = RandomInputs { rng: &mut self.rng };
        let padding: Vec<InputValue> = (0..self.padding).map(|_| random.next_char()).collect();
        let tail = Record::of(&padding);
        // The mutants' values and records, in buffers kept from batch to batch.
        let (mut batch, mut records) = std::mem::take(&mut self.batch);
        batch.resize_with(size, Vec::new);
        records.resize_with(size, Record::default);
        for (k, (values, r)) in batch.iter_mut().zip(records.iter_mut()).enumerate() {
            if let Some(mutants) = &prepared {
                values.clone_from(&mutants[k]);
            } else {
                let base = self.pick();
                let other = self.rng.gen_range(0..self.corpus.len());
                values.clone_from(&self.corpus[base]);
                self.havoc.mutate(
                    &mut self.rng,
                    values,
                    &self.corpus[other],
                    self.lengths.get(),
                );
            }
            r.clear();
            for v in values.iter() {
                r.push(v);
            }
        }
        let limit = self.run_limit(s);
        let Executor::Native(x) = &mut self.exec else {
            unreachable!("run_native_batch without a native executor")
        };
        let loaded = x.load(&records[..size].iter().collect::<Vec<_>>(), &tail);
        // Aborting runs with nothing new are sampled as crashes are (see `judge_native`).
        x.stop_at_abort(
            self.native.crashes < CRASH_FIRST || self.native.batches.is_multiple_of(CRASH_SAMPLE),
        );
        self.native.batches += 1;
        let mut from = 0;
        let mut judged = Ok(());
        while from < loaded && !s.should_stop() && judged.is_ok() {
            let Executor::Native(x) = &mut self.exec else {
                unreachable!()
            };
            let (i, run) = match x.resume(from, limit) {
                Ok(r) => r,
                Err(e) => {
                    judged = Err(e);
                    break;
                }
            };
            let mut values = batch[i].clone();
            values.extend_from_slice(&padding);
            judged = self.judge_native(s, values, run, i - from + 1);
            from = i + 1;
        }
        self.batch = (batch, records);
        judged
    }

    /// The input-to-state mutants (`driver::input_to_state`) of the next corpus entry not yet
    /// run with the comparison log; None while the log's build is not ready, or when there is
    /// no such entry or it has none.
    fn input_to_state(&mut self, s: &Session) -> Option<Vec<Vec<InputValue>>> {
        let limit = self.run_limit(s);
        let Executor::Native(x) = &mut self.exec else {
            return None;
        };
        let entry = self.corpus.get(self.logged)?;
        let logged = x.comparisons(&Record::of(entry), limit)?;
        self.logged += 1;
        let lengths = &self.havoc.lengths;
        let mutants = input_to_state::mutants(entry, &logged, INPUT_TO_STATE_MUTANTS, lengths);
        crate::debug_log!(
            "fuzz",
            "entry {} of {} values: {} comparisons logged ({:?}...), {} mutants",
            self.logged - 1,
            entry.len(),
            logged.len(),
            &logged[..logged.len().min(12)],
            mutants.len()
        );
        self.native.logged_entries += 1;
        self.native.input_to_state += mutants.len() as u64;
        (!mutants.is_empty()).then_some(mutants)
    }

    /// Judges the native `run` of `values`, the last of `runs` (a batch's runs before it
    /// reached nothing new): a new one becomes a test (see `run_native`).
    fn judge_native(
        &mut self,
        s: &mut Session,
        values: Vec<InputValue>,
        run: NativeRun,
        runs: usize,
    ) -> anyhow::Result<()> {
        for _ in 0..runs {
            s.count_run();
        }
        self.runs += runs as u64;
        self.native.runs += runs as u64;
        self.native.seconds += run.time.as_secs_f64();
        // A batch's time is its runs': the one judged is taken to be as long as their mean, in
        // CPU time where the runner measured it (on a loaded machine a run of microseconds can
        // take milliseconds from request to report; whether it is interpreted, and so what its
        // test claims, must not depend on that).
        let time = run.runs_cpu.unwrap_or(run.time) / runs as u32;
        let limit = self.run_limit(s);
        let Executor::Native(x) = &mut self.exec else {
            unreachable!("judge_native without a native executor")
        };
        let hits = x.hits();
        if self.goal_buckets.len() < hits.len() {
            self.goal_buckets.resize(hits.len(), 0);
        }
        let mut novel = false;
        for (seen, &n) in self.goal_buckets.iter_mut().zip(hits) {
            let b = bucket(n as u32);
            if b & !*seen != 0 {
                *seen |= b;
                novel = true;
            }
        }
        if novel {
            // The server's copy, so its batches stop at the next new run, not this kind.
            let seen = x.seen_mut();
            let n = seen.len().min(self.goal_buckets.len());
            seen[..n].copy_from_slice(&self.goal_buckets[..n]);
        }
        let crash = matches!(run.status, NativeStatus::Signal(_)) || run.aborted;
        self.native.crashes += crash as u64;
        if run.status == NativeStatus::Timeout {
            self.native.timeouts += 1;
            if self.native.slowest_ok == 0.0 {
                self.untried_limit = Some((limit * 4).min(UNTRIED_RUN_LIMIT));
            }
            self.native.out_of_values += run.out_of_values as u64;
            // (A run that ran out of values ends on its own: more of them would only make
            // every run of a program that never ends longer.)
            if run.consumed as usize >= values.len() && !run.out_of_values {
                // It read past every value (zeros from there: a loop waiting for a nonzero
                // choice never ends): later runs get more random values.
                self.padding = (self.padding * 4).min(havoc::MAX_INPUTS);
            }
            if !novel || self.environment {
                return Ok(());
            }
            // What it took before the limit, from a fresh process: a test held for goals no
            // run that ended covers (as the interpreter's step-limited runs are).
            let (_, r) = x.run_fresh(&s.goals, &values, limit)?;
            self.native.recorded += 1;
            if self.corpus_values < MAX_CORPUS_VALUES {
                // Mutations build on it: most runs of a program that never ends are of this kind.
                self.corpus_values += r.inputs.len();
                self.corpus.push(r.inputs.clone());
            }
            if let Some(claims) = self.claims_end(s, &r) {
                let kept = s.record_reached_natively(&claims, &r, "fuzz")?;
                self.tests += !kept.is_empty() as u64;
                return Ok(());
            }
            return self.keep(s, r, novel);
        }
        self.native.slowest_ok = self.native.slowest_ok.max(time.as_secs_f64());
        let sampled = crash
            && (self.native.crashes <= CRASH_FIRST
                || self.native.crashes.is_multiple_of(CRASH_SAMPLE));
        if !novel && !sampled {
            return Ok(());
        }
        let interpreter_decides = s.program.def_use.is_some() || self.environment;
        // Interpreting new runs may take as long as the native runs themselves, no longer: on
        // a program where runs are often new, it would otherwise be most of the fuzzer's time.
        let interpreting_pays =
            self.native.interpreting <= self.native.seconds + INTERPRETING_ALLOWANCE;
        let mut past_uninitialized = None;
        let interpreted = interpreter_decides || time < INTERPRET_BELOW && interpreting_pays;
        if interpreted {
            self.native.interpreted += 1;
            let texts = values.iter().map(InputValue::to_text).collect();
            let started = Instant::now();
            let mut r = s.program.run(&mut Replay::new(texts), &self.cfg);
            if !interpreter_decides && !r.uninitialized_checked && s.is_new(&r) {
                r = s.watched(&r);
            }
            self.native.interpreting += started.elapsed().as_secs_f64();
            // Def-use pairs are seen only by the interpreter, and a run that acts on the
            // environment is a test only as the interpreter sees it; otherwise a run the
            // interpreter cannot end (inline assembly, its step limit) is the native run's.
            let ended = !matches!(
                r.outcome,
                Outcome::StepLimit
                    | Outcome::Unsupported {
                        environment: false,
                        ..
                    }
            );
            // Past a decision on uninitialized memory (zeros to the interpreter) only the
            // native run knows where the program went: a program whose every path reads such
            // memory (a struct from malloc) would otherwise get no test at all.
            if r.uninitialized_at.is_some() && !interpreter_decides {
                past_uninitialized = Some(r);
            } else if ended || interpreter_decides {
                return self.keep(s, r, novel);
            }
        }
        let Executor::Native(x) = &mut self.exec else {
            unreachable!()
        };
        let (fresh, r) = x.run_fresh(&s.goals, &values, limit)?;
        if fresh.status == NativeStatus::Timeout {
            return Ok(());
        }
        self.native.recorded += 1;
        if !interpreted {
            past_uninitialized = self.claims_end(s, &r);
        }
        if let Some(claims) = past_uninitialized {
            let kept = s.record_reached_natively(&claims, &r, "fuzz")?;
            self.tests += !kept.is_empty() as u64;
            if novel && self.corpus_values < MAX_CORPUS_VALUES {
                self.corpus_values += r.inputs.len();
                self.corpus.push(r.inputs);
            }
            return Ok(());
        }
        self.keep(s, r, novel)
    }

    /// Where the claims of `native`, a run recorded from a fresh process without the
    /// interpreter, end: the interpreter's run of its inputs with a shadow, if within its
    /// first steps a decision rests on uninitialized memory (natively whatever the memory
    /// held decided it: no claim may rest on that, as none of an interpreted run does).
    fn claims_end(&self, s: &Session, native: &RunResult) -> Option<RunResult> {
        let cfg = Config {
            max_steps: self.cfg.max_steps.min(NATIVE_WATCH_STEPS),
            ..self.cfg.clone()
        };
        let texts = native.inputs.iter().map(InputValue::to_text).collect();
        let r = s.program.run(&mut Replay::new(texts), &cfg);
        let watched = match r.uninitialized_checked {
            true => r,
            false => s.watched(&r),
        };
        watched.uninitialized_at.is_some().then_some(watched)
    }

    /// A native run's time limit: well above the slowest run that ended so far (AFL's
    /// calibration), within bounds.
    fn native_limit(&self) -> Duration {
        if self.native.slowest_ok == 0.0 {
            return self.untried_limit.unwrap_or(MIN_NATIVE_LIMIT);
        }
        Duration::from_secs_f64(self.native.slowest_ok * 10.0)
            .clamp(MIN_NATIVE_LIMIT, NATIVE_RUN_LIMIT)
    }

    /// Runs `values` (random values past their end); keeps the run in the corpus if it took a
    /// branch a new number of times.
    fn run_one(&mut self, s: &mut Session, values: Vec<InputValue>) -> anyhow::Result<()> {
        if matches!(self.exec, Executor::Native(_)) {
            // A native executor that fails (its server killed) leaves the fuzzing to the
            // interpreter, not the generation to an error.
            if let Err(e) = self.run_native(s, values) {
                self.exec =
                    Executor::Interpreted(Some(format!("the native executor stopped: {e:#}")));
            }
            return Ok(());
        }
        let mut src = Seeded {
            values,
            pos: 0,
            fallback: RandomInputs { rng: &mut self.rng },
        };
        let r = s.program.run(&mut src, &self.cfg);
        self.runs += 1;
        if matches!(r.outcome, Outcome::Cut(_)) {
            return s.record(&r, "fuzz").map(drop);
        }
        let mut novel = false;
        for (seen, &n) in self.buckets.iter_mut().zip(&r.branches) {
            let b = bucket(n);
            if b & !*seen != 0 {
                *seen |= b;
                novel = true;
            }
        }
        self.keep(s, r, novel)
    }

    /// Records an interpreted run; keeps its values in the corpus if it was `novel`.
    fn keep(&mut self, s: &mut Session, r: RunResult, novel: bool) -> anyhow::Result<()> {
        if matches!(r.outcome, Outcome::Cut(_)) {
            return s.record(&r, "fuzz").map(drop);
        }
        if r.outcome == Outcome::StepLimit {
            if novel && self.held.len() < MAX_HELD {
                self.held.push(r);
            }
            return Ok(());
        }
        let fresh = s.record(&r, "fuzz")?;
        self.tests += !fresh.is_empty() as u64;
        if novel && (self.corpus_values < MAX_CORPUS_VALUES || !fresh.is_empty()) {
            self.corpus_values += r.inputs.len();
            self.corpus.push(r.inputs);
        }
        Ok(())
    }

    /// The other techniques' tests and seeds, run once to join the corpus.
    fn import_seeds(&mut self, s: &mut Session) -> anyhow::Result<()> {
        let seeds = s.seeds_since(self.seeds_seen);
        self.seeds_seen += seeds.len();
        for seed in seeds {
            if seed.session == s.id && seed.found_by == "fuzz" || s.should_stop() {
                continue;
            }
            self.lengths.admit(seed.inputs.len());
            self.run_one(s, seed.inputs)?;
        }
        Ok(())
    }

    /// An entry to mutate: one of the latest (the newest ground), or the shorter of two (short
    /// inputs run fast and keep mutations on what matters, as AFL favours small entries).
    fn pick(&mut self) -> usize {
        let n = self.corpus.len();
        if self.rng.gen_bool(0.3) {
            return n - 1 - self.rng.gen_range(0..n.min(16));
        }
        let (a, b) = (self.rng.gen_range(0..n), self.rng.gen_range(0..n));
        match self.corpus[a].len() <= self.corpus[b].len() {
            true => a,
            false => b,
        }
    }
}

/// Integer constants of the program's own functions (small ones: addresses are constants too)
/// and the words it compares input with.
fn dictionary(p: &Program) -> Dictionary {
    let mut ints: Vec<i64> = vec![];
    for f in p
        .module
        .functions
        .iter()
        .filter(|f| !crate::analysis::defuse::is_runtime(&p.module, f))
    {
        let cases = f.blocks.iter().flat_map(|b| match &b.term {
            Terminator::Switch { cases, w, .. } => {
                cases.iter().map(|c| sext(c.0, *w as u32) as u64).collect()
            }
            _ => vec![],
        });
        for c in cases.chain(f.reg_init.iter().copied()) {
            let x = c as i64;
            if x.unsigned_abs() <= 1 << 20 && !ints.contains(&x) && ints.len() < MAX_DICT_INTS {
                ints.push(x);
            }
        }
    }
    Dictionary {
        ints,
        words: crate::analysis::words::compared_words(&p.module),
    }
}

impl Technique for Fuzzing {
    /// The native build starts with the session: the first turn may come only after a long
    /// one of another technique (a first run to the step limit), and could be the last.
    fn prepare(&mut self, s: &Session) {
        if matches!(self.exec, Executor::Untried) {
            self.start_executor(s);
        }
    }

    fn name(&self) -> &'static str {
        "fuzz"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        if !self.start_executor(s) {
            // Still building: the turn goes to the others (a short wait when there are none).
            std::thread::sleep(
                Duration::from_millis(5).min(until.saturating_duration_since(Instant::now())),
            );
            return Ok(());
        }
        self.import_seeds(s)?;
        while !s.should_stop() && Instant::now() < until {
            if self.corpus.is_empty() {
                self.run_one(s, vec![])?;
                continue;
            }
            let (before, entries) = (self.runs, self.corpus.len());
            if matches!(self.exec, Executor::Native(_)) {
                // A native executor that fails (its server killed) leaves the fuzzing to the
                // interpreter, not the generation to an error.
                if let Err(e) = self.run_native_batch(s) {
                    self.exec =
                        Executor::Interpreted(Some(format!("the native executor stopped: {e:#}")));
                }
            } else {
                let base = self.pick();
                let other = self.rng.gen_range(0..self.corpus.len());
                let mut values = self.corpus[base].clone();
                self.havoc.mutate(
                    &mut self.rng,
                    &mut values,
                    &self.corpus[other],
                    self.lengths.get(),
                );
                self.run_one(s, values)?;
            }
            self.lengths
                .after(self.runs - before, self.corpus.len() > entries);
            if before / 256 != self.runs / 256 {
                self.import_seeds(s)?;
            }
            s.tick(|| format!("fuzz runs {}, corpus {}", self.runs, self.corpus.len()));
        }
        for r in std::mem::take(&mut self.held) {
            s.record(&r, "fuzz")?;
        }
        Ok(())
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert(
            "fuzz".into(),
            serde_json::json!({
                "runs": self.runs,
                "corpus": self.corpus.len(),
                "corpus_values": self.corpus_values,
                "tests": self.tests,
                "dictionary": self.havoc.dict.ints.len() + self.havoc.dict.words.len(),
                "executor": match &self.exec {
                    Executor::Native(_) => "native",
                    // The search was over before the fuzzer's first turn or its build.
                    Executor::Untried | Executor::Building(_) => "not started",
                    Executor::Interpreted(_) => "interpreter",
                },
                "native": &self.native,
            }),
        );
        if let Executor::Interpreted(Some(why)) = &self.exec {
            m["fuzz"]["not_native"] = why.as_str().into();
        }
        m
    }
}
