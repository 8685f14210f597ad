//! Other tools' tests in the common replay format (`../shared/eval`'s runners write KLEE's,
//! libFuzzer's and AFL++'s in it): a file per test, one value per line, in the order the
//! program reads them — a decimal or C floating-point literal, or `hex:` and a buffer's bytes;
//! `#` lines are comments (a buffer given as a decimal is not read as one: the runners spell
//! buffers in hex). Each becomes a Cairn test that claims nothing, so `cairn replay
//! --tests-from` runs them natively against a run's proofs: one that takes a goal Cairn proved
//! unreachable shows a wrong proof.

use anyhow::{Context, Result};
use serde_json::json;
use std::path::Path;

/// Writes each test file of `from` (sorted by name) as a Cairn test in `to`; returns how many.
pub fn import(from: &Path, to: &Path) -> Result<usize> {
    let mut names: Vec<_> = std::fs::read_dir(from)
        .with_context(|| format!("cannot read {}", from.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    std::fs::create_dir_all(to)?;
    for (i, path) in names.iter().enumerate() {
        let text =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let inputs: Vec<_> = String::from_utf8_lossy(&text)
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(value)
            .collect();
        let test = json!({
            "inputs": inputs,
            "covers": [],
            "found_by": "foreign",
            "source": path.display().to_string(),
        });
        std::fs::write(to.join(format!("{:06}.json", i + 1)), test.to_string())?;
    }
    Ok(names.len())
}

/// A line's value as a Cairn test holds it: as written (the harness reads `hex:` bytes into
/// whatever the call reads, a number little-endian, as the format says), its kind for people.
fn value(line: &str) -> serde_json::Value {
    if line.starts_with("hex:") {
        return json!({"type": "bytes", "value": line});
    }
    let integer = line.strip_prefix('-').unwrap_or(line);
    let kind = match integer.bytes().all(|b| b.is_ascii_digit()) && !integer.is_empty() {
        true => "int",
        false => "double",
    };
    json!({"type": kind, "value": line})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_values_of_their_kind() {
        assert_eq!(value("-12"), json!({"type": "int", "value": "-12"}));
        assert_eq!(
            value("0x1.8p+1"),
            json!({"type": "double", "value": "0x1.8p+1"})
        );
        assert_eq!(
            value("hex:00ff"),
            json!({"type": "bytes", "value": "hex:00ff"})
        );
    }
}
