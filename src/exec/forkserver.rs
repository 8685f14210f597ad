//! Native runs at fuzzing speed: the probe build (`native::ProbeBuild`) with the harness
//! compiled with `-DCAIRN_FORKSERVER` (`output::harness`) starts once, sandboxed like every
//! native run; it forks a process that runs the program up to ten thousand times (fewer when
//! the runs leak heap or a descriptor), its writable data restored between runs (AFL's
//! persistent mode), and a fresh one when a run crashes or is killed. A request on one pipe
//! runs a batch of inputs, up to the first run that reaches a new hit-count bucket (the server
//! sees which buckets Cairn has seen), and a status on another pipe reports that run; the
//! input values, the goal hit counts and the buckets seen pass through files in the scratch
//! directory mapped shared. A run costs a function call and a copy of the program's data, not
//! an exec, and a batch costs two context switches, not one per run.

use super::input::{Channel, InputKind, InputValue};
use anyhow::{Context, Result, bail};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// Room for the values of a batch: a header (see the harness's `cairn_fuzz_main`), then a
/// record per run: the number of values, the record's length, the values (`Record`).
const INPUT_MAP: usize = 8 << 20;
const RECORDS_AT: usize = 64;
/// Header words.
const BATCH_SIZE: usize = 0;
const CONSUMED: usize = 1;
const RUNNER: usize = 2;
const ENDED_BY: usize = 4;
const RUN_INDEX: usize = 5;
const START_AT: usize = 6;
/// Whether a run that aborts ends its batch (as a new run does).
const STOP_AT_ABORT: usize = 8;
/// The batch's tail: values every run reads past its own (their count, and where they are).
const TAIL_COUNT: usize = 9;
const TAIL_AT: usize = 10;
/// Where the reads map is (a byte per value: how the harness read it, `ReadAs`), and its size.
const READS: usize = 11;
const READS_LEN: usize = 12;
/// Nanoseconds of CPU time the batch's runs took in the runner, from the first one's start to
/// the reported one's end or death (0: not measured: the run had a process of its own).
const RUNS_CPU_NANOS: usize = 13;
const READS_AT: usize = INPUT_MAP - MAX_READS;
const MAX_READS: usize = 1 << 16;
/// Address space besides the program's own data: the binary, libc, the maps.
const OVERHEAD: u64 = 64 << 20;

/// A run's values as the fork server reads them: binary, not text (the program would spend
/// more time parsing text than running). Each value is its length in bytes (a word), then its
/// bytes padded to a word; a number is 8 bytes, as a `long long` (signed kinds sign-extended)
/// or a `double` (floats widened), so the harness reads any kind from it as it would the text.
#[derive(Clone, Debug, Default)]
pub struct Record {
    bytes: Vec<u8>,
    count: u32,
}

impl Record {
    pub fn of(values: &[InputValue]) -> Record {
        let mut r = Record::default();
        for v in values {
            r.push(v);
        }
        r
    }

    pub fn clear(&mut self) {
        self.bytes.clear();
        self.count = 0;
    }

    pub fn push(&mut self, v: &InputValue) {
        self.count += 1;
        if let Some((parent, offset)) = v.link() {
            // A lazily linked pointer (`exec::links`), flagged: the harness links it before
            // the call, not where the program reads values in order.
            let word =
                (v.bits != 0) as u64 | (offset as u64 & 0x7fff_ffff) << 1 | (parent as u64) << 32;
            self.bytes.extend_from_slice(&(8 | LINK_FLAG).to_ne_bytes());
            self.bytes.extend_from_slice(&word.to_ne_bytes());
            return;
        }
        if v.kind != InputKind::Bytes {
            // A number's record in one copy: the fuzzer writes one per value per mutant.
            let mut r = [0u8; 12];
            r[..4].copy_from_slice(&8u32.to_ne_bytes());
            r[4..].copy_from_slice(&number_word(v).to_ne_bytes());
            self.bytes.extend_from_slice(&r);
            return;
        }
        let payload = v.bytes();
        self.bytes
            .extend_from_slice(&(payload.len() as u32).to_ne_bytes());
        self.bytes.extend_from_slice(payload);
        self.bytes.resize(self.bytes.len().next_multiple_of(4), 0);
    }

    /// The first values whose bytes fit in `room`: their count and bytes.
    fn prefix(&self, room: usize) -> (u32, &[u8]) {
        if self.bytes.len() <= room {
            return (self.count, &self.bytes);
        }
        let (mut at, mut n) = (0, 0);
        while at + 4 <= self.bytes.len() {
            let word = u32::from_ne_bytes(self.bytes[at..at + 4].try_into().unwrap());
            let len = (word & !LINK_FLAG) as usize;
            let next = at + 4 + len.next_multiple_of(4);
            if next > room {
                break;
            }
            (at, n) = (next, n + 1);
        }
        (n, &self.bytes[..at])
    }
}

/// The length word's flag of a lazily linked pointer (the harness's `CAIRN_LINK_FLAG`).
const LINK_FLAG: u32 = 1 << 30;

/// A number's record word: a `long long` (signed kinds sign-extended) or a `double`.
fn number_word(v: &InputValue) -> u64 {
    match v.kind {
        InputKind::Float => (f32::from_bits(v.bits as u32) as f64).to_bits(),
        InputKind::Double => v.bits,
        _ => v.word(),
    }
}

/// How the harness read a value of a run (the reads map's codes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ReadAs {
    Unknown = 0,
    Unsigned = 1,
    Signed = 2,
    Double = 3,
    Bytes = 4,
}

impl ReadAs {
    /// A reads map entry: the kind in the low bits, the channel above (`cairn_channel`).
    pub fn of(code: u8) -> (ReadAs, Channel) {
        let channel = match code & 0x38 {
            8 => Channel::Stdin,
            16 => Channel::Scanf,
            24 => Channel::MadeUp,
            32 => Channel::Null,
            _ => Channel::Call,
        };
        (ReadAs::kind(code & 7), channel)
    }

    fn kind(code: u8) -> ReadAs {
        match code {
            1 => ReadAs::Unsigned,
            2 => ReadAs::Signed,
            3 => ReadAs::Double,
            4 => ReadAs::Bytes,
            _ => ReadAs::Unknown,
        }
    }
}

/// `v` as a test must spell it for a replay, which reads the text, to read what the run read
/// from `v`'s binary record. They differ where the run read a value as another kind than it
/// was made: a number read into a buffer (its 8 record bytes, where the text `50` would read
/// as the hex byte 0x50), a buffer or a floating value read as an integer, an integer read as
/// a `double`, an unsigned 64-bit value past `LLONG_MAX` read as signed (`strtoll` saturates).
pub fn as_read(v: &InputValue, (how, channel): (ReadAs, Channel)) -> InputValue {
    let mut v = as_read_kind(v, how);
    v.channel = channel;
    v
}

fn as_read_kind(v: &InputValue, how: ReadAs) -> InputValue {
    let floating = matches!(v.kind, InputKind::Float | InputKind::Double);
    let word = || match v.kind {
        InputKind::Bytes => {
            let mut w = [0u8; 8];
            let n = v.bytes().len().min(8);
            w[..n].copy_from_slice(&v.bytes()[..n]);
            u64::from_ne_bytes(w)
        }
        _ => number_word(v),
    };
    let integer = |bits| InputValue::int(InputKind::LongLong, 64, bits);
    match how {
        ReadAs::Unknown => v.clone(),
        ReadAs::Bytes if v.kind == InputKind::Bytes => v.clone(),
        ReadAs::Bytes => InputValue::buffer("", word().to_ne_bytes().to_vec()),
        ReadAs::Double if floating => v.clone(),
        ReadAs::Double => InputValue::int(InputKind::Double, 64, word()),
        _ if floating || v.kind == InputKind::Bytes => integer(word()),
        ReadAs::Signed if v.word() >> 63 == 1 && !v.kind.int_info(64).is_some_and(|i| i.1) => {
            integer(v.word())
        }
        _ => v.clone(),
    }
}

/// How a native run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeStatus {
    Exit(i32),
    Signal(i32),
    /// Outlasted its time limit, or read a thousand values past its own (a fuzzing run of a
    /// program that never ends stops there).
    Timeout,
}

#[derive(Clone, Copy, Debug)]
pub struct NativeRun {
    pub status: NativeStatus,
    /// Values the run asked for (past the ones given, each read as 0).
    pub consumed: u32,
    /// The run ended at a failed assumption (`__VERIFIER_assume`, `klee_assume`).
    pub assume_failed: bool,
    /// The run called `abort` or failed an `assert` (in a persistent process: no signal).
    pub aborted: bool,
    /// The run read a thousand values past its own and was ended there (status `Timeout`).
    pub out_of_values: bool,
    /// From the request to the report: the runs, the round trip and any fork, as long as the
    /// machine's load made them.
    pub time: Duration,
    /// The runs' own CPU time as the runner measured it, when it did (`RUNS_CPU_NANOS`): what
    /// the program costs, whatever the load.
    pub runs_cpu: Option<Duration>,
}

/// A file mapped shared with the program's processes.
struct SharedMap {
    ptr: *mut u8,
    len: usize,
}

impl SharedMap {
    fn create(path: &Path, len: usize) -> Result<SharedMap> {
        let f = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .with_context(|| format!("creating {}", path.display()))?;
        f.set_len(len as u64)?;
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                f.as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            bail!(
                "mapping {}: {}",
                path.display(),
                std::io::Error::last_os_error()
            );
        }
        Ok(SharedMap {
            ptr: ptr as *mut u8,
            len,
        })
    }

    fn bytes(&self) -> &[u8] {
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for SharedMap {
    fn drop(&mut self) {
        unsafe { libc::munmap(self.ptr as *mut libc::c_void, self.len) };
    }
}

pub struct ForkServer {
    server: Child,
    /// How it was started, to start it again.
    launch: Launch,
    control: File,
    status: File,
    inputs: SharedMap,
    hits: SharedMap,
    /// Per goal, the hit-count buckets Cairn has seen (a run reaching another ends a batch).
    seen: SharedMap,
    /// The comparison log of a build that keeps one (`ir::cmplog`), cleared before each run.
    cmplog: Option<SharedMap>,
    /// Runs of the batch loaded.
    loaded: usize,
    pub runs: u64,
    /// A run that aborts ends its batch (see `stop_at_abort`).
    stop_at_abort: bool,
}

#[derive(Clone)]
struct Launch {
    exe: std::path::PathBuf,
    goals: usize,
    scratch: std::path::PathBuf,
    fresh: bool,
    max_memory: u64,
    cmplog: bool,
}

// The maps are this process's memory; the server is used by one thread at a time.
unsafe impl Send for ForkServer {}

fn pipe() -> Result<(i32, i32)> {
    let mut fds = [0i32; 2];
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        bail!("pipe: {}", std::io::Error::last_os_error());
    }
    Ok((fds[0], fds[1]))
}

impl ForkServer {
    /// Starts `exe` (a probe build with the fork server, `goals` hit counters) sandboxed to
    /// `scratch`, where its files and the maps live; with `fresh`, every run in a process of
    /// its own (as a test is replayed), else up to ten thousand runs per process; with `cmplog`,
    /// `exe` keeps a comparison log (`ir::cmplog`), read after a run by `comparisons`.
    pub fn start(
        exe: &Path,
        goals: usize,
        scratch: &Path,
        fresh: bool,
        max_memory: u64,
        cmplog: bool,
    ) -> Result<ForkServer> {
        let inputs = SharedMap::create(&scratch.join("inputs"), INPUT_MAP)?;
        let hits = SharedMap::create(&scratch.join("hits"), goals.max(1))?;
        let seen = SharedMap::create(&scratch.join("seen"), goals.max(1))?;
        let log = scratch.join("cmplog");
        let cmplog = match cmplog {
            true => Some(SharedMap::create(&log, crate::ir::cmplog::MAP_SIZE)?),
            false => None,
        };
        let (control_read, control_write) = pipe()?;
        let (status_read, status_write) = pipe()?;
        let (control, status) = unsafe {
            (
                File::from_raw_fd(control_write),
                File::from_raw_fd(status_read),
            )
        };
        // Through the launcher: no fork in this (multi-threaded) process.
        let mut cmd = super::launcher::command(exe, scratch, max_memory.saturating_add(OVERHEAD))?;
        cmd.env("CAIRN_INPUTS", scratch.join("inputs"))
            .env("CAIRN_PROBES", scratch.join("hits"))
            .stdin(unsafe { Stdio::from(OwnedFd::from_raw_fd(control_read)) })
            .stdout(unsafe { Stdio::from(OwnedFd::from_raw_fd(status_write)) })
            .stderr(Stdio::null());
        if cmplog.is_some() {
            cmd.env("CAIRN_CMPLOG", &log);
        }
        if fresh {
            cmd.env("CAIRN_FORK_EACH_RUN", "1");
        } else {
            cmd.env("CAIRN_SEEN", scratch.join("seen"));
        }
        // The pipes' other ends close with `cmd`: the server alone holds them.
        let spawned = cmd.spawn();
        let launcher = PathBuf::from(cmd.get_program());
        drop(cmd);
        let server = spawned.with_context(|| {
            format!("starting {} through {}", exe.display(), launcher.display())
        })?;
        let mut started = ForkServer {
            server,
            launch: Launch {
                exe: exe.to_path_buf(),
                goals,
                scratch: scratch.to_path_buf(),
                fresh,
                max_memory,
                cmplog: cmplog.is_some(),
            },
            control,
            status,
            inputs,
            hits,
            seen,
            cmplog,
            loaded: 0,
            runs: 0,
            stop_at_abort: true,
        };
        // Read by the harness at each value a run takes (a value read before, by a constructor,
        // is not noted and keeps its spelling).
        started.set_header(READS, READS_AT as u32);
        started.set_header(READS_LEN, MAX_READS as u32);
        Ok(started)
    }

    /// The hit count of every goal in the last run (saturating at 255).
    pub fn hits(&self) -> &[u8] {
        self.hits.bytes()
    }

    /// The comparisons the last run logged (none unless the server keeps a log).
    pub fn comparisons(
        &self,
        switches: &crate::ir::cmplog::Switches,
    ) -> Vec<crate::ir::cmplog::Comparison> {
        (self.cmplog.as_ref()).map_or(vec![], |log| crate::ir::cmplog::read(log.bytes(), switches))
    }

    /// Each goal's hit-count buckets seen so far (bit k: AFL's bucket k): a run of a batch
    /// reaching one not set here ends the batch. Set them as runs reach them.
    pub fn seen_mut(&mut self) -> &mut [u8] {
        self.seen.bytes_mut()
    }

    /// Runs the program once on `values` for at most `limit`. Values that do not fit the map
    /// are left off (they read as 0).
    pub fn run(&mut self, values: &Record, limit: Duration) -> Result<NativeRun> {
        self.load(&[values], &Record::default());
        Ok(self.resume(0, limit)?.1)
    }

    /// Lays out a batch of runs' values, each run reading `tail` past its own (one copy for
    /// the batch: random values past a mutant's own are often most of its bytes); returns how
    /// many runs fit (at least the first, whose values past the map's room are left off).
    pub fn load(&mut self, batch: &[&Record], tail: &Record) -> usize {
        let map = &mut self.inputs.bytes_mut()[..READS_AT];
        // The tail first, at the records' start, so that it always fits.
        let (tail_count, tail_bytes) = tail.prefix((map.len() - RECORDS_AT) / 2);
        map[RECORDS_AT..RECORDS_AT + tail_bytes.len()].copy_from_slice(tail_bytes);
        let mut at = RECORDS_AT + tail_bytes.len();
        let mut loaded = 0;
        for values in batch {
            let room = map.len() - at - 8;
            let (n, fits) = values.prefix(room);
            if n < values.count && loaded > 0 {
                break;
            }
            map[at..at + 4].copy_from_slice(&n.to_ne_bytes());
            map[at + 4..at + 8].copy_from_slice(&(fits.len() as u32).to_ne_bytes());
            map[at + 8..at + 8 + fits.len()].copy_from_slice(fits);
            at += 8 + fits.len();
            loaded += 1;
        }
        self.loaded = loaded;
        self.set_header(BATCH_SIZE, loaded as u32);
        self.set_header(TAIL_COUNT, tail_count);
        self.set_header(TAIL_AT, tail_bytes.len() as u32);
        loaded
    }

    /// Runs the loaded batch from run `from` until a run reaches a bucket not seen (or aborts,
    /// crashes, or outlasts `limit`, which counts from here), or the batch ends; returns that
    /// run's index and how it ended (its time: the runs' since `from`). The hit counts are
    /// that run's.
    pub fn resume(&mut self, from: usize, limit: Duration) -> Result<(usize, NativeRun)> {
        debug_assert!(from < self.loaded);
        self.set_header(CONSUMED, 0);
        self.set_header(ENDED_BY, 0);
        self.set_header(RUN_INDEX, from as u32);
        self.set_header(START_AT, from as u32);
        self.set_header(STOP_AT_ABORT, self.stop_at_abort as u32);
        self.set_header(RUNS_CPU_NANOS, 0);
        self.hits.bytes_mut().fill(0);
        if let Some(log) = &mut self.cmplog {
            crate::ir::cmplog::clear(log.bytes_mut());
        }
        let start = Instant::now();
        self.control
            .write_all(&0u32.to_ne_bytes())
            .context("the fork server ended")?;
        let status = match self.read_word(Some(limit))? {
            Some(w) => decode(w),
            None => {
                // The process running the program, which its server then reports killed. Its
                // pid is 0 between a run's end and the next fork (a stale one is never used).
                let since = Instant::now();
                let mut pid = self.header(RUNNER) as i32;
                while pid <= 0 && since.elapsed() < Duration::from_secs(1) {
                    std::thread::sleep(Duration::from_micros(200));
                    pid = self.header(RUNNER) as i32;
                }
                if pid > 0 {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
                // The server reports the killed run at once. One that does not (a runner
                // killed between taking its word and saying so) is started again, at once.
                if self.read_word(Some(Duration::from_millis(500)))?.is_none() {
                    self.restart()?;
                }
                NativeStatus::Timeout
            }
        };
        // A run that read too far past its values ends as one that outlasts its limit would.
        let status = match self.header(ENDED_BY) & 4 != 0 {
            true => NativeStatus::Timeout,
            false => status,
        };
        let index = (self.header(RUN_INDEX) as usize).clamp(from, self.loaded - 1);
        self.runs += (index - from + 1) as u64;
        Ok((
            index,
            NativeRun {
                status,
                consumed: self.header(CONSUMED),
                assume_failed: self.header(ENDED_BY) & 1 != 0,
                aborted: self.header(ENDED_BY) & 2 != 0,
                out_of_values: self.header(ENDED_BY) & 4 != 0,
                time: start.elapsed(),
                // A killed run's CPU time is the limit's, not its own.
                runs_cpu: Some(self.header(RUNS_CPU_NANOS))
                    .filter(|&ns| ns > 0 && status != NativeStatus::Timeout)
                    .map(|ns| Duration::from_nanos(ns.into())),
            },
        ))
    }

    /// Whether a run of a batch that aborts (or fails an `assert`) ends the batch, as a new run
    /// does; if not, it ends it only if it is new. On by default. A program whose assumptions
    /// abort (sv-benchmarks' `assume_abort_if_not`) aborts in most runs, and a batch that ends
    /// at each is a request per run.
    pub fn stop_at_abort(&mut self, on: bool) {
        self.stop_at_abort = on;
    }

    /// The process that runs the program or waits for its next run (what a time-out kills);
    /// None between a run's end and the next fork.
    pub fn runner(&self) -> Option<i32> {
        Some(self.header(RUNNER) as i32).filter(|&pid| pid > 0)
    }

    /// A new server in place of this one (which is killed with whatever it runs).
    fn restart(&mut self) -> Result<()> {
        let l = self.launch.clone();
        unsafe { libc::kill(-(self.server.id() as i32), libc::SIGKILL) };
        let runs = self.runs;
        // The batch's records and the buckets seen go on in the new server's maps; the header
        // is the new server's own (its runner's pid above all: a stale one must never be
        // killed).
        let (records, seen, loaded) = (
            self.inputs.bytes()[RECORDS_AT..READS_AT].to_vec(),
            self.seen.bytes().to_vec(),
            self.loaded,
        );
        *self = ForkServer::start(&l.exe, l.goals, &l.scratch, l.fresh, l.max_memory, l.cmplog)?;
        self.runs = runs;
        self.loaded = loaded;
        self.inputs.bytes_mut()[RECORDS_AT..READS_AT].copy_from_slice(&records);
        self.set_header(BATCH_SIZE, loaded as u32);
        self.seen.bytes_mut().copy_from_slice(&seen);
        Ok(())
    }

    /// How the last run read each of its first `n` values (`ReadAs`; `Unknown` past the map).
    pub fn reads(&self, n: usize) -> impl Iterator<Item = (ReadAs, Channel)> + '_ {
        let map = &self.inputs.bytes()[READS_AT..];
        (0..n).map(|i| ReadAs::of(map.get(i).copied().unwrap_or(0)))
    }

    /// Word `i` of the inputs map's header.
    fn header(&self, i: usize) -> u32 {
        u32::from_ne_bytes(self.inputs.bytes()[4 * i..4 * i + 4].try_into().unwrap())
    }

    fn set_header(&mut self, i: usize, word: u32) {
        self.inputs.bytes_mut()[4 * i..4 * i + 4].copy_from_slice(&word.to_ne_bytes());
    }

    /// The next word of the status pipe; None if `limit` passed first.
    fn read_word(&mut self, limit: Option<Duration>) -> Result<Option<u32>> {
        if let Some(limit) = limit {
            let mut pfd = libc::pollfd {
                fd: self.status.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = limit.as_millis().clamp(1, i32::MAX as u128) as i32;
            let deadline = Instant::now() + limit;
            loop {
                let r = unsafe { libc::poll(&mut pfd, 1, ms) };
                if r > 0 {
                    break;
                }
                if r == 0 || Instant::now() >= deadline {
                    return Ok(None);
                }
                // EINTR: poll again.
            }
        }
        let mut w = [0u8; 4];
        self.status
            .read_exact(&mut w)
            .context("the fork server ended")?;
        Ok(Some(u32::from_ne_bytes(w)))
    }
}

fn decode(status: u32) -> NativeStatus {
    let s = status as i32;
    if libc::WIFSIGNALED(s) {
        NativeStatus::Signal(libc::WTERMSIG(s))
    } else {
        NativeStatus::Exit(libc::WEXITSTATUS(s))
    }
}

impl Drop for ForkServer {
    fn drop(&mut self) {
        // The server and whatever it started: its process group.
        unsafe { libc::kill(-(self.server.id() as i32), libc::SIGKILL) };
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}
