//! Models of the external functions a program calls: input functions, the error function,
//! process control, memory allocation, stdio, math. The rest of libc (string.h, ctype.h,
//! strtol, qsort...) is C code in `runtime/cairn_runtime.c`, executed like the program itself.

use super::input::InputKind;
use super::machine::{Machine, Stop, VarArg};
use super::ops::{mask, sext};
use super::shadow::{BranchRecord, NONE};
use crate::ir::{ASSUME_VIOLATED, IPred, Module, NO_GOAL, Ty, Val};
use crate::smt::expr::ExprId;

/// What an external function is, resolved once per module.
#[derive(Clone, Debug)]
pub enum Ext {
    Nondet(InputKind),
    /// CREST's `__CrestInt(&x)` family: writes a fresh input into `*p`.
    CrestInput(InputKind),
    MakeSymbolic,
    Assume,
    ErrorFn,
    AssertFail,
    Exit,
    Abort,
    Malloc,
    Calloc,
    Realloc,
    Free,
    Memcpy,
    Memmove,
    Memset,
    Printf,
    Fprintf,
    Sprintf,
    Snprintf,
    Vprintf,
    Vfprintf,
    Vsprintf,
    Vsnprintf,
    Puts,
    Putchar,
    Fputs,
    Fputc,
    Fflush,
    Fwrite,
    Perror,
    Getchar,
    Fgetc,
    Fgets,
    Scanf,
    CtypeB,
    CtypeLower,
    CtypeUpper,
    Errno,
    Strtod,
    Strtof,
    Atof,
    Math1(fn(f64) -> f64),
    Math2(fn(f64, f64) -> f64),
    Math1F(fn(f32) -> f32),
    Math2F(fn(f32, f32) -> f32),
    Ldexp,
    Frexp,
    Modf,
    /// Returns 0 and does nothing (setlocale, setvbuf...).
    Nop,
    Time,
    /// `getpid`: a fixed process id (a test must not depend on the real one).
    GetPid,
    /// The default action of a signal the program raised: the process dies by that signal.
    SignalDeath,
    /// The runtime reached something the interpreter cannot reproduce (message argument).
    Unsupported,
    /// An external function Cairn has no model of: its result becomes an input.
    Unknown(String),
}

pub fn resolve(m: &Module) -> Vec<Ext> {
    m.externs.iter().map(|e| resolve_name(&e.name)).collect()
}

fn resolve_name(name: &str) -> Ext {
    use Ext::*;
    if let Some(suffix) = name.strip_prefix("__VERIFIER_nondet_") {
        return match InputKind::from_nondet_suffix(suffix) {
            Some(k) => Nondet(k),
            None => Unknown(name.into()),
        };
    }
    let crest = |k| CrestInput(k);
    match name {
        "__CrestInt" => crest(InputKind::Int),
        "__CrestUInt" => crest(InputKind::UInt),
        "__CrestChar" => crest(InputKind::Char),
        "__CrestUChar" => crest(InputKind::UChar),
        "__CrestShort" => crest(InputKind::Short),
        "__CrestUShort" => crest(InputKind::UShort),
        "__CrestBool" => crest(InputKind::Bool),
        "klee_make_symbolic" => MakeSymbolic,
        "klee_assume" | "__VERIFIER_assume" | "assume_abort_if_not" => Assume,
        "reach_error" | "__VERIFIER_error" => ErrorFn,
        "__assert_fail" | "__assert_perror_fail" | "__assert" => AssertFail,
        "__cairn_exit" | "_exit" | "_Exit" | "exit" => Exit,
        "abort" => Abort,
        "malloc" | "valloc" => Malloc,
        "calloc" => Calloc,
        "realloc" => Realloc,
        "free" => Free,
        "memcpy" | "__memcpy_chk" => Memcpy,
        "memmove" | "__memmove_chk" => Memmove,
        "memset" | "__memset_chk" => Memset,
        "printf" => Printf,
        "fprintf" => Fprintf,
        "sprintf" => Sprintf,
        "snprintf" => Snprintf,
        "vprintf" => Vprintf,
        "vfprintf" => Vfprintf,
        "vsprintf" => Vsprintf,
        "vsnprintf" => Vsnprintf,
        "puts" => Puts,
        "putchar" | "putchar_unlocked" => Putchar,
        "fputs" | "fputs_unlocked" => Fputs,
        "fputc" | "putc" | "_IO_putc" => Fputc,
        "fflush" => Fflush,
        "fwrite" => Fwrite,
        "perror" => Perror,
        "getchar" | "getchar_unlocked" => Getchar,
        "fgetc" | "getc" | "_IO_getc" | "getc_unlocked" => Fgetc,
        "fgets" => Fgets,
        "scanf" | "__isoc99_scanf" => Scanf,
        "__ctype_b_loc" => CtypeB,
        "__ctype_tolower_loc" => CtypeLower,
        "__ctype_toupper_loc" => CtypeUpper,
        "__errno_location" => Errno,
        "strtod" => Strtod,
        "strtof" => Strtof,
        "atof" => Atof,
        "sin" => Math1(f64::sin),
        "cos" => Math1(f64::cos),
        "tan" => Math1(f64::tan),
        "asin" => Math1(f64::asin),
        "acos" => Math1(f64::acos),
        "atan" => Math1(f64::atan),
        "sinh" => Math1(f64::sinh),
        "cosh" => Math1(f64::cosh),
        "tanh" => Math1(f64::tanh),
        "exp" => Math1(f64::exp),
        "exp2" => Math1(f64::exp2),
        "log" => Math1(f64::ln),
        "log2" => Math1(f64::log2),
        "log10" => Math1(f64::log10),
        "log1p" => Math1(f64::ln_1p),
        "expm1" => Math1(f64::exp_m1),
        "sqrt" => Math1(f64::sqrt),
        "cbrt" => Math1(f64::cbrt),
        "fabs" => Math1(f64::abs),
        "floor" => Math1(f64::floor),
        "ceil" => Math1(f64::ceil),
        "round" => Math1(f64::round),
        "trunc" => Math1(f64::trunc),
        "rint" | "nearbyint" => Math1(f64::round_ties_even),
        "pow" => Math2(f64::powf),
        "atan2" => Math2(f64::atan2),
        "fmod" => Math2(|a, b| a % b),
        "hypot" => Math2(f64::hypot),
        "fmin" => Math2(f64::min),
        "fmax" => Math2(f64::max),
        "copysign" => Math2(f64::copysign),
        "sinf" => Math1F(f32::sin),
        "cosf" => Math1F(f32::cos),
        "tanf" => Math1F(f32::tan),
        "expf" => Math1F(f32::exp),
        "logf" => Math1F(f32::ln),
        "sqrtf" => Math1F(f32::sqrt),
        "fabsf" => Math1F(f32::abs),
        "floorf" => Math1F(f32::floor),
        "ceilf" => Math1F(f32::ceil),
        "roundf" => Math1F(f32::round),
        "truncf" => Math1F(f32::trunc),
        "powf" => Math2F(f32::powf),
        "fmodf" => Math2F(|a, b| a % b),
        "fminf" => Math2F(f32::min),
        "fmaxf" => Math2F(f32::max),
        "ldexp" => Ldexp,
        "frexp" => Frexp,
        "modf" => Modf,
        "setlocale" | "setvbuf" | "setbuf" | "fclose" | "srand48" | "alarm" => Nop,
        "time" => Time,
        "getpid" => GetPid,
        "__cairn_signal_death" => SignalDeath,
        "__cairn_unsupported" => Unsupported,
        _ => Unknown(name.into()),
    }
}

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
}

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
    m.libc.stdout_flushed = m.stdout.len();
}

// Memory writes by library models keep the symbolic shadow consistent.
fn wmem(m: &mut Machine, addr: u64, bytes: &[u8]) -> Result<(), super::memory::MemFault> {
    m.clear_mem_shadow(addr, bytes.len() as u64);
    m.mem.write(addr, bytes)
}

fn wuint(m: &mut Machine, addr: u64, n: u32, v: u64) -> Result<(), super::memory::MemFault> {
    m.clear_mem_shadow(addr, n as u64);
    m.mem.write_uint(addr, n, v)
}

fn mcopy(m: &mut Machine, dst: u64, src: u64, n: u64) -> Result<(), super::memory::MemFault> {
    m.mem.copy(dst, src, n)?;
    m.copy_mem_shadow(dst, src, n);
    Ok(())
}

fn mfill(m: &mut Machine, addr: u64, b: u8, n: u64) -> Result<(), super::memory::MemFault> {
    m.clear_mem_shadow(addr, n);
    m.mem.fill(addr, b, n)
}

/// The shadow of an integer input of `width` bits seen through a register of `dst_w` bits.
fn input_shadow(m: &mut Machine, width: u32, dst_w: u32, signed: bool) -> ExprId {
    let e = m.input_var(0, width as u8);
    let Some(s) = &mut m.sym else { return NONE };
    if dst_w == width || e == NONE {
        e
    } else if dst_w < width {
        s.pool.extract(dst_w as u8, 0, e)
    } else if signed {
        s.pool.sext(dst_w as u8, e)
    } else {
        s.pool.zext(dst_w as u8, e)
    }
}

fn set_ret_shadow(m: &mut Machine, e: ExprId) {
    if let Some(s) = &mut m.sym {
        s.ret = e;
    }
}

fn arg_shadow(m: &Machine, i: usize) -> ExprId {
    m.sym
        .as_ref()
        .and_then(|s| s.args.get(i).copied())
        .unwrap_or(NONE)
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
            m.stdout.extend_from_slice(bytes);
            // Full buffering (stdout is a pipe or file for tests): 4096-byte chunks reach the OS.
            let pending = m.stdout.len() - m.libc.stdout_flushed;
            m.libc.stdout_flushed += pending / 4096 * 4096;
        }
        Stream::Err => m.stderr.extend_from_slice(bytes),
        _ => {}
    }
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
            if matches!(ty, Ty::F32 | Ty::F64) && matches!(k, InputKind::Float | InputKind::Double)
            {
                // Floats are symbolic as their IEEE bit patterns.
                let e = m.input_var(0, v.width as u8);
                set_ret_shadow(m, e);
            } else if let (Ty::Int(w), false) =
                (ty, matches!(k, InputKind::Float | InputKind::Double))
            {
                let signed = k.int_info(64).is_some_and(|i| i.1);
                let e = input_shadow(m, v.width, w as u32, signed);
                set_ret_shadow(m, e);
            } else if ty == Ty::Ptr {
                let e = input_shadow(m, v.width, m.ptr_bits, false);
                set_ret_shadow(m, e);
            }
            Some(VarArg::Scalar(v.bits, ty))
        }
        CrestInput(k) => {
            let v = m.next_input(*k, 0);
            let n = v.width.div_ceil(8);
            wuint(m, a(0), n, v.bits)?;
            let e = input_shadow(m, v.width, n * 8, k.int_info(64).is_some_and(|i| i.1));
            m.set_mem_shadow(a(0), n, e);
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
            v.bytes.resize(n as usize, 0);
            wmem(m, p, &v.bytes)?;
            if let Some(last) = m.inputs.last_mut() {
                last.bytes = v.bytes.clone();
                last.name = name;
            }
            for i in 0..n {
                let e = m.input_var(i as u32, 8);
                m.set_mem_shadow(p + i, 1, e);
            }
            None
        }
        Assume => {
            let c = arg_shadow(m, 0);
            let holds_now = !(a(0) & 0xff == 0 && mask(a(0), 32) == 0);
            // A symbolic assumption is part of the path condition. When it fails, search can
            // flip it to find inputs that satisfy it; its violated side is never explored.
            if c != NONE {
                let ctx = m.context();
                let s = m.sym.as_mut().unwrap();
                let w = s.pool.width(c);
                let z = s.pool.constant(w, 0);
                let holds = s.pool.cmp(IPred::Ne, c, z);
                let violated = s.pool.not(holds);
                let taken = if holds_now { 0 } else { 1 };
                s.path.push(BranchRecord {
                    func: 0,
                    block: 0,
                    taken,
                    outcomes: vec![(holds, NO_GOAL, 0), (violated, ASSUME_VIOLATED, 0)],
                    ctx,
                });
            }
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
        Malloc => ret(m.mem.malloc(a(0)).unwrap_or(0)),
        Calloc => {
            let n = a(0).checked_mul(a(1));
            ret(n.and_then(|n| m.mem.malloc(n).ok()).unwrap_or(0))
        }
        Realloc => {
            let (p, n) = (a(0), a(1));
            if p == 0 {
                ret(m.mem.malloc(n).unwrap_or(0))
            } else {
                let old = m.mem.heap_size(p)?;
                match m.mem.malloc(n) {
                    Ok(q) => {
                        mcopy(m, q, p, old.min(n))?;
                        m.mem.free(p)?;
                        ret(q)
                    }
                    Err(_) => ret(0),
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
            ret(1)
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
            line.extend_from_slice(b"Success\n");
            emit(m, Stream::Err, &line);
            None
        }
        Getchar => ret(mask(getchar(m) as u64, 32)),
        Fgetc => {
            let c = match stream(m, a(0)) {
                Stream::In => getchar(m),
                _ => -1,
            };
            ret(mask(c as u64, 32))
        }
        Fgets => {
            let (buf, n) = (a(0), sext(a(1), 32));
            if !matches!(stream(m, a(2)), Stream::In) || n <= 0 {
                return Ok(ret(0));
            }
            let mut s = vec![];
            while (s.len() as i64) < n - 1 {
                let c = getchar(m);
                if c < 0 {
                    break;
                }
                s.push(c as u8);
                if c == b'\n' as i32 {
                    break;
                }
            }
            if s.is_empty() {
                return Ok(ret(0));
            }
            s.push(0);
            wmem(m, buf, &s)?;
            ret(buf)
        }
        Scanf => ret(scanf(m, a(0), args)? as u64),
        CtypeB => ret(m.libc.ctype_b),
        CtypeLower => ret(m.libc.ctype_lower),
        CtypeUpper => ret(m.libc.ctype_upper),
        Errno => ret(m.libc.errno),
        Strtod | Strtof | Atof => {
            let s = m.mem.cstr(a(0))?;
            let c = std::ffi::CString::new(s).unwrap_or_default();
            let mut end: *mut libc::c_char = std::ptr::null_mut();
            let v = unsafe { libc::strtod(c.as_ptr(), &mut end) };
            let used = unsafe { end.offset_from(c.as_ptr()) } as u64;
            if !matches!(e, Atof) && a(1) != 0 {
                wuint(m, a(1), pb, a(0) + used)?;
            }
            if matches!(e, Strtof) {
                Some(VarArg::Scalar(
                    unsafe { libc::strtof(c.as_ptr(), std::ptr::null_mut()) }.to_bits() as u64,
                    Ty::F32,
                ))
            } else {
                Some(VarArg::Scalar(v.to_bits(), Ty::F64))
            }
        }
        Math1(f) => Some(VarArg::Scalar(f(f64_arg(&args[0])).to_bits(), Ty::F64)),
        Math2(f) => Some(VarArg::Scalar(
            f(f64_arg(&args[0]), f64_arg(&args[1])).to_bits(),
            Ty::F64,
        )),
        Math1F(f) => Some(VarArg::Scalar(
            f(f32::from_bits(a(0) as u32)).to_bits() as u64,
            Ty::F32,
        )),
        Math2F(f) => Some(VarArg::Scalar(
            f(f32::from_bits(a(0) as u32), f32::from_bits(a(1) as u32)).to_bits() as u64,
            Ty::F32,
        )),
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
        Nop => ret(0),
        GetPid => ret(4242),
        SignalDeath => return Err(Stop::Fault(format!("killed by signal {}", a(0) as u32))),
        Unsupported => {
            let what = m.mem.cstr(a(0)).unwrap_or_default();
            return Err(Stop::Unsupported(
                String::from_utf8_lossy(&what).into_owned(),
            ));
        }
        Time => {
            // Deterministic clock: tests must replay.
            if a(0) != 0 {
                wuint(m, a(0), pb, 0)?;
            }
            ret(0)
        }
        Unknown(name) => {
            // Lazy-expansion style abstraction: the result of an unknown function is an input.
            if !m.libc.unknown_called.contains(name) {
                m.libc.unknown_called.push(name.clone());
            }
            match dst {
                Some(Val::Reg(_, t)) => {
                    let kind = match t {
                        Ty::F32 => InputKind::Float,
                        Ty::F64 => InputKind::Double,
                        Ty::Ptr => {
                            return Err(Stop::Unsupported(format!(
                                "call of unknown external function `{name}` returning a pointer"
                            )));
                        }
                        Ty::Int(1) => InputKind::Bool,
                        Ty::Int(8) => InputKind::Char,
                        Ty::Int(16) => InputKind::Short,
                        Ty::Int(32) => InputKind::Int,
                        _ => InputKind::LongLong,
                    };
                    let v = m.next_input(kind, 0);
                    if let Ty::Int(w) = t {
                        let e = input_shadow(m, v.width, w as u32, true);
                        set_ret_shadow(m, e);
                    }
                    Some(VarArg::Scalar(v.bits, t))
                }
                Some(Val::Agg(..)) => {
                    return Err(Stop::Unsupported(format!(
                        "call of unknown external function `{name}` returning a struct"
                    )));
                }
                None => None,
            }
        }
    })
}

unsafe extern "C" {
    #[link_name = "ldexp"]
    fn libm_ldexp(x: f64, e: i32) -> f64;
    #[link_name = "frexp"]
    fn libm_frexp(x: f64, e: *mut i32) -> f64;
}

/// One character of standard input: an input value in -1 (EOF) ..= 255.
fn getchar(m: &mut Machine) -> i32 {
    let v = m.next_input(InputKind::Int, 0);
    let c = sext(v.bits, 32) as i32;
    let c = if c == -1 { -1 } else { c & 0xff };
    if let Some(last) = m.inputs.last_mut() {
        last.bits = mask(c as i64 as u64, 32);
    }
    // Symbolically: v == -1 ? -1 : (v & 0xff).
    let e = m.input_var(0, 32);
    if let Some(s) = &mut m.sym {
        let minus1 = s.pool.constant(32, u32::MAX as u64);
        let is_eof = s.pool.cmp(IPred::Eq, e, minus1);
        let byte = s.pool.extract(8, 0, e);
        let byte = s.pool.zext(32, byte);
        s.ret = s.pool.ite(is_eof, minus1, byte);
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
            "l" | "z" | "t" | "j" => long_bits,
            "ll" | "q" | "L" => 64,
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

/// scanf: each conversion reads one input value of its type.
fn scanf(m: &mut Machine, fmt_addr: u64, args: &[VarArg]) -> Result<i32, Stop> {
    let fmt = m.mem.cstr(fmt_addr)?;
    let mut i = 0;
    let mut argi = 1;
    let mut count = 0;
    let long_kind = |signed: bool| {
        if signed {
            InputKind::Long
        } else {
            InputKind::ULong
        }
    };
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        let mut suppress = false;
        if i < fmt.len() && fmt[i] == b'*' {
            suppress = true;
            i += 1;
        }
        while i < fmt.len() && fmt[i].is_ascii_digit() {
            i += 1;
        }
        let mut len = String::new();
        while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
            len.push(fmt[i] as char);
            i += 1;
        }
        if i >= fmt.len() {
            break;
        }
        let conv = fmt[i];
        i += 1;
        if conv == b'%' {
            continue;
        }
        let signed = matches!(conv, b'd' | b'i');
        let kind = match (conv, len.as_str()) {
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', "hh") => {
                if signed {
                    InputKind::Char
                } else {
                    InputKind::UChar
                }
            }
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', "h") => {
                if signed {
                    InputKind::Short
                } else {
                    InputKind::UShort
                }
            }
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', "l" | "z" | "j" | "t") => long_kind(signed),
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', "ll" | "q") => {
                if signed {
                    InputKind::LongLong
                } else {
                    InputKind::ULongLong
                }
            }
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', _) => {
                if signed {
                    InputKind::Int
                } else {
                    InputKind::UInt
                }
            }
            (b'f' | b'e' | b'g' | b'E' | b'G' | b'a', "l") => InputKind::Double,
            (b'f' | b'e' | b'g' | b'E' | b'G' | b'a', "") => InputKind::Float,
            (b'c', "") => InputKind::Char,
            _ => {
                return Err(Stop::Unsupported(format!(
                    "scanf conversion %{len}{}",
                    conv as char
                )));
            }
        };
        let v = m.next_input(kind, 0);
        if suppress {
            continue;
        }
        let p = args.get(argi).map(scalar).unwrap_or(0);
        argi += 1;
        let n = v.width.div_ceil(8);
        wuint(m, p, n, v.bits)?;
        count += 1;
    }
    Ok(count)
}
