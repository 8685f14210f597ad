//! Cairn: test generation for C programs.
//!
//! Layers, each using only those before it (tests/layers.rs holds them): `ir` (Cairn IR and
//! the clang front-end) < `analysis` < `smt` < `mc` (the model checker) < `exec` (the
//! interpreter, native builds) < `search` < `output` < `driver` (techniques, commands). Beside
//! them, used by any layer: `debug` (debug switches), `task` (Test-Comp task definitions) and
//! `units` (quantities typed on the command line).

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
pub mod units;
