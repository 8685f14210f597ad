//! Cairn: test generation for C programs.
//!
//! Layers, dependencies pointing down: `driver` (orchestrators) → `exec` (interpreter) →
//! `analysis` → `ir` (Cairn IR and the clang front-end); `output` writes what drivers produce;
//! `task` reads Test-Comp task definitions.

pub mod analysis;
pub mod debug;
pub mod driver;
pub mod exec;
pub mod ir;
pub mod mc;
pub mod output;
pub mod search;
pub mod smt;
pub mod task;
