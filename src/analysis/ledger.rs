//! The goal ledger: the one place where every technique records what it covered or proved.
//! Results merge by goal; covered and proven dominate unknown.

use crate::analysis::goals::Goals;

#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    Unknown,
    /// Covered by the test with this number.
    Covered(usize),
    /// Proven unreachable; how.
    Unreachable(String),
    /// Not a goal of this run (e.g. branches under `--goals error`).
    Ignored,
    /// Another shard's goal (`--shard`): this run neither searches for it nor tries to prove
    /// it, but a test that covers it on the way is kept and a proof of the whole program
    /// (exhaustive exploration) holds for it, so merged shards keep what each found.
    OtherShard,
}

#[derive(Clone, Debug)]
pub struct Ledger {
    pub status: Vec<Status>,
    pub covered: usize,
    pub unreachable: usize,
    /// Goals that were proven unreachable and later covered: soundness bugs, reported loudly.
    pub violations: Vec<usize>,
    /// Goals that do not count in this run: ignored ones, and other shards' goals this run
    /// has not decided.
    pub ignored: usize,
}

impl Ledger {
    pub fn new(goals: &Goals) -> Ledger {
        Ledger {
            status: vec![Status::Unknown; goals.len()],
            covered: 0,
            unreachable: 0,
            violations: vec![],
            ignored: 0,
        }
    }

    /// Goals in `covers` not covered yet.
    pub fn new_goals(&self, covers: &[usize]) -> Vec<usize> {
        covers
            .iter()
            .copied()
            .filter(|&g| !matches!(self.status[g], Status::Covered(_) | Status::Ignored))
            .collect()
    }

    /// Takes a goal out of this run.
    pub fn ignore(&mut self, goal: usize) {
        if self.status[goal] == Status::Unknown {
            self.status[goal] = Status::Ignored;
            self.ignored += 1;
        }
    }

    /// Leaves a goal to another shard (see `Status::OtherShard`).
    pub fn leave_to_other_shard(&mut self, goal: usize) {
        if self.status[goal] == Status::Unknown {
            self.status[goal] = Status::OtherShard;
            self.ignored += 1;
        }
    }

    /// Goals that count in this run.
    pub fn total(&self) -> usize {
        self.status.len() - self.ignored
    }

    pub fn cover(&mut self, goal: usize, test: usize) -> bool {
        match &self.status[goal] {
            Status::Covered(_) | Status::Ignored => false,
            Status::Unreachable(how) => {
                eprintln!(
                    "cairn: SOUNDNESS BUG: goal {goal} was proven unreachable ({how}) but test {test} covers it"
                );
                self.violations.push(goal);
                self.unreachable -= 1;
                self.status[goal] = Status::Covered(test);
                self.covered += 1;
                true
            }
            Status::Unknown => {
                self.status[goal] = Status::Covered(test);
                self.covered += 1;
                true
            }
            Status::OtherShard => {
                self.status[goal] = Status::Covered(test);
                self.covered += 1;
                self.ignored -= 1;
                true
            }
        }
    }

    /// A proof of a goal a test covers is a soundness bug too (with parallel workers a prover
    /// may not have seen the test yet): reported, and the test stands.
    pub fn prove_unreachable(&mut self, goal: usize, how: &str) {
        match &self.status[goal] {
            Status::Unknown => {
                self.status[goal] = Status::Unreachable(how.to_string());
                self.unreachable += 1;
            }
            Status::OtherShard => {
                self.status[goal] = Status::Unreachable(how.to_string());
                self.unreachable += 1;
                self.ignored -= 1;
            }
            Status::Covered(test) => {
                eprintln!(
                    "cairn: SOUNDNESS BUG: goal {goal} was proven unreachable ({how}) but test {test} covers it"
                );
                self.violations.push(goal);
            }
            Status::Unreachable(_) | Status::Ignored => {}
        }
    }

    pub fn unknown(&self) -> usize {
        self.status.len() - self.ignored - self.covered - self.unreachable
    }

    /// How many goals each kind of proof decided (`exhaustive`, `model checker`, `static: ...`).
    pub fn proofs_by_kind(&self) -> std::collections::BTreeMap<String, usize> {
        let mut m = std::collections::BTreeMap::new();
        for st in &self.status {
            if let Status::Unreachable(how) = st {
                *m.entry(how.clone()).or_insert(0) += 1;
            }
        }
        m
    }

    pub fn all_decided(&self) -> bool {
        self.unknown() == 0
    }
}
