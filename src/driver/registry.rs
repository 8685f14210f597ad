//! The techniques `--strategy` names besides the concolic search orders of
//! `search::registry`: one entry each gives the command line its name and help, and the driver
//! its constructor. Adding a technique is its file and one entry here.

use crate::driver::generate::Plan;
use crate::driver::session::Session;
use crate::driver::technique::Technique;

/// How a technique is made for a session: `under` is the concolic strategy it runs, for one
/// that takes `--under`.
pub type Make =
    for<'p> fn(&Session<'p>, &Plan, under: &'static str) -> anyhow::Result<Box<dyn Technique + 'p>>;

pub struct Entry {
    pub name: &'static str,
    pub help: &'static str,
    /// The concolic strategy it runs unless `--under` names another; None: takes no `--under`.
    pub under: Option<&'static str>,
    /// It decides goals itself (runs the model checker): it is the whole run, on one worker,
    /// not composed with the checker, lazy expansion or other workers.
    pub decides: bool,
    pub make: Make,
}

pub const TECHNIQUES: &[Entry] = &[
    Entry {
        name: "random",
        help: "Pure random testing (baseline, no solver)",
        under: None,
        decides: false,
        make: random,
    },
    Entry {
        name: "crabs",
        help: "Abstraction-driven concolic testing: concolic search (`--under`) over the product of the program and monitors from the model checker's ARGs, in turns with the model checker",
        // Gen's default: under the monitors it covered more than the paper's CFG-directed
        // search on nsichneu and ddv-machzwd.
        under: Some("expectation"),
        decides: true,
        make: crabs,
    },
];

/// The technique of this name.
pub fn by_name(name: &str) -> Option<&'static Entry> {
    TECHNIQUES.iter().find(|e| e.name == name)
}

fn random<'p>(_: &Session<'p>, plan: &Plan, _: &str) -> anyhow::Result<Box<dyn Technique + 'p>> {
    Ok(Box::new(crate::driver::random::RandomTesting::new(
        plan.seed, &plan.cfg,
    )))
}

fn crabs<'p>(s: &Session<'p>, plan: &Plan, under: &str) -> anyhow::Result<Box<dyn Technique + 'p>> {
    Ok(Box::new(crate::driver::crabs::crabs(s, under, plan)?))
}
