//! What every generating command shares: the interrupt flag, the session writing to the output
//! directory, the progress bar, and the final report (the summary line, faults, limits hit).

use super::options::{GoalSet, Limits};
use super::session::{Budget, Session};
use crate::exec::{Config, Program};
use crate::output::run_record::RunRecord;
use crate::output::suite::SuiteWriter;
use anyhow::Result;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Ctrl-C and SIGTERM set the flag and interrupt the solver queries in flight, so the run
/// stops within moments with its outputs complete; a second one exits at once. Installed once
/// (the first call, before loading: an interrupt then ends the compiler's runs and leaves no
/// scratch directory); later calls return the same flag.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();
    FLAG.get_or_init(install_interrupt_handler).clone()
}

fn install_interrupt_handler() -> Arc<AtomicBool> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let i = interrupted.clone();
    let _ = ctrlc::set_handler(move || {
        if i.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
        crate::ir::frontend::interrupt();
        // Again and again for a while: Z3 forgets an interrupt that comes just before a query
        // starts (with several workers, one of them is often there).
        std::thread::spawn(|| {
            for _ in 0..250 {
                crate::smt::solver::interrupt_solvers();
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
    });
    interrupted
}

/// A session writing to `out`, over the goals asked for.
#[allow(clippy::too_many_arguments)]
pub fn session<'p>(
    p: &'p Program,
    files: &[PathBuf],
    out: &std::path::Path,
    time: Duration,
    goals: GoalSet,
    limits: &Limits,
    max_tests: Option<usize>,
    max_iterations: Option<u64>,
    run: &RunRecord,
) -> Result<Session<'p>> {
    let mut writer = SuiteWriter::create(out, &files[0], &p.module, goals == GoalSet::Error)?;
    writer.set_run(run)?;
    writer.set_entry(&p.module, &p.entry, &p.unit)?;
    let budget = Budget {
        time,
        max_tests,
        max_iterations,
    };
    let mut s = Session::new(p, writer, budget, interrupt_flag());
    s.limit_memory(limits.own_memory());
    if goals == GoalSet::Error {
        s.only_error_goals();
    }
    Ok(s)
}

/// Writes goals.json, summary.json and the zip; prints the one-line summary.
pub fn finish(
    s: &mut Session,
    out: &std::path::Path,
    mut stats: serde_json::Map<String, serde_json::Value>,
    fail_on_fault: bool,
    cfg: &Config,
) -> Result<i32> {
    s.sync();
    let minimized = crate::driver::minimize::minimize_faults(s, cfg)?;
    if minimized > 0 {
        stats.insert("minimized_reproducers".into(), minimized.into());
    }
    let proofs = s.ledger.proofs_by_kind();
    stats.insert("proofs".into(), serde_json::to_value(&proofs)?);
    stats.insert("runs".into(), serde_json::to_value(&s.runs)?);
    let summary = s.write_results(serde_json::Value::Object(stats))?;
    let faults: Vec<crate::output::faults::Fault> =
        serde_json::from_value(summary["faults"].clone()).unwrap_or_default();
    println!(
        "cairn: {} goals ({} branch outcomes, {} error calls{}): {} covered, {} unreachable{}, {} unknown; {} tests{} in {:.1}s -> {}",
        s.ledger.total(),
        s.goals.num_branches,
        s.goals.num_errors(),
        if s.ledger.ignored > 0 {
            format!(", {} ignored", s.ledger.ignored)
        } else {
            String::new()
        },
        s.ledger.covered,
        s.ledger.unreachable,
        if proofs.is_empty() {
            String::new()
        } else {
            let kinds: Vec<String> = proofs.iter().map(|(k, n)| format!("{k} {n}")).collect();
            format!(" ({})", kinds.join(", "))
        },
        s.ledger.unknown(),
        s.tests(),
        match faults.len() {
            0 => String::new(),
            1 => ", 1 fault".into(),
            n => format!(", {n} distinct faults"),
        },
        summary["time_s"].as_f64().unwrap_or(0.0),
        out.display()
    );
    for f in crate::output::faults::lines(&faults, out) {
        println!("cairn: fault: {f}");
    }
    let code = limit_report(s).unwrap_or(if s.ledger.violations.is_empty() { 0 } else { 4 });
    Ok(match code {
        0 if fail_on_fault && !faults.is_empty() => 1,
        c => c,
    })
}

/// Says what ended runs or the search early; exit code 3 when no test could be made because
/// every run stopped where Cairn cannot follow the native run.
pub fn limit_report(s: &Session) -> Option<i32> {
    if s.memory_exceeded.get() {
        eprintln!(
            "cairn: warning: Cairn's memory reached the limit (--max-memory): the search stopped early"
        );
    }
    if s.runs.cut_by_memory_limit > 0 {
        eprintln!(
            "cairn: warning: {} runs reached the memory limit of a run (--max-memory) and were cut short (no test)",
            s.runs.cut_by_memory_limit
        );
    }
    if s.runs.cut_by_link_limit > 0 {
        eprintln!(
            "cairn: warning: {} runs walked structures of more than {} blocks Cairn linked and were cut short (no test)",
            s.runs.cut_by_link_limit,
            crate::exec::links::MAX_BLOCKS
        );
    }
    if s.runs.uninitialized > 0 {
        eprintln!(
            "cairn: warning: {} runs decided on uninitialized memory, the first at {} (Cairn reads zeros there, a native run whatever memory held): what such a run took after that decision is not claimed (a test whose input went further natively lists those goals as `reached_natively`); if that memory is a local the program means as a nondeterministic value, --uninitialized-inputs makes it an input",
            s.runs.uninitialized,
            s.runs.first_uninitialized.as_deref().unwrap_or("?")
        );
    }
    if s.runs.unsupported > 0 {
        eprintln!(
            "cairn: warning: {} of {} runs stopped where Cairn cannot follow the native run; the first: {}",
            s.runs.unsupported,
            s.iterations,
            s.runs.first_unsupported.as_deref().unwrap_or("?")
        );
        if s.tests() == 0 {
            eprintln!("cairn: error: no test could be generated");
            return Some(3);
        }
    }
    None
}

/// A progress bar on stderr when it is a terminal; nothing otherwise (CI logs stay clean).
/// The bar fills as goals are decided (covered or proven unreachable).
pub fn progress_bar(s: &mut Session) {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return;
    }
    let b = indicatif::ProgressBar::new(s.ledger.total() as u64)
        .with_finish(indicatif::ProgressFinish::AndClear);
    b.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {msg}")
            .unwrap()
            .progress_chars("=> "),
    );
    s.on_progress(move |ledger, tests, what| {
        b.set_length(ledger.total() as u64);
        b.set_position((ledger.covered + ledger.unreachable) as u64);
        b.set_message(progress_line(ledger, tests, what));
    });
}

/// `goals 40 covered of 45, 97% of reachable | 4 proven unreachable | 1 unknown | tests 12 |`
/// and what the techniques are doing.
pub fn progress_line(l: &crate::driver::ledger::Ledger, tests: usize, what: &str) -> String {
    let reachable = l.total() - l.unreachable;
    let pct = if reachable == 0 {
        100.0
    } else {
        100.0 * l.covered as f64 / reachable as f64
    };
    format!(
        "goals {} covered of {}, {pct:.0}% of reachable | {} proven unreachable | {} unknown | tests {tests} | {what}",
        l.covered,
        l.total(),
        l.unreachable,
        l.unknown()
    )
}
