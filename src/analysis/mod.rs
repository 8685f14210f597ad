//! Static analyses over Cairn IR.

pub mod goals;
