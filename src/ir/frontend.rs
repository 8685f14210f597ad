//! The front-end driver: C sources → one LLVM bitcode module (clang, llvm-link, opt 19: `toolchain`).

use super::DataModel;
use super::debug_names::SourceNames;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub includes: Vec<PathBuf>,
    pub defines: Vec<String>,
    pub data_model: DataModel,
    /// Keep every local variable in its stack slot (no mem2reg): data-flow testing needs each
    /// source variable's definitions and uses as stores and loads of one address.
    pub locals_in_memory: bool,
    /// A local a load may read before it is set starts with an input of the test, not with
    /// whatever its stack slot held (`normalize::UNINITIALIZED_INPUT`).
    pub uninitialized_inputs: bool,
    /// The user's own compiler flags (`-std=c99`, `-include`, `-isystem`, ...), as
    /// `user_flags` keeps them.
    pub flags: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            includes: vec![],
            defines: vec![],
            data_model: DataModel::LP64,
            locals_in_memory: false,
            uninitialized_inputs: false,
            flags: vec![],
        }
    }
}

/// Flags of the user's that would change what Cairn analyses or how it builds: optimization
/// and debug levels, outputs, dependency files, instrumentation, the target's word size (the
/// data model says it). Flags starting so are dropped, with a note.
const DROPPED_FLAGS: &[&str] = &[
    "-O",
    "-g",
    "-c",
    "-S",
    "-E",
    "-M",
    "-o",
    "-emit-llvm",
    "-flto",
    "-fsanitize",
    "-fprofile",
    "-fcoverage",
    "--coverage",
    "-ftest-coverage",
    "-pipe",
    "-m32",
    "-m64",
    "-mx32",
    "-Werror",
    "-save-temps",
    "-fsyntax-only",
    "-fdiagnostics",
    "-fcolor-diagnostics",
];

/// The flags of `raw` Cairn passes on (every other clang flag), and those it drops.
pub fn user_flags(raw: &[String]) -> (Vec<String>, Vec<String>) {
    raw.iter().cloned().partition(|f| {
        !(DROPPED_FLAGS.iter().any(|d| f.starts_with(d)) || f == "-v" || f == "-###")
    })
}

#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    #[error("{file}: does not compile:\n{diagnostics}")]
    Compile { file: String, diagnostics: String },
    #[error("cannot run {tool}: {err} (run scripts/install.sh to install the LLVM 19 toolchain)")]
    Tool { tool: String, err: String },
    #[error("{tool} did not finish within the time budget (--time includes loading the program)")]
    OutOfTime { tool: String },
    #[error("interrupted while {tool} ran")]
    Interrupted { tool: String },
    #[error("{tool} failed:\n{stderr}")]
    ToolFailed { tool: String, stderr: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Cairn's C runtime (string.h, stdlib.h parts), compiled and linked with every program.
pub const RUNTIME_FILE: &str = "cairn_runtime.c";
const RUNTIME_SRC: &str = include_str!("../runtime/cairn_runtime.c");
/// The environment's models (clock, locale), shared with the native replay harness.
pub const ENVIRONMENT_SRC: &str = include_str!("../runtime/environment.c");
/// The functions `ENVIRONMENT_SRC` defines.
pub const ENVIRONMENT_FNS: [&str; 10] = [
    "time",
    "gettimeofday",
    "clock_gettime",
    "clock",
    "localtime",
    "localtime_r",
    "mktime",
    "ctime",
    "ctime_r",
    "setlocale",
];

/// The C dialect Cairn accepts, shared by the front end and native replay so replay builds
/// whatever `gen` accepted. Test-Comp tasks and old programs are often old C (implicit
/// declarations, implicit int, K&R definitions): these diagnostics stay warnings, as with gcc.
pub const DIALECT_FLAGS: &[&str] = &[
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=return-type",
];

/// Target, include and macro options of `opts`, as clang flags.
pub fn target_flags(opts: &CompileOptions) -> Vec<String> {
    let mut f = vec![];
    if opts.data_model == DataModel::ILP32 {
        // IEEE arithmetic in SSE registers, as the interpreter computes: x87's excess precision
        // makes `a + 1.0 - a` differ between two compilers' builds of one program.
        f.extend(["-m32", "-msse2", "-mfpmath=sse"].map(String::from));
    }
    for i in &opts.includes {
        f.push(format!("-I{}", i.display()));
    }
    for d in &opts.defines {
        f.push(format!("-D{d}"));
    }
    f
}

/// `target_flags` and the user's own flags: how the program's files (not Cairn's harnesses
/// and runtimes) are compiled.
pub fn program_flags(opts: &CompileOptions) -> Vec<String> {
    let mut f = target_flags(opts);
    f.extend(opts.flags.iter().cloned());
    f
}

/// Flags that keep source branches as branches (no select formation) and keep names.
pub fn clang_flags(opts: &CompileOptions) -> Vec<String> {
    let mut f: Vec<String> = [
        "-O0",
        "-g",
        "-Xclang",
        "-disable-O0-optnone",
        "-fno-discard-value-names",
        // Generated C (CPAchecker's reducers, Csmith) nests deeper than clang's default 256
        // brackets; gcc, which replay uses, has no such limit.
        "-fbracket-depth=4096",
        "-fno-stack-protector",
        "-fno-builtin",
        "-D_FORTIFY_SOURCE=0",
        // Reads of unset locals are told to the user (`Module::uninitialized_reads`).
        "-Wuninitialized",
        // Also under -std=c89, where it is off: it tells `with_library_prototypes` to look.
        "-Wimplicit-function-declaration",
    ]
    .iter()
    .chain(DIALECT_FLAGS)
    .map(|s| s.to_string())
    .collect();
    f.extend(program_flags(opts));
    f
}

fn run(tool: &str, args: &[String]) -> Result<std::process::Output, FrontendError> {
    let deadline = *DEADLINE.lock().unwrap_or_else(|e| e.into_inner());
    output_by(Command::new(tool).args(args), deadline).map_err(|e| match e.kind() {
        std::io::ErrorKind::TimedOut => FrontendError::OutOfTime { tool: tool.into() },
        std::io::ErrorKind::Interrupted => FrontendError::Interrupted { tool: tool.into() },
        _ => FrontendError::Tool {
            tool: tool.into(),
            err: e.to_string(),
        },
    })
}

/// When loading must be over (the run's `--time` includes it): tools still running then are
/// killed. None: no limit.
static DEADLINE: std::sync::Mutex<Option<std::time::Instant>> = std::sync::Mutex::new(None);

/// Sets the time by which the front end's tools must be done (for the whole process: one run
/// has one budget).
pub fn set_deadline(deadline: Option<std::time::Instant>) {
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
}

/// Set by Ctrl-C or SIGTERM (`interrupt`): the tools still running are killed.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Ends loading: the tools running now are killed, and none starts (errors of kind
/// `Interrupted`), so the scratch directory goes with the error instead of staying behind.
pub fn interrupt() {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// `cmd.output()`, but the process is killed at `deadline` (an error of kind `TimedOut`) or on
/// `interrupt` (kind `Interrupted`).
pub fn output_by(
    cmd: &mut Command,
    deadline: Option<std::time::Instant>,
) -> std::io::Result<std::process::Output> {
    use std::io::Read;
    use std::process::Stdio;
    let Some(deadline) = deadline else {
        return cmd.output();
    };
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = vec![];
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped")));
    let err = drain(Box::new(child.stderr.take().expect("piped")));
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        let interrupted = INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed);
        if interrupted || std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(match interrupted {
                true => std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted"),
                false => std::io::Error::new(std::io::ErrorKind::TimedOut, "out of time"),
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    Ok(std::process::Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// A program compiled to one bitcode file.
pub struct Compiled {
    pub bitcode: PathBuf,
    /// The variables' source names (debug information).
    pub names: SourceNames,
    /// clang warned that `main` returns without a value (see `Module::main_status_unknown`).
    pub main_status_unknown: bool,
    /// clang's warnings of locals read before they are set (see `Module::uninitialized_reads`).
    pub uninitialized_reads: Vec<String>,
}

/// The `-Wuninitialized` warnings in clang's output, as `file:line:col: variable 'x' ...`.
fn uninitialized_reads(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.contains("[-Wuninitialized]") || l.contains("[-Wsometimes-uninitialized]"))
        .filter_map(|l| {
            let (at, what) = l.split_once(": warning: ")?;
            let what = what.rsplit_once(" [-W").map_or(what, |(w, _)| w);
            Some(format!("{at}: {what}"))
        })
        .collect()
}

/// A C library function called without a declaration is, to gcc and to clang without
/// `-fno-builtin`, the library's function: `malloc` returns a pointer. `-fno-builtin` (which
/// keeps calls to the C library as calls) makes it `int malloc()`, and natively the pointer
/// loses its upper half. When the compile that made `args` (its last argument the source)
/// warned of an undeclared function, the library's prototypes of the undeclared ones are asked
/// of clang without `-fno-builtin`, put in a header, and the source compiled again with it
/// included. Returns that compile's diagnostics, or None if nothing changed (no library
/// function undeclared, or the program declares one of them otherwise later: then the first
/// compile stands).
fn with_library_prototypes(
    src: &Path,
    args: &[String],
    stderr: &str,
    opts: &CompileOptions,
    workdir: &Path,
    i: usize,
) -> Result<Option<String>, FrontendError> {
    if !stderr.contains("undeclared function")
        && !stderr.contains("implicit declaration of function")
    {
        return Ok(None);
    }
    let mut probe: Vec<String> = clang_flags(opts)
        .into_iter()
        .filter(|f| f != "-fno-builtin")
        .collect();
    probe.extend(["-fsyntax-only".into(), src.display().to_string()]);
    let o = run(super::toolchain::clang(), &probe)?;
    let prototypes = library_prototypes(&String::from_utf8_lossy(&o.stderr));
    if prototypes.is_empty() {
        return Ok(None);
    }
    let header = workdir.join(format!("{i}.library.h"));
    std::fs::write(&header, prototypes.join(""))?;
    let (last, rest) = args.split_last().expect("the source is the last argument");
    let mut again = rest.to_vec();
    again.extend([
        "-include".into(),
        header.display().to_string(),
        last.clone(),
    ]);
    let o = run(super::toolchain::clang(), &again)?;
    Ok(o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stderr).into_owned()))
}

/// Declarations of the library functions clang's diagnostics say were called undeclared
/// ("call to undeclared library function 'malloc' with type 'void *(unsigned long)'").
/// Types whose result is itself a function pointer (`signal`) are left out.
fn library_prototypes(stderr: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for l in stderr.lines() {
        let Some((_, rest)) = l
            .split_once("call to undeclared library function '")
            .or_else(|| l.split_once("implicitly declaring library function '"))
        else {
            continue;
        };
        let Some((name, rest)) = rest.split_once("' with type '") else {
            continue;
        };
        let Some((ty, _)) = rest.split_once("'; ").or_else(|| rest.rsplit_once("' [")) else {
            continue;
        };
        let Some((ret, params)) = ty.split_once('(') else {
            continue;
        };
        // clang spells `int (int)` and `void *(unsigned long)`: `ret` ends in a space or `*`.
        if params.starts_with('*') || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let decl = format!("{ret}{name}({params};\n");
        if !out.contains(&decl) {
            out.push(decl);
        }
    }
    out
}

/// Compiles `sources` into a single bitcode file inside `workdir`.
/// Cairn's runtime as the interpreter compiles it: the library, then the environment's
/// functions with their results as inputs.
fn runtime_source() -> String {
    let env = "#define CAIRN_ENV_UINT() __cairn_nondet_uint()\n\
               #define CAIRN_ENV_FN(ret, name, params) W ret name params\n";
    format!("{RUNTIME_SRC}{env}{ENVIRONMENT_SRC}")
}

pub fn compile_to_bitcode(
    sources: &[PathBuf],
    opts: &CompileOptions,
    workdir: &Path,
) -> Result<Compiled, FrontendError> {
    scratch_subdir(workdir)?;
    let rt = workdir.join(RUNTIME_FILE);
    std::fs::write(&rt, runtime_source())?;
    let mut all: Vec<PathBuf> = sources.to_vec();
    all.push(rt);
    build_bitcode(&all, opts, workdir, false)
}

/// The program alone (no runtime: natively the C library is glibc), normalised exactly as
/// `compile_to_bitcode` normalises it, so its functions have the interpreter's blocks; its
/// constructors stay for the native startup code to run.
pub fn compile_native_bitcode(
    sources: &[PathBuf],
    opts: &CompileOptions,
    workdir: &Path,
) -> Result<PathBuf, FrontendError> {
    scratch_subdir(workdir)?;
    Ok(build_bitcode(sources, opts, workdir, true)?.bitcode)
}

fn build_bitcode(
    all: &[PathBuf],
    opts: &CompileOptions,
    workdir: &Path,
    native: bool,
) -> Result<Compiled, FrontendError> {
    let mut bcs = Vec::new();
    let mut main_status_unknown = false;
    let mut uninitialized = vec![];
    for (i, src) in all.iter().enumerate() {
        if !src.exists() {
            return Err(FrontendError::Compile {
                file: src.display().to_string(),
                diagnostics: "no such file".into(),
            });
        }
        if src.is_dir() {
            let run = src.join("run.json").exists();
            return Err(FrontendError::Compile {
                file: src.display().to_string(),
                diagnostics: match run {
                    true => "a directory of Cairn's output, not a C file (its run's sources are in run.json; `cairn replay`, `report` and `run --test` take the directory)".into(),
                    false => "a directory, not a C file".into(),
                },
            });
        }
        let out = workdir.join(format!("{i}.bc"));
        let mut args = clang_flags(opts);
        let runtime = src.file_name().is_some_and(|n| n == RUNTIME_FILE);
        if runtime {
            // Cairn's runtime is C11 whatever dialect and warnings the program's flags ask for
            // (`-std=c89 -Werror` refused every program before).
            args.extend(["-std=gnu11".into(), "-Wno-error".into()]);
        }
        // The runtime is kept compiled unless include directories or the user's own flags
        // could change what its headers say.
        let cached = (runtime && opts.flags.is_empty() && opts.includes.is_empty())
            .then(|| super::runtime_cache::entry(super::toolchain::clang(), &args, src))
            .flatten();
        let hit = cached
            .as_ref()
            .and_then(|e| super::runtime_cache::fetch(e, &out));
        args.extend([
            "-c".into(),
            "-emit-llvm".into(),
            "-o".into(),
            out.display().to_string(),
            src.display().to_string(),
        ]);
        let mut stderr = match hit {
            Some(stderr) => stderr,
            None => {
                let o = run(super::toolchain::clang(), &args)?;
                if !o.status.success() {
                    return Err(FrontendError::Compile {
                        file: src.display().to_string(),
                        diagnostics: String::from_utf8_lossy(&o.stderr).into_owned(),
                    });
                }
                let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
                if let Some(e) = &cached {
                    super::runtime_cache::store(e, &out, &stderr);
                }
                stderr
            }
        };
        if let Some(again) = with_library_prototypes(src, &args, &stderr, opts, workdir, i)? {
            stderr = again;
        }
        main_status_unknown |= stderr.contains("non-void function 'main' should return a value");
        uninitialized.extend(uninitialized_reads(&stderr));
        bcs.push(out);
    }
    let linked = {
        let out = workdir.join("linked.bc");
        let mut args: Vec<String> = bcs.iter().map(|p| p.display().to_string()).collect();
        args.extend(["-o".into(), out.display().to_string()]);
        let o = run(&super::toolchain::toolchain().llvm_link, &args)?;
        if !o.status.success() {
            return Err(FrontendError::ToolFailed {
                tool: super::toolchain::toolchain().llvm_link.clone(),
                stderr: String::from_utf8_lossy(&o.stderr).into(),
            });
        }
        out
    };
    // mem2reg only: it turns scalar locals into SSA values and keeps every source branch.
    let out = workdir.join("final.bc");
    let normalized = workdir.join("normalized.bc");
    // Data-flow testing keeps clang's short-circuit values: its uses (one per line) and the
    // pairs they make are defined on that form.
    let branch_short_circuits = !opts.locals_in_memory;
    let names = super::normalize::normalize_bitcode(
        &linked,
        &normalized,
        branch_short_circuits,
        native,
        opts.uninitialized_inputs,
    )
    .map_err(|e| FrontendError::ToolFailed {
        tool: "normalize".into(),
        stderr: e,
    })?;
    if opts.locals_in_memory {
        std::fs::rename(&normalized, &out)?;
        return Ok(Compiled {
            bitcode: out,
            names,
            main_status_unknown,
            uninitialized_reads: uninitialized,
        });
    }
    let args = vec![
        "-passes=mem2reg".to_string(),
        normalized.display().to_string(),
        "-o".into(),
        out.display().to_string(),
    ];
    let o = run(&super::toolchain::toolchain().opt, &args)?;
    if !o.status.success() {
        return Err(FrontendError::ToolFailed {
            tool: super::toolchain::toolchain().opt.clone(),
            stderr: String::from_utf8_lossy(&o.stderr).into(),
        });
    }
    Ok(Compiled {
        bitcode: out,
        names,
        main_status_unknown,
        uninitialized_reads: uninitialized,
    })
}

/// A private temporary directory removed on drop.
pub struct TempDir(pub PathBuf);

/// The tags of Cairn's temporary directories (`cairn-TAG-PID-N`).
const TEMP_TAGS: &[&str] = &[
    "fe",
    "native",
    "defuse-mc",
    "export",
    "replay",
    "expectation",
];

/// A temporary directory of a Cairn process that ended without removing it (killed by
/// SIGKILL) is removed by the next Cairn's first one: its process is gone, and it has not
/// changed for an hour (a process of another PID namespace sharing the directory may be alive).
fn remove_stale_temp_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = stale_dir_pid(&name) else {
            continue;
        };
        let alive = unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH);
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|a| a.as_secs() >= 3600));
        if !alive && old && pid as u32 != std::process::id() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The PID in a name of Cairn's temporary directories.
fn stale_dir_pid(name: &str) -> Option<i32> {
    let rest = name.strip_prefix("cairn-")?;
    let rest = TEMP_TAGS
        .iter()
        .find_map(|t| rest.strip_prefix(t)?.strip_prefix('-'))?;
    let (pid, n) = rest.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok().filter(|&p: &i32| p > 0)
}

impl TempDir {
    pub fn new(tag: &str) -> std::io::Result<TempDir> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        static SWEPT: std::sync::Once = std::sync::Once::new();
        SWEPT.call_once(remove_stale_temp_dirs);
        let pid = std::process::id();
        let next = || N.fetch_add(1, Ordering::Relaxed);
        fresh_dir(&std::env::temp_dir(), tag, pid, next).map(TempDir)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
}

/// Creates `cairn-TAG-PID-N` in `base` with the first number `next` gives whose name is free.
/// A name taken is a directory a killed process of the same PID left (PIDs wrap): its files
/// are not ours.
fn fresh_dir(
    base: &Path,
    tag: &str,
    pid: u32,
    mut next: impl FnMut() -> u64,
) -> std::io::Result<PathBuf> {
    loop {
        let p = base.join(format!("cairn-{tag}-{pid}-{}", next()));
        match std::fs::create_dir(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            r => return r.map(|()| p),
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        remove_scratch(&self.0);
    }
}

/// Creates `dir` inside a scratch directory that must still exist: a build thread outliving
/// its session then fails instead of creating the removed directory again (`create_dir_all`
/// did, and left it behind).
pub fn scratch_subdir(dir: &Path) -> std::io::Result<()> {
    match std::fs::create_dir(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        r => r,
    }
}

/// Removes a scratch directory a tool may still be writing into: a file created between
/// reading the directory and removing it fails the removal, which is tried again.
pub fn remove_scratch(dir: &Path) {
    for _ in 0..20 {
        match std::fs::remove_dir_all(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            _ => return,
        }
    }
}

/// Compiles and lowers C sources into Cairn IR.
pub fn load(sources: &[PathBuf], opts: &CompileOptions) -> anyhow::Result<super::Module> {
    let tmp = TempDir::new("fe")?;
    let c = compile_to_bitcode(sources, opts, tmp.path())?;
    let mut m = super::lower::load_bitcode(&c.bitcode, opts.data_model)?;
    name_variables(&mut m, &c.names);
    m.main_status_unknown = c.main_status_unknown;
    m.uninitialized_reads = c.uninitialized_reads;
    Ok(m)
}

/// Attaches the source names to the module's stack slots and globals.
fn name_variables(m: &mut super::Module, names: &SourceNames) {
    for f in &mut m.functions {
        // Parameters are named by their slot's value name, per function.
        let keys: Vec<(String, String)> = (0..f.params.len())
            .map(|i| {
                (
                    f.name.clone(),
                    f.param_name(i).unwrap_or_default().to_string(),
                )
            })
            .collect();
        f.pointee_bytes = keys
            .iter()
            .map(|k| names.pointees.get(k).copied().unwrap_or(0))
            .collect();
        f.param_unsigned = keys.iter().map(|k| names.unsigned.contains(k)).collect();
        f.param_callback = keys.iter().map(|k| names.callbacks.contains(k)).collect();
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            if let super::Inst::Alloca { dst, .. } = i {
                let key = (f.name.clone(), f.reg_names[*dst as usize].clone());
                if let Some(name) = names.locals.get(&key) {
                    f.variables.insert(*dst, name.clone());
                }
            }
        }
    }
    for g in &mut m.globals {
        g.source_name = names.globals.get(&g.name).cloned();
    }
}

#[cfg(test)]
mod tests {
    use super::{
        CompileOptions, TempDir, compile_native_bitcode, fresh_dir, library_prototypes,
        scratch_subdir, stale_dir_pid,
    };

    #[test]
    fn undeclared_library_functions_get_the_librarys_prototypes() {
        let stderr = "\
t.c:26:14: warning: call to undeclared library function 'malloc' with type 'void *(unsigned long)'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]
t.c:27:1: warning: call to undeclared library function 'exit' with type 'void (int) __attribute__((noreturn))'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]
t.c:28:1: warning: call to undeclared function 'signal'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]
t.c:29:1: warning: implicitly declaring library function 'toupper' with type 'int (int)' [-Wimplicit-function-declaration]
t.c:30:1: warning: call to undeclared library function 'signal' with type 'void (*(int, void (*)(int)))(int)'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]
t.c:31:14: warning: call to undeclared library function 'malloc' with type 'void *(unsigned long)'; ISO C99 and later do not support implicit function declarations [-Wimplicit-function-declaration]
";
        assert_eq!(
            library_prototypes(stderr),
            [
                "void *malloc(unsigned long);\n",
                "void exit(int) __attribute__((noreturn));\n",
                "int toupper(int);\n",
            ]
        );
    }

    /// Cairn's runtime declares every library function it calls: an implicit declaration is
    /// an `int` result (a pointer from `realloc` loses its upper half), and the warning sends
    /// every program's compile through a second pass for library prototypes (0.6 s a load).
    #[test]
    fn the_runtime_declares_what_it_calls() {
        let dir = super::TempDir::new("runtime-decls").unwrap();
        let rt = dir.0.join(super::RUNTIME_FILE);
        std::fs::write(&rt, super::runtime_source()).unwrap();
        let mut args = super::clang_flags(&super::CompileOptions::default());
        args.extend(["-std=gnu11", "-fsyntax-only"].map(String::from));
        args.push(rt.display().to_string());
        let o = std::process::Command::new(crate::ir::toolchain::clang())
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{stderr}");
        assert!(
            !stderr.contains("implicit-function-declaration"),
            "{stderr}"
        );
    }

    /// A directory a killed process of the same PID left is not taken over: its files would
    /// pass for the new process's (the test suite found one, PIDs wrapping at 32768).
    #[test]
    fn a_stale_directory_of_the_same_name_is_not_reused() {
        let base = TempDir::new("fe").unwrap();
        let stale = base.path().join("cairn-native-7-0");
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join("probed.bc"), b"stale").unwrap();
        let mut n = 0;
        let mut next = || {
            n += 1;
            n - 1
        };
        let fresh = fresh_dir(base.path(), "native", 7, &mut next).unwrap();
        assert_eq!(fresh, base.path().join("cairn-native-7-1"));
        assert_eq!(std::fs::read_dir(&fresh).unwrap().count(), 0);
        assert_eq!(std::fs::read(stale.join("probed.bc")).unwrap(), b"stale");
        assert_eq!(
            fresh_dir(base.path(), "native", 7, &mut next).unwrap(),
            base.path().join("cairn-native-7-2")
        );
    }

    #[test]
    fn only_cairns_own_temporary_directories_are_recognized() {
        assert_eq!(stale_dir_pid("cairn-fe-123-0"), Some(123));
        assert_eq!(stale_dir_pid("cairn-defuse-mc-77-3"), Some(77));
        assert_eq!(stale_dir_pid("cairn-native-5-12"), Some(5));
        // The test suite's own directories, other names, malformed ones.
        assert_eq!(stale_dir_pid("cairn-dataflow-123-textfmt.c"), None);
        assert_eq!(stale_dir_pid("cairn-fe-123-textfmt.c"), None);
        assert_eq!(stale_dir_pid("cairn-fe-x-0"), None);
        assert_eq!(stale_dir_pid("cairn-fe-0-0"), None);
        assert_eq!(stale_dir_pid("other-fe-1-0"), None);
    }

    /// A build thread going on after its session removed the scratch directory fails at its
    /// next subdirectory instead of making the directory again (CI found one left behind).
    #[test]
    fn a_removed_scratch_directory_stays_removed() {
        let dir = TempDir::new("fe").unwrap();
        let path = dir.path().to_path_buf();
        scratch_subdir(&path.join("build")).unwrap();
        scratch_subdir(&path.join("build")).unwrap();
        drop(dir);
        assert!(!path.exists());
        assert!(scratch_subdir(&path.join("build").join("bc")).is_err());
        assert!(compile_native_bitcode(&[], &CompileOptions::default(), &path.join("bc")).is_err());
        assert!(!path.exists());
    }
}
