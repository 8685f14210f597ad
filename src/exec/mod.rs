//! The executor: runs a lowered program on concrete inputs.

pub mod input;
pub mod libc;
pub mod machine;
pub mod memory;
pub mod opaque;
pub mod ops;
pub mod shadow;

pub use input::{InputKind, InputSource, InputValue};
pub use machine::{Config, Machine, Outcome, RunResult};

use crate::ir::Module;

/// A loaded program ready to run: the IR and its resolved external functions.
pub struct Program {
    pub module: Module,
    pub exts: Vec<libc::Ext>,
    pub entry: String,
}

impl Program {
    pub fn new(module: Module) -> Program {
        let exts = libc::resolve(&module);
        Program {
            module,
            exts,
            entry: "main".into(),
        }
    }

    /// Runs the program once, drawing inputs from `input`.
    pub fn run(&self, input: &mut dyn InputSource, cfg: &Config) -> RunResult {
        let m = Machine::new(&self.module, &self.exts, cfg.clone(), input);
        m.run_main(&self.entry)
    }

    /// Names of external functions with no model (their results become inputs).
    pub fn unknown_externs(&self) -> Vec<&str> {
        self.exts
            .iter()
            .filter_map(|e| {
                if let libc::Ext::Unknown(n) = e {
                    Some(n.as_str())
                } else {
                    None
                }
            })
            .collect()
    }
}
