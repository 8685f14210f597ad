//! The driver interface: every technique (random testing, concolic search, model checking, and
//! the orchestrators that combine them) decides goals against one session's ledger.

use crate::driver::session::Session;
use std::time::{Duration, Instant};

/// A way of deciding goals. `run` works until `until`, or until the session says stop (budget,
/// interrupt, every goal decided). Techniques are resumable: running again continues where the
/// last run stopped (search trees, predicates and statistics are kept).
pub trait Technique {
    fn name(&self) -> &'static str;
    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()>;
    /// Before the first turn of any part of a composition: work to start in the background
    /// (the fuzzer's native build), so it is done when the technique's turn comes, however
    /// long the turns before it take.
    fn prepare(&mut self, s: &Session) {
        let _ = s;
    }
    /// True when running again cannot decide anything more (path space exhausted, ...).
    fn finished(&self) -> bool {
        false
    }
    /// True when the last run built up state that later runs turn into decisions (a model
    /// checker's new predicates), though it decided nothing yet: its share is kept.
    fn learning(&self) -> bool {
        false
    }
    /// The shortest turn worth giving: a technique that needs a while to get anywhere (a model
    /// checker builds and refines its graph) would waste a shorter one entirely.
    fn min_turn(&self) -> Duration {
        Duration::ZERO
    }
    /// Statistics for summary.json, keyed by section ("concolic", "solver", "mc", ...).
    fn stats(&self) -> serde_json::Map<String, serde_json::Value>;
}

/// A technique lent to a composition, so that its owner can read it afterwards (`prove`
/// writes the model checker's graph).
impl<T: Technique + ?Sized> Technique for &mut T {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        (**self).run(s, until)
    }
    fn prepare(&mut self, s: &Session) {
        (**self).prepare(s)
    }
    fn finished(&self) -> bool {
        (**self).finished()
    }
    fn learning(&self) -> bool {
        (**self).learning()
    }
    fn min_turn(&self) -> Duration {
        (**self).min_turn()
    }
    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        (**self).stats()
    }
}

/// Techniques taking turns. Each round gives every unfinished part its share of a slice, and
/// the slice grows geometrically, so short rounds catch easy goals and long ones deep goals.
/// A part that overruns its turn has the excess taken off its next turns.
/// A part that decided nothing in its turn (and learned nothing it could decide with later)
/// gets half its weight next round (down to a tenth of its base share), so the time goes where
/// goals are being decided — unless the shares are fixed (parts that feed each other, as
/// crabs' model checker feeds its search monitors).
pub struct Alternate<'p> {
    parts: Vec<Part<'p>>,
    first_slice: Duration,
    growth: f64,
    rounds: u64,
    /// Weights follow what parts decide, and overruns are taken off later turns.
    adaptive: bool,
}

struct Part<'p> {
    technique: Box<dyn Technique + 'p>,
    base: f64,
    weight: f64,
    /// Time taken past its turns, taken off its next turns: a part that overruns (one long
    /// run of the interpreter) cannot starve the others.
    debt: Duration,
}

impl<'p> Alternate<'p> {
    /// `parts` with their base shares of each round.
    pub fn new(parts: Vec<(Box<dyn Technique + 'p>, f64)>, first_slice: Duration) -> Self {
        Alternate {
            parts: parts
                .into_iter()
                .map(|(technique, base)| Part {
                    technique,
                    base,
                    weight: base,
                    debt: Duration::ZERO,
                })
                .collect(),
            first_slice,
            growth: 2.0,
            rounds: 0,
            adaptive: true,
        }
    }

    /// Every part keeps its base share and its whole turn, whatever it decides or overran
    /// (parts that feed each other: a model checker's turn cut short by its debt would build
    /// no monitor at all).
    pub fn fixed_shares(mut self) -> Self {
        self.adaptive = false;
        self
    }
}

impl Technique for Alternate<'_> {
    fn name(&self) -> &'static str {
        "alternate"
    }

    fn prepare(&mut self, s: &Session) {
        self.parts.iter_mut().for_each(|p| p.technique.prepare(s));
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        if self.rounds == 0 {
            self.prepare(s);
        }
        // Growing, but never past what is left (rounds are short when parts return early).
        let cap = |slice: Duration| {
            let left = until.saturating_duration_since(Instant::now());
            slice.min(left.max(self.first_slice))
        };
        let mut slice = cap(self
            .first_slice
            .mul_f64(self.growth.powi(self.rounds.min(40) as i32)));
        while !s.should_stop() && Instant::now() < until && !self.finished() {
            // The last part still working takes the rest in one turn (turns would restart its
            // stall detection).
            let mut working = self.parts.iter_mut().filter(|p| !p.technique.finished());
            if let (Some(last), None) = (working.next(), working.next()) {
                last.technique.run(s, until)?;
                continue;
            }
            self.rounds += 1;
            let total: f64 = self
                .parts
                .iter()
                .filter(|p| !p.technique.finished())
                .map(|p| p.weight)
                .sum();
            for p in &mut self.parts {
                if p.technique.finished() || s.should_stop() {
                    continue;
                }
                let decided = s.ledger.covered + s.ledger.unreachable;
                let allotted = slice.mul_f64(p.weight / total).max(p.technique.min_turn());
                if p.debt >= allotted {
                    p.debt -= allotted;
                    continue;
                }
                let turn = allotted - std::mem::take(&mut p.debt);
                // Every part has its turn in a round, though an earlier one overran `until`
                // (its debt pays for that later); the session's deadline holds.
                let start = Instant::now();
                let end = (start + turn).min(s.deadline());
                p.technique.run(s, end)?;
                if self.adaptive {
                    p.debt = start.elapsed().saturating_sub(turn);
                }
                if crate::debug_on!("turns") {
                    crate::debug_log!(
                        "turns",
                        "{} turn {:.2}s of {:.2}s (debt now {:.2}s)",
                        p.technique.name(),
                        start.elapsed().as_secs_f64(),
                        turn.as_secs_f64(),
                        p.debt.as_secs_f64()
                    );
                }
                let progressed =
                    s.ledger.covered + s.ledger.unreachable > decided || p.technique.learning();
                p.weight = if progressed || !self.adaptive {
                    p.base
                } else {
                    (p.weight / 2.0).max(p.base / 10.0)
                };
            }
            slice = cap(slice.mul_f64(self.growth));
        }
        Ok(())
    }

    fn finished(&self) -> bool {
        self.parts.iter().all(|p| p.technique.finished())
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        for p in &self.parts {
            m.extend(p.technique.stats());
        }
        m.insert("rounds".into(), self.rounds.into());
        m
    }
}
