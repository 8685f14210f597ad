//! Minimized reproducers: after the search, each fault's simplest test is shrunk while the
//! interpreter still ends it in the same fault at the same place — trailing values dropped,
//! then each value zeroed — and the result is written as a test of its own, which the fault
//! then names as its reproducer. It runs in what is left of the budget, at most `MAX_TIME`.

use super::session::Session;
use crate::exec::input::Replay;
use crate::exec::{Config, Outcome, RunResult};
use crate::output::suite::{Test, read_test_values};
use anyhow::Result;
use std::time::{Duration, Instant};

const MAX_TIME: Duration = Duration::from_secs(2);

/// The time kept for minimizing out of a budget of `budget` once a fault is found: a
/// twentieth, at most a second.
pub fn reserve(budget: Duration) -> Duration {
    (budget / 20).min(Duration::from_secs(1))
}

/// Whether a run ends in the fault `(kind, location)` as `faults` names them (a leak: one of
/// the sites it leaks at).
fn ends_in(s: &Session, r: &RunResult, (kind, location): &(String, String)) -> bool {
    let m = &s.program.module;
    let at = |loc: &crate::ir::Loc| m.loc_string(*loc) == *location;
    match (&r.outcome, &r.abort_loc) {
        (Outcome::Fault { kind: k, loc }, _) => k == kind && at(loc),
        (Outcome::Abort, Some(loc)) => kind == crate::output::faults::ABORT && at(loc),
        _ => {
            kind == crate::output::faults::LEAK
                && r.leak.as_ref().is_some_and(|l| l.sites.iter().any(at))
        }
    }
}

/// Shrinks every fault's reproducer; returns the number of smaller tests written.
pub fn minimize_faults(s: &mut Session, cfg: &Config) -> Result<usize> {
    let deadline = s.budget_end().min(Instant::now() + MAX_TIME);
    let (faults, dir) = {
        let r = s.shared().lock();
        (r.out.faults(), r.out.dir.clone())
    };
    let mut written = 0;
    for f in faults {
        if Instant::now() >= deadline {
            break;
        }
        let path = dir.join(format!("tests/{}.json", f.reproducer));
        let Ok(typed) = read_test_values(&path) else {
            continue;
        };
        let target = (f.kind.clone(), f.location.clone());
        let run = |values: &[String]| s.program.run(&mut Replay::new(values.to_vec()), cfg);
        let mut best: Vec<String> = typed.iter().map(|(_, v)| v.clone()).collect();
        let mut best_run = run(&best);
        // A fault after a decision on uninitialized memory is no prediction to shrink.
        if !ends_in(s, &best_run, &target) || s.watched(&best_run).uninitialized_at.is_some() {
            continue;
        }
        let texts = |r: &RunResult| r.inputs.iter().map(|v| v.to_text()).collect::<Vec<_>>();
        let original = texts(&best_run);
        let mut shrunk = false;
        // Fewer values: past the end, inputs read 0 and stdin is at its end.
        while !best.is_empty() && Instant::now() < deadline {
            let shorter = &best[..best.len() - 1];
            let r = run(shorter);
            if !ends_in(s, &r, &target) {
                break;
            }
            best.pop();
            best_run = r;
            shrunk = true;
        }
        // Each value zeroed (a buffer's bytes all zero).
        for i in 0..best.len() {
            if Instant::now() >= deadline {
                break;
            }
            let zero = match typed[i].0.as_str() {
                "bytes" => "0".repeat(best[i].len()),
                _ => "0".to_string(),
            };
            if best[i] == zero {
                continue;
            }
            let mut candidate = best.clone();
            candidate[i] = zero;
            let r = run(&candidate);
            if ends_in(s, &r, &target) {
                best = candidate;
                best_run = r;
                shrunk = true;
                continue;
            }
            // A buffer the fault needs some bytes of: each other byte zeroed.
            if typed[i].0 == "bytes" {
                for b in (0..best[i].len() / 2).map(|b| 2 * b) {
                    if Instant::now() >= deadline {
                        break;
                    }
                    if &best[i][b..b + 2] == "00" {
                        continue;
                    }
                    let mut candidate = best.clone();
                    candidate[i].replace_range(b..b + 2, "00");
                    let r = run(&candidate);
                    if ends_in(s, &r, &target) {
                        best = candidate;
                        best_run = r;
                        shrunk = true;
                    }
                }
            }
        }
        // Values dropped past the end read as the zeros they were: the same test again.
        if !shrunk || texts(&best_run) == original {
            continue;
        }
        // Fewer values may leave memory unwritten that a decision then reads (a scanf that
        // fails): such a run claims less, and is no reproducer.
        let best_run = s.watched(&best_run);
        if best_run.uninitialized_at.is_some() {
            continue;
        }
        let covers = s.goals.covered_by(&best_run);
        let test = Test {
            error: covers
                .iter()
                .any(|&g| s.goals.goals[g].kind == crate::analysis::goals::GoalKind::Error),
            covers,
            inputs: best_run.inputs.clone(),
            found_by: "minimize".into(),
            time_s: s.start.elapsed().as_secs_f64(),
            outcome: best_run.outcome.clone(),
            fault_location: best_run.leak.is_none().then(|| f.location.clone()),
            fault_detail: best_run.fault_detail.clone(),
            steps: best_run.steps,
            iteration: s.shared().runs(),
            exit_indeterminate: best_run.exit_indeterminate,
            layout_dependent: best_run.layout_dependent,
            uninitialized_at: None,
            reached_natively: vec![],
            returned: best_run.returned.clone(),
            freed_params: best_run.freed_params.clone(),
            leak: crate::output::suite::LeakReport::of(&s.program.module, &best_run),
        };
        s.add_test_directly(&test)?;
        written += 1;
    }
    Ok(written)
}
