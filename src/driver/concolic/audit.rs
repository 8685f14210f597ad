//! The check an exhausted execution tree passes before it proves anything. Exhaustion is
//! derived from bookkeeping (the pending branches ran out, no run was inexact); the audit
//! derives it again from the tree itself and from the solver's refutations: every outcome of
//! every decision was taken by a run, refuted or excluded by an assumption, no run took an
//! outcome the solver refuted, and a fresh solver agrees with every refutation Z3 gave.

use crate::search::tree::Tree;
use crate::smt::expr::Pool;
use crate::smt::solver::{Reconfirmation, SolverFront};
use std::time::Instant;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ExhaustionAudit {
    /// Outcomes no run took and no refutation or assumption excludes.
    pub unresolved: usize,
    /// Outcomes refuted by the solver that a run then took.
    pub refuted_then_taken: u64,
    pub refutations: Reconfirmation,
}

impl ExhaustionAudit {
    pub fn of(tree: &Tree, solver: &SolverFront, pool: &Pool, until: Instant) -> ExhaustionAudit {
        let unresolved = tree.unresolved();
        let refuted_then_taken = tree.refuted_infeasible;
        // Nothing to reconfirm when the tree already fails.
        let refutations = if unresolved == 0 && refuted_then_taken == 0 {
            solver.reconfirm_refutations(pool, until)
        } else {
            Reconfirmation::default()
        };
        ExhaustionAudit {
            unresolved,
            refuted_then_taken,
            refutations,
        }
    }

    /// Failed for a reason other than time: the engine's bookkeeping or a solver was wrong.
    pub fn found_a_fault(&self) -> bool {
        self.unresolved > 0 || self.refuted_then_taken > 0 || self.refutations.contradicted > 0
    }

    pub fn holds(&self) -> bool {
        self.unresolved == 0 && self.refuted_then_taken == 0 && self.refutations.holds()
    }
}
