//! Native runs of the program under test: the runner every native execution goes through (a
//! sandbox, the native stack, output and time limits, the whole process group killed at the
//! limit), and the probe build, whose runs report the goals they took (`ir::probes`).

use crate::ir::frontend::{CompileOptions, DIALECT_FLAGS, compile_native_bitcode, target_flags};
use crate::ir::probes::{DefUseProbes, ProbeSite, instrument, probe_runtime_c};
use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Native stack size: the size the interpreter assumes.
const STACK: u64 = crate::exec::memory::NATIVE_STACK;
/// Largest file a native run may write (in the scratch directory).
const MAX_FILE: u64 = 256 << 20;

/// The signal that ended a run whose status (as a shell reports it: 128 + signal, which the
/// harness's handlers also exit with) is `code`. Signals are 1 to 64: a program returning -1
/// or -2 from `main` exits with 255 or 254, a normal end.
pub fn signal_of(code: i32) -> Option<i32> {
    (129..=128 + 64).contains(&code).then_some(code - 128)
}

/// How a native run ended.
#[derive(Debug)]
pub struct NativeEnd {
    /// Exit status as a shell reports it (128 + signal); None when it timed out.
    pub code: Option<i32>,
    /// The first 64 KiB of its stderr, when captured.
    pub stderr: String,
}

/// Runs a clang command of the probe build.
fn clang(cmd: &mut Command) -> Result<()> {
    let out = cmd
        .output()
        .with_context(|| format!("running {}", crate::ir::toolchain::clang()))?;
    if !out.status.success() {
        bail!(
            "the native probe build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Runs `cmd` sandboxed to `scratch` (its working directory unless `cmd` names one inside it)
/// for at most `limit`.
pub fn run(
    cmd: &mut Command,
    scratch: &Path,
    limit: Duration,
    capture_stderr: bool,
) -> Result<NativeEnd> {
    run_with_stdout(cmd, scratch, limit, capture_stderr, Stdio::null())
}

/// `run`, with the program's stdout going to `stdout`.
pub fn run_with_stdout(
    cmd: &mut Command,
    scratch: &Path,
    limit: Duration,
    capture_stderr: bool,
    stdout: Stdio,
) -> Result<NativeEnd> {
    confine(cmd, scratch);
    let mut child = cmd
        .stdout(stdout)
        .stderr(if capture_stderr {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdin(Stdio::null())
        .spawn()?;
    let reader = child.stderr.take().map(|mut err| {
        std::thread::spawn(move || {
            let mut kept = vec![];
            let _ = (&mut err).take(64 << 10).read_to_end(&mut kept);
            // Drain the rest so the program never blocks on a full pipe.
            let _ = std::io::copy(&mut err, &mut std::io::sink());
            String::from_utf8_lossy(&kept).into_owned()
        })
    });
    let start = Instant::now();
    let pgid = child.id() as i32;
    let code = loop {
        if let Some(st) = child.try_wait()? {
            break Some(st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0)));
        }
        if start.elapsed() > limit {
            // SIGTERM first: the harness then still writes its coverage counters.
            unsafe { libc::kill(-pgid, libc::SIGTERM) };
            std::thread::sleep(Duration::from_millis(200));
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    // Whatever the run left behind in its group.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
    let stderr = reader
        .map(|r| r.join().unwrap_or_default())
        .unwrap_or_default();
    Ok(NativeEnd { code, stderr })
}

/// Sets up `cmd` as every native run of the program is: sandboxed to `scratch` (its working
/// directory, unless `cmd` names one, which must be inside it), with the native stack, a limit
/// on file sizes, no core dumps, and a process group of its own (a time-out kills whatever it
/// started too). (No limit on the address space: AddressSanitizer's builds reserve terabytes
/// of it.)
pub fn confine(cmd: &mut Command, scratch: &Path) {
    super::sandbox::confine(cmd, scratch);
    if cmd.get_current_dir().is_none() {
        cmd.current_dir(scratch);
    }
    unsafe {
        cmd.pre_exec(|| {
            let set = |res, cur: u64| {
                let mut r: libc::rlimit = std::mem::zeroed();
                libc::getrlimit(res, &mut r);
                r.rlim_cur = if r.rlim_max == libc::RLIM_INFINITY {
                    cur as libc::rlim_t
                } else {
                    r.rlim_max.min(cur as libc::rlim_t)
                };
                libc::setrlimit(res, &r);
            };
            // The native default stack, which the interpreter's stack size matches.
            set(libc::RLIMIT_STACK, STACK);
            set(libc::RLIMIT_FSIZE, MAX_FILE);
            set(libc::RLIMIT_CORE, 0);
            // Its own process group: a time-out kills whatever it started too.
            libc::setpgid(0, 0);
            // Nothing of it outlives Cairn, even killed with SIGKILL.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

/// The program built natively with a probe per goal, linked with a replay harness.
pub struct ProbeBuild {
    pub exe: PathBuf,
    /// Goals that have a probe; claims of others cannot be checked this way.
    pub probed: BTreeSet<u32>,
    /// Goals counted: the size of the hits map.
    pub goals: usize,
    /// The cases of each logged `switch` (a comparison log's build; empty otherwise).
    pub switches: crate::ir::cmplog::Switches,
    hits: PathBuf,
}

impl ProbeBuild {
    /// Builds `sources` (as `opts` compiles them for the interpreter) with probes at `sites`
    /// and functions renamed by `renames` (`ir::probes::instrument`), and the harness
    /// `harness` compiled with `harness_flags`, in `dir`; with `cmplog`, a build whose
    /// comparisons are logged (`ir::cmplog`), for the fuzzer's input-to-state stage.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        sources: &[PathBuf],
        opts: &CompileOptions,
        sites: &[ProbeSite],
        goals: usize,
        harness: &Path,
        renames: &[(&str, &str)],
        harness_flags: &[&str],
        def_use: Option<&DefUseProbes>,
        cmplog: bool,
        dir: &Path,
    ) -> Result<ProbeBuild> {
        crate::ir::frontend::scratch_subdir(dir)?;
        let bc = compile_native_bitcode(sources, opts, &dir.join("bc"))?;
        let probed_bc = dir.join("probed.bc");
        let mut all = sites.to_vec();
        let mut runtime = probe_runtime_c();
        if let Some(du) = def_use {
            all.extend(du.sites.iter().cloned());
            runtime.push_str(&du.runtime_c());
        }
        // The comparison log's wrappers stand in for the compare calls.
        let logged = match cmplog {
            true => crate::ir::cmplog::renames(),
            false => vec![],
        };
        let mut renames = renames.to_vec();
        renames.extend(logged.iter().map(|(a, b)| (a.as_str(), b.as_str())));
        if cmplog {
            runtime.push_str(&crate::ir::cmplog::runtime_c());
        }
        let (mut probed, switches) = instrument(&bc, &probed_bc, &all, &renames, goals, cmplog)
            .map_err(anyhow::Error::msg)?;
        // A pair's claims are checked if its definition, its use and its frame are probed.
        for (goal, needs) in def_use.map_or(&[][..], |d| &d.needs[..]) {
            if needs.iter().all(|k| probed.contains(k)) {
                probed.insert(*goal);
            }
        }
        probed.retain(|&g| (g as usize) < goals);
        let rt = dir.join("cairn_probes.c");
        std::fs::write(&rt, runtime)?;
        let exe = dir.join("prog");
        let mut common: Vec<String> = vec!["-g".into(), "-w".into()];
        common.extend(target_flags(opts));
        common.extend(DIALECT_FLAGS.iter().map(|s| s.to_string()));
        // The probe runtime and the harness optimized (def-use probes call the runtime, and
        // fuzzing reads every value through the harness); the program as the interpreter runs
        // it, unoptimized, as libFuzzer's builds of it are too.
        // The harness knows it runs Cairn's bitcode: it reads the values of locals read before
        // they are set (`--uninitialized-inputs`), which builds from source skip.
        let harness_flags: Vec<&str> = [&["-DCAIRN_BITCODE_BUILD"][..], harness_flags].concat();
        let objects = [(&rt, &[][..]), (&harness.to_path_buf(), &harness_flags[..])];
        let mut linked = vec![probed_bc.clone()];
        for (i, (src, extra)) in objects.iter().enumerate() {
            let obj = dir.join(format!("cairn_{i}.o"));
            clang(
                Command::new(crate::ir::toolchain::clang())
                    .args(&common)
                    .args(["-O2", "-c"])
                    .args(*extra)
                    .arg(src)
                    .arg("-o")
                    .arg(&obj),
            )?;
            linked.push(obj);
        }
        clang(
            Command::new(crate::ir::toolchain::clang())
                .args(&common)
                .arg("-O0")
                .args(&linked)
                .arg("-o")
                .arg(&exe)
                .arg("-lm"),
        )?;
        Ok(ProbeBuild {
            exe,
            probed,
            goals,
            switches,
            hits: dir.join("hits"),
        })
    }

    /// Runs the test `test` (a test JSON) natively; returns how it ended and the goals it took.
    pub fn run_test(
        &self,
        test: &Path,
        scratch: &Path,
        limit: Duration,
    ) -> Result<(NativeEnd, BTreeSet<u32>)> {
        // The hits file must be inside the sandbox's writable directory.
        let hits = scratch.join(self.hits.file_name().unwrap());
        std::fs::write(&hits, vec![0u8; self.goals.max(1)])?;
        let end = run(
            Command::new(&self.exe)
                .env("CAIRN_TEST", test)
                .env("CAIRN_PROBES", &hits),
            scratch,
            limit,
            false,
        )?;
        let bytes = std::fs::read(&hits)?;
        let taken = bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b != 0)
            .map(|(i, _)| i as u32)
            .collect();
        Ok((end, taken))
    }
}
