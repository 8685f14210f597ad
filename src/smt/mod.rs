//! Symbolic expressions and solving.

pub mod expr;
pub mod solver;
pub mod walk;
