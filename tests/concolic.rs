//! Concolic search (CFG-directed; tests/expectation.rs covers the default strategy) reaches every feasible branch of the team's test programs within 10 s, and
//! every test it writes replays natively with the goals it claims.

mod common;
use common::*;
use std::process::Command;

fn infeasible_count(src: &str) -> u64 {
    src.lines().find_map(|l| l.split("infeasible:").nth(1)).and_then(|r| r.split_whitespace().next()?.parse().ok()).unwrap_or(0)
}

#[test]
fn concolic_reaches_every_feasible_branch() {
    let dir = tmp("concolic");
    let mut failures = vec![];
    for p in programs("concolic") {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let out = dir.path().join(&name);
        let o = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["gen", p.to_str().unwrap(), "--out", out.to_str().unwrap(), "--time", "10s", "--seed", "1", "--strategy", "cfg"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
        let expect = s["goals"]["total"].as_u64().unwrap() - infeasible_count(&std::fs::read_to_string(&p).unwrap());
        let got = s["goals"]["covered"].as_u64().unwrap();
        println!("{name}: {got}/{} goals ({expect} feasible) in {}s, {} tests", s["goals"]["total"], s["time_s"], s["tests"]);
        if got != expect {
            failures.push(format!("{name}: covered {got}, feasible {expect}"));
        }
        let r = Command::new(env!("CARGO_BIN_EXE_cairn")).args(["replay", p.to_str().unwrap(), out.to_str().unwrap()]).output().unwrap();
        if !r.status.success() {
            failures.push(format!("{name}: replay failed:\n{}{}", String::from_utf8_lossy(&r.stdout), String::from_utf8_lossy(&r.stderr)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
