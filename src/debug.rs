//! Debug output through `tracing`, one target per topic (`cairn::mc`, `cairn::solver`, ...):
//! `RUST_LOG=cairn::mc=debug`, `cairn --log mc,solver ...`, or `CAIRN_DEBUG=mc,solver` (`all`:
//! every topic but `queries`, which prints every solver query). `CAIRN_DEBUG_DIR` names a
//! directory for dumps (ARG monitors as DOT, Horn-clause queries as SMT-LIB) of the topics
//! that are on. Read once, by `init`; a check on a hot path is `debug_on!`, a cached load.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The topics, each the target `cairn::<topic>`.
pub const TOPICS: &[(&str, &str)] = &[
    ("concretize", "where the symbolic shadow concretizes"),
    ("monitor", "crabs' monitors and product runs"),
    ("paths", "concolic runs and flips"),
    (
        "revisit",
        "state matching: loop-header states compared, or why not",
    ),
    ("lazy", "lazy expansion's runs"),
    ("defuse", "def-use pairs handed to the model checker"),
    ("turns", "model-checker turns"),
    ("replay", "native replay's gcov runs"),
    ("chc", "the Horn-clause prover"),
    ("mc", "the model checker's ARGs and certificates"),
    ("solver", "slow or unknown solver queries"),
    ("queries", "every solver query"),
    ("walk", "the concolic walk's failures"),
    (
        "fuzz",
        "the fuzzer's comparison log and input-to-state mutants",
    ),
];

/// Is debug output of topic `$t` (a literal of `TOPICS`) on?
#[macro_export]
macro_rules! debug_on {
    ($t:literal) => {
        tracing::enabled!(target: concat!("cairn::", $t), tracing::Level::DEBUG)
    };
}

/// Debug output of topic `$t`, formatted as `eprintln!` would.
#[macro_export]
macro_rules! debug_log {
    ($t:literal, $($arg:tt)*) => {
        tracing::debug!(target: concat!("cairn::", $t), $($arg)*)
    };
}

/// Installs the subscriber: messages alone on stderr, for the topics `log` names (`--log`),
/// `CAIRN_DEBUG` names, and `RUST_LOG` directives. Once, before any output.
pub fn init(log: Option<&str>) {
    let mut directives: Vec<String> = vec![];
    let legacy = std::env::var("CAIRN_DEBUG").unwrap_or_default();
    for word in log.unwrap_or("").split(',').chain(legacy.split(',')) {
        let w = word.trim().to_lowercase().replace("solver-all", "queries");
        if w == "all" {
            directives.extend(
                TOPICS
                    .iter()
                    .filter(|(t, _)| *t != "queries")
                    .map(|(t, _)| format!("cairn::{t}=debug")),
            );
        } else if TOPICS.iter().any(|(t, _)| *t == w) {
            directives.push(format!("cairn::{w}=debug"));
        }
    }
    if let Ok(rust_log) = std::env::var("RUST_LOG") {
        directives.extend(rust_log.split(',').map(str::to_string));
    }
    if directives.is_empty() {
        return;
    }
    let mut filter = tracing_subscriber::EnvFilter::new("off");
    for d in directives {
        if let Ok(d) = d.parse() {
            filter = filter.add_directive(d);
        }
    }
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .without_time()
        .with_target(false)
        .with_level(false)
        .try_init();
}

/// Where dumps go, when asked for.
pub fn dump_dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| std::env::var_os("CAIRN_DEBUG_DIR").map(PathBuf::from))
        .as_deref()
}
