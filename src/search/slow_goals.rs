//! Learning which flips run the solver out of time. On programs that parse numbers from text,
//! the flips toward some branch (a ratio parsed digit by digit, compared after a float
//! multiplication) time out again and again, each costing the full solver timeout while the
//! flips elsewhere take milliseconds. After `STRIKES` slow timeouts toward one goal with no
//! slow query decided in between, its flips get a fraction of the time; a slow query that is
//! decided gives the goal its full time back.
//! A flip that still times out is kept with the undecided ones, tried again once everything
//! else is explored (nothing is dropped, only put later).

use crate::ir::GoalId;
use std::collections::HashMap;
use std::time::Duration;

/// Timeouts in a row that mark a goal's flips slow.
const STRIKES: u32 = 2;
/// A slow goal's flips get this fraction of the solver's time.
const SHARE: u32 = 8;
/// A query that took at least this long was a slow one (quicker ones were answered from the
/// cache or a small domain, or given up early).
const SLOW: Duration = Duration::from_millis(100);

#[derive(Default)]
pub struct SlowGoals {
    strikes: HashMap<GoalId, u32>,
}

impl SlowGoals {
    /// By how much the solver's time is divided for a flip toward `goal`.
    pub fn time_divisor(&self, goal: GoalId) -> u32 {
        if self.strikes.get(&goal).is_some_and(|&s| s >= STRIKES) {
            SHARE
        } else {
            1
        }
    }

    /// A flip toward `goal` was decided or not, after `took`. Quick answers (the cache, small
    /// domains, an early give-up) say nothing about the slow queries toward the same goal.
    pub fn record(&mut self, goal: GoalId, decided: bool, took: Duration) {
        if took < SLOW {
            return;
        }
        if decided {
            self.strikes.remove(&goal);
        } else {
            *self.strikes.entry(goal).or_insert(0) += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_goal_is_slow_after_timeouts_and_fast_again_once_a_slow_query_is_decided() {
        let mut s = SlowGoals::default();
        let long = Duration::from_secs(1);
        let quick = Duration::from_millis(5);
        s.record(7, false, long);
        assert_eq!(s.time_divisor(7), 1);
        s.record(7, false, quick); // gave up quickly: no timeout
        s.record(7, true, quick); // a cached or small query: says nothing about slow ones
        assert_eq!(s.time_divisor(7), 1);
        s.record(7, false, long);
        assert_eq!(s.time_divisor(7), SHARE);
        assert_eq!(s.time_divisor(8), 1);
        s.record(7, true, long);
        assert_eq!(s.time_divisor(7), 1);
    }
}
