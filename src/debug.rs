//! Debug output, switched on per topic — the one place that reads the switches.
//! `CAIRN_DEBUG=mc,chc,solver` (or `all`) turns topics on; `CAIRN_DEBUG_DIR` names a directory
//! for dumps (ARG monitors as DOT, Horn-clause queries as SMT-LIB). The older per-topic
//! variables (`CAIRN_DEBUG_MC=1`, `CAIRN_DEBUG_CHC=DIR`, ...) still work. Read once: checks on
//! hot paths cost a load.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    /// Where the symbolic shadow concretizes.
    Concretize,
    /// Crabs' monitors and product runs.
    Monitor,
    /// Concolic runs and flips.
    Paths,
    /// Lazy expansion's runs.
    Lazy,
    /// Def-use pairs handed to the model checker.
    DefUse,
    /// Model-checker turns.
    Turns,
    /// Native replay's gcov runs.
    Replay,
    /// The Horn-clause prover.
    Chc,
    /// The model checker's ARGs and certificates.
    Mc,
    /// Slow or unknown solver queries.
    Solver,
    /// Every solver query.
    SolverAll,
    /// The concolic walk's failures.
    Walk,
}

const NAMES: &[(Topic, &str)] = &[
    (Topic::Concretize, "concretize"),
    (Topic::Monitor, "monitor"),
    (Topic::Paths, "paths"),
    (Topic::Lazy, "lazy"),
    (Topic::DefUse, "defuse"),
    (Topic::Turns, "turns"),
    (Topic::Replay, "replay"),
    (Topic::Chc, "chc"),
    (Topic::Mc, "mc"),
    (Topic::Solver, "solver"),
    (Topic::SolverAll, "solver-all"),
    (Topic::Walk, "walk"),
];

struct Switches {
    on: Vec<Topic>,
    dir: Option<PathBuf>,
}

fn switches() -> &'static Switches {
    static S: OnceLock<Switches> = OnceLock::new();
    S.get_or_init(|| {
        let list = std::env::var("CAIRN_DEBUG").unwrap_or_default();
        let words: Vec<String> = list.split(',').map(|w| w.trim().to_lowercase()).collect();
        let mut on = vec![];
        let mut dir = std::env::var_os("CAIRN_DEBUG_DIR").map(PathBuf::from);
        for &(topic, name) in NAMES {
            let legacy = format!("CAIRN_DEBUG_{}", name.to_uppercase().replace('-', "_"));
            let old = std::env::var_os(&legacy);
            if let Some(v) = &old {
                if Path::new(v).is_dir() && dir.is_none() {
                    dir = Some(PathBuf::from(v));
                }
            }
            let all = words.iter().any(|w| w == "all") && topic != Topic::SolverAll;
            if all || words.iter().any(|w| w == name) || old.is_some() {
                on.push(topic);
            }
        }
        // `CAIRN_DEBUG_SOLVER=all`, as before.
        if std::env::var_os("CAIRN_DEBUG_SOLVER").is_some_and(|v| v == "all") {
            on.push(Topic::SolverAll);
        }
        Switches { on, dir }
    })
}

/// Is debug output of `topic` on?
pub fn on(topic: Topic) -> bool {
    switches().on.contains(&topic)
}

/// Where dumps go, when asked for.
pub fn dump_dir() -> Option<&'static Path> {
    switches().dir.as_deref()
}
