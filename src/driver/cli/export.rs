//! `cairn export`: a generated suite as C tests of the project's own test suite.

use crate::driver::options::*;
use crate::output::export::{self, Export, Format};
use crate::output::run_record::RUN_RECORD;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct ExportArgs {
    /// The output directory of `cairn gen` (of a multi-entry run: each entry's is exported).
    pub dir: PathBuf,
    /// The kind of test suite.
    #[arg(long, value_enum, default_value = "ctest")]
    pub format: Format,
    /// Where to write it (default: DIR/export).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

pub fn run(a: ExportArgs) -> Result<i32> {
    let out = a.out.clone().unwrap_or_else(|| a.dir.join("export"));
    // A multi-entry run: DIR/<entry> per entry function.
    let single = a.dir.join(RUN_RECORD).is_file();
    let mut runs: Vec<(PathBuf, PathBuf)> = vec![];
    if single {
        runs.push((a.dir.clone(), out.clone()));
    } else {
        let mut subs: Vec<PathBuf> = std::fs::read_dir(&a.dir)
            .with_context(|| format!("cannot read {}", a.dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join(RUN_RECORD).is_file())
            .collect();
        subs.sort();
        for s in subs {
            let name = s.file_name().unwrap_or_default().to_owned();
            runs.push((s, out.join(name)));
        }
    }
    if runs.is_empty() {
        bail!(
            "{} has no run.json: export needs a directory of `cairn gen`",
            a.dir.display()
        );
    }
    export::prepare_out(&out)?;
    for (run_dir, run_out) in &runs {
        let (mut front, criterion, files) = recorded_front(run_dir)?;
        let p = load_program(&files, &mut front, criterion)?;
        let e = Export {
            dir: run_dir,
            sources: &files,
            opts: &front.opts(),
            module: &p.module,
            entry: &p.entry,
            unit: &p.unit,
        };
        let (n, left_out) = export::export(&e, a.format, run_out)?;
        for l in &left_out {
            eprintln!("cairn: note: test {l}");
        }
        println!(
            "cairn: exported {n} tests of {} -> {}",
            run_dir.display(),
            run_out.display()
        );
    }
    if !single {
        let subdirs: Vec<String> = runs
            .iter()
            .filter_map(|(_, o)| o.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        export::write_parent_cmake(&out, &subdirs, a.format)?;
    }
    Ok(0)
}
