//! The model checker as a technique of a session: proofs and tests into the shared ledger.

use crate::driver::session::Session;
use crate::mc::arg::{Arg, McConfig, McStats, ModelChecker};
use crate::mc::model::Model;
use std::time::Duration;

/// Marks the goals a cheap static check proves unreachable.
pub fn static_check(s: &mut Session) -> usize {
    let dead = crate::analysis::dead::dead_goals(&s.program.module, &s.program.entry);
    let mut n = 0;
    for (g, why) in dead {
        if s.ledger.status[g as usize] == crate::driver::ledger::Status::Unknown {
            s.ledger.prove_unreachable(g as usize, why);
            n += 1;
        }
    }
    n
}

/// Runs the coverage-driven CEGAR model checker for `time`; returns its ARG and statistics.
pub fn run(s: &mut Session, time: Duration) -> anyhow::Result<(Arg, McStats, String)> {
    let p = s.program;
    // `main` runs through the runtime's start routine: constructors, main, exit, destructors.
    let entry = crate::analysis::expectation::start_function(&p.module, &p.entry)
        .ok_or_else(|| anyhow::anyhow!("no function `{}`", p.entry))?;
    let model = Model::new(&p.module, &p.exts, p.entry != "main");
    let mut mc = ModelChecker::new(
        model,
        entry,
        McConfig {
            time,
            ..McConfig::default()
        },
    );
    let arg = mc.run(s)?;
    let dot = arg.to_dot(&p.module, &mc.model.pool);
    Ok((arg, mc.stats, dot))
}
