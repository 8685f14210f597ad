//! What concolic search does when it stops finding anything: a fresh random input after many
//! runs without news (every flip near the explored paths may be caught in the same trap), and
//! a short burst of random testing when the session's coverage stalls (a hundred times more
//! paths per second often cover what the solver cannot; starting with one was measured to
//! starve the CFG-directed search of its nearby targets, so it only runs on stalls).

use crate::driver::session::Session;
use crate::exec::Config;
use crate::exec::input::RandomInputs;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::{Duration, Instant};

/// What the runs of a stall's random burst are found by (tests, and `Session::on_run`).
pub const STALL_BURST: &str = "random burst";

/// Runs or time without new coverage after which a fresh random input is run (paths of
/// thousands of decisions run a few a second).
const FRESH_START_AFTER: (usize, Duration) = (500, Duration::from_secs(2));

pub struct Stalls {
    /// Runs since one covered something new, and when one last did (or a fresh start ran).
    runs_without_news: usize,
    news_at: Instant,
    /// The session's coverage when the current stall period started.
    covered: usize,
    since: Instant,
    pub bursts: u64,
    /// Whether stalls get random bursts at all.
    pub random_bursts: bool,
    /// When the last turn ended: a turn resumed right away (a caller running the search in
    /// slices) continues the stall period instead of starting one.
    left: Option<Instant>,
}

impl Default for Stalls {
    fn default() -> Self {
        Stalls {
            runs_without_news: 0,
            news_at: Instant::now(),
            covered: 0,
            since: Instant::now(),
            bursts: 0,
            random_bursts: true,
            left: None,
        }
    }
}

impl Stalls {
    /// A run of the search ended, covering something new or not.
    pub fn note_run(&mut self, news: bool) {
        if news {
            self.runs_without_news = 0;
            self.news_at = Instant::now();
        } else {
            self.runs_without_news += 1;
        }
    }

    /// Time for a fresh random input (the count starts again).
    pub fn fresh_start_due(&mut self) -> bool {
        let due = self.runs_without_news >= FRESH_START_AFTER.0
            || self.news_at.elapsed() >= FRESH_START_AFTER.1;
        if due {
            self.runs_without_news = 0;
            self.news_at = Instant::now();
        }
        due
    }

    /// A turn of the search starts.
    pub fn turn_starts(&mut self, covered: usize) {
        if self
            .left
            .is_none_or(|t| t.elapsed() > Duration::from_millis(50))
        {
            self.covered = covered;
            self.since = Instant::now();
        }
    }

    pub fn turn_ends(&mut self) {
        self.left = Some(Instant::now());
    }

    /// After a step of the search: when the session's coverage has not grown for a tenth of
    /// the budget, random runs for a fiftieth of it (within `until`).
    pub fn after_step(
        &mut self,
        s: &mut Session,
        seed: u64,
        cfg: &Config,
        until: Instant,
    ) -> anyhow::Result<()> {
        let stall = (s.budget.time / 10).max(Duration::from_millis(200));
        if s.ledger.covered > self.covered {
            self.covered = s.ledger.covered;
            self.since = Instant::now();
        } else if self.random_bursts && self.since.elapsed() >= stall {
            self.bursts += 1;
            let burst =
                (s.budget.time / 50).clamp(Duration::from_millis(20), Duration::from_millis(500));
            let end = (Instant::now() + burst).min(until);
            random_burst(s, seed.wrapping_add(self.bursts), cfg, end)?;
            self.covered = s.ledger.covered;
            self.since = Instant::now();
        }
        Ok(())
    }
}

/// Random runs until `end`.
fn random_burst(s: &mut Session, seed: u64, cfg: &Config, end: Instant) -> anyhow::Result<()> {
    let mut src = RandomInputs {
        rng: SmallRng::seed_from_u64(seed ^ 0x5eed),
    };
    while Instant::now() < end && !s.should_stop() {
        let r = s.program.run(&mut src, cfg);
        s.record(&r, STALL_BURST)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_start_comes_after_five_hundred_runs_without_news() {
        let mut stalls = Stalls::default();
        for _ in 0..499 {
            stalls.note_run(false);
        }
        assert!(!stalls.fresh_start_due());
        stalls.note_run(true);
        for _ in 0..499 {
            stalls.note_run(false);
        }
        assert!(!stalls.fresh_start_due());
        stalls.note_run(false);
        assert!(stalls.fresh_start_due());
        // The count starts again.
        assert!(!stalls.fresh_start_due());
    }
}
