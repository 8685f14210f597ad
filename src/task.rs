//! Test-Comp / SV-COMP task definitions (format 2.0): `cairn gen TASK.yml` reads the program's
//! files, the coverage property and the data model from the task, as the competitions do.
//!
//! ```yaml
//! format_version: '2.0'
//! input_files: 'prog.c'
//! properties:
//!   - property_file: ../properties/coverage-branches.prp
//! options:
//!   language: C
//!   data_model: ILP32
//! ```

use crate::ir::DataModel;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// A Test-Comp coverage property: which goals a suite is to cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// `coverage-branches.prp`: every branch outcome.
    Branches,
    /// `coverage-error-call.prp`: a call of `reach_error`.
    ErrorCall,
}

/// What a task definition asks for, paths resolved against the task's directory.
#[derive(Clone, Debug)]
pub struct Task {
    pub input_files: Vec<PathBuf>,
    /// The coverage properties, with their files.
    pub coverage: Vec<(Coverage, PathBuf)>,
    /// Properties of other kinds (`unreach-call.prp`, ...): not test generation.
    pub other_properties: Vec<PathBuf>,
    pub data_model: Option<DataModel>,
}

#[derive(serde::Deserialize)]
struct Raw {
    format_version: Option<String>,
    input_files: Option<OneOrMany>,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    options: RawOptions,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(serde::Deserialize)]
struct RawProperty {
    property_file: String,
}

#[derive(serde::Deserialize, Default)]
struct RawOptions {
    language: Option<String>,
    data_model: Option<String>,
}

/// Is `path` a task definition rather than a C file?
pub fn is_task_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yml") || e.eq_ignore_ascii_case("yaml"))
}

/// The coverage property a property file states: read from the file when it exists (the
/// specification's text decides), else from its name.
pub fn property_kind(path: &Path) -> Option<Coverage> {
    let norm = |s: &str| -> String { s.chars().filter(|c| !c.is_whitespace()).collect() };
    if let Ok(text) = std::fs::read_to_string(path) {
        let t = norm(&text);
        if t.contains("COVEREDGES(@DECISIONEDGE)") {
            return Some(Coverage::Branches);
        }
        if t.contains("COVEREDGES(@CALL(reach_error))")
            || t.contains("COVEREDGES(@CALL(__VERIFIER_error))")
        {
            return Some(Coverage::ErrorCall);
        }
        return None;
    }
    match path.file_name()?.to_str()? {
        "coverage-branches.prp" => Some(Coverage::Branches),
        "coverage-error-call.prp" => Some(Coverage::ErrorCall),
        _ => None,
    }
}

impl Task {
    pub fn read(path: &Path) -> Result<Task> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read task definition {}", path.display()))?;
        let raw: Raw = serde_yaml_ng::from_str(&text)
            .with_context(|| format!("{} is not a valid task definition", path.display()))?;
        let bad = |what: String| anyhow::anyhow!("task definition {}: {what}", path.display());
        match raw.format_version.as_deref() {
            Some("2.0") => {}
            Some(v) => return Err(bad(format!("format_version {v} (Cairn reads 2.0)"))),
            None => return Err(bad("no format_version (Cairn reads 2.0)".into())),
        }
        if let Some(l) = &raw.options.language
            && !l.eq_ignore_ascii_case("C")
        {
            return Err(bad(format!("language {l}: Cairn tests C programs")));
        }
        let data_model = match raw.options.data_model.as_deref() {
            None => None,
            Some(d) if d.eq_ignore_ascii_case("ILP32") => Some(DataModel::ILP32),
            Some(d) if d.eq_ignore_ascii_case("LP64") => Some(DataModel::LP64),
            Some(d) => return Err(bad(format!("data_model {d}: ILP32 or LP64"))),
        };
        let base = path.parent().unwrap_or(Path::new("."));
        let names = match raw.input_files {
            Some(OneOrMany::One(f)) => vec![f],
            Some(OneOrMany::Many(v)) => v,
            None => vec![],
        };
        if names.is_empty() {
            return Err(bad("no input_files".into()));
        }
        let mut input_files = vec![];
        for n in names {
            if n.contains(['*', '?', '[']) {
                return Err(bad(format!(
                    "input file pattern `{n}`: name the files (patterns are not supported)"
                )));
            }
            let f = base.join(&n);
            if !f.is_file() {
                return Err(bad(format!("input file {} does not exist", f.display())));
            }
            input_files.push(f);
        }
        let mut coverage = vec![];
        let mut other_properties = vec![];
        for p in raw.properties {
            let f = base.join(&p.property_file);
            match property_kind(&f) {
                Some(c) => coverage.push((c, f)),
                None => other_properties.push(f),
            }
        }
        Ok(Task {
            input_files,
            coverage,
            other_properties,
            data_model,
        })
    }

    /// The coverage property to generate tests for: `wanted` (a property file, as BenchExec
    /// passes it, or a kind from `--goals`) when given, else the task's only one; of both,
    /// branch coverage (the broader suite).
    pub fn choose(&self, wanted: Option<Coverage>) -> Result<Coverage> {
        if self.coverage.is_empty() {
            let names: Vec<String> = self
                .other_properties
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            bail!(
                "the task has no Test-Comp coverage property (coverage-branches.prp or coverage-error-call.prp){}",
                if names.is_empty() {
                    String::new()
                } else {
                    format!(", only {}", names.join(", "))
                }
            );
        }
        match wanted {
            Some(w) if self.coverage.iter().any(|(c, _)| *c == w) => Ok(w),
            Some(w) => bail!("the task does not state the property {w:?} asked for"),
            None if self.coverage.iter().any(|(c, _)| *c == Coverage::Branches) => {
                Ok(Coverage::Branches)
            }
            None => Ok(self.coverage[0].0),
        }
    }
}
