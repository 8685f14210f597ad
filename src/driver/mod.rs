//! Orchestrators: techniques that generate tests against the shared goal ledger.

pub mod cli;
pub mod command;
pub mod concolic;
pub mod crabs;
pub mod dataflow;
pub mod dead_pairs;
pub mod fuzz;
pub mod fuzz_native;
pub mod generate;
pub mod havoc;
pub mod input_to_state;
pub mod lazy;
// The goal ledger lives in `analysis` (the suite writer and the model checker read it).
pub use crate::analysis::ledger;
pub mod minimize;
pub mod options;
pub mod parallel;
pub mod prove;
pub mod random;
pub mod registry;
pub mod session;
pub mod shard;
pub mod shared;
pub mod technique;
