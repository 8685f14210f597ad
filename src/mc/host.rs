//! What the model checker needs of the generation it works for, and nothing more: the program,
//! the goals and their status, a place to report proofs, and a way to try the inputs of a path
//! it found as a test. The driver's session implements it; the model checker never sees the
//! session, the interpreter or the suite writer.

use crate::analysis::goals::Goals;
use crate::analysis::ledger::Status;
use crate::ir::Module;
use crate::ir::inputs::InputKind;
use std::time::Instant;

pub trait McHost {
    fn module(&self) -> &Module;
    fn goals(&self) -> &Goals;
    /// Every goal's status, by goal id.
    fn status(&self) -> &[Status];
    /// When the generation's budget ends.
    fn budget_end(&self) -> Instant;
    /// Ctrl-C or SIGTERM.
    fn interrupted(&self) -> bool;
    fn prove_unreachable(&mut self, goal: usize, how: &str) -> anyhow::Result<()>;
    /// Records the coverage figures if they changed.
    fn note_progress(&mut self) -> anyhow::Result<()>;
    /// Shows what the model checker is doing (called often; the host throttles).
    fn tick(&mut self, what: &dyn Fn() -> String);
    /// Runs the program on `values` — (kind, width in bits, bits), in the order its input calls
    /// ask for them; inputs past them are the host's choice — and keeps the run as a test if it
    /// covers anything new. Returns the goals the run covers.
    fn try_inputs(&mut self, values: &[(InputKind, u32, u64)]) -> anyhow::Result<Vec<usize>>;
}
