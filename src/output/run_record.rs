//! `run.json`: how an output directory was made — Cairn's version, the command line, the
//! program's files and the options that shape its goals and inputs. It is written before any
//! test, so `replay` of a directory needs no option typed again, even after a killed run.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub const RUN_RECORD: &str = "run.json";

/// Bumped when a field changes meaning; readers refuse a newer schema.
pub const SCHEMA: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunRecord {
    pub schema: u32,
    /// Cairn's version.
    pub cairn: String,
    /// The clang that compiled the program (its `--version` line).
    pub clang: Option<String>,
    /// The command line, as typed.
    pub command: Vec<String>,
    /// The program's files, absolute.
    pub files: Vec<PathBuf>,
    /// The options of the program's front end and inputs, as the command defines them.
    pub options: serde_json::Value,
}

impl RunRecord {
    pub fn new(files: &[PathBuf], options: serde_json::Value) -> RunRecord {
        RunRecord {
            schema: SCHEMA,
            cairn: env!("CARGO_PKG_VERSION").to_string(),
            clang: clang_version(),
            command: std::env::args().collect(),
            files: files
                .iter()
                .map(|f| std::path::absolute(f).unwrap_or_else(|_| f.clone()))
                .collect(),
            options,
        }
    }

    pub fn write(&self, dir: &Path) -> Result<()> {
        super::suite::write_atomic(&dir.join(RUN_RECORD), &serde_json::to_vec_pretty(self)?)
    }

    /// The record of output directory `dir`; None for a directory of an older Cairn.
    pub fn read(dir: &Path) -> Result<Option<RunRecord>> {
        let path = dir.join(RUN_RECORD);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let r: RunRecord = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a run record of Cairn", path.display()))?;
        if r.schema > SCHEMA {
            bail!(
                "{} was written by a newer Cairn ({}, schema {}); this is {} (schema {SCHEMA})",
                path.display(),
                r.cairn,
                r.schema,
                env!("CARGO_PKG_VERSION")
            );
        }
        Ok(Some(r))
    }

    /// What summary.json says of the run.
    pub fn summary(&self) -> serde_json::Value {
        serde_json::json!({
            "schema": self.schema,
            "version": self.cairn,
            "clang": self.clang,
            "command": self.command,
        })
    }
}

fn clang_version() -> Option<String> {
    static VERSION: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    VERSION
        .get_or_init(|| {
            let o = std::process::Command::new(crate::ir::toolchain::clang())
                .arg("--version")
                .output()
                .ok()?;
            let text = String::from_utf8_lossy(&o.stdout);
            text.lines().next().map(str::to_string)
        })
        .clone()
}
