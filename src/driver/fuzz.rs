//! Mutational fuzzing: AFL's loop over the shared corpus, in turns with concolic search (as
//! hybrid fuzzers pair them). A concolic run costs a path condition and solver calls; a plain
//! run of the interpreter costs microseconds, and a goal that needs two changes of the input
//! neither of which covers anything alone (a command that creates a job, then one that finds
//! it) is a matter of luck for one flip at a time but of volume for mutation. Each run's inputs
//! are mutated by `havoc`; a run is kept in the corpus when it takes some branch goal a number
//! of times no earlier run did (AFL's hit-count buckets), and recorded as a test when it covers
//! a new goal. Tests of the other techniques join the corpus, and the fuzzer's tests go to
//! them as seeds (concolic search imports them into its tree).

use crate::driver::havoc::{Dictionary, Havoc};
use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::exec::input::{InputValue, RandomInputs, Seeded};
use crate::exec::machine::{Outcome, RunResult};
use crate::exec::ops::sext;
use crate::exec::{Config, Program};
use crate::ir::Terminator;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Input values the corpus holds at most (about 64 bytes each); past it only runs that cover
/// a new goal join.
const MAX_CORPUS_VALUES: usize = 1 << 21;

/// Step-limited runs held back until the end of a turn (a test only for goals no finished run
/// covers, as concolic search does).
const MAX_HELD: usize = 64;

/// Most distinct integer constants taken from the program.
const MAX_DICT_INTS: usize = 256;

pub struct Fuzzing {
    rng: SmallRng,
    cfg: Config,
    havoc: Havoc,
    corpus: Vec<Vec<InputValue>>,
    corpus_values: usize,
    /// Per branch goal, the hit-count buckets some run reached (bit k: bucket k).
    buckets: Vec<u8>,
    seeds_seen: usize,
    held: Vec<RunResult>,
    runs: u64,
    tests: u64,
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
    pub fn new(program: &Program, seed: u64, cfg: &Config) -> Fuzzing {
        Fuzzing {
            rng: SmallRng::seed_from_u64(seed ^ 0x6675_7a7a),
            cfg: cfg.clone(),
            havoc: Havoc {
                dict: dictionary(program),
            },
            corpus: vec![],
            corpus_values: 0,
            buckets: vec![0; program.module.branch_goals.len()],
            seeds_seen: 0,
            held: vec![],
            runs: 0,
            tests: 0,
        }
    }

    /// Runs `values` (random values past their end); keeps the run in the corpus if it took a
    /// branch a new number of times.
    fn run_one(&mut self, s: &mut Session, values: Vec<InputValue>) -> anyhow::Result<()> {
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
    fn name(&self) -> &'static str {
        "fuzz"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        self.import_seeds(s)?;
        while !s.should_stop() && Instant::now() < until {
            if self.corpus.is_empty() {
                self.run_one(s, vec![])?;
                continue;
            }
            let base = self.pick();
            let other = self.rng.gen_range(0..self.corpus.len());
            let mut values = self.corpus[base].clone();
            self.havoc
                .mutate(&mut self.rng, &mut values, &self.corpus[other]);
            self.run_one(s, values)?;
            if self.runs.is_multiple_of(256) {
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
                "tests": self.tests,
                "dictionary": self.havoc.dict.ints.len() + self.havoc.dict.words.len(),
            }),
        );
        m
    }
}
