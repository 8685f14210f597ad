//! Native replay: compiles the program with coverage instrumentation plus `replay/harness.c`,
//! runs every test, and checks Cairn's claims against what the native program really did.
//! This is the independent measurement: Cairn's own ledger is never the final word.

use crate::analysis::goals::{GoalKind, Goals};
use crate::ir::Module;
use crate::ir::frontend::{CompileOptions, TempDir};
use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The native build uses gcc's coverage: gcc adds "fake" exit edges at calls that may not
/// return (an assumption ending the run through `exit`), so line counts stay right when a run
/// ends inside a function; clang's gcov instrumentation derives counts by flow conservation
/// and loses the whole function then.
const NATIVE_CC: &str = "gcc";
const GCOV: &str = "gcov";

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct ReplayReport {
    pub tests: usize,
    /// Native branch outcomes (gcov) taken by at least one test / all.
    pub branches_taken: usize,
    pub branches_total: usize,
    pub lines_executed: usize,
    pub lines_total: usize,
    /// Claimed goals checked against native line counts, and those that could not be checked
    /// (their line has no code of its own natively).
    pub claims_checked: usize,
    pub claims_unchecked: usize,
    /// Claims the native run contradicts, and exit-code mismatches.
    pub mismatches: Vec<String>,
}

#[derive(Default)]
struct FileCov {
    lines: BTreeMap<u32, u64>,
    /// (line, index within line) → taken count
    branches: BTreeMap<(u32, u32), u64>,
}

fn same_file(a: &str, b: &str) -> bool {
    let pa = Path::new(a);
    let pb = Path::new(b);
    if let (Ok(x), Ok(y)) = (pa.canonicalize(), pb.canonicalize()) {
        return x == y;
    }
    pa.file_name() == pb.file_name()
}

fn parse_gcov(text: &str) -> BTreeMap<String, FileCov> {
    let mut out: BTreeMap<String, FileCov> = BTreeMap::new();
    let mut cur: Option<String> = None;
    let mut last_line = 0u32;
    let mut bidx = 0u32;
    for l in text.lines() {
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix("branch") {
            if let Some(f) = &cur {
                let fc = out.get_mut(f).unwrap();
                let taken = rest
                    .split_whitespace()
                    .nth(2)
                    .and_then(|x| x.parse::<u64>().ok())
                    .unwrap_or(0);
                fc.branches.insert((last_line, bidx), taken);
                bidx += 1;
            }
            continue;
        }
        let mut parts = l.splitn(3, ':');
        let (Some(count), Some(lineno), rest) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let count = count.trim();
        let Ok(lineno) = lineno.trim().parse::<u32>() else {
            continue;
        };
        if lineno == 0 {
            if let Some(src) = rest.and_then(|r| r.strip_prefix("Source:")) {
                cur = Some(src.to_string());
                out.entry(src.to_string()).or_default();
            }
            continue;
        }
        let Some(f) = &cur else { continue };
        last_line = lineno;
        bidx = 0;
        let fc = out.get_mut(f).unwrap();
        if count == "-" {
            continue;
        }
        let c = if count.starts_with('#') || count.starts_with('=') {
            0
        } else {
            count.trim_end_matches('*').parse::<u64>().unwrap_or(0)
        };
        let e = fc.lines.entry(lineno).or_insert(0);
        *e = (*e).max(c);
    }
    out
}

fn run_with_timeout(cmd: &mut Command, limit: Duration) -> Result<Option<i32>> {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .stdin(Stdio::null())
        .spawn()?;
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait()? {
            use std::os::unix::process::ExitStatusExt;
            return Ok(Some(
                st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0)),
            ));
        }
        if start.elapsed() > limit {
            // SIGTERM first: the harness then still writes its coverage counters.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            std::thread::sleep(Duration::from_millis(200));
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

pub fn replay(
    sources: &[PathBuf],
    opts: &CompileOptions,
    dir: &Path,
    module: &Module,
    goals: &Goals,
    entry: &str,
) -> Result<ReplayReport> {
    let tmp = TempDir::new("replay")?;
    let sources: Vec<PathBuf> = sources
        .iter()
        .map(|s| s.canonicalize().unwrap_or_else(|_| s.clone()))
        .collect();
    let sources = &sources[..];
    let dir = &dir.canonicalize()?;
    let harness = dir.join("replay/harness.c");
    if !harness.exists() {
        bail!(
            "{} not found: is {} a Cairn output directory?",
            harness.display(),
            dir.display()
        );
    }
    let mut common: Vec<String> = vec!["-O0".into(), "-g".into(), "-w".into()];
    if opts.data_model == crate::ir::DataModel::ILP32 {
        common.push("-m32".into());
    }
    for i in &opts.includes {
        common.push(format!("-I{}", i.display()));
    }
    for d in &opts.defines {
        common.push(format!("-D{d}"));
    }
    let mut objs = vec![];
    for (i, s) in sources.iter().enumerate() {
        let o = tmp.path().join(format!("src{i}.o"));
        let mut cmd = Command::new(NATIVE_CC);
        cmd.args(&common)
            .args(["--coverage", "-c", "-o"])
            .arg(&o)
            .arg(s);
        if entry != "main" {
            // Unit mode: the harness has the `main`.
            cmd.arg("-Dmain=cairn_program_main");
        }
        let out = cmd.output().context("running gcc")?;
        if !out.status.success() {
            bail!(
                "native compile of {} failed:\n{}",
                s.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        objs.push(o);
    }
    let ho = tmp.path().join("harness.o");
    let out = Command::new(NATIVE_CC)
        .args(&common)
        .args(["-DCAIRN_GCOV", "-c", "-o"])
        .arg(&ho)
        .arg(&harness)
        .output()?;
    if !out.status.success() {
        bail!(
            "compiling the harness failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let exe = tmp.path().join("prog");
    let out = Command::new(NATIVE_CC)
        .args(&common)
        .arg("--coverage")
        .args(&objs)
        .arg(&ho)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()?;
    if !out.status.success() {
        bail!(
            "linking the native replay binary failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    let mut tests: Vec<PathBuf> = std::fs::read_dir(dir.join("tests"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    tests.sort();
    let mut rep = ReplayReport {
        tests: tests.len(),
        ..Default::default()
    };
    let mut all_lines: BTreeMap<(String, u32), u64> = BTreeMap::new();
    let mut all_branches: BTreeMap<(String, u32, u32), u64> = BTreeMap::new();
    for t in &tests {
        for o in &objs {
            let _ = std::fs::remove_file(o.with_extension("gcda"));
        }
        let code = run_with_timeout(
            Command::new(&exe)
                .env("CAIRN_TEST", t)
                .current_dir(tmp.path()),
            Duration::from_secs(10),
        )?;
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(t)?)?;
        let name = t.file_name().unwrap().to_string_lossy().to_string();
        match (code, json["exit_code"].as_i64()) {
            (None, _) => rep.mismatches.push(format!("{name}: native run timed out")),
            (Some(c), Some(e)) if c as i64 != (e & 0xff) => rep
                .mismatches
                .push(format!("{name}: native exit code {c}, Cairn predicted {e}")),
            _ => {}
        }
        let mut cov: BTreeMap<String, FileCov> = BTreeMap::new();
        for (i, o) in objs.iter().enumerate() {
            let out = Command::new(GCOV)
                .args(["-b", "-c", "-t", "-o"])
                .arg(o)
                .arg(&sources[i])
                .output()
                .context("running gcov")?;
            if std::env::var_os("CAIRN_DEBUG_REPLAY").is_some() {
                eprintln!(
                    "gcov: {}\n{}",
                    String::from_utf8_lossy(&out.stderr),
                    String::from_utf8_lossy(&out.stdout)
                        .lines()
                        .take(3)
                        .collect::<Vec<_>>()
                        .join("\n")
                );
            }
            for (f, c) in parse_gcov(&String::from_utf8_lossy(&out.stdout)) {
                cov.insert(f, c);
            }
        }
        for (f, c) in &cov {
            if !sources
                .iter()
                .any(|s| same_file(&s.display().to_string(), f))
            {
                continue;
            }
            for (l, n) in &c.lines {
                *all_lines.entry((f.clone(), *l)).or_insert(0) += n;
            }
            for ((l, b), n) in &c.branches {
                *all_branches.entry((f.clone(), *l, *b)).or_insert(0) += n;
            }
        }
        for g in json["covers"].as_array().cloned().unwrap_or_default() {
            let Some(g) = g.as_u64().map(|g| g as usize) else {
                continue;
            };
            let Some(goal) = goals.goals.get(g) else {
                rep.mismatches
                    .push(format!("{name}: claims unknown goal {g}"));
                continue;
            };
            // The first instruction executed at the branch target; for targets that are bare
            // jumps, the branch itself (a weaker check).
            let loc = if goal.kind == GoalKind::Error || goal.target_loc.line == 0 {
                goal.loc
            } else {
                goal.target_loc
            };
            let file = module
                .files
                .get(loc.file as usize)
                .cloned()
                .unwrap_or_default();
            let count = cov
                .iter()
                .find(|(f, _)| same_file(f, &file))
                .and_then(|(_, c)| c.lines.get(&loc.line).copied());
            match count {
                Some(0) => rep.mismatches.push(format!(
                    "{name}: claims goal {g} ({} {} at {}), but line {} never ran natively",
                    goal.function,
                    goal.outcome,
                    module.loc_string(goal.loc),
                    loc.line
                )),
                Some(_) => rep.claims_checked += 1,
                None => rep.claims_unchecked += 1,
            }
        }
    }
    rep.lines_total = all_lines.len();
    rep.lines_executed = all_lines.values().filter(|n| **n > 0).count();
    rep.branches_total = all_branches.len();
    rep.branches_taken = all_branches.values().filter(|n| **n > 0).count();
    let _ = BTreeSet::<u8>::new();
    Ok(rep)
}
