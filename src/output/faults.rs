//! The faults a suite found, first-class: the distinct (kind, location) pairs of its faulting
//! tests, each with the smallest test that reproduces it, for the summary, the report and
//! `faults.sarif` (SARIF 2.1.0, which code-scanning tools read).

use anyhow::Result;
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Fault {
    /// What went wrong ("null pointer dereference", "division by zero", ...).
    pub kind: String,
    /// `file:line:col` of the faulting operation.
    pub location: String,
    /// The tests that end in it (`tests/NNNNNN.json` numbers).
    pub tests: Vec<String>,
    /// The simplest test among them (the least `complexity` of its inputs; a minimized one
    /// when the search left time to shrink it).
    pub reproducer: String,
    /// The reproducer's memory access in words (how far past which object), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// How complex an input value's text is: its characters other than `0` (a zero, a buffer of
/// zero bytes count nothing), so the reproducer chosen is the simplest.
pub fn complexity(value: &str) -> usize {
    value.chars().filter(|&c| c != '0').count()
}

/// Faults as tests arrive, by location, then kind: each with its tests and the smallest one.
#[derive(Default)]
pub struct FaultSet(BTreeMap<(String, String), Entry>);

/// A fault's tests, and its reproducer's complexity, name and detail.
type Entry = (Vec<String>, (usize, String, Option<String>));

/// The fault kind of an abort (no finer kind is known).
pub const ABORT: &str = "abort (a failed assertion, abort(), an error function)";

/// The fault kind of heap memory the program could no longer reach when it exited, located
/// at the allocation (as LeakSanitizer reports it).
pub const LEAK: &str = "memory leak (heap memory unreachable at exit)";

impl FaultSet {
    /// Adds test `name` (its inputs' `complexity` is `size`) ending in `kind` at `location`
    /// (its access in words: `detail`).
    pub fn add(
        &mut self,
        kind: &str,
        location: &str,
        name: &str,
        size: usize,
        detail: Option<&str>,
    ) {
        let e = self
            .0
            .entry((location.to_string(), kind.to_string()))
            .or_insert_with(|| (vec![], (usize::MAX, String::new(), None)));
        e.0.push(name.to_string());
        if size < e.1.0 {
            e.1 = (size, name.to_string(), detail.map(str::to_string));
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn list(&self) -> Vec<Fault> {
        self.0
            .iter()
            .map(
                |((location, kind), (tests, (_, reproducer, detail)))| Fault {
                    kind: kind.clone(),
                    location: location.clone(),
                    tests: tests.clone(),
                    reproducer: reproducer.clone(),
                    detail: detail.clone(),
                },
            )
            .collect()
    }
}

/// The faults of the tests in `dir/tests` (merged and reported directories).
pub fn collect(dir: &Path) -> Vec<Fault> {
    let mut set = FaultSet::default();
    let Ok(entries) = std::fs::read_dir(dir.join("tests")) else {
        return vec![];
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for path in files {
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let Ok(t) = super::suite::read_test(&path) else {
            continue;
        };
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        let size: usize = t["inputs"].as_array().map_or(0, |a| {
            a.iter()
                .map(|v| v["value"].as_str().map_or(0, str::len))
                .sum()
        });
        let leaks = t["leak"]["allocated_at"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for at in leaks.iter().filter_map(|a| a.as_str()) {
            set.add(LEAK, at, &name, size, None);
        }
        let kind = match (t["fault"].as_str(), t["outcome"].as_str()) {
            (Some(kind), _) => kind,
            (None, Some("abort")) => ABORT,
            _ => continue,
        };
        let location = t["fault_location"].as_str().unwrap_or("?");
        set.add(kind, location, &name, size, t["fault_detail"].as_str());
    }
    set.list()
}

/// One line per fault, for the terminal (`dir`: the output directory).
pub fn lines(faults: &[Fault], dir: &Path) -> Vec<String> {
    faults
        .iter()
        .map(|f| {
            format!(
                "{} at {}{} (reproduce: cairn run --test {}{})",
                f.kind,
                f.location,
                said(f.detail.as_deref()),
                dir.join(format!("tests/{}.json", f.reproducer)).display(),
                match f.tests.len() {
                    1 => String::new(),
                    n => format!("; {n} tests"),
                }
            )
        })
        .collect()
}

/// A fault's detail as it follows its kind and location (`: a 1-byte access ...`), if any.
pub fn said(detail: Option<&str>) -> String {
    detail.map_or(String::new(), |d| format!(": {d}"))
}

/// The rule id of a fault kind: its words joined by hyphens.
fn rule_id(kind: &str) -> String {
    kind.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// `file:line:col` → (file, line, col); the file may hold colons.
fn split_location(loc: &str) -> (String, Option<u64>, Option<u64>) {
    let mut parts = loc.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    match (parts.next(), line, col) {
        (Some(file), Some(_), Some(_)) => (file.to_string(), line, col),
        _ => (loc.to_string(), None, None),
    }
}

/// The SARIF 2.1.0 log of `faults` (files relative to `base`, the program's directory, are
/// made absolute `file://` URIs).
pub fn sarif(faults: &[Fault], base: Option<&Path>) -> serde_json::Value {
    let mut rules: Vec<String> = faults.iter().map(|f| rule_id(&f.kind)).collect();
    rules.sort();
    rules.dedup();
    let kinds: BTreeMap<String, &str> = faults
        .iter()
        .map(|f| (rule_id(&f.kind), f.kind.as_str()))
        .collect();
    let results: Vec<serde_json::Value> = faults
        .iter()
        .map(|f| {
            let (file, line, col) = split_location(&f.location);
            let path = match base {
                Some(b) if Path::new(&file).is_relative() => b.join(&file),
                _ => Path::new(&file).to_path_buf(),
            };
            let mut region = json!({});
            if let Some(l) = line {
                region["startLine"] = json!(l.max(1));
            }
            if let Some(c) = col.filter(|&c| c > 0) {
                region["startColumn"] = json!(c);
            }
            let mut physical = json!({"artifactLocation": {"uri": file_uri(&path)}});
            if line.is_some() {
                physical["region"] = region;
            }
            let id = rule_id(&f.kind);
            json!({
                "ruleId": id,
                "ruleIndex": rules.iter().position(|r| *r == id).unwrap_or(0),
                "level": "error",
                "message": {"text": format!(
                    "{}{} (a run of the program ends here: {} test{} reproduce{} it; the smallest is tests/{}.json)",
                    f.kind, said(f.detail.as_deref()), f.tests.len(), if f.tests.len() == 1 { "" } else { "s" },
                    if f.tests.len() == 1 { "s" } else { "" }, f.reproducer)},
                "locations": [{"physicalLocation": physical}],
                "partialFingerprints": {"cairnFault/v1": format!("{}@{}", id, f.location)},
                "properties": {"tests": f.tests, "reproducer": format!("tests/{}.json", f.reproducer)},
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "Cairn",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/cairn-testing/cairn",
                "rules": rules.iter().map(|r| json!({
                    "id": r,
                    "shortDescription": {"text": kinds[r]},
                    "defaultConfiguration": {"level": "error"},
                })).collect::<Vec<_>>(),
            }},
            "results": results,
        }],
    })
}

fn file_uri(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut uri = String::from("file://");
    for b in abs.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(b as char)
            }
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri
}

/// Writes `dir/faults.sarif`.
pub fn write_sarif(dir: &Path, faults: &[Fault], base: Option<&Path>) -> Result<()> {
    super::suite::write_atomic(
        &dir.join("faults.sarif"),
        (serde_json::to_string_pretty(&sarif(faults, base))? + "\n").as_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_and_rules() {
        assert_eq!(
            split_location("src/a b.c:12:5"),
            ("src/a b.c".into(), Some(12), Some(5))
        );
        assert_eq!(split_location("?"), ("?".into(), None, None));
        assert_eq!(
            rule_id("null pointer dereference"),
            "null-pointer-dereference"
        );
        assert_eq!(file_uri(Path::new("/a b/c.c")), "file:///a%20b/c.c");
    }
}
