//! Coverage-driven CEGAR model checking with predicate abstraction (Algorithm 2 of the
//! abstraction-driven concolic testing paper) over Cairn IR.

pub mod arg;
pub mod certify;
pub mod chc;
pub mod host;
pub mod loops;
pub mod model;
pub mod monitor;
