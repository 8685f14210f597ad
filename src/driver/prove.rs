//! The model checker as a technique of a session: proofs and tests into the shared ledger.

use crate::driver::session::Session;
use crate::driver::technique::Technique;
use crate::mc::arg::{Arg, McConfig, ModelChecker};
use crate::mc::model::Model;
use std::time::Instant;

/// Marks the goals a cheap static check proves unreachable; returns how many.
pub fn static_check(s: &mut Session) -> anyhow::Result<usize> {
    let dead = crate::analysis::dead::dead_goals(&s.program.module, &s.program.entry);
    let mut n = 0;
    for (g, why) in dead {
        if s.ledger.status[g as usize] == crate::driver::ledger::Status::Unknown {
            s.prove_unreachable(g as usize, why)?;
            n += 1;
        }
    }
    Ok(n)
}

/// Coverage-driven CEGAR model checking. Predicates found in one run are kept for the next.
pub struct ModelChecking<'p> {
    mc: ModelChecker<'p>,
    arg: Option<Arg>,
}

impl<'p> ModelChecking<'p> {
    pub fn new(s: &Session<'p>) -> anyhow::Result<ModelChecking<'p>> {
        let p = s.program;
        // `main` runs through the runtime's start routine: constructors, main, exit, destructors.
        let entry = crate::analysis::expectation::start_function(&p.module, &p.entry)
            .ok_or_else(|| anyhow::anyhow!("no function `{}`", p.entry))?;
        let mut model = Model::new(&p.module, &p.exts, p.entry != "main");
        // Globals that start as inputs have no initial value to rely on.
        for &g in &p.unit.globals {
            let g = &p.module.globals[g as usize];
            model
                .tracked
                .retain(|a, _| *a < g.addr || *a >= g.addr + g.size);
        }
        Ok(ModelChecking {
            mc: ModelChecker::new(model, entry, McConfig::default()),
            arg: None,
        })
    }

    /// The last abstract reachability graph, as Graphviz DOT.
    pub fn arg_dot(&self, s: &Session) -> Option<String> {
        let arg = self.arg.as_ref()?;
        Some(arg.to_dot(&s.program.module, &self.mc.model.pool))
    }
}

impl Technique for ModelChecking<'_> {
    fn name(&self) -> &'static str {
        "mc"
    }

    fn run(&mut self, s: &mut Session, until: Instant) -> anyhow::Result<()> {
        let left = until
            .min(s.deadline())
            .saturating_duration_since(Instant::now());
        if left.is_zero() || s.should_stop() {
            return Ok(());
        }
        // The checker refines for its time and may take half as long again to complete its
        // graph (proofs need a complete one): two thirds of what is left keeps the deadline.
        self.mc.cfg.time = left.mul_f64(2.0 / 3.0);
        self.arg = Some(self.mc.run(s)?);
        s.note_progress()
    }

    /// A complete ARG with no goal path left unrefined for lack of time has decided
    /// everything this checker can.
    fn finished(&self) -> bool {
        self.arg.as_ref().is_some_and(|a| a.complete) && self.mc.deferred == 0
    }

    fn stats(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("mc".into(), serde_json::to_value(&self.mc.stats).unwrap());
        m
    }
}
