//! The sandbox of every native run of the program under test (replay, probes): through the
//! kernel's Landlock LSM, the run may read the file system but write, create, truncate, remove
//! or rename only inside Cairn's scratch directory (and the terminal devices), cannot signal
//! processes outside its own sandbox, and cannot open TCP connections. Where the kernel has no
//! Landlock the run goes on unsandboxed, and Cairn says so once.

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreated, RulesetCreatedAttr, Scope,
};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::sync::{Mutex, Once};

const ABI_USED: ABI = ABI::V6;

/// Devices a program may write wherever it runs.
const WRITABLE_DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"];

/// The Landlock ABI the kernel offers (0: none).
pub fn kernel_abi() -> i64 {
    // LANDLOCK_CREATE_RULESET_VERSION
    unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0,
            1u32,
        )
    }
}

fn ruleset(scratch: &Path) -> Result<RulesetCreated, landlock::RulesetError> {
    let all = AccessFs::from_all(ABI_USED);
    let read = AccessFs::from_read(ABI_USED);
    let mut r = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)?
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)?
        .create()?;
    if let Ok(fd) = PathFd::new("/") {
        r = r.add_rule(PathBeneath::new(fd, read))?;
    }
    if let Ok(fd) = PathFd::new(scratch) {
        r = r.add_rule(PathBeneath::new(fd, all))?;
    }
    for d in WRITABLE_DEVICES {
        if let Ok(fd) = PathFd::new(d) {
            r = r.add_rule(PathBeneath::new(fd, AccessFs::from_file(ABI_USED)))?;
        }
    }
    Ok(r)
}

/// Confines the process `cmd` starts to writing inside `scratch`; returns whether the kernel
/// enforces it (a warning is printed once when it cannot).
pub fn confine(cmd: &mut Command, scratch: &Path) -> bool {
    static WARN: Once = Once::new();
    let warn = |why: String| {
        WARN.call_once(|| {
            eprintln!(
                "warning: native runs of the program are not sandboxed ({why}): they can write \
                 wherever this user can"
            )
        })
    };
    if kernel_abi() < 1 {
        warn("this kernel has no Landlock".into());
        return false;
    }
    let r = match ruleset(scratch) {
        Ok(r) => Mutex::new(Some(r)),
        Err(e) => {
            warn(e.to_string());
            return false;
        }
    };
    unsafe {
        // After fork, before exec: only the restriction itself (no allocation on success).
        cmd.pre_exec(move || {
            let taken = r.lock().ok().and_then(|mut g| g.take());
            if let Some(r) = taken {
                r.restrict_self()
                    .map_err(|_| std::io::Error::from_raw_os_error(libc::EPERM))?;
            }
            Ok(())
        });
    }
    true
}
