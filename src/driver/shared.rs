//! What every worker of one generation shares: the ledger that decides each goal, the output
//! directory and the coverage history, behind one mutex. Workers keep a view of the ledger
//! (refreshed when the shared one moves) and send their results here, so tests are numbered
//! once and deduplicated, and a proof from any worker holds for all of them.

use crate::analysis::ledger::Ledger;
use crate::exec::InputValue;
use crate::output::suite::{SuiteWriter, Test};
use anyhow::Result;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// The figures at a moment when one of them changed (coverage over time).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Milestone {
    pub time_s: f64,
    pub covered: usize,
    pub unreachable: usize,
    pub tests: usize,
    /// Program runs so far (all workers).
    pub iterations: u64,
}

pub struct Results {
    pub ledger: Ledger,
    pub out: SuiteWriter,
    /// Every change of the coverage figures, in order.
    pub history: Vec<Milestone>,
    /// Fault kinds and places already kept as tests.
    crash_sites: HashSet<String>,
    /// Goals a kept test's input took natively past its claims (`Test::reached_natively`).
    reached_natively: HashSet<usize>,
    /// Inputs worth exploring from, in the order found: every test, and what techniques
    /// offer (lazy expansion's concretized paths). Concolic search picks up the others'.
    pub corpus: Vec<Seed>,
}

/// An input in the shared corpus, with who found it.
#[derive(Clone)]
pub struct Seed {
    pub inputs: Vec<InputValue>,
    /// The session (worker) that found it and the technique (`found_by`).
    pub session: u32,
    pub found_by: String,
}

pub struct Shared {
    results: Mutex<Results>,
    start: Instant,
    /// Bumped at every change of the ledger: views refresh when it moved.
    version: AtomicU64,
    tests: AtomicUsize,
    /// A test written so far ends in a fault (the search then leaves time to minimize it).
    faults_found: AtomicBool,
    runs: AtomicU64,
    sessions: AtomicU32,
    all_decided: AtomicBool,
    /// What each worker is doing (its latest heartbeat), for the progress display.
    heartbeats: Mutex<Vec<String>>,
    /// `--shard`: testing explores this shard's share of the paths (`Shard::owns_path`).
    pub path_shard: std::sync::OnceLock<crate::driver::shard::Shard>,
    /// A worker explored this shard's share of the paths exactly.
    paths_exhausted: AtomicBool,
    /// Some run's path depended on addresses (the symbolic shadow saw a branch on one).
    layout_dependent: AtomicBool,
}

/// What offering a run to the shared results did.
pub struct Kept {
    /// Goals it covered first.
    pub fresh: Vec<usize>,
    /// A new milestone, when the figures changed.
    pub milestone: Option<Milestone>,
}

impl Shared {
    pub fn new(ledger: Ledger, out: SuiteWriter, start: Instant) -> Shared {
        let all_decided = ledger.all_decided();
        Shared {
            results: Mutex::new(Results {
                ledger,
                out,
                history: vec![],
                crash_sites: HashSet::new(),
                reached_natively: HashSet::new(),
                corpus: vec![],
            }),
            start,
            version: AtomicU64::new(0),
            tests: AtomicUsize::new(0),
            faults_found: AtomicBool::new(false),
            runs: AtomicU64::new(0),
            sessions: AtomicU32::new(0),
            all_decided: AtomicBool::new(all_decided),
            heartbeats: Mutex::new(vec![]),
            path_shard: std::sync::OnceLock::new(),
            paths_exhausted: AtomicBool::new(false),
            layout_dependent: AtomicBool::new(false),
        }
    }

    /// The results, locked. A worker that panicked while holding them left them consistent
    /// (every change is made whole before anything can fail), so poisoning is ignored.
    pub fn lock(&self) -> MutexGuard<'_, Results> {
        self.results.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    pub fn tests(&self) -> usize {
        self.tests.load(Ordering::Relaxed)
    }

    pub fn faults_found(&self) -> bool {
        self.faults_found.load(Ordering::Relaxed)
    }

    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    pub fn count_run(&self) {
        self.runs.fetch_add(1, Ordering::Relaxed);
    }

    /// A number for a new session (worker) of this generation.
    pub fn new_session(&self) -> u32 {
        self.sessions.fetch_add(1, Ordering::Relaxed)
    }

    /// Adds an input to the corpus.
    pub fn add_seed(&self, seed: Seed) {
        self.lock().corpus.push(seed);
    }

    /// The corpus from entry `from` on.
    pub fn seeds_since(&self, from: usize) -> Vec<Seed> {
        let r = self.lock();
        r.corpus.get(from..).map_or(vec![], |s| s.to_vec())
    }

    pub fn all_decided(&self) -> bool {
        self.all_decided.load(Ordering::Relaxed)
    }

    /// This shard's share of the paths was explored exactly (see `output::merge`).
    pub fn paths_exhausted(&self) -> bool {
        self.paths_exhausted.load(Ordering::Relaxed)
    }

    /// Writes `t` whatever it covers (a fault's minimized reproducer).
    pub fn add_test(&self, t: &crate::output::suite::Test) -> Result<usize> {
        let mut r = self.lock();
        let n = r.out.add(t)?;
        self.changed(&r);
        Ok(n)
    }

    /// A run's path depended on the memory layout.
    pub fn note_layout_dependence(&self) {
        self.layout_dependent.store(true, Ordering::Relaxed);
    }

    /// The program branches on addresses: a run no shadow followed (a native run, a plain
    /// interpreted one) may have taken a path the layout decided, which native replay of the
    /// test, in another layout, need not take.
    pub fn layout_dependent(&self) -> bool {
        self.layout_dependent.load(Ordering::Relaxed)
    }

    /// A worker explored this shard's share of the paths exactly.
    pub fn exhaust_paths(&self) {
        self.paths_exhausted.store(true, Ordering::Relaxed);
    }

    /// Call after changing the ledger (under the lock): views refresh, stop flags follow. A
    /// shard stops when its own goals are decided (with its share of the paths explored, the
    /// model checker goes on with those left: another share may stay unexplored).
    fn changed(&self, r: &Results) {
        self.all_decided
            .store(r.ledger.all_decided(), Ordering::Relaxed);
        self.tests.store(r.out.tests, Ordering::Relaxed);
        self.faults_found
            .store(r.out.has_faults(), Ordering::Relaxed);
        self.version.fetch_add(1, Ordering::Release);
    }

    /// Records the figures if they changed since the last milestone (and appends coverage.csv).
    pub fn note_progress(&self, r: &mut Results) -> Result<Option<Milestone>> {
        let (covered, unreachable, tests) = (r.ledger.covered, r.ledger.unreachable, r.out.tests);
        if r.history
            .last()
            .is_some_and(|m| (m.covered, m.unreachable, m.tests) == (covered, unreachable, tests))
        {
            return Ok(None);
        }
        let m = Milestone {
            time_s: self.start.elapsed().as_secs_f64(),
            covered,
            unreachable,
            tests,
            iterations: self.runs(),
        };
        r.history.push(m);
        r.out.progress(&r.ledger, self.runs())?;
        Ok(Some(m))
    }

    /// Keeps a run covering `covers` as a test if it covers a goal first or crashes at a new
    /// place (`crash`: its fault's kind and place, or each site it leaks at). `test` makes the
    /// test (its number is given here, under the lock, so numbers are dense and each test is
    /// written once).
    pub fn offer(
        &self,
        covers: &[usize],
        crash: Vec<String>,
        max_tests: Option<usize>,
        session: u32,
        test: impl FnOnce() -> Test,
    ) -> Result<Kept> {
        let mut r = self.lock();
        // Checked under the lock: workers racing past `--max-tests` would write one each.
        if max_tests.is_some_and(|m| r.out.tests >= m) {
            return Ok(Kept {
                fresh: vec![],
                milestone: None,
            });
        }
        let fresh = r.ledger.new_goals(covers);
        // Every site inserted (no short cut): each is known from now on.
        let new_crash = crash
            .into_iter()
            .fold(false, |new, c| r.crash_sites.insert(c) | new);
        if fresh.is_empty() && !new_crash {
            return Ok(Kept {
                fresh,
                milestone: None,
            });
        }
        let test = test();
        self.add(r, fresh, session, test)
    }

    /// Keeps `test` when it claims a goal first, or when its input took natively a goal
    /// (`test.reached_natively`, past the claims' end) that no test claims and no kept test
    /// took natively before: the suite then holds an input that goes there natively, the
    /// ledger still only what the test claims.
    pub fn offer_reached_natively(
        &self,
        max_tests: Option<usize>,
        session: u32,
        test: Test,
    ) -> Result<Kept> {
        let mut r = self.lock();
        let fresh = r.ledger.new_goals(&test.covers);
        let reached = r.ledger.new_goals(&test.reached_natively);
        let newly_reached = reached.iter().any(|g| !r.reached_natively.contains(g));
        let full = max_tests.is_some_and(|m| r.out.tests >= m);
        if full || fresh.is_empty() && !newly_reached {
            return Ok(Kept {
                fresh: vec![],
                milestone: None,
            });
        }
        r.reached_natively.extend(reached);
        self.add(r, fresh, session, test)
    }

    /// Writes `test`, which claims `fresh` first.
    fn add(
        &self,
        mut r: MutexGuard<Results>,
        fresh: Vec<usize>,
        session: u32,
        test: Test,
    ) -> Result<Kept> {
        let n = r.out.add(&test)?;
        r.corpus.push(Seed {
            inputs: test.inputs,
            session,
            found_by: test.found_by,
        });
        for &g in &fresh {
            r.ledger.cover(g, n);
        }
        self.changed(&r);
        let milestone = self.note_progress(&mut r)?;
        Ok(Kept { fresh, milestone })
    }

    /// Marks `goal` proven unreachable (`how`: the proof's kind).
    pub fn prove_unreachable(&self, goal: usize, how: &str) -> Result<Option<Milestone>> {
        self.prove_all_unreachable([(goal, how)])
    }

    /// Marks many goals proven at once: one change for the workers to see, not one per goal
    /// (the static check proves tens of thousands of goals of a large program).
    pub fn prove_all_unreachable<'h>(
        &self,
        goals: impl IntoIterator<Item = (usize, &'h str)>,
    ) -> Result<Option<Milestone>> {
        let mut r = self.lock();
        for (goal, how) in goals {
            r.ledger.prove_unreachable(goal, how);
        }
        self.changed(&r);
        self.note_progress(&mut r)
    }

    /// Takes goals out of this generation (other shards' goals, branches under `--goals error`).
    pub fn ignore(&self, goals: impl IntoIterator<Item = usize>) {
        let mut r = self.lock();
        for g in goals {
            r.ledger.ignore(g);
        }
        self.changed(&r);
    }

    /// Leaves goals to other shards (`--shard`; see `Status::OtherShard`).
    pub fn leave_to_other_shards(&self, goals: impl IntoIterator<Item = usize>) {
        let mut r = self.lock();
        for g in goals {
            r.ledger.leave_to_other_shard(g);
        }
        self.changed(&r);
    }

    /// Refreshes `view` if the shared ledger moved since `seen`; returns the version seen.
    pub fn refresh(&self, view: &mut Ledger, seen: u64) -> u64 {
        let v = self.version();
        if v == seen {
            return seen;
        }
        let r = self.lock();
        view.clone_from(&r.ledger);
        self.version()
    }

    /// Worker `i` says what it is doing.
    pub fn heartbeat(&self, i: usize, what: String) {
        let mut h = self.heartbeats.lock().unwrap_or_else(|e| e.into_inner());
        if h.len() <= i {
            h.resize(i + 1, String::new());
        }
        h[i] = what;
    }

    /// The workers' latest heartbeats.
    pub fn heartbeats(&self) -> Vec<String> {
        self.heartbeats
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
