//! Numeric functions of the host's math library that Cairn has no model of (`erf`, `fdim`,
//! `scalbn`, `ilogb`, `nextafter`, ...), called natively. They are pure (a function of their
//! arguments; glibc may also set `errno`), so the interpreter gets the value the native program
//! gets. Made inputs instead, their results took values glibc never returns, and a replay that
//! stubbed them "confirmed" those runs.
//!
//! Only functions the math library itself defines qualify (`dladdr`): a numeric signature alone
//! does not make a libc function pure (`sleep`, `close`, `alarm`), and the `fe*` functions change
//! the floating-point environment of Cairn's own process.

use std::sync::{Mutex, OnceLock};

use super::{DataModel, Extern, Ty};

/// A number passed or returned in a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Num {
    I32,
    I64,
    F32,
    F64,
}

impl Num {
    fn of(t: Ty) -> Option<Num> {
        Some(match t {
            Ty::Int(32) => Num::I32,
            Ty::Int(64) => Num::I64,
            Ty::F32 => Num::F32,
            Ty::F64 => Num::F64,
            _ => return None,
        })
    }

    pub fn ty(self) -> Ty {
        match self {
            Num::I32 => Ty::Int(32),
            Num::I64 => Ty::Int(64),
            Num::F32 => Ty::F32,
            Num::F64 => Ty::F64,
        }
    }

    pub fn bits(self) -> u8 {
        match self {
            Num::I32 | Num::F32 => 32,
            Num::I64 | Num::F64 => 64,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Num::F32 | Num::F64)
    }
}

/// A math-library function with a numeric signature, found in this process.
#[derive(Debug)]
pub struct HostFn {
    pub name: String,
    pub ret: Num,
    pub params: Vec<Num>,
    addr: usize,
    /// A 32-bit program's `long` result of a function returning the host's 64-bit one.
    long_in_32_bits: bool,
}

/// Index of a `HostFn` in the process-wide registry (stable for the process's life).
pub type HostFnId = u32;

fn registry() -> &'static Mutex<Vec<&'static HostFn>> {
    static R: OnceLock<Mutex<Vec<&'static HostFn>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(vec![]))
}

/// The registers the call uses: every integer argument and every float argument go to
/// registers of their own class, in order, on x86-64 (6 and 8) and AArch64 (8 and 8), so one
/// call through a pointer of this type serves every signature within those counts.
const INT_REGS: usize = 6;
const FLOAT_REGS: usize = 8;

/// Math functions whose result is a `long`: in a 32-bit program the host's 64-bit value is the
/// program's when it fits, and i386 glibc's "integer indefinite" (LONG_MIN) when it does not
/// (measured on glibc 2.36 for large values, infinities and NaN).
const LONG_RESULTS: &[&str] = &["lrint", "lrintf", "lround", "lroundf"];

/// Exact functions whose integer result has the same width and values in a 32-bit build
/// (`ilogb`'s `FP_ILOGB0` and `FP_ILOGBNAN` are INT_MIN in both; measured on glibc 2.36, errno
/// included).
const SAME_INTEGER_RESULTS: &[&str] = &[
    "ilogb", "ilogbf", "llrint", "llrintf", "llround", "llroundf",
];

/// The host function `e` names, when the math library defines it with a numeric signature.
/// In a program of another data model than the host's (ILP32) the program's native library is
/// another build: its results may differ in the last bit (runs that call one are inexact), and
/// its integer results may be other values (`__signbit`) or widths, so only float results, the
/// `long` results of `LONG_RESULTS` and the results of `SAME_INTEGER_RESULTS` qualify.
pub fn lookup(e: &Extern, data_model: DataModel) -> Option<HostFnId> {
    if !cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))
        || e.is_var_arg
        || e.params.is_empty()
        || e.name.starts_with("fe")
    {
        return None;
    }
    let ret = Num::of(e.ret)?;
    let other_build = data_model != DataModel::LP64 && !ret.is_float();
    let long_result = other_build && ret == Num::I32 && LONG_RESULTS.contains(&e.name.as_str());
    if other_build && !long_result && !SAME_INTEGER_RESULTS.contains(&e.name.as_str()) {
        return None;
    }
    let params: Vec<Num> = e
        .params
        .iter()
        .map(|t| Num::of(*t))
        .collect::<Option<_>>()?;
    let floats = params.iter().filter(|p| p.is_float()).count();
    if floats > FLOAT_REGS || params.len() - floats > INT_REGS {
        return None;
    }
    let addr = math_library_symbol(&e.name)?;
    let mut r = registry().lock().unwrap_or_else(|p| p.into_inner());
    if let Some(i) = r.iter().position(|f| {
        f.name == e.name && f.ret == ret && f.params == params && f.long_in_32_bits == long_result
    }) {
        return Some(i as HostFnId);
    }
    r.push(Box::leak(Box::new(HostFn {
        name: e.name.clone(),
        ret,
        params,
        addr,
        long_in_32_bits: long_result,
    })));
    Some((r.len() - 1) as HostFnId)
}

pub fn get(id: HostFnId) -> &'static HostFn {
    registry().lock().unwrap_or_else(|p| p.into_inner())[id as usize]
}

/// Whether a library of the host (the C library, the math library) defines `name`: an
/// external function the program calls without a model is the library's, or else the
/// project's, not given (another file).
pub fn host_defines(name: &str) -> bool {
    let Ok(c) = std::ffi::CString::new(name) else {
        return false;
    };
    !unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) }.is_null()
}

/// The address of `name` when the math library (`libm.so*`) defines it.
fn math_library_symbol(name: &str) -> Option<usize> {
    let c = std::ffi::CString::new(name).ok()?;
    let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) };
    if sym.is_null() {
        return None;
    }
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    if unsafe { libc::dladdr(sym, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    let file = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy();
    let base = file.rsplit('/').next().unwrap_or("");
    (base.starts_with("libm.") || base.starts_with("libm-")).then_some(sym as usize)
}

/// Functions whose results are exact or correctly rounded by definition: every build of the
/// library computes the same bits.
#[rustfmt::skip]
const EXACT: &[&str] = &[
    "fdim", "fma", "remainder", "nextafter", "scalbn", "scalbln", "logb", "ilogb", "lrint",
    "llrint", "lround", "llround",
];

/// Every signature within the register counts, as one pointer type (`INT_REGS` integers, then
/// `FLOAT_REGS` floats).
#[rustfmt::skip]
type RegisterCall<R> = unsafe extern "C" fn(
    i64, i64, i64, i64, i64, i64, f64, f64, f64, f64, f64, f64, f64, f64,
) -> R;

/// Calls the function at `addr` with the registers `i` and `x`.
///
/// # Safety
/// `addr` must be a non-variadic C function whose parameters fit the registers and whose
/// result is an `R` (`lookup`).
unsafe fn call_with_registers<R>(addr: usize, i: &[i64; INT_REGS], x: &[f64; FLOAT_REGS]) -> R {
    let f: RegisterCall<R> = unsafe { std::mem::transmute(addr) };
    unsafe {
        f(
            i[0], i[1], i[2], i[3], i[4], i[5], x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
        )
    }
}

impl HostFn {
    /// Exact or correctly rounded by definition (`EXACT`, and their `f` variants).
    pub fn same_in_every_build(&self) -> bool {
        let base = self.name.strip_suffix('f').unwrap_or(&self.name);
        EXACT.contains(&self.name.as_str()) || EXACT.contains(&base)
    }

    /// The result's bits for arguments given as bits (integers in the low bits, floats as their
    /// IEEE bits), and the `errno` the call set, if it set one.
    pub fn call(&self, args: &[u64]) -> (u64, Option<i32>) {
        let (mut i, mut x) = ([0i64; INT_REGS], [0f64; FLOAT_REGS]);
        let (mut ni, mut nf) = (0, 0);
        for (p, a) in self
            .params
            .iter()
            .zip(args.iter().chain(std::iter::repeat(&0)))
        {
            match p {
                Num::I32 => i[ni] = *a as u32 as i32 as i64,
                Num::I64 => i[ni] = *a as i64,
                // A float's bits in the low half of its register, as the callee reads it.
                Num::F32 => x[nf] = f64::from_bits(*a & 0xffff_ffff),
                Num::F64 => x[nf] = f64::from_bits(*a),
            }
            if p.is_float() {
                nf += 1;
            } else {
                ni += 1;
            }
        }
        // SAFETY: `addr` is a function of the math library with this numeric, non-variadic
        // signature (`lookup`); the extra registers passed are ignored by the callee.
        let r = unsafe {
            *libc::__errno_location() = 0;
            if self.ret.is_float() {
                call_with_registers::<f64>(self.addr, &i, &x).to_bits()
            } else {
                call_with_registers::<u64>(self.addr, &i, &x)
            }
        };
        let errno = unsafe { *libc::__errno_location() };
        let r = if self.long_in_32_bits {
            i32::try_from(r as i64).unwrap_or(i32::MIN) as u32 as u64
        } else if self.ret.bits() == 32 {
            r & 0xffff_ffff
        } else {
            r
        };
        (r, (errno != 0).then_some(errno))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup_lp64(e: &Extern) -> Option<HostFnId> {
        lookup(e, DataModel::LP64)
    }

    fn ext(name: &str, ret: Ty, params: &[Ty]) -> Extern {
        Extern {
            name: name.into(),
            ret,
            params: params.to_vec(),
            is_var_arg: false,
        }
    }

    #[test]
    fn math_library_functions_run_with_their_values() {
        let erf = get(lookup_lp64(&ext("erf", Ty::F64, &[Ty::F64])).unwrap());
        let (r, _) = erf.call(&[1.0f64.to_bits()]);
        assert!((f64::from_bits(r) - 0.8427007929497149).abs() < 1e-15);
        let erff = get(lookup_lp64(&ext("erff", Ty::F32, &[Ty::F32])).unwrap());
        let (r, _) = erff.call(&[(1.0f32).to_bits() as u64]);
        assert!((f32::from_bits(r as u32) - 0.842_700_8).abs() < 1e-6);
        // Integer and float arguments mixed, and an integer result.
        let scalbn = get(lookup_lp64(&ext("scalbn", Ty::F64, &[Ty::F64, Ty::Int(32)])).unwrap());
        let (r, _) = scalbn.call(&[1.5f64.to_bits(), (-2i32) as u32 as u64]);
        assert_eq!(f64::from_bits(r), 0.375);
        let ilogb = get(lookup_lp64(&ext("ilogb", Ty::Int(32), &[Ty::F64])).unwrap());
        assert_eq!(ilogb.call(&[1500.0f64.to_bits()]).0, 10);
        let fma = get(lookup_lp64(&ext("fma", Ty::F64, &[Ty::F64, Ty::F64, Ty::F64])).unwrap());
        let (r, _) = fma.call(&[2.0f64.to_bits(), 3.0f64.to_bits(), 1.0f64.to_bits()]);
        assert_eq!(f64::from_bits(r), 7.0);
        // A domain error sets errno, as natively.
        let acosh = get(lookup_lp64(&ext("acosh", Ty::F64, &[Ty::F64])).unwrap());
        let (r, errno) = acosh.call(&[0.0f64.to_bits()]);
        assert!(f64::from_bits(r).is_nan());
        assert_eq!(errno, Some(libc::EDOM));
    }

    #[test]
    fn only_the_math_library_qualifies() {
        // Numeric signatures of libc functions that are not pure.
        assert!(lookup_lp64(&ext("sleep", Ty::Int(32), &[Ty::Int(32)])).is_none());
        assert!(lookup_lp64(&ext("close", Ty::Int(32), &[Ty::Int(32)])).is_none());
        assert!(lookup_lp64(&ext("fesetround", Ty::Int(32), &[Ty::Int(32)])).is_none());
        assert!(lookup_lp64(&ext("no_such_function", Ty::F64, &[Ty::F64])).is_none());
        // A pointer parameter does not qualify.
        assert!(lookup_lp64(&ext("nan", Ty::F64, &[Ty::Ptr])).is_none());
        // A 32-bit program's `long` is not the host's.
        let lrint = ext("lrint", Ty::Int(32), &[Ty::F64]);
        assert!(lookup(&ext("__signbit", Ty::Int(32), &[Ty::F64]), DataModel::ILP32).is_none());
        let ilogb32 =
            get(lookup(&ext("ilogb", Ty::Int(32), &[Ty::F64]), DataModel::ILP32).unwrap());
        assert_eq!(ilogb32.call(&[0f64.to_bits()]).0 as u32, 0x8000_0000);
        let lrint32 = get(lookup(&lrint, DataModel::ILP32).unwrap());
        assert_eq!(
            lrint32.call(&[(-2.5f64).to_bits()]).0,
            (-2i32) as u32 as u64
        );
        assert_eq!(lrint32.call(&[1e10f64.to_bits()]).0, 0x8000_0000);
        assert!(lookup(&ext("erf", Ty::F64, &[Ty::F64]), DataModel::ILP32).is_some());
        // The same function twice is one entry.
        let a = lookup_lp64(&ext("erfc", Ty::F64, &[Ty::F64]));
        assert_eq!(a, lookup_lp64(&ext("erfc", Ty::F64, &[Ty::F64])));
    }
}
