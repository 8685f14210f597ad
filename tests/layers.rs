//! Dependencies point down DESIGN.md's layer order: ir < analysis < smt < mc < exec < search <
//! output < driver (< main.rs). A module that names one above it (`crate::driver::...` inside
//! `mc`, say) fails this test with the line that does.

use std::path::Path;

const LAYERS: &[&str] = &[
    "ir", "analysis", "smt", "mc", "exec", "search", "output", "driver",
];

fn rank(m: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == m)
}

/// The top-level modules `line` names through `crate::` (also inside `crate::{a, b::c}`).
fn named(line: &str) -> Vec<String> {
    let mut out = vec![];
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let head: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(head);
            }
        } else {
            out.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    out
}

fn scan(dir: &Path, layer: usize, violations: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            scan(&p, layer, violations);
            continue;
        }
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        for (n, line) in std::fs::read_to_string(&p).unwrap().lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for m in named(code) {
                if rank(&m).is_some_and(|r| r > layer) {
                    violations.push(format!(
                        "{}:{}: {} names {m}: {}",
                        p.display(),
                        n + 1,
                        LAYERS[layer],
                        line.trim()
                    ));
                }
            }
        }
    }
}

#[test]
fn no_module_names_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = vec![];
    for (i, layer) in LAYERS.iter().enumerate() {
        scan(&src.join(layer), i, &mut violations);
    }
    assert!(
        violations.is_empty(),
        "upward dependencies:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_check_sees_grouped_and_nested_paths() {
    assert_eq!(named("use crate::{exec::Config, ir};"), vec!["exec", "ir"]);
    assert_eq!(
        named("let x = crate::driver::session::Session::new();"),
        vec!["driver"]
    );
    assert!(named("use super::ops;").is_empty());
}
