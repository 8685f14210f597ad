//! Symbolic expressions and solving.

pub mod bounds;
pub mod concretize;
pub mod enumerate;
pub mod expr;
pub mod fitness;
pub mod opaque;
pub mod solver;
pub mod walk;
