//! Static analyses over Cairn IR.

pub mod cfg;
pub mod constdef;
pub mod coverflag;
pub mod dead;
pub mod defuse;
pub mod dominators;
pub mod effects;
pub mod escape;
pub mod expectation;
pub mod goals;
pub mod ledger;
pub mod settled;
pub mod words;
