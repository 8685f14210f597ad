//! Writers of Cairn's outputs and the native replay check.

pub mod export;
pub mod faults;
pub mod foreign_tests;
pub mod harness;
pub mod merge;
pub mod replay;
pub mod report;
pub mod run_record;
pub mod suite;
