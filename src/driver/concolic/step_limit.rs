//! Runs cut by the instruction limit (a loop bounded by a large input). Their tests wait:
//! recorded at the end of each slice, they get a test only for goals no finished run covered.
//! Their deep pending branches wait too (flips deep inside a long loop are long runs as
//! well), and solutions that led to one are solved again with smaller values.

use crate::driver::session::Session;
use crate::exec::{InputKind, InputValue, RunResult};
use crate::search::tree::Pending;

/// Most inputs a step-limited run's test may have (see `record_held`).
pub const MAX_HELD_INPUTS: usize = 1 << 16;
/// Smaller-valued retries of a solution whose run hit the step limit.
pub const STEP_LIMIT_RETRIES: u32 = 4;
/// Pending branches of a step-limited run this many decisions past the flipped one wait until
/// nothing else is pending (the run's loops are long: flips deep inside them are too).
const DEEP_IN_STEP_LIMITED: usize = 16;
/// Deferred deep pending branches released at a time (the shallowest).
const DEEP_RELEASE: usize = 32;

#[derive(Default)]
pub struct StepLimits {
    /// Pending branches deep in step-limited runs.
    deep: Vec<Pending>,
    /// Step-limited runs not yet recorded, with the technique that found them.
    held: Vec<(RunResult, String)>,
    /// The last executed run hit the step limit.
    pub last: bool,
    /// The inputs of the first run, step-limited, while its retries with smaller values go on
    /// (across turns: a turn may end after one long run), and the retries left.
    shrinking: Option<(Vec<InputValue>, u32)>,
}

impl StepLimits {
    /// Holds a step-limited run's result until `record_held`.
    pub fn hold(&mut self, r: RunResult, found_by: &str) {
        self.held.push((r, found_by.to_string()));
    }

    /// Records the held runs: a test only for goals no finished run covered. A run that read
    /// more than `MAX_HELD_INPUTS` inputs gets none: a loop reading an input per iteration
    /// until the step limit made a 60 MB test, seconds past the budget to write.
    pub fn record_held(&mut self, s: &mut Session) -> anyhow::Result<()> {
        for (r, by) in std::mem::take(&mut self.held) {
            if r.inputs.len() <= MAX_HELD_INPUTS {
                s.record(&r, &by)?;
            }
        }
        Ok(())
    }

    /// Defers `p`, a new pending branch of the last run (which flipped the decision at
    /// `bound`), when that run was step-limited and `p` lies deep past the flip.
    pub fn defers(&mut self, p: &Pending, bound: usize) -> bool {
        let deep = self.last && p.depth > bound + DEEP_IN_STEP_LIMITED;
        if deep {
            self.deep.push(p.clone());
        }
        deep
    }

    pub fn deferred(&self) -> usize {
        self.deep.len()
    }

    /// The shallowest deferred branches, a few at a time.
    pub fn release_shallowest(&mut self) -> Vec<Pending> {
        self.deep.sort_by_key(|p| std::cmp::Reverse(p.depth));
        let keep = self.deep.len().saturating_sub(DEEP_RELEASE);
        self.deep.split_off(keep)
    }

    /// The first run hit the step limit with `inputs`: retry them with smaller values.
    pub fn start_shrinking(&mut self, inputs: Vec<InputValue>) {
        self.shrinking = Some((inputs, STEP_LIMIT_RETRIES));
    }

    /// A retry hit the step limit too, having read `inputs` (past the values it was given, a
    /// loop reads more): the next retry shrinks those.
    pub fn retry_limited(&mut self, inputs: Vec<InputValue>) {
        if let Some((last, _)) = &mut self.shrinking {
            *last = inputs;
        }
    }

    /// Retries of the first run are due.
    pub fn shrinking(&self) -> bool {
        self.shrinking.is_some()
    }

    /// A run finished (or no retry can help): no more retries.
    pub fn stop_shrinking(&mut self) {
        self.shrinking = None;
    }

    /// The next retry's inputs: the last retry's with every integer input of 16 bits or more
    /// shifted 8 bits towards zero, so values below 256 become 0 (a loop that goes on while an
    /// input is nonzero, `while (__VERIFIER_nondet_int())`, stops only there); None when no
    /// retry is left or all are 0 already.
    pub fn next_shrunk(&mut self) -> Option<Vec<InputValue>> {
        let (inputs, left) = self.shrinking.as_mut()?;
        let shrunk = shrunk(inputs).filter(|_| *left > 0);
        match &shrunk {
            Some(values) => {
                *inputs = values.clone();
                *left -= 1;
            }
            None => self.shrinking = None,
        }
        shrunk
    }

    /// The search starts afresh.
    pub fn forget_tree(&mut self) {
        self.deep.clear();
        self.last = false;
        self.shrinking = None;
    }
}

/// `inputs` with every integer of 16 bits or more shifted 8 bits towards zero; None when all
/// are 0 already.
fn shrunk(inputs: &[InputValue]) -> Option<Vec<InputValue>> {
    let mut any = false;
    let values = inputs
        .iter()
        .cloned()
        .map(|mut iv| {
            let integer = !matches!(
                iv.kind,
                InputKind::Float | InputKind::Double | InputKind::Bytes
            );
            if integer && iv.width >= 16 {
                let m = signed_magnitude(iv.bits, iv.width);
                if m > 0 {
                    let small = m >> 8;
                    let v = if m != iv.bits {
                        small.wrapping_neg()
                    } else {
                        small
                    };
                    iv.bits = crate::ir::ops::mask(v, iv.width);
                    any = true;
                }
            }
            iv
        })
        .collect();
    any.then_some(values)
}

/// |x| of a `w`-bit value read as signed.
pub fn signed_magnitude(x: u64, w: u32) -> u64 {
    if w == 0 || w > 64 {
        return x;
    }
    let sign = 1u64 << (w - 1);
    let x = if w == 64 { x } else { x & ((sign << 1) - 1) };
    if x & sign != 0 {
        (x ^ if w == 64 { u64::MAX } else { (sign << 1) - 1 }).wrapping_add(1)
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::synthetic::{pending, run};

    #[test]
    fn deep_branches_of_step_limited_runs_wait_and_come_back_shallowest_first() {
        let r = run(1, 0, 2);
        let mut limits = StepLimits::default();
        // A finished run defers nothing.
        assert!(!limits.defers(&pending(0, 50, 0, &r), 2));
        limits.last = true;
        // Up to 16 decisions past the flip at depth 2 stay; deeper ones wait.
        assert!(!limits.defers(&pending(1, 18, 0, &r), 2));
        for d in (19..60).rev() {
            assert!(limits.defers(&pending(d as u32, d, 0, &r), 2));
        }
        assert_eq!(limits.deferred(), 41);
        let depths = |ps: Vec<Pending>| {
            let mut d: Vec<usize> = ps.iter().map(|p| p.depth).collect();
            d.sort();
            d
        };
        assert_eq!(
            depths(limits.release_shallowest()),
            (19..51).collect::<Vec<_>>()
        );
        assert_eq!(
            depths(limits.release_shallowest()),
            (51..60).collect::<Vec<_>>()
        );
        assert!(limits.release_shallowest().is_empty());
    }

    #[test]
    fn a_step_limited_first_runs_large_integers_shrink_towards_zero() {
        let int = |w, v: i64| InputValue::int(InputKind::Int, w, crate::ir::ops::mask(v as u64, w));
        let mut limits = StepLimits::default();
        assert!(limits.next_shrunk().is_none());
        limits.start_shrinking(vec![
            int(32, 100_000),
            int(32, -70_000),
            int(8, -100),
            int(32, 7),
        ]);
        let values = |v: Vec<InputValue>| -> Vec<i64> {
            v.iter()
                .map(|v| crate::ir::ops::sext(v.bits, v.width))
                .collect()
        };
        // 8-bit inputs are kept; values below 256 become 0.
        assert_eq!(values(limits.next_shrunk().unwrap()), [390, -273, -100, 0]);
        assert_eq!(values(limits.next_shrunk().unwrap()), [1, -1, -100, 0]);
        assert_eq!(values(limits.next_shrunk().unwrap()), [0, 0, -100, 0]);
        // All 0: nothing left to shrink.
        assert!(limits.next_shrunk().is_none());
        // At most STEP_LIMIT_RETRIES retries.
        limits.start_shrinking(vec![int(64, i64::MAX)]);
        let retries = std::iter::from_fn(|| limits.next_shrunk()).count();
        assert_eq!(retries, STEP_LIMIT_RETRIES as usize);
        assert_eq!(signed_magnitude(u64::MAX, 64), 1);
        assert_eq!(signed_magnitude(0x80, 8), 128);
    }
}
