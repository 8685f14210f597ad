//! Models of the external functions a program calls: input functions, the error function,
//! process control, memory allocation, stdio, math. The rest of libc (string.h, ctype.h,
//! strtol, qsort...) is C code in `runtime/cairn_runtime.c`, executed like the program itself.

use super::input::InputKind;
use super::machine::{Machine, Stop, VarArg};
use super::memory::MemFault;
use super::observer::InputUse;
use super::ops::{mask, sext};
use crate::ir::rounding::Rounding;
use crate::ir::{Ty, Val};

pub use crate::ir::externs::{Ext, resolve};

/// Per-run state of the library models.
#[derive(Default, Debug)]
pub struct LibcState {
    pub main_ret: i64,
    pub unknown_called: Vec<String>,
    /// Fake FILE objects of stdin, stdout, stderr.
    pub streams: [u64; 3],
    ctype_b: u64,
    ctype_lower: u64,
    ctype_upper: u64,
    errno: u64,
    /// Bytes of stdout already handed to the OS (the rest is lost on abort, as natively).
    pub stdout_flushed: usize,
    /// Bytes the program wrote to stdout and stderr; only the first `OUTPUT_CAP` are kept.
    pub stdout_total: usize,
    pub stderr_total: usize,
    /// The process id, once the program asked for it.
    pub pid: Option<u64>,
    /// The time-stamp counter's last reading.
    tsc: u64,
    /// Bit pattern of the entry function's scalar result, once it returned.
    pub entry_ret: Option<u64>,
    /// `main` returned, and its status is unknown natively (`Module::main_status_unknown`);
    /// `exit` then runs its handlers with that status.
    pub main_status_unknown: bool,
}

/// Bytes of a run's stdout (and of its stderr) that are kept: a program flooding its output
/// costs time, not memory.
pub const OUTPUT_CAP: usize = 4 << 20;

/// Sets up what glibc has before `main`: standard streams, ctype tables, errno.
pub fn init(m: &mut Machine) {
    let pb = m.ptr_bits / 8;
    let alloc = |m: &mut Machine, n: u64| m.mem.malloc(n).unwrap_or(0);
    for i in 0..3 {
        m.libc.streams[i] = alloc(m, 216);
    }
    for (i, name) in ["stdin", "stdout", "stderr"].iter().enumerate() {
        if let Some(g) = m.module.globals.iter().find(|g| g.name == *name) {
            let _ = wuint(m, g.addr, pb, m.libc.streams[i]);
        }
    }
    // Copy the C-locale tables of the host glibc: the program then classifies exactly as natively.
    unsafe {
        let b = *libc_ctype_b_loc();
        let mut bytes = vec![];
        for i in -128i32..256 {
            bytes.extend_from_slice(&(*b.offset(i as isize)).to_le_bytes());
        }
        let t = alloc(m, bytes.len() as u64);
        let _ = wmem(m, t, &bytes);
        let p = alloc(m, pb as u64);
        let _ = wuint(m, p, pb, t + 256);
        m.libc.ctype_b = p;
        for (which, tbl) in [
            (0, *libc_ctype_tolower_loc()),
            (1, *libc_ctype_toupper_loc()),
        ] {
            let mut bytes = vec![];
            for i in -128i32..256 {
                bytes.extend_from_slice(&(*tbl.offset(i as isize)).to_le_bytes());
            }
            let t = alloc(m, bytes.len() as u64);
            let _ = wmem(m, t, &bytes);
            let p = alloc(m, pb as u64);
            let _ = wuint(m, p, pb, t + 512);
            if which == 0 {
                m.libc.ctype_lower = p;
            } else {
                m.libc.ctype_upper = p;
            }
        }
    }
    m.libc.errno = alloc(m, 4);
}

unsafe extern "C" {
    #[link_name = "__ctype_b_loc"]
    fn libc_ctype_b_loc() -> *const *const u16;
    #[link_name = "__ctype_tolower_loc"]
    fn libc_ctype_tolower_loc() -> *const *const i32;
    #[link_name = "__ctype_toupper_loc"]
    fn libc_ctype_toupper_loc() -> *const *const i32;
}

/// Hands buffered stdout to the OS (exit, return from main, fflush).
pub fn flush(m: &mut Machine) {
    m.libc.stdout_flushed = m.libc.stdout_total;
}

/// Appends what still fits under `OUTPUT_CAP`.
fn keep(buf: &mut Vec<u8>, bytes: &[u8]) {
    let room = OUTPUT_CAP.saturating_sub(buf.len());
    buf.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

// Memory writes by library models are events, so observers (the symbolic shadow) stay
// consistent with memory.
fn wmem(m: &mut Machine, addr: u64, bytes: &[u8]) -> Result<(), super::memory::MemFault> {
    m.mem.write(addr, bytes)?;
    let n = bytes.len() as u64;
    m.notify(|o, v| o.mem_written(v, addr, n));
    Ok(())
}

fn wuint(m: &mut Machine, addr: u64, n: u32, val: u64) -> Result<(), super::memory::MemFault> {
    m.mem.write_uint(addr, n, val)?;
    m.notify(|o, v| o.mem_written(v, addr, n as u64));
    Ok(())
}

/// Bytes of library work after which the clock is looked at (a few milliseconds' worth).
const BULK_BYTES: u64 = 1 << 20;

fn mcopy(m: &mut Machine, dst: u64, src: u64, n: u64) -> Result<(), Stop> {
    m.mem.copy(dst, src, n)?;
    m.notify(|o, v| o.mem_copied(v, dst, src, n));
    if n >= BULK_BYTES {
        m.check_clock()?;
    }
    Ok(())
}

fn mfill(m: &mut Machine, addr: u64, b: u8, n: u64) -> Result<(), Stop> {
    m.mem.fill(addr, b, n)?;
    m.notify(|o, v| o.mem_written(v, addr, n));
    if n >= BULK_BYTES {
        m.check_clock()?;
    }
    Ok(())
}

/// The bits of a returned scalar.
pub fn scalar_of(v: &Option<VarArg>) -> Option<u64> {
    match v {
        Some(VarArg::Scalar(x, _)) => Some(*x),
        _ => None,
    }
}

fn scalar(a: &VarArg) -> u64 {
    match a {
        VarArg::Scalar(v, _) => *v,
        VarArg::Agg(_) => 0,
    }
}

fn ret(v: u64) -> Option<VarArg> {
    Some(VarArg::Scalar(v, Ty::Int(64)))
}

fn f64_arg(a: &VarArg) -> f64 {
    match a {
        VarArg::Scalar(v, Ty::F32) => f32::from_bits(*v as u32) as f64,
        VarArg::Scalar(v, _) => f64::from_bits(*v),
        _ => 0.0,
    }
}

enum Stream {
    In,
    Out,
    Err,
    Other,
}

fn stream(m: &Machine, p: u64) -> Stream {
    let s = m.libc.streams;
    if p == s[0] {
        Stream::In
    } else if p == s[1] {
        Stream::Out
    } else if p == s[2] {
        Stream::Err
    } else {
        Stream::Other
    }
}

fn emit(m: &mut Machine, s: Stream, bytes: &[u8]) {
    match s {
        Stream::Out => {
            keep(&mut m.stdout, bytes);
            m.libc.stdout_total += bytes.len();
            // Full buffering (stdout is a pipe or file for tests): 4096-byte chunks reach the OS.
            let pending = m.libc.stdout_total - m.libc.stdout_flushed;
            m.libc.stdout_flushed += pending / 4096 * 4096;
        }
        Stream::Err => {
            keep(&mut m.stderr, bytes);
            m.libc.stderr_total += bytes.len();
        }
        _ => {}
    }
}

/// `malloc`: fresh memory whose contents are indeterminate (0 on failure).
fn malloc_uninit(m: &mut Machine, n: u64) -> Result<u64, Stop> {
    let p = heap_alloc(m, n)?;
    if p != 0 {
        m.notify(|o, v| o.uninitialized(v, p, n));
    }
    Ok(p)
}

/// Executes a call of external function `ext`. Returns the call's value, if any.
pub fn call(
    m: &mut Machine,
    ext: u32,
    args: &[VarArg],
    dst: Option<Val>,
) -> Result<Option<VarArg>, Stop> {
    use Ext::*;
    let e = &m.exts[ext as usize];
    let a = |i: usize| args.get(i).map(scalar).unwrap_or(0);
    let pb = m.ptr_bits / 8;
    Ok(match e {
        Nondet(k) => {
            let v = m.next_input(*k, 0);
            let ty = dst.map(|d| d.ty()).unwrap_or(Ty::Int(64));
            let float_input = matches!(k, InputKind::Float | InputKind::Double);
            let used = match ty {
                // Floats are symbolic as their IEEE bit patterns.
                Ty::F32 | Ty::F64 if float_input => Some((v.width, false)),
                Ty::Int(w) if !float_input => Some((w as u32, k.int_info(64).is_some_and(|i| i.1))),
                Ty::Ptr => Some((m.ptr_bits, false)),
                _ => None,
            };
            if let Some((w, signed)) = used {
                m.input_used(InputUse::Ret { w, signed });
            }
            Some(VarArg::Scalar(v.bits, ty))
        }
        CrestInput(k) => {
            let v = m.next_input(*k, 0);
            let n = v.width.div_ceil(8);
            wuint(m, a(0), n, v.bits)?;
            m.input_used(InputUse::Mem {
                addr: a(0),
                n,
                signed: k.int_info(64).is_some_and(|i| i.1),
            });
            None
        }
        MakeSymbolic => {
            let (p, n) = (a(0), a(1));
            let name = m
                .mem
                .cstr(a(2))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
            let mut v = m.next_input(InputKind::Bytes, n as usize);
            v.bytes_mut().resize(n as usize, 0);
            wmem(m, p, v.bytes())?;
            if let Some(last) = m.inputs.last_mut() {
                last.set_bytes(v.bytes().to_vec());
                last.set_name(&name);
            }
            m.input_used(InputUse::Bytes { addr: p, n });
            None
        }
        Assume => {
            let holds_now = !(a(0) & 0xff == 0 && mask(a(0), 32) == 0);
            m.notify(|o, v| o.assume(v, holds_now));
            if !holds_now {
                return Err(Stop::AssumeFailed);
            }
            None
        }
        ErrorFn => {
            let site = m.current_site();
            m.errors_hit.push(site);
            emit(m, Stream::Err, b"reach_error\n");
            return Err(Stop::Abort);
        }
        AssertFail => {
            let expr = m.mem.cstr(a(0)).unwrap_or_default();
            let file = m.mem.cstr(a(1)).unwrap_or_default();
            let func = m.mem.cstr(a(3)).unwrap_or_default();
            let msg = format!(
                "prog: {}:{}: {}: Assertion `{}' failed.\n",
                String::from_utf8_lossy(&file),
                a(2) as u32,
                String::from_utf8_lossy(&func),
                String::from_utf8_lossy(&expr)
            );
            emit(m, Stream::Err, msg.as_bytes());
            return Err(Stop::Abort);
        }
        Exit => {
            flush(m);
            return Err(Stop::Exit(sext(a(0), 32) as i32));
        }
        Abort => return Err(Stop::Abort),
        Malloc => ret(malloc_uninit(m, a(0))?),
        Calloc => match a(0).checked_mul(a(1)) {
            Some(n) => ret(heap_alloc(m, n)?),
            None => ret(0),
        },
        Realloc => {
            let (p, n) = (a(0), a(1));
            if p == 0 {
                ret(malloc_uninit(m, n)?)
            } else {
                let old = m.mem.heap_size(p)?;
                match heap_alloc(m, n)? {
                    0 => ret(0),
                    q => {
                        if n > old {
                            m.notify(|o, v| o.uninitialized(v, q + old, n - old));
                        }
                        mcopy(m, q, p, old.min(n))?;
                        m.mem.free(p)?;
                        ret(q)
                    }
                }
            }
        }
        Free => {
            m.mem.free(a(0))?;
            None
        }
        Memcpy | Memmove => {
            mcopy(m, a(0), a(1), a(2))?;
            ret(a(0))
        }
        Memset => {
            mfill(m, a(0), a(1) as u8, a(2))?;
            ret(a(0))
        }
        Printf => {
            let s = format(m, a(0), &mut DirectArgs { args, pos: 1 })?;
            emit(m, Stream::Out, &s);
            ret(s.len() as u64)
        }
        Fprintf => {
            let s = format(m, a(1), &mut DirectArgs { args, pos: 2 })?;
            let st = stream(m, a(0));
            emit(m, st, &s);
            ret(s.len() as u64)
        }
        Sprintf => {
            let mut s = format(m, a(1), &mut DirectArgs { args, pos: 2 })?;
            let n = s.len();
            s.push(0);
            wmem(m, a(0), &s)?;
            ret(n as u64)
        }
        Snprintf => {
            let s = format(m, a(2), &mut DirectArgs { args, pos: 3 })?;
            write_bounded(m, a(0), a(1), &s)?;
            ret(s.len() as u64)
        }
        Vprintf => {
            let s = format(m, a(0), &mut VaArgs::new(a(1), m.ptr_bits))?;
            emit(m, Stream::Out, &s);
            ret(s.len() as u64)
        }
        Vfprintf => {
            let s = format(m, a(1), &mut VaArgs::new(a(2), m.ptr_bits))?;
            let st = stream(m, a(0));
            emit(m, st, &s);
            ret(s.len() as u64)
        }
        Vsprintf => {
            let mut s = format(m, a(1), &mut VaArgs::new(a(2), m.ptr_bits))?;
            let n = s.len();
            s.push(0);
            wmem(m, a(0), &s)?;
            ret(n as u64)
        }
        Vsnprintf => {
            let s = format(m, a(2), &mut VaArgs::new(a(3), m.ptr_bits))?;
            write_bounded(m, a(0), a(1), &s)?;
            ret(s.len() as u64)
        }
        Puts => {
            let mut s = m.mem.cstr(a(0))?;
            s.push(b'\n');
            emit(m, Stream::Out, &s);
            // glibc returns the bytes written, newline included (at most INT_MAX).
            ret(s.len().min(i32::MAX as usize) as u64)
        }
        Putchar => {
            emit(m, Stream::Out, &[a(0) as u8]);
            ret(a(0) & 0xff)
        }
        Fputs => {
            let s = m.mem.cstr(a(0))?;
            let st = stream(m, a(1));
            emit(m, st, &s);
            ret(1)
        }
        Fputc => {
            let st = stream(m, a(1));
            emit(m, st, &[a(0) as u8]);
            ret(a(0) & 0xff)
        }
        Fflush => {
            flush(m);
            ret(0)
        }
        Fwrite => {
            let n = a(1).saturating_mul(a(2));
            let bytes = m.mem.read(a(0), n)?.to_vec();
            let st = stream(m, a(3));
            emit(m, st, &bytes);
            ret(a(2))
        }
        Perror => {
            let s = if a(0) != 0 { m.mem.cstr(a(0))? } else { vec![] };
            let mut line = s.clone();
            if !line.is_empty() {
                line.extend_from_slice(b": ");
            }
            let e = m.mem.read_uint(m.libc.errno, 4)? as i32;
            line.extend_from_slice(&host_strerror(e));
            line.push(b'\n');
            emit(m, Stream::Err, &line);
            None
        }
        Fgetc => {
            let c = match stream(m, a(0)) {
                Stream::In => {
                    let c = getchar(m);
                    m.input_used(InputUse::Char);
                    c
                }
                _ => -1,
            };
            ret(mask(c as u64, 32))
        }
        CtypeB => ret(m.libc.ctype_b),
        CtypeLower => ret(m.libc.ctype_lower),
        CtypeUpper => ret(m.libc.ctype_upper),
        Errno => ret(m.libc.errno),
        Strtod | Strtof | Atof => {
            let s = m.mem.cstr(a(0))?;
            let c = std::ffi::CString::new(s).unwrap_or_default();
            let mut end: *mut libc::c_char = std::ptr::null_mut();
            // glibc sets errno to ERANGE on overflow and underflow (parson rejects a number
            // whose strtod did): the host's errno, as the call left it.
            let host_errno = || unsafe { libc::__errno_location() };
            unsafe { *host_errno() = 0 };
            let v = unsafe { libc::strtod(c.as_ptr(), &mut end) };
            let used = unsafe { end.offset_from(c.as_ptr()) } as u64;
            if !matches!(e, Atof) && a(1) != 0 {
                wuint(m, a(1), pb, a(0) + used)?;
            }
            let result = if matches!(e, Strtof) {
                unsafe { *host_errno() = 0 };
                let v = unsafe { libc::strtof(c.as_ptr(), std::ptr::null_mut()) };
                VarArg::Scalar(v.to_bits() as u64, Ty::F32)
            } else {
                VarArg::Scalar(v.to_bits(), Ty::F64)
            };
            let err = unsafe { *host_errno() };
            if err != 0 {
                wuint(m, m.libc.errno, 4, err as u32 as u64)?;
            }
            Some(result)
        }
        Math(f) => {
            let f = *f;
            let w = f.w;
            let ty = if w == 32 { Ty::F32 } else { Ty::F64 };
            let bits: Vec<u64> = (0..f.arity())
                .map(|i| mask(as_param(args.get(i), ty, a(i)), w as u32))
                .collect();
            Some(VarArg::Scalar(f.eval(&bits), ty))
        }
        HostMath(id) => {
            let f = crate::ir::host_fns::get(*id);
            let bits: Vec<u64> = (0..f.params.len())
                .map(|i| as_param(args.get(i), f.params[i].ty(), a(i)))
                .collect();
            let (r, errno) = f.call(&bits);
            if let Some(e) = errno {
                wuint(m, m.libc.errno, 4, e as u32 as u64)?;
            }
            Some(VarArg::Scalar(r, f.ret.ty()))
        }
        Ldexp => Some(VarArg::Scalar(
            unsafe { libm_ldexp(f64_arg(&args[0]), sext(a(1), 32) as i32) }.to_bits(),
            Ty::F64,
        )),
        Frexp => {
            let mut e: i32 = 0;
            let r = unsafe { libm_frexp(f64_arg(&args[0]), &mut e) };
            wuint(m, a(1), 4, e as u32 as u64)?;
            Some(VarArg::Scalar(r.to_bits(), Ty::F64))
        }
        Modf => {
            let x = f64_arg(&args[0]);
            let ip = x.trunc();
            wuint(m, a(1), 8, ip.to_bits())?;
            let frac = if x.is_infinite() {
                0.0f64.copysign(x)
            } else {
                x - ip
            };
            Some(VarArg::Scalar(frac.to_bits(), Ty::F64))
        }
        Frexpf => {
            let mut e: i32 = 0;
            let r = unsafe { libm_frexpf(f64_arg(&args[0]) as f32, &mut e) };
            wuint(m, a(1), 4, e as u32 as u64)?;
            Some(VarArg::Scalar(r.to_bits() as u64, Ty::F32))
        }
        Modff => {
            let x = f64_arg(&args[0]) as f32;
            let ip = x.trunc();
            wuint(m, a(1), 4, ip.to_bits() as u64)?;
            let frac = if x.is_infinite() {
                0.0f32.copysign(x)
            } else {
                x - ip
            };
            Some(VarArg::Scalar(frac.to_bits() as u64, Ty::F32))
        }
        Nop => {
            // setvbuf's and setbuf's buffer is the library's from now on (see `Unknown`).
            for arg in args {
                m.mem.disown(scalar(arg));
            }
            ret(0)
        }
        EnvironmentResult => ret(a(0)),
        Indeterminate => Some(VarArg::Scalar(0, dst.map_or(Ty::Int(64), |d| d.ty()))),
        UninitializedInput => {
            let name = m.module.externs[ext as usize].name.clone();
            return unmodelled_result(m, ext, &name, dst);
        }
        // The process id is an input read once (natively it differs from run to run); the
        // runtime's `kill` compares against it.
        GetPid => match m.libc.pid {
            Some(p) => ret(p),
            None => {
                let r = unmodelled_result(m, ext, "getpid", dst)?;
                let p = m.inputs.last().map_or(0, |i| i.bits);
                m.libc.pid = Some(p);
                r
            }
        },
        OwnPid => ret(m.libc.pid.unwrap_or(i32::MAX as u64)),
        CpuId => ret(host_cpuid(a(0) as u32, a(1) as u32, a(2) as usize) as u64),
        TimeStampCounter => {
            m.libc.tsc = (TSC_START + m.steps).max(m.libc.tsc + TSC_READ_CYCLES);
            ret(m.libc.tsc)
        }
        Readable => ret(m
            .mem
            .object_bounds(a(0))
            .map_or(0, |(base, size)| base + size - a(0))),
        EndlessLoop => return Err(Stop::StepLimit),
        SignalDeath => return Err(Stop::Fault(format!("killed by signal {}", a(0) as u32))),
        SetJmp => ret(0),
        GetRounding => ret(m.rounding.fe() as u64),
        SetRounding => {
            // The runtime's `fesetround` passes valid modes only.
            if let Some(r) = Rounding::of_fe(a(0) as u32 as i64) {
                m.rounding = r;
            }
            None
        }
        LongJmp => {
            return Err(Stop::Unsupported(
                "longjmp (non-local jumps are not executed)".into(),
            ));
        }
        InlineAsm => {
            return Err(Stop::Unsupported(
                "inline assembly (its runs are native: the fuzzer's)".into(),
            ));
        }
        NotInterpreted => {
            return Err(Stop::Unsupported(
                "an instruction the interpreter cannot execute, such as long double arithmetic (its runs are native: the fuzzer's)".into(),
            ));
        }
        Unsupported | Environment => {
            let environment = matches!(e, Environment);
            let what = String::from_utf8_lossy(&m.mem.cstr(a(0)).unwrap_or_default()).into_owned();
            return Err(if environment {
                Stop::Environment(what)
            } else {
                Stop::Unsupported(what)
            });
        }
        Unknown(name) => {
            if !m.libc.unknown_called.contains(name) {
                m.libc.unknown_called.push(name.clone());
            }
            // A library function may keep a block it is given: no leak of it is claimed.
            for arg in args {
                m.mem.disown(scalar(arg));
            }
            let name = name.clone();
            return unmodelled_result(m, ext, &name, dst);
        }
    })
}

/// Register `reg` (eax, ebx, ecx, edx) of the host's `cpuid` answer for a leaf and subleaf.
/// The time-stamp counter: a cycle per step of the run from a start as after minutes of
/// uptime, so a run's readings, like its path, follow from its inputs. Natively a reading
/// takes tens of cycles, so two are never equal (a program may divide by their difference).
const TSC_START: u64 = 1 << 40;
const TSC_READ_CYCLES: u64 = 25;

fn host_cpuid(leaf: u32, subleaf: u32, reg: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        let r = std::arch::x86_64::__cpuid_count(leaf, subleaf);
        [r.eax, r.ebx, r.ecx, r.edx].get(reg).copied().unwrap_or(0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (leaf, subleaf, reg);
        0
    }
}

/// A math function's argument as its parameter's float type (a call without prototype may
/// pass the other one); anything else as `bits`.
fn as_param(arg: Option<&VarArg>, param: Ty, bits: u64) -> u64 {
    match (arg, param) {
        (Some(VarArg::Scalar(v, Ty::F32)), Ty::F64) => (f32::from_bits(*v as u32) as f64).to_bits(),
        (Some(VarArg::Scalar(v, Ty::F64)), Ty::F32) => (f64::from_bits(*v) as f32).to_bits() as u64,
        _ => bits,
    }
}

/// The result of an external function without a model is the test's next value, used or not
/// (the native harness's definition reads one either way).
fn unmodelled_result(
    m: &mut Machine,
    ext: u32,
    name: &str,
    dst: Option<Val>,
) -> Result<Option<VarArg>, Stop> {
    if m.module.externs[ext as usize].ret == Ty::Ptr && super::makes_up_pointers(name) {
        return made_up_pointer(m, name, dst);
    }
    if dst.is_some() {
        return result_as_input(m, name, dst);
    }
    let kind = match m.module.externs[ext as usize].ret {
        Ty::Int(1) => InputKind::Bool,
        Ty::Int(8) => InputKind::Char,
        Ty::Int(16) => InputKind::Short,
        Ty::Int(32) => InputKind::Int,
        Ty::Int(_) => InputKind::LongLong,
        Ty::F32 => InputKind::Float,
        Ty::F64 => InputKind::Double,
        Ty::Void | Ty::Ptr | Ty::Agg(_) => return Ok(None),
    };
    m.next_input(kind, 0);
    if let Some(last) = m.inputs.last_mut() {
        last.set_name(name);
    }
    Ok(None)
}

/// Bytes of the block a made-up pointer points to (`made_up_pointer`); the replay harness
/// makes the same.
pub const MADE_UP_BLOCK: u64 = 256;

/// The pointer an external function without a model returns: null, or a fresh block of
/// `MADE_UP_BLOCK` input bytes whose last one is NUL (a string, a small struct), as the test's
/// next two values say — whether it is null (`"from":NAME`), then the block's bytes (named
/// NAME). Both are read either way, so the values after them keep their places. The block is
/// nobody's: freeing it is allowed, no leak of it is claimed. The run counts as inexact
/// (unmodelled call): a real function may return a pointer to an object the program has.
fn made_up_pointer(m: &mut Machine, name: &str, dst: Option<Val>) -> Result<Option<VarArg>, Stop> {
    let nonnull = m.next_input(InputKind::Bool, 0).bits != 0;
    if let Some(last) = m.inputs.last_mut() {
        last.set_name(name);
    }
    let n = MADE_UP_BLOCK;
    let block = m.mem.malloc(n).map_err(Stop::from)?;
    m.fill_input_block(block, n, name, true)?;
    if let Some(last) = m.inputs.last_mut() {
        last.channel = super::input::Channel::MadeUp;
    }
    // Pointers in it are linked when first loaded (`exec::links`), to blocks as long.
    m.add_link_root((block, n), n, name);
    let p = if nonnull { block } else { 0 };
    Ok(dst.map(|_| VarArg::Scalar(p, Ty::Ptr)))
}

/// The result of a call that is not executed (an external function without a model, or an
/// abstracted call) becomes a fresh input, as lazy expansion abstracts calls.
pub fn result_as_input(
    m: &mut Machine,
    name: &str,
    dst: Option<Val>,
) -> Result<Option<VarArg>, Stop> {
    match dst {
        Some(Val::Reg(_, t)) => {
            let kind = match t {
                Ty::F32 => InputKind::Float,
                Ty::F64 => InputKind::Double,
                Ty::Ptr => {
                    return Err(Stop::Unsupported(format!(
                        "call of `{name}` returning a pointer, which Cairn cannot make an input"
                    )));
                }
                Ty::Int(1) => InputKind::Bool,
                Ty::Int(8) => InputKind::Char,
                Ty::Int(16) => InputKind::Short,
                Ty::Int(32) => InputKind::Int,
                _ => InputKind::LongLong,
            };
            let v = m.next_input(kind, 0);
            if let Some(last) = m.inputs.last_mut() {
                last.set_name(name);
            }
            if let Ty::Int(w) = t {
                m.input_used(InputUse::Ret {
                    w: w as u32,
                    signed: true,
                });
            }
            Ok(Some(VarArg::Scalar(v.bits, t)))
        }
        Some(Val::Agg(..)) => Err(Stop::Unsupported(format!(
            "call of `{name}` returning a struct, which Cairn cannot make an input"
        ))),
        None => Ok(None),
    }
}

unsafe extern "C" {
    #[link_name = "ldexp"]
    fn libm_ldexp(x: f64, e: i32) -> f64;
    #[link_name = "frexp"]
    fn libm_frexp(x: f64, e: *mut i32) -> f64;
    #[link_name = "frexpf"]
    fn libm_frexpf(x: f32, e: *mut i32) -> f32;
}

/// malloc: NULL for what the machine could never grant, as natively; Cairn's own memory limit
/// ends the run instead (the native program would have had the memory).
fn heap_alloc(m: &mut Machine, n: u64) -> Result<u64, Stop> {
    match m.mem.malloc(n) {
        Ok(p) => {
            m.note_allocation(p);
            Ok(p)
        }
        Err(MemFault::OutOfMemory) => Ok(0),
        Err(e) => Err(e.into()),
    }
}

/// One character of standard input: an input value in -1 (EOF) ..= 255.
fn getchar(m: &mut Machine) -> i32 {
    let v = m.next_char_input();
    let c = sext(v.bits, 32) as i32;
    let c = if c == -1 { -1 } else { c & 0xff };
    if let Some(last) = m.inputs.last_mut() {
        last.bits = mask(c as i64 as u64, 32);
    }
    c
}

fn write_bounded(m: &mut Machine, buf: u64, n: u64, s: &[u8]) -> Result<(), Stop> {
    if n == 0 {
        return Ok(());
    }
    let k = (s.len() as u64).min(n - 1) as usize;
    let mut out = s[..k].to_vec();
    out.push(0);
    wmem(m, buf, &out)?;
    Ok(())
}

/// The variadic arguments of a printf-like call.
pub trait ArgSource {
    fn int(&mut self, m: &Machine, bits: u32) -> Result<u64, Stop>;
    fn double(&mut self, m: &Machine) -> Result<f64, Stop>;
}

struct DirectArgs<'a> {
    args: &'a [VarArg],
    pos: usize,
}

impl ArgSource for DirectArgs<'_> {
    fn int(&mut self, _m: &Machine, _bits: u32) -> Result<u64, Stop> {
        let v = self.args.get(self.pos).map(scalar).unwrap_or(0);
        self.pos += 1;
        Ok(v)
    }
    fn double(&mut self, _m: &Machine) -> Result<f64, Stop> {
        let v = self.args.get(self.pos).map(f64_arg).unwrap_or(0.0);
        self.pos += 1;
        Ok(v)
    }
}

/// Reads arguments through a `va_list`, updating it as clang's inline `va_arg` code would.
struct VaArgs {
    list: u64,
    ptr_bits: u32,
}

impl VaArgs {
    fn new(list: u64, ptr_bits: u32) -> VaArgs {
        VaArgs { list, ptr_bits }
    }
}

impl ArgSource for VaArgs {
    fn int(&mut self, m: &Machine, bits: u32) -> Result<u64, Stop> {
        if self.ptr_bits == 64 {
            let gp = m.mem.read_uint(self.list, 4)?;
            let addr = if gp <= 40 {
                let save = m.mem.read_uint(self.list + 16, 8)?;
                unsafe_write(m, self.list, 4, gp + 8);
                save + gp
            } else {
                let ov = m.mem.read_uint(self.list + 8, 8)?;
                unsafe_write(m, self.list + 8, 8, ov + 8);
                ov
            };
            Ok(m.mem.read_uint(addr, 8)?)
        } else {
            // i386: the va_list is passed by value, a cursor into the argument area.
            let n = if bits > 32 { 8 } else { 4 };
            let v = m.mem.read_uint(self.list, n)?;
            self.list += n as u64;
            Ok(v)
        }
    }
    fn double(&mut self, m: &Machine) -> Result<f64, Stop> {
        if self.ptr_bits == 64 {
            let fp = m.mem.read_uint(self.list + 4, 4)?;
            let addr = if fp <= 160 {
                let save = m.mem.read_uint(self.list + 16, 8)?;
                unsafe_write(m, self.list + 4, 4, fp + 16);
                save + fp
            } else {
                let ov = m.mem.read_uint(self.list + 8, 8)?;
                unsafe_write(m, self.list + 8, 8, ov + 8);
                ov
            };
            Ok(f64::from_bits(m.mem.read_uint(addr, 8)?))
        } else {
            let v = m.mem.read_uint(self.list, 8)?;
            self.list += 8;
            Ok(f64::from_bits(v))
        }
    }
}

/// `va_list` updates happen through a shared reference to the machine (the format routine reads
/// memory while it consumes arguments); the update is applied to a copy-on-write cell.
fn unsafe_write(m: &Machine, addr: u64, n: u32, v: u64) {
    let mem = &m.mem as *const super::memory::Memory as *mut super::memory::Memory;
    // SAFETY: single-threaded; no other reference into this object's bytes is alive here.
    unsafe {
        let _ = (*mem).write_uint(addr, n, v);
    }
}

/// printf formatting: each conversion is rendered by the host C library's snprintf, so the
/// output is byte-identical to the native program's.
pub fn format(m: &Machine, fmt_addr: u64, args: &mut dyn ArgSource) -> Result<Vec<u8>, Stop> {
    let fmt = m.mem.cstr(fmt_addr)?;
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut i = 0;
    let long_bits = if m.ptr_bits == 64 { 64 } else { 32 };
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut spec: Vec<u8> = vec![b'%'];
        while i < fmt.len() && b"-+ #0'".contains(&fmt[i]) {
            spec.push(fmt[i]);
            i += 1;
        }
        // width
        if i < fmt.len() && fmt[i] == b'*' {
            let w = sext(args.int(m, 32)?, 32);
            spec.extend_from_slice(w.to_string().as_bytes());
            i += 1;
        } else {
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                spec.push(fmt[i]);
                i += 1;
            }
        }
        // precision
        let mut precision: Option<i64> = None;
        if i < fmt.len() && fmt[i] == b'.' {
            i += 1;
            if i < fmt.len() && fmt[i] == b'*' {
                let p = sext(args.int(m, 32)?, 32);
                i += 1;
                if p >= 0 {
                    precision = Some(p);
                    spec.extend_from_slice(format!(".{p}").as_bytes());
                }
            } else {
                let mut p = 0i64;
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    p = p * 10 + (fmt[i] - b'0') as i64;
                    i += 1;
                }
                precision = Some(p);
                spec.extend_from_slice(format!(".{p}").as_bytes());
            }
        }
        // length
        let mut len = String::new();
        while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
            len.push(fmt[i] as char);
            i += 1;
        }
        if i >= fmt.len() {
            out.extend_from_slice(&fmt[start..]);
            break;
        }
        let conv = fmt[i];
        i += 1;
        let bits = match len.as_str() {
            "hh" => 8,
            "h" => 16,
            "l" | "z" | "t" => long_bits,
            // intmax_t is 64 bits in both data models.
            "ll" | "q" | "L" | "j" => 64,
            _ => 32,
        };
        match conv {
            b'%' => out.push(b'%'),
            b'd' | b'i' => {
                let v = sext(args.int(m, bits)?, bits);
                spec.extend_from_slice(b"lld");
                out.extend(c_fmt_i(&spec, v));
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = mask(args.int(m, bits)?, bits);
                spec.extend_from_slice(b"ll");
                spec.push(conv);
                out.extend(c_fmt_i(&spec, v as i64));
            }
            b'c' => {
                let v = args.int(m, 32)? as u8;
                spec.push(b'c');
                out.extend(c_fmt_i(&spec, v as i64));
            }
            b's' => {
                let p = args.int(m, m.ptr_bits)?;
                let s: Vec<u8> = if p == 0 {
                    b"(null)".to_vec()
                } else {
                    match precision {
                        Some(n) => m
                            .mem
                            .rest(p)?
                            .iter()
                            .take(n as usize)
                            .take_while(|&&b| b != 0)
                            .copied()
                            .collect(),
                        None => m.mem.cstr(p)?,
                    }
                };
                spec.push(b's');
                out.extend(c_fmt_s(&spec, &s));
            }
            b'p' => {
                let p = args.int(m, m.ptr_bits)?;
                spec.push(b'p');
                out.extend(c_fmt_p(&spec, p));
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                if len == "L" {
                    return Err(Stop::Unsupported("printf of long double".into()));
                }
                let v = args.double(m)?;
                spec.push(conv);
                out.extend(c_fmt_f(&spec, v));
            }
            b'n' => {
                let p = args.int(m, m.ptr_bits)?;
                unsafe_write(m, p, 4, out.len() as u64);
            }
            _ => {
                out.extend_from_slice(&fmt[start..i]);
            }
        }
    }
    Ok(out)
}

fn c_fmt_call(
    spec: &[u8],
    f: impl Fn(*mut libc::c_char, usize, *const libc::c_char) -> i32,
) -> Vec<u8> {
    let mut spec = spec.to_vec();
    spec.push(0);
    let n = f(
        std::ptr::null_mut(),
        0,
        spec.as_ptr() as *const libc::c_char,
    );
    if n < 0 {
        return vec![];
    }
    let mut buf = vec![0u8; n as usize + 1];
    f(
        buf.as_mut_ptr() as *mut libc::c_char,
        buf.len(),
        spec.as_ptr() as *const libc::c_char,
    );
    buf.truncate(n as usize);
    buf
}

fn c_fmt_i(spec: &[u8], v: i64) -> Vec<u8> {
    c_fmt_call(spec, |b, n, f| unsafe {
        libc::snprintf(b, n, f, v as libc::c_longlong)
    })
}

fn c_fmt_f(spec: &[u8], v: f64) -> Vec<u8> {
    c_fmt_call(spec, |b, n, f| unsafe { libc::snprintf(b, n, f, v) })
}

fn c_fmt_p(spec: &[u8], v: u64) -> Vec<u8> {
    c_fmt_call(spec, |b, n, f| unsafe {
        libc::snprintf(b, n, f, v as usize as *const libc::c_void)
    })
}

fn c_fmt_s(spec: &[u8], s: &[u8]) -> Vec<u8> {
    let mut z = s.to_vec();
    z.push(0);
    c_fmt_call(spec, |b, n, f| unsafe {
        libc::snprintf(b, n, f, z.as_ptr() as *const libc::c_char)
    })
}

/// The host C library's message for `errno` value `e` (glibc's, as the runtime's `strerror`).
fn host_strerror(e: i32) -> Vec<u8> {
    let mut buf = [0u8; 128];
    // SAFETY: the buffer is large enough for any message and NUL-terminated by strerror_r.
    let r = unsafe { libc::strerror_r(e, buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
    match r {
        0 => buf[..buf.iter().position(|&b| b == 0).unwrap_or(0)].to_vec(),
        _ => format!("Unknown error {e}").into_bytes(),
    }
}
