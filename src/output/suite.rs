//! The output directory, written as results arrive so a killed run loses nothing found so far:
//! `tests/NNNNNN.json`, `test-suite/` (Test-Comp), `replay/harness.c`, `goals.json`,
//! `summary.json`, `coverage.csv`.
//!
//! Every file is written under a temporary name and renamed, so a kill at any moment leaves
//! complete files only. A directory is reused only when everything in it is Cairn's: its
//! earlier outputs are removed, and a directory holding anything else is refused.

use crate::analysis::goals::{GoalKind, Goals};
use crate::analysis::ledger::{Ledger, Status};
use crate::exec::{InputKind, InputValue, Outcome};
use crate::ir::Module;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A test as stored in `tests/NNNNNN.json`.
#[derive(Clone, Debug)]
pub struct Test {
    pub inputs: Vec<InputValue>,
    pub covers: Vec<usize>,
    pub error: bool,
    pub found_by: String,
    pub time_s: f64,
    pub outcome: Outcome,
    /// Where a faulting run failed (`file:line:col`), for native replay to compare.
    pub fault_location: Option<String>,
    /// A memory fault's access in words (`RunResult::fault_detail`).
    pub fault_detail: Option<String>,
    /// IR instructions the run executed.
    pub steps: u64,
    /// The program run that produced it (from 1).
    pub iteration: u64,
    /// Its exit status is not the program's to predict (see `RunResult::exit_indeterminate`).
    pub exit_indeterminate: bool,
    /// Its path depended on addresses (see `RunResult::layout_dependent`).
    pub layout_dependent: bool,
    /// Where a decision of its run first rested on uninitialized memory (`file:line:col`): it
    /// claims only what came before, and its end is not predicted (see
    /// `RunResult::uninitialized_at`).
    pub uninitialized_at: Option<String>,
    /// Goals its input took natively past that decision (the fuzzer's run in a fresh
    /// process), not claimed: what memory held there is the native run's, not the program's.
    pub reached_natively: Vec<usize>,
    /// Unit mode: what the entry function returned.
    pub returned: Option<String>,
    /// Unit mode: the pointer parameters whose buffers its run freed.
    pub freed_params: Vec<String>,
    /// Heap memory its run could no longer reach when the program exited.
    pub leak: Option<LeakReport>,
}

/// A run's leak as tests report it (see `memory::Leak`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeakReport {
    pub bytes: u64,
    pub blocks: u64,
    /// `file:line:col` of each allocation site of the leaked blocks.
    pub allocated_at: Vec<String>,
}

impl LeakReport {
    pub fn of(m: &Module, r: &crate::exec::RunResult) -> Option<LeakReport> {
        r.leak.as_ref().map(|l| LeakReport {
            bytes: l.bytes,
            blocks: l.blocks,
            allocated_at: l.sites.iter().map(|&s| m.loc_string(s)).collect(),
        })
    }

    pub fn json(&self) -> serde_json::Value {
        json!({"bytes": self.bytes, "blocks": self.blocks, "allocated_at": self.allocated_at})
    }
}

pub fn input_json(v: &InputValue) -> serde_json::Value {
    serde_json::to_value(InputJson(v)).expect("an input is plain JSON")
}

/// An input as tests store it: its type, its value as text and where it came from. Serialized
/// straight to the file (a run may read a million inputs: a `serde_json::Value` of each took a
/// second to write), its keys in the sorted order a `serde_json::Map` gives them.
pub struct InputJson<'a>(pub &'a InputValue);

impl serde::Serialize for InputJson<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let v = self.0;
        let (mut from, mut name, mut null) = (None, None, None);
        if v.kind == InputKind::Bytes {
            name = Some(v.name());
        } else if v.channel == crate::exec::input::Channel::Null {
            // 1: the parameter is passed as NULL.
            null = Some(v.name());
        } else if let Some(channel) = v.channel.name() {
            from = Some(channel);
        } else if v.is_extern_result() {
            from = Some(v.name());
        }
        let mut m = s.serialize_map(None)?;
        if let Some(from) = from {
            m.serialize_entry("from", from)?;
        }
        if let Some((parent, offset)) = v.link() {
            // Where the replay harness stores the pointer: at `offset` in value `parent`'s block.
            m.serialize_entry("link", &format!("{parent}+{offset}"))?;
        }
        if let Some(name) = name {
            m.serialize_entry("name", name)?;
        }
        if let Some(null) = null {
            m.serialize_entry("null", null)?;
        }
        m.serialize_entry("type", v.kind.name())?;
        m.serialize_entry("value", &v.to_text())?;
        m.end()
    }
}

/// The text a run read from stdin, where it read stdin by characters only: the characters
/// before the first end of input, a byte each (128–255 as U+0080–U+00FF, so the text is valid
/// JSON and turns back into the bytes). None where it read none, or read some through `scanf`
/// (whose values are the numbers it converted, not text).
pub fn stdin_text(inputs: &[InputValue]) -> Option<String> {
    use crate::exec::input::Channel;
    if inputs.iter().any(|v| v.channel == Channel::Scanf) {
        return None;
    }
    let mut chars = inputs
        .iter()
        .filter(|v| v.channel == Channel::Stdin)
        .peekable();
    chars.peek()?;
    let text = chars.map(|v| v.bits as u32).take_while(|&c| c <= 255);
    Some(text.map(|c| c as u8 as char).collect())
}

/// Writes test `n` of the directory: `tests/NNNNNN.json` and, where the test read stdin's text
/// (`stdin`), that text as `stdin/NNNNNN`, to run the program on natively (`prog <
/// stdin/000001`; a directory of its own: `tests/` holds JSON only).
pub fn write_test(
    dir: &Path,
    n: usize,
    test: &impl serde::Serialize,
    stdin: Option<&str>,
) -> Result<()> {
    let mut json = serde_json::to_vec_pretty(test)?;
    json.push(b'\n');
    write_atomic(&dir.join(format!("tests/{n:06}.json")), &json)?;
    if let Some(text) = stdin {
        let bytes: Vec<u8> = text.chars().map(|c| c as u32 as u8).collect();
        let stdin = dir.join("stdin");
        fs::create_dir_all(&stdin).with_context(|| format!("cannot create {}", stdin.display()))?;
        write_atomic(&stdin.join(format!("{n:06}")), &bytes)?;
    }
    Ok(())
}

/// A test's file: its fields (`test_fields`) with its inputs among them, in key order.
struct TestFile<'a> {
    fields: &'a serde_json::Map<String, serde_json::Value>,
    inputs: &'a [InputValue],
}

impl serde::Serialize for TestFile<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        struct Inputs<'a>(&'a [InputValue]);
        impl serde::Serialize for Inputs<'_> {
            fn serialize<S: serde::Serializer>(
                &self,
                s: S,
            ) -> std::result::Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(InputJson))
            }
        }
        let mut m = s.serialize_map(Some(self.fields.len() + 1))?;
        let mut inputs = Some(Inputs(self.inputs));
        for (k, v) in self.fields {
            if k.as_str() > "inputs"
                && let Some(i) = inputs.take()
            {
                m.serialize_entry("inputs", &i)?;
            }
            m.serialize_entry(k, v)?;
        }
        if let Some(i) = inputs {
            m.serialize_entry("inputs", &i)?;
        }
        m.end()
    }
}

/// A test's fields but its inputs (`TestFile` writes them).
fn test_fields(t: &Test) -> serde_json::Value {
    let mut o = json!({
        "covers": t.covers,
        "error": t.error,
        "found_by": t.found_by,
        "time_s": round_ms(t.time_s),
        "outcome": t.outcome.label(),
        "iteration": t.iteration,
    });
    if let Some(text) = stdin_text(&t.inputs) {
        o["stdin"] = json!(text);
    }
    match t.outcome {
        Outcome::Exit(_) if t.exit_indeterminate => o["exit_code_indeterminate"] = json!(true),
        Outcome::Exit(c) => o["exit_code"] = json!(c),
        _ => {}
    }
    if let Outcome::Fault { kind, .. } = &t.outcome {
        o["fault"] = json!(kind);
    }
    if t.layout_dependent {
        o["layout_dependent"] = json!(true);
    }
    if let Some(at) = &t.uninitialized_at {
        o["uninitialized_decision_at"] = json!(at);
    }
    if !t.reached_natively.is_empty() {
        o["reached_natively"] = json!(t.reached_natively);
    }
    if let Some(r) = &t.returned {
        o["returned"] = json!(r);
    }
    if !t.freed_params.is_empty() {
        o["freed_params"] = json!(t.freed_params);
    }
    if let Some(at) = &t.fault_location {
        o["fault_location"] = json!(at);
    }
    if let Some(d) = &t.fault_detail {
        o["fault_detail"] = json!(d);
    }
    if let Some(l) = &t.leak {
        o["leak"] = l.json();
    }
    if t.outcome == Outcome::StepLimit {
        o["steps"] = json!(t.steps);
    }
    o
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename: a
/// kill at any moment leaves the old file, the new one or none, never a truncated one. Both
/// names are recorded in the output directory's manifest first.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    record_written(&tmp)?;
    record_written(path)?;
    fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The file in an output directory listing every file Cairn wrote there, one relative path a
/// line: a later run removes exactly these, and nothing of the user's.
pub const MANIFEST: &str = ".cairn-manifest";

/// Adds `path` to the manifest of the output directory holding it (its directory or the one
/// above), once per process.
pub fn record_written(path: &Path) -> Result<()> {
    use std::io::Write;
    let Some(root) = path
        .ancestors()
        .skip(1)
        .take(2)
        .find(|d| d.join(MANIFEST).is_file())
    else {
        return Ok(());
    };
    let mut g = RECORDED.lock().unwrap_or_else(|e| e.into_inner());
    if !g
        .get_or_insert_with(Default::default)
        .insert(path.to_path_buf())
    {
        return Ok(());
    }
    let rel = path.strip_prefix(root).unwrap_or(path);
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(root.join(MANIFEST))
        .with_context(|| format!("cannot record into {}", root.join(MANIFEST).display()))?;
    writeln!(f, "{}", rel.display())?;
    Ok(())
}

/// Paths this process has recorded in a manifest (saves re-reading it on every write).
static RECORDED: std::sync::Mutex<Option<std::collections::HashSet<PathBuf>>> =
    std::sync::Mutex::new(None);

/// Forgets what this process recorded under `dir` (its manifest was emptied).
fn forget_recorded(dir: &Path) {
    let mut g = RECORDED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(set) = g.as_mut() {
        set.retain(|p| !p.starts_with(dir));
    }
}

/// Refuses `dir` as an output directory unless it is new, empty or Cairn's own (it holds a
/// manifest): Cairn never deletes what it did not write. Changes nothing, so a command checks
/// it before any work (compiling the program).
pub fn check_output_dir(dir: &Path) -> Result<()> {
    if !dir.exists() || dir.join(MANIFEST).is_file() {
        return Ok(());
    }
    if !dir.is_dir() {
        bail!("--out {}: exists and is not a directory", dir.display());
    }
    // The files there, one directory deep (`tests/test_parser.c`).
    let mut entries: Vec<String> = vec![];
    for e in fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok())
    {
        let name = e.file_name().to_string_lossy().into_owned();
        match fs::read_dir(e.path()) {
            Ok(sub) if e.path().is_dir() => entries.extend(
                sub.filter_map(|s| s.ok())
                    .map(|s| format!("{name}/{}", s.file_name().to_string_lossy())),
            ),
            Ok(_) => entries.push(format!("{name}/")),
            _ => entries.push(name),
        }
    }
    if !entries.is_empty() {
        entries.sort();
        let more = if entries.len() > 5 {
            format!(" and {} more", entries.len() - 5)
        } else {
            String::new()
        };
        entries.truncate(5);
        bail!(
            "--out {}: the directory is not empty ({}{more}) and has no {MANIFEST}, so Cairn did not make it; Cairn reuses only a new, an empty or its own output directory, and never deletes anything else",
            dir.display(),
            entries.join(", ")
        );
    }
    Ok(())
}

/// Makes `dir` ready for a run: creates it, or removes exactly the files its manifest says an
/// earlier run of Cairn wrote there (the user's own files stay). A non-empty directory without
/// a manifest is refused (`check_output_dir`).
pub fn prepare_output_dir(dir: &Path) -> Result<()> {
    check_output_dir(dir)?;
    let manifest = dir.join(MANIFEST);
    if !dir.exists() {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        fs::write(&manifest, "").with_context(|| format!("cannot write {}", manifest.display()))?;
        forget_recorded(dir);
        return Ok(());
    }
    if !manifest.is_file() {
        // New or empty: Cairn's from now on.
        fs::write(&manifest, "").with_context(|| format!("cannot write {}", manifest.display()))?;
        forget_recorded(dir);
        return Ok(());
    }
    let listed = fs::read_to_string(&manifest)
        .with_context(|| format!("cannot read {}", manifest.display()))?;
    let mut subdirs = std::collections::BTreeSet::new();
    for rel in listed.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let rel = Path::new(rel);
        // Only plain relative paths inside the directory.
        if rel.is_absolute()
            || rel
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            continue;
        }
        let p = dir.join(rel);
        if p.is_file() {
            fs::remove_file(&p).with_context(|| format!("cannot remove {}", p.display()))?;
        }
        if let Some(parent) = rel.parent().filter(|p| !p.as_os_str().is_empty()) {
            subdirs.insert(dir.join(parent));
        }
    }
    // Directories Cairn's files were in go too once empty (a user's file keeps one).
    for d in subdirs.iter().rev() {
        let _ = fs::remove_dir(d);
    }
    forget_recorded(dir);
    fs::write(&manifest, "").with_context(|| format!("cannot write {}", manifest.display()))?;
    Ok(())
}

/// Reads the input values of a test file (for replay).
pub fn read_test_values(path: &Path) -> Result<Vec<(String, String)>> {
    let v = read_test(path)?;
    let mut out = vec![];
    for i in v["inputs"].as_array().cloned().unwrap_or_default() {
        out.push((
            i["type"].as_str().unwrap_or("").to_string(),
            i["value"].as_str().unwrap_or("").to_string(),
        ));
    }
    Ok(out)
}

/// A test file's JSON; errors name the file.
pub fn read_test(path: &Path) -> Result<serde_json::Value> {
    let text =
        fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a valid Cairn test file", path.display()))
}

pub struct SuiteWriter {
    pub dir: PathBuf,
    pub tests: usize,
    start: Instant,
    csv: File,
    last_row: (usize, usize, usize),
    iterations: u64,
    program: PathBuf,
    spec_error: bool,
    entry: String,
    /// Each goal's row of goals.json without its status (see `set_goals`).
    goal_rows: Option<Vec<serde_json::Value>>,
    last_goals_write: Option<Instant>,
    /// What summary.json says of the run (`RunRecord::summary`), once known.
    run: Option<serde_json::Value>,
    /// The faults of the tests written so far.
    faults: crate::output::faults::FaultSet,
}

fn xml_escape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['&', '<', '>', '"']) {
        return s.into();
    }
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .into()
}

const XML_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";

impl SuiteWriter {
    /// Creates the directory layout and the files that do not depend on results.
    pub fn create(
        dir: &Path,
        program: &Path,
        module: &Module,
        spec_error: bool,
    ) -> Result<SuiteWriter> {
        prepare_output_dir(dir)?;
        for sub in ["tests", "test-suite", "replay"] {
            let p = dir.join(sub);
            fs::create_dir_all(&p).with_context(|| format!("cannot create {}", p.display()))?;
        }
        write_atomic(
            &dir.join("replay/harness.c"),
            crate::output::harness::harness_c(module).as_bytes(),
        )?;
        write_atomic(
            &dir.join("coverage.csv"),
            b"time_s,covered,unreachable,tests,iterations\n",
        )?;
        let csv = fs::OpenOptions::new()
            .append(true)
            .open(dir.join("coverage.csv"))?;
        let w = SuiteWriter {
            dir: dir.to_path_buf(),
            tests: 0,
            start: Instant::now(),
            csv,
            last_row: (usize::MAX, 0, 0),
            iterations: 0,
            program: program.to_path_buf(),
            spec_error,
            entry: "main".into(),
            goal_rows: None,
            last_goals_write: None,
            run: None,
            faults: Default::default(),
        };
        w.write_metadata(module)?;
        Ok(w)
    }

    /// Unit mode: the harness calls `entry` as `unit` says, and the metadata names it.
    pub fn set_entry(
        &mut self,
        module: &Module,
        entry: &str,
        unit: &crate::exec::Unit,
    ) -> Result<()> {
        self.entry = entry.to_string();
        write_atomic(
            &self.dir.join("replay/harness.c"),
            crate::output::harness::harness_c_for(module, entry, unit).as_bytes(),
        )?;
        self.write_metadata(module)
    }

    /// Writes `run.json` (how the directory is made) now; summary.json will name the run.
    pub fn set_run(&mut self, run: &crate::output::run_record::RunRecord) -> Result<()> {
        run.write(&self.dir)?;
        self.run = Some(run.summary());
        Ok(())
    }

    pub fn has_faults(&self) -> bool {
        !self.faults.is_empty()
    }

    /// The faults of the tests written so far.
    pub fn faults(&self) -> Vec<crate::output::faults::Fault> {
        self.faults.list()
    }

    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    fn write_metadata(&self, module: &Module) -> Result<()> {
        use sha2::Digest;
        let src = fs::read(&self.program).unwrap_or_default();
        let hash = format!("{:x}", sha2::Sha256::digest(&src));
        let spec = if self.spec_error {
            "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )"
        } else {
            "COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )"
        };
        let arch = if module.data_model == crate::ir::DataModel::ILP32 {
            "32bit"
        } else {
            "64bit"
        };
        let now = chrono_like_now();
        let s = format!(
            "{XML_HEAD}<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">\n<test-metadata>\n  <sourcecodelang>C</sourcecodelang>\n  <producer>Cairn {}</producer>\n  <specification>{}</specification>\n  <programfile>{}</programfile>\n  <programhash>{}</programhash>\n  <entryfunction>{}</entryfunction>\n  <architecture>{}</architecture>\n  <creationtime>{}</creationtime>\n</test-metadata>\n",
            env!("CARGO_PKG_VERSION"),
            xml_escape(spec),
            xml_escape(&self.program.display().to_string()),
            hash,
            xml_escape(&self.entry),
            arch,
            now
        );
        write_atomic(&self.dir.join("test-suite/metadata.xml"), s.as_bytes())?;
        Ok(())
    }

    /// Writes one test in both formats; returns its number.
    pub fn add(&mut self, t: &Test) -> Result<usize> {
        let n = self.tests + 1;
        self.tests = n;
        let kind = match &t.outcome {
            Outcome::Fault { kind, .. } => Some(kind.as_str()),
            Outcome::Abort => Some(crate::output::faults::ABORT),
            _ => None,
        };
        // A reproducer's complexity, for faults only (a run may read a million inputs).
        let size = || -> usize {
            t.inputs
                .iter()
                .map(|v| crate::output::faults::complexity(&v.to_text()))
                .sum()
        };
        let name = format!("{n:06}");
        if let Some(kind) = kind {
            let at = t.fault_location.as_deref().unwrap_or("?");
            self.faults
                .add(kind, at, &name, size(), t.fault_detail.as_deref());
        }
        for at in t.leak.iter().flat_map(|l| &l.allocated_at) {
            self.faults
                .add(crate::output::faults::LEAK, at, &name, size(), None);
        }
        let fields = test_fields(t);
        let file = TestFile {
            fields: fields.as_object().expect("a test's fields are an object"),
            inputs: &t.inputs,
        };
        write_test(&self.dir, n, &file, fields["stdin"].as_str())?;
        let mut x = String::from(XML_HEAD);
        x.push_str("<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n");
        x.push_str(if t.error {
            "<testcase coversError=\"true\">\n"
        } else {
            "<testcase>\n"
        });
        // TestCov feeds only the `__VERIFIER_nondet_*` calls: values of unmodelled external
        // functions (which run natively there) would shift every later value.
        for v in t.inputs.iter().filter(|v| !v.is_extern_result()) {
            use std::fmt::Write;
            let _ = writeln!(
                x,
                "  <input type=\"{}\">{}</input>",
                xml_escape(v.kind.c_type()),
                xml_escape(&v.to_text())
            );
        }
        x.push_str("</testcase>\n");
        write_atomic(
            &self.dir.join(format!("test-suite/test{n:06}.xml")),
            x.as_bytes(),
        )?;
        Ok(n)
    }

    /// Appends a coverage.csv row if a figure changed; `iterations` is the number of runs so far.
    pub fn progress(&mut self, ledger: &Ledger, iterations: u64) -> Result<()> {
        self.iterations = self.iterations.max(iterations);
        let row = (ledger.covered, ledger.unreachable, self.tests);
        if row != self.last_row {
            self.last_row = row;
            // One write per row: a kill leaves whole rows.
            let line = format!(
                "{:.3},{},{},{},{}\n",
                self.elapsed(),
                row.0,
                row.1,
                row.2,
                self.iterations
            );
            self.csv.write_all(line.as_bytes())?;
            // Every change for small programs; at most once a second for large ones (each
            // write is proportional to the goals).
            if self.goal_rows.as_ref().is_some_and(|r| r.len() <= 2000)
                || self
                    .last_goals_write
                    .is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(1))
            {
                self.write_goals(ledger)?;
            }
        }
        Ok(())
    }

    /// The goals of the run: goals.json is written at once (every goal unknown) and kept
    /// current as the run goes, so a killed run can be reported, merged and replayed.
    pub fn set_goals(&mut self, module: &Module, goals: &Goals, ledger: &Ledger) -> Result<()> {
        self.goal_rows = Some(
            goals
                .goals
                .iter()
                .map(|g| {
                    let mut o = json!({
                        "id": g.id,
                        "kind": g.kind,
                        "function": g.function,
                        "outcome": g.outcome,
                        "file": module.files.get(g.loc.file as usize).cloned().unwrap_or_default(),
                        "line": g.loc.line,
                        "column": g.loc.col,
                    });
                    if let Some(du) = &g.def_use {
                        o["variable"] = json!(du.variable);
                        o["def_line"] = json!(du.def_line);
                        o["def_column"] = json!(du.def_column);
                        o["use_line"] = json!(du.use_line);
                        o["use_kind"] = json!(du.use_kind);
                        if du.use_kind == "c-use" {
                            o.as_object_mut().unwrap().remove("outcome");
                        }
                    }
                    o
                })
                .collect(),
        );
        self.write_goals(ledger)
    }

    fn write_goals(&mut self, ledger: &Ledger) -> Result<()> {
        let Some(rows) = &self.goal_rows else {
            return Ok(());
        };
        let gj: Vec<serde_json::Value> = rows
            .iter()
            .enumerate()
            .map(|(id, row)| {
                let (status, by) = match ledger.status.get(id).unwrap_or(&Status::Unknown) {
                    Status::Unknown => ("unknown", json!(null)),
                    Status::Covered(t) => ("covered", json!(format!("{t:06}"))),
                    Status::Unreachable(how) => ("unreachable", json!(how)),
                    // Another shard's goal this run did not decide: the other shard reports it.
                    Status::Ignored | Status::OtherShard => ("ignored", json!(null)),
                };
                let mut o = row.clone();
                o["status"] = json!(status);
                o[if status == "unreachable" {
                    "proof"
                } else {
                    "test"
                }] = by;
                o
            })
            .collect();
        write_atomic(
            &self.dir.join("goals.json"),
            (serde_json::to_string_pretty(&gj)? + "\n").as_bytes(),
        )?;
        self.last_goals_write = Some(Instant::now());
        Ok(())
    }

    /// goals.json, summary.json and test-suite.zip.
    pub fn finish(
        &mut self,
        module: &Module,
        goals: &Goals,
        ledger: &Ledger,
        extra: serde_json::Value,
    ) -> Result<serde_json::Value> {
        self.progress(ledger, self.iterations)?;
        if self
            .goal_rows
            .as_ref()
            .is_none_or(|r| r.len() != goals.len())
        {
            self.set_goals(module, goals, ledger)?;
        } else {
            self.write_goals(ledger)?;
        }
        let total = ledger.total();
        let reachable = total - ledger.unreachable;
        let faults = self.faults.list();
        crate::output::faults::write_sarif(&self.dir, &faults, None)?;
        let mut summary = json!({
            "cairn": self.run,
            "faults": faults,
            "goals": {"total": total, "covered": ledger.covered, "unreachable": ledger.unreachable, "unknown": ledger.unknown()},
            "ignored_goals": ledger.ignored,
            "branch_goals": goals.num_branches,
            "error_goals": goals.num_errors(),
            "def_use_goals": goals.def_use_base.map_or(0, |b| goals.len() - b),
            "error_reached": goals.goals.iter().any(|g| g.kind == GoalKind::Error && matches!(ledger.status[g.id], Status::Covered(_))),
            "coverage": if total == 0 { 1.0 } else { ledger.covered as f64 / total as f64 },
            "coverage_of_reachable": if reachable == 0 { 1.0 } else { ledger.covered as f64 / reachable as f64 },
            "tests": self.tests,
            "time_s": round_ms(self.elapsed()),
            "soundness_violations": ledger.violations,
        });
        if let (Some(s), Some(e)) = (summary.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                s.insert(k.clone(), v.clone());
            }
        }
        write_atomic(
            &self.dir.join("summary.json"),
            (serde_json::to_string_pretty(&summary)? + "\n").as_bytes(),
        )?;
        self.write_zip()?;
        Ok(summary)
    }

    fn write_zip(&self) -> Result<()> {
        write_zip(&self.dir)
    }
}

/// Seconds rounded to milliseconds, as the outputs report them.
pub fn round_ms(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

/// `dir/test-suite.zip` from the files of `dir/test-suite/` (written atomically).
pub fn write_zip(dir: &Path) -> Result<()> {
    let tmp = dir.join(".test-suite.zip.tmp");
    record_written(&tmp)?;
    record_written(&dir.join("test-suite.zip"))?;
    let f = File::create(&tmp)?;
    let mut z = zip::ZipWriter::new(f);
    // The fastest deflate: written after the budget's end, and a test may hold a million
    // inputs (level 6 took three times as long for a fifth less).
    let opts: zip::write::SimpleFileOptions = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1));
    let mut names: Vec<PathBuf> = fs::read_dir(dir.join("test-suite"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    names.sort();
    for p in names {
        let name = format!("test-suite/{}", p.file_name().unwrap().to_string_lossy());
        z.start_file(name, opts)?;
        z.write_all(&fs::read(&p)?)?;
    }
    z.finish()?;
    fs::rename(&tmp, dir.join("test-suite.zip"))?;
    Ok(())
}

/// UTC timestamp `YYYY-MM-DDTHH:MM:SSZ` without a date-time crate.
fn chrono_like_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = secs / 86400;
    let rem = secs % 86400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days as i64 + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed file is what a `serde_json::Value` of the test gave: keys sorted, the inputs
    /// among the fields, each input with the fields of its kind.
    #[test]
    fn a_test_file_has_its_inputs_among_its_fields_in_key_order() {
        let mut stdin = InputValue::int(InputKind::Char, 8, b'a' as u64);
        stdin.channel = crate::exec::input::Channel::Stdin;
        let mut linked = InputValue::buffer("p", vec![0xab, 0x01]);
        linked.set_link(1, 8);
        let inputs = vec![
            InputValue::int(InputKind::Int, 32, (-7i32) as u32 as u64),
            stdin,
            linked,
        ];
        let fields = json!({"covers": [3], "error": false, "stdin": "a", "time_s": 0.5});
        let file = TestFile {
            fields: fields.as_object().unwrap(),
            inputs: &inputs,
        };
        let text = serde_json::to_string(&file).unwrap();
        assert_eq!(
            text,
            concat!(
                r#"{"covers":[3],"error":false,"inputs":[{"type":"int","value":"-7"},"#,
                r#"{"from":"stdin","type":"char","value":"97"},"#,
                r#"{"link":"1+8","name":"p","type":"bytes","value":"ab01"}],"#,
                r#""stdin":"a","time_s":0.5}"#
            )
        );
    }
}
