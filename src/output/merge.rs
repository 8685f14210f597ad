//! `cairn merge OUT DIR...`: output directories of runs on the same program (shards, or runs
//! on different machines) joined by goal. A goal is covered when any run's test covers it,
//! unreachable when a run proved it and no test covers it, unknown otherwise; a goal one run
//! proved unreachable and another run's test covers is a soundness violation, reported.
//!
//! Runs on a multi-function target (`cairn gen --entry f,g,...`) hold one directory per entry
//! function; they merge entry by entry, into OUT/<entry>.
//!
//! The merged suite keeps, in the order of the directories, each test that covers a goal no
//! kept test covers yet or fails at a new place (kind and location), numbered anew.

use crate::output::suite::{prepare_output_dir, write_atomic, write_test, write_zip};
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

/// What a merge decided.
#[derive(Debug, serde::Serialize)]
pub struct Merged {
    pub total: usize,
    pub covered: usize,
    pub unreachable: usize,
    pub unknown: usize,
    pub tests: usize,
    /// Goals proven unreachable in one directory and covered by a test of another.
    pub violations: Vec<Violation>,
}

#[derive(Debug, serde::Serialize)]
pub struct Violation {
    pub goal: usize,
    pub proof: String,
    pub proved_in: String,
    pub test: String,
}

/// One input directory, read.
struct Run {
    dir: PathBuf,
    goals: Vec<Value>,
    summary: Value,
    /// (file name, test JSON), in number order.
    tests: Vec<(String, Value)>,
}

fn read_json(p: &Path) -> Result<Value> {
    let text = fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", p.display()))
}

fn read_run(dir: &Path) -> Result<Run> {
    if !dir.join("goals.json").is_file() {
        bail!(
            "{} is not a finished Cairn output directory (no goals.json)",
            dir.display()
        );
    }
    let goals = read_json(&dir.join("goals.json"))?
        .as_array()
        .cloned()
        .with_context(|| format!("{}/goals.json is not a list of goals", dir.display()))?;
    let summary = read_json(&dir.join("summary.json")).unwrap_or(Value::Null);
    let mut names: Vec<String> = fs::read_dir(dir.join("tests"))
        .with_context(|| format!("cannot read {}/tests", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut tests = vec![];
    for n in names {
        let t = read_json(&dir.join("tests").join(&n))?;
        tests.push((n, t));
    }
    Ok(Run {
        dir: dir.to_path_buf(),
        goals,
        summary,
        tests,
    })
}

/// The fields that identify a goal: runs on the same program agree on them.
fn identity(g: &Value) -> Value {
    json!([
        g["id"],
        g["kind"],
        g["function"],
        g["outcome"],
        g["line"],
        g["column"]
    ])
}

fn program_hash(dir: &Path) -> Option<String> {
    let m = fs::read_to_string(dir.join("test-suite/metadata.xml")).ok()?;
    let a = m.find("<programhash>")? + "<programhash>".len();
    let b = m[a..].find('<')? + a;
    Some(m[a..b].to_string())
}

/// Whether the run gave locals read before they are set test values (run.json's options).
fn uninitialized_inputs(dir: &Path) -> bool {
    fs::read_to_string(dir.join("run.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["options"]["front"]["uninitialized_inputs"].as_bool())
        .unwrap_or(false)
}

/// The entry functions' directories of a multi-function target's run (none: not one).
fn entry_dirs(dir: &Path) -> Vec<String> {
    if dir.join("goals.json").exists() {
        return vec![];
    }
    let mut v: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("goals.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Merges `dirs` into `out`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<Merged> {
    if dirs.is_empty() {
        bail!("usage: cairn merge OUT DIR... (at least one directory to merge)");
    }
    let per_entry: Vec<Vec<String>> = dirs.iter().map(|d| entry_dirs(d)).collect();
    if per_entry.iter().all(|e| !e.is_empty()) {
        return merge_entries(out, dirs, &per_entry);
    }
    let runs: Vec<Run> = dirs.iter().map(|d| read_run(d)).collect::<Result<_>>()?;
    let out_abs = fs::canonicalize(out).ok();
    for r in &runs {
        if out_abs.is_some() && fs::canonicalize(&r.dir).ok() == out_abs {
            bail!(
                "the output directory {} is one of the directories to merge",
                out.display()
            );
        }
    }
    let first = &runs[0];
    for r in &runs[1..] {
        let same = r.goals.len() == first.goals.len()
            && r.goals
                .iter()
                .zip(&first.goals)
                .all(|(a, b)| identity(a) == identity(b));
        if uninitialized_inputs(&r.dir) != uninitialized_inputs(&first.dir) {
            bail!(
                "{} and {} were made one with --uninitialized-inputs and one without: their tests' values go to different reads",
                first.dir.display(),
                r.dir.display()
            );
        }
        if !same || program_hash(&r.dir) != program_hash(&first.dir) {
            bail!(
                "{} and {} are runs on different programs (or different options): their goals differ",
                first.dir.display(),
                r.dir.display()
            );
        }
    }

    // Tests: keep those that add coverage or a new failure, in directory order.
    let n = first.goals.len();
    let mut covering: Vec<Option<usize>> = vec![None; n];
    let mut crash_sites = HashSet::new();
    let mut kept: Vec<(&Run, &str, &Value)> = vec![];
    for r in &runs {
        for (name, t) in &r.tests {
            let covers: Vec<usize> = t["covers"]
                .as_array()
                .map(|a| a.iter().filter_map(|g| g.as_u64()).map(|g| g as usize))
                .into_iter()
                .flatten()
                .filter(|&g| g < n)
                .collect();
            let fresh: Vec<usize> = covers
                .iter()
                .copied()
                .filter(|&g| covering[g].is_none())
                .collect();
            let new_crash = (t["outcome"] == "fault" || t["outcome"] == "abort")
                && crash_sites.insert(format!("{}@{}", t["fault"], t["fault_location"]));
            if fresh.is_empty() && !new_crash {
                continue;
            }
            kept.push((r, name.as_str(), t));
            for g in fresh {
                covering[g] = Some(kept.len());
            }
        }
    }

    // Goals.
    let shares_exhausted = every_share_exhausted(&runs);
    let mut violations = vec![];
    let mut merged_goals = vec![];
    let (mut covered, mut unreachable, mut unknown, mut ignored) = (0, 0, 0, 0);
    for (i, g) in first.goals.iter().enumerate() {
        let statuses: Vec<(&Run, &Value)> = runs.iter().map(|r| (r, &r.goals[i])).collect();
        let proof = statuses
            .iter()
            .find(|(_, g)| g["status"] == "unreachable")
            .map(|(r, g)| (r, g["proof"].as_str().unwrap_or("?").to_string()));
        let all_ignored = statuses.iter().all(|(_, g)| g["status"] == "ignored");
        let mut m = g.clone();
        let o = m.as_object_mut().context("a goal is not an object")?;
        o.remove("test");
        o.remove("proof");
        if let Some(t) = covering[i] {
            if let Some((r, how)) = &proof {
                violations.push(Violation {
                    goal: i,
                    proof: how.clone(),
                    proved_in: r.dir.display().to_string(),
                    test: format!("{}/tests/{}", kept[t - 1].0.dir.display(), kept[t - 1].1),
                });
            }
            o.insert("status".into(), "covered".into());
            o.insert("test".into(), format!("{t:06}").into());
            covered += 1;
        } else if let Some((_, how)) = proof {
            o.insert("status".into(), "unreachable".into());
            o.insert("proof".into(), how.into());
            unreachable += 1;
        } else if all_ignored {
            o.insert("status".into(), "ignored".into());
            o.insert("test".into(), Value::Null);
            ignored += 1;
        } else if shares_exhausted {
            // Every path of the program was explored exactly by one shard or another, and no
            // test covers the goal.
            o.insert("status".into(), "unreachable".into());
            o.insert("proof".into(), "exhaustive (shards)".into());
            unreachable += 1;
        } else {
            o.insert("status".into(), "unknown".into());
            o.insert("test".into(), Value::Null);
            unknown += 1;
        }
        merged_goals.push(m);
    }

    // Write.
    prepare_output_dir(out)?;
    for sub in ["tests", "test-suite", "replay"] {
        fs::create_dir_all(out.join(sub))
            .with_context(|| format!("cannot create {}/{sub}", out.display()))?;
    }
    // The runs' options agree (their goals do): the first one's run record serves the merge.
    for f in ["replay/harness.c", "test-suite/metadata.xml", "run.json"] {
        if let Ok(b) = fs::read(first.dir.join(f)) {
            write_atomic(&out.join(f), &b)?;
        }
    }
    for (k, (r, name, t)) in kept.iter().enumerate() {
        let num = k + 1;
        write_test(out, num, t, t["stdin"].as_str())?;
        let stem = name.trim_end_matches(".json");
        let xml = r.dir.join(format!("test-suite/test{stem}.xml"));
        let b = fs::read(&xml).with_context(|| format!("cannot read {}", xml.display()))?;
        write_atomic(&out.join(format!("test-suite/test{num:06}.xml")), &b)?;
    }
    write_atomic(
        &out.join("goals.json"),
        (serde_json::to_string_pretty(&merged_goals)? + "\n").as_bytes(),
    )?;
    let mut csv = coverage_csv(&runs, unreachable);
    // Tests of one run also cover goals of the others: the merged figures end the curve.
    let end = runs
        .iter()
        .filter_map(|r| r.summary["time_s"].as_f64())
        .fold(0.0, f64::max);
    csv.push_str(&format!(
        "{end:.3},{covered},{unreachable},{}\n",
        kept.len()
    ));
    write_atomic(&out.join("coverage.csv"), csv.as_bytes())?;
    let total = n - ignored;
    let reachable = total - unreachable;
    let mut proofs: BTreeMap<String, usize> = BTreeMap::new();
    for g in &merged_goals {
        if g["status"] == "unreachable" {
            *proofs
                .entry(g["proof"].as_str().unwrap_or("?").to_string())
                .or_default() += 1;
        }
    }
    // The kept tests are in `out` now: their faults are the merged run's.
    let faults = crate::output::faults::collect(out);
    crate::output::faults::write_sarif(out, &faults, None)?;
    let summary = json!({
        "cairn": first.summary["cairn"],
        "faults": faults,
        "goals": {"total": total, "covered": covered, "unreachable": unreachable, "unknown": unknown},
        "ignored_goals": ignored,
        "branch_goals": first.summary["branch_goals"],
        "error_goals": first.summary["error_goals"],
        "coverage": if total == 0 { 1.0 } else { covered as f64 / total as f64 },
        "coverage_of_reachable": if reachable == 0 { 1.0 } else { covered as f64 / reachable as f64 },
        "tests": kept.len(),
        "time_s": runs.iter().filter_map(|r| r.summary["time_s"].as_f64()).fold(0.0, f64::max),
        "proofs": proofs,
        "soundness_violations": violations.iter().map(|v| v.goal).collect::<Vec<_>>(),
        "merged_from": runs.iter().map(|r| json!({
            "dir": r.dir.display().to_string(),
            "shard": r.summary["shard"],
            "goals": r.summary["goals"],
            "tests": r.tests.len(),
            "time_s": r.summary["time_s"],
        })).collect::<Vec<_>>(),
    });
    write_atomic(
        &out.join("summary.json"),
        (serde_json::to_string_pretty(&summary)? + "\n").as_bytes(),
    )?;
    write_zip(out)?;
    Ok(Merged {
        total,
        covered,
        unreachable,
        unknown,
        tests: kept.len(),
        violations,
    })
}

/// Shards 1..N of one split (`--shard K/N` of the same program options) are all here and
/// each explored its share of the paths exactly: together they explored every path.
fn every_share_exhausted(runs: &[Run]) -> bool {
    let mut seen = HashSet::new();
    let mut split: Option<(usize, &Value, &Value)> = None;
    for r in runs {
        let paths = &r.summary["paths"];
        let Some((k, n)) = r.summary["shard"].as_str().and_then(|s| s.split_once('/')) else {
            return false;
        };
        let (Ok(k), Ok(n)) = (k.parse::<usize>(), n.parse::<usize>()) else {
            return false;
        };
        if paths["exhausted"] != true {
            return false;
        }
        let this = (n, &paths["split_depth"], &paths["options"]);
        if split.is_some_and(|s| s != this) || !paths["options"].is_string() {
            return false;
        }
        split = Some(this);
        seen.insert(k);
    }
    split.is_some_and(|(n, _, _)| (1..=n).all(|k| seen.contains(&k)))
}

/// Multi-function runs: each entry function's directories merged into OUT/<entry>; the
/// figures add up.
fn merge_entries(out: &Path, dirs: &[PathBuf], per_entry: &[Vec<String>]) -> Result<Merged> {
    let entries: std::collections::BTreeSet<&String> = per_entry.iter().flatten().collect();
    let mut all = Merged {
        total: 0,
        covered: 0,
        unreachable: 0,
        unknown: 0,
        tests: 0,
        violations: vec![],
    };
    for e in entries {
        let of_e: Vec<PathBuf> = dirs
            .iter()
            .zip(per_entry)
            .filter(|(_, es)| es.contains(e))
            .map(|(d, _)| d.join(e))
            .collect();
        let m = merge(&out.join(e), &of_e)?;
        all.total += m.total;
        all.covered += m.covered;
        all.unreachable += m.unreachable;
        all.unknown += m.unknown;
        all.tests += m.tests;
        all.violations.extend(m.violations);
    }
    Ok(all)
}

/// Coverage over time of runs that ran side by side: goals covered by the tests of any run
/// so far (a shard's tests may cover another shard's goals too), the runs' proofs so far
/// (at most the merged figure: two runs may prove the same goal), the tests the runs wrote.
fn coverage_csv(runs: &[Run], unreachable: usize) -> String {
    // (time, run, [unreachable, tests] added, goals a test covers)
    let mut events: Vec<(f64, usize, [i64; 2], Vec<usize>)> = vec![];
    for (k, r) in runs.iter().enumerate() {
        let text = fs::read_to_string(r.dir.join("coverage.csv")).unwrap_or_default();
        let mut last = [0i64; 2];
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            if f.len() < 4 {
                continue;
            }
            let (Ok(t), Ok(u), Ok(n)) = (
                f[0].parse::<f64>(),
                f[2].parse::<i64>(),
                f[3].parse::<i64>(),
            ) else {
                continue;
            };
            events.push((t, k, [u - last[0], n - last[1]], vec![]));
            last = [u, n];
        }
        for (_, t) in &r.tests {
            let covers: Vec<usize> = t["covers"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|g| g.as_u64())
                        .map(|g| g as usize)
                        .collect()
                })
                .unwrap_or_default();
            events.push((t["time_s"].as_f64().unwrap_or(0.0), k, [0, 0], covers));
        }
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut csv = String::from("time_s,covered,unreachable,tests\n");
    let mut covered = HashSet::new();
    let (mut proofs, mut tests) = (0i64, 0i64);
    for (t, _, d, covers) in events {
        proofs += d[0];
        tests += d[1];
        covered.extend(covers);
        csv.push_str(&format!(
            "{t:.3},{},{},{tests}\n",
            covered.len(),
            proofs.min(unreachable as i64)
        ));
    }
    csv
}
