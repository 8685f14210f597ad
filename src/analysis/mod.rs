//! Static analyses over Cairn IR.

pub mod cfg;
pub mod goals;
