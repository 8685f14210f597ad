//! Runs cut by the instruction limit (a loop bounded by a large input). Their tests wait:
//! recorded at the end of each slice, they get a test only for goals no finished run covered.
//! Their deep pending branches wait too (flips deep inside a long loop are long runs as
//! well), and solutions that led to one are solved again with smaller values.

use crate::driver::session::Session;
use crate::exec::{InputKind, InputValue, RunResult};
use crate::search::tree::Pending;

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
}

impl StepLimits {
    /// Holds a step-limited run's result until `record_held`.
    pub fn hold(&mut self, r: RunResult, found_by: &str) {
        self.held.push((r, found_by.to_string()));
    }

    /// Records the held runs: a test only for goals no finished run covered.
    pub fn record_held(&mut self, s: &mut Session) -> anyhow::Result<()> {
        for (r, by) in std::mem::take(&mut self.held) {
            s.record(&r, &by)?;
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

    /// The inputs of the last held run with every integer input of 16 bits or more shifted
    /// 8 bits towards zero; None when none was larger than 255 (or no run is held).
    pub fn shrunk_last_inputs(&self) -> Option<Vec<InputValue>> {
        let (last, _) = self.held.last()?;
        let mut shrunk = false;
        let values = last
            .inputs
            .iter()
            .cloned()
            .map(|mut iv| {
                let integer = !matches!(
                    iv.kind,
                    InputKind::Float | InputKind::Double | InputKind::Bytes
                );
                if integer && iv.width >= 16 {
                    let m = signed_magnitude(iv.bits, iv.width);
                    if m > 255 {
                        let small = m >> 8;
                        let negative = m != iv.bits;
                        let v = if negative {
                            small.wrapping_neg()
                        } else {
                            small
                        };
                        iv.bits = crate::ir::ops::mask(v, iv.width);
                        shrunk = true;
                    }
                }
                iv
            })
            .collect();
        shrunk.then_some(values)
    }

    /// The search starts afresh.
    pub fn forget_tree(&mut self) {
        self.deep.clear();
        self.last = false;
    }
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
