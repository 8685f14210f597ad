//! The commands of the `cairn` binary: each one's options (the components' own options
//! flattened in) and what it does. `main.rs` parses and dispatches.

pub mod export;
pub mod generation;
pub mod goals;
pub mod proving;
pub mod replay;
pub mod single_run;

/// Which options were typed on the command line (not defaults): a recorded run gives the rest.
pub type Given<'a> = &'a dyn Fn(&str) -> bool;
