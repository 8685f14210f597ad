//! Orchestrators: techniques that generate tests against the shared goal ledger.

pub mod concolic;
pub mod dataflow;
pub mod generate;
pub mod lazy;
pub mod ledger;
pub mod prove;
pub mod random;
pub mod session;
pub mod technique;
