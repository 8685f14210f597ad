//! Starting a confined native process without `fork` in Cairn's own process.
//!
//! Confining a process (the sandbox, limits, its own process group) means running code
//! between `fork` and `exec`, and `fork` runs the `pthread_atfork` handlers of every library
//! in the process. Z3's (4.8) tears down its timer threads while other threads' queries use
//! them: a fork server started while a worker solves corrupted the heap (measured: 4 crashes in
//! 20 two-second runs). So the process is started with `posix_spawn` (no fork, no handlers)
//! as Cairn's own binary in launcher mode, which is single-threaded: it confines itself and
//! `exec`s the program in place.

use anyhow::{Context, Result};
use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The first argument that puts `cairn` in launcher mode.
const LAUNCH: &str = "__cairn-launch";
/// The descriptors the launched program finds its stdin and stdout on (AFL's fork-server
/// protocol uses 198 and 199); its own stdin and stdout are then /dev/null.
pub const CONTROL_FD: i32 = 198;
pub const STATUS_FD: i32 = 199;

/// Set by `run_if_asked`: this binary can launch (it is Cairn's CLI, whatever its file is
/// called — a copy named `cairn-1.2`, a symlink).
static SELF_LAUNCHES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Cairn's binary: `CAIRN_LAUNCHER`, this process if it is Cairn's CLI, or the `cairn` next to
/// it or one directory up (a test or bench binary of the crate, in `target/*/deps`).
fn launcher() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("CAIRN_LAUNCHER") {
        return Ok(p.into());
    }
    let me = std::env::current_exe().context("locating Cairn's binary")?;
    if SELF_LAUNCHES.load(std::sync::atomic::Ordering::Relaxed)
        || me.file_name().is_some_and(|n| n == "cairn")
    {
        return Ok(me);
    }
    let dir = me.parent().context("locating Cairn's binary")?;
    [dir.join("cairn"), dir.join("../cairn")]
        .into_iter()
        .find(|p| p.is_file())
        .context("Cairn's binary (`cairn`) is not next to this program: set CAIRN_LAUNCHER")
}

/// A command that runs `exe` confined to `scratch` (`native::confine`), with an address-space
/// limit of `max_memory` bytes, its stdin moved to `CONTROL_FD` and its stdout to `STATUS_FD`.
/// Give it stdin and stdout (pipes) and environment variables as usual; no `pre_exec`.
pub fn command(exe: &Path, scratch: &Path, max_memory: u64) -> Result<Command> {
    let mut cmd = Command::new(launcher()?);
    cmd.arg(LAUNCH)
        .arg(scratch)
        .arg(max_memory.to_string())
        .arg(exe);
    Ok(cmd)
}

/// In launcher mode (`cairn __cairn-launch SCRATCH MAX_MEMORY EXE`): confines this process
/// and replaces it with EXE; returns only if not in launcher mode. Call first in `main`, before
/// any thread starts. A binary that calls it can launch itself, whatever its name.
pub fn run_if_asked() {
    SELF_LAUNCHES.store(true, std::sync::atomic::Ordering::Relaxed);
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).is_none_or(|a| a != LAUNCH) || args.len() != 5 {
        return;
    }
    let (scratch, exe) = (PathBuf::from(&args[2]), PathBuf::from(&args[4]));
    let max_memory: u64 = args[3]
        .to_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    let mut cmd = Command::new(&exe);
    super::native::confine(&mut cmd, &scratch);
    unsafe {
        // In this process, just before exec (no fork: `exec` runs these itself).
        cmd.pre_exec(move || {
            let mut r: libc::rlimit = std::mem::zeroed();
            libc::getrlimit(libc::RLIMIT_AS, &mut r);
            r.rlim_cur = r.rlim_max.min(max_memory as libc::rlim_t);
            libc::setrlimit(libc::RLIMIT_AS, &r);
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            if libc::dup2(0, CONTROL_FD) < 0
                || libc::dup2(1, STATUS_FD) < 0
                || null < 0
                || libc::dup2(null, 0) < 0
                || libc::dup2(null, 1) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
            libc::close(null);
            Ok(())
        });
    }
    let err = cmd.exec();
    eprintln!("cairn: cannot start {}: {err}", exe.display());
    std::process::exit(127);
}
