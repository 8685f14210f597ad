//! The floating-point rounding mode a program sets with `fesetround`.
//!
//! The interpreter computes a float operation with the host's own instruction or C library
//! function, so under a mode other than to-nearest it sets the host's mode around that one
//! operation (`Rounding::scope`): SSE and the x87 round as the program's do natively, and the
//! C library's functions (`rint`, `sqrt`, `printf`'s digits) read the mode as they do there.

use std::ffi::c_int;

/// C's rounding modes, by their x86 `FE_*` values (glibc, x86-64 and i386 alike).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rounding {
    #[default]
    ToNearest,
    Downward,
    Upward,
    TowardZero,
}

unsafe extern "C" {
    fn fesetround(mode: c_int) -> c_int;
}

impl Rounding {
    /// The mode of an `FE_*` value, or `None` for a value that names none (glibc refuses it).
    pub fn of_fe(mode: i64) -> Option<Rounding> {
        Some(match mode {
            0 => Rounding::ToNearest,
            0x400 => Rounding::Downward,
            0x800 => Rounding::Upward,
            0xc00 => Rounding::TowardZero,
            _ => return None,
        })
    }

    /// Its `FE_*` value (what `fegetround` returns).
    pub fn fe(self) -> i64 {
        match self {
            Rounding::ToNearest => 0,
            Rounding::Downward => 0x400,
            Rounding::Upward => 0x800,
            Rounding::TowardZero => 0xc00,
        }
    }

    /// Runs `f` with the host rounding so. `f`'s operands must not be known to the compiler
    /// (it folds constants to nearest): pass them through `std::hint::black_box`.
    pub fn scope<R>(self, f: impl FnOnce() -> R) -> R {
        if self == Rounding::ToNearest {
            return f();
        }
        /// Back to nearest when `f` returns or unwinds: Cairn's own arithmetic, and the
        /// solver's, assume it.
        struct Restore;
        impl Drop for Restore {
            fn drop(&mut self) {
                unsafe { fesetround(0) };
            }
        }
        unsafe { fesetround(self.fe() as c_int) };
        let _restore = Restore;
        f()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    /// One third and its negation in each mode, the sign of an exact zero sum, and a
    /// conversion to float: what C's `fesetround` gives natively (IEEE 754's directed modes).
    #[test]
    fn each_mode_rounds_as_ieee_says() {
        let third = |r: Rounding| r.scope(|| black_box(1.0f64) / black_box(3.0));
        let down = third(Rounding::Downward);
        let up = third(Rounding::Upward);
        assert_eq!(up.to_bits(), down.to_bits() + 1);
        assert_eq!(third(Rounding::TowardZero), down);
        assert_eq!(third(Rounding::ToNearest), 1.0 / 3.0);
        let neg = Rounding::Upward.scope(|| black_box(-1.0f64) / black_box(3.0));
        assert_eq!(neg, -down);
        let zero = |r: Rounding| r.scope(|| black_box(0.5f64) - black_box(0.5));
        assert!(zero(Rounding::Downward).is_sign_negative());
        assert!(zero(Rounding::Upward).is_sign_positive());
        let f = |r: Rounding| r.scope(|| black_box(16_777_217i64) as f32);
        assert_eq!(f(Rounding::Upward), 16_777_218.0);
        assert_eq!(f(Rounding::Downward), 16_777_216.0);
        // The mode is back to nearest afterwards.
        assert_eq!(black_box(1.0f64) / black_box(3.0), 1.0 / 3.0);
        assert_eq!(Rounding::of_fe(0x800), Some(Rounding::Upward));
        assert_eq!(Rounding::of_fe(1), None);
    }
}
