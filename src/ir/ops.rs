//! Concrete semantics of IR operations, exactly as the x86 code clang emits at -O0 computes them
//! (including what LLVM calls poison: oversized shifts, out-of-range float→int conversions).

use super::{BinOp, CastOp, FBinOp, FPred, IPred, Inst, Reg, Ty};

#[inline(always)]
pub fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 { v } else { v & ((1u64 << w) - 1) }
}

#[inline(always)]
pub fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 || w == 0 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithFault {
    DivByZero,
    /// INT_MIN / -1 traps on x86 (SIGFPE).
    DivOverflow,
}

#[inline(always)]
pub fn bin(op: BinOp, w: u8, a: u64, b: u64) -> Result<u64, ArithFault> {
    let w = w as u32;
    Ok(match op {
        BinOp::Add => mask(a.wrapping_add(b), w),
        BinOp::Sub => mask(a.wrapping_sub(b), w),
        BinOp::Mul => mask(a.wrapping_mul(b), w),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::UDiv => {
            if b == 0 {
                return Err(ArithFault::DivByZero);
            }
            a / b
        }
        BinOp::URem => {
            if b == 0 {
                return Err(ArithFault::DivByZero);
            }
            a % b
        }
        BinOp::SDiv | BinOp::SRem => {
            if b == 0 {
                return Err(ArithFault::DivByZero);
            }
            let (x, y) = (sext(a, w), sext(b, w));
            if y == -1 && x == sext(1u64 << (w - 1), w) && w >= 32 {
                return Err(ArithFault::DivOverflow);
            }
            let r = if op == BinOp::SDiv {
                x.wrapping_div(y)
            } else {
                x.wrapping_rem(y)
            };
            mask(r as u64, w)
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            // x86 masks the count to 5 bits (6 for 64-bit operands).
            let amt = (b & if w > 32 { 63 } else { 31 }) as u32;
            match op {
                BinOp::Shl => {
                    if amt >= w {
                        0
                    } else {
                        mask(a << amt, w)
                    }
                }
                BinOp::LShr => {
                    if amt >= w {
                        0
                    } else {
                        a >> amt
                    }
                }
                _ => {
                    let s = sext(a, w);
                    mask((s >> amt.min(63)) as u64, w)
                }
            }
        }
    })
}

#[inline(always)]
pub fn icmp(p: IPred, w: u8, a: u64, b: u64) -> bool {
    let w = w as u32;
    match p {
        IPred::Eq => a == b,
        IPred::Ne => a != b,
        IPred::Ugt => a > b,
        IPred::Uge => a >= b,
        IPred::Ult => a < b,
        IPred::Ule => a <= b,
        IPred::Sgt => sext(a, w) > sext(b, w),
        IPred::Sge => sext(a, w) >= sext(b, w),
        IPred::Slt => sext(a, w) < sext(b, w),
        IPred::Sle => sext(a, w) <= sext(b, w),
    }
}

#[inline(always)]
pub fn f64_of(ty: Ty, v: u64) -> f64 {
    if ty == Ty::F32 {
        f32::from_bits(v as u32) as f64
    } else {
        f64::from_bits(v)
    }
}

pub fn fbin(op: FBinOp, ty: Ty, a: u64, b: u64) -> u64 {
    if ty == Ty::F32 {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        let r = match op {
            FBinOp::Add => x + y,
            FBinOp::Sub => x - y,
            FBinOp::Mul => x * y,
            FBinOp::Div => x / y,
            FBinOp::Rem => x % y,
        };
        r.to_bits() as u64
    } else {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let r = match op {
            FBinOp::Add => x + y,
            FBinOp::Sub => x - y,
            FBinOp::Mul => x * y,
            FBinOp::Div => x / y,
            FBinOp::Rem => x % y,
        };
        r.to_bits()
    }
}

pub fn fcmp(p: FPred, ty: Ty, a: u64, b: u64) -> bool {
    let (x, y) = (f64_of(ty, a), f64_of(ty, b));
    let uno = x.is_nan() || y.is_nan();
    match p {
        FPred::False => false,
        FPred::True => true,
        FPred::Oeq => !uno && x == y,
        FPred::Ogt => !uno && x > y,
        FPred::Oge => !uno && x >= y,
        FPred::Olt => !uno && x < y,
        FPred::Ole => !uno && x <= y,
        FPred::One => !uno && x != y,
        FPred::Ord => !uno,
        FPred::Uno => uno,
        FPred::Ueq => uno || x == y,
        FPred::Ugt => uno || x > y,
        FPred::Uge => uno || x >= y,
        FPred::Ult => uno || x < y,
        FPred::Ule => uno || x <= y,
        FPred::Une => uno || x != y,
    }
}

/// cvttsd2si: truncation, or the "integer indefinite" value when out of range or NaN.
fn cvtt(x: f64, bits: u32) -> u64 {
    let (lo, hi) = if bits == 64 {
        (-9223372036854775808.0, 9223372036854775808.0)
    } else {
        (-2147483648.0, 2147483648.0)
    };
    if x.is_nan() || x < lo || x >= hi {
        if x.trunc() == lo {
            return mask(lo as i64 as u64, bits);
        }
        return 1u64 << (bits - 1);
    }
    mask(x.trunc() as i64 as u64, bits)
}

pub fn cast(op: CastOp, from: Ty, to: Ty, a: u64, ptr_bits: u32) -> u64 {
    let fw = from.bits_with(ptr_bits);
    let tw = to.bits_with(ptr_bits);
    match op {
        CastOp::Trunc => mask(a, tw),
        CastOp::ZExt | CastOp::Bits => a,
        CastOp::SExt => mask(sext(a, fw) as u64, tw),
        CastOp::FpTrunc => (f64::from_bits(a) as f32).to_bits() as u64,
        CastOp::FpExt => (f32::from_bits(a as u32) as f64).to_bits(),
        CastOp::FpToSi => {
            let x = f64_of(from, a);
            if tw == 64 {
                cvtt(x, 64)
            } else {
                mask(cvtt(x, 32), tw)
            }
        }
        CastOp::FpToUi => {
            let x = f64_of(from, a);
            if tw == 64 {
                if x >= 9223372036854775808.0 {
                    cvtt(x - 9223372036854775808.0, 64) ^ (1u64 << 63)
                } else {
                    cvtt(x, 64)
                }
            } else if tw == 32 {
                mask(cvtt(x, 64), 32)
            } else {
                mask(cvtt(x, 32), tw)
            }
        }
        CastOp::UiToFp => {
            let v = mask(a, fw);
            if to == Ty::F32 {
                (v as f32).to_bits() as u64
            } else {
                (v as f64).to_bits()
            }
        }
        CastOp::SiToFp => {
            let v = sext(a, fw);
            if to == Ty::F32 {
                (v as f32).to_bits() as u64
            } else {
                (v as f64).to_bits()
            }
        }
    }
}

impl Ty {
    #[inline(always)]
    pub fn bits_with(self, ptr_bits: u32) -> u32 {
        match self {
            Ty::Int(w) => w as u32,
            Ty::F32 => 32,
            Ty::F64 => 64,
            Ty::Ptr => ptr_bits,
            _ => 64,
        }
    }
}

/// An integer instruction without effects (arithmetic, comparison, integer cast, select) on
/// operands `val` may know: its destination and value (None when an operand is unknown or the
/// arithmetic faults); None for any other instruction. Static evaluators (constant definitions,
/// the shadow's prediction behind a flip) share it.
pub fn eval_int(
    inst: &Inst,
    val: &mut dyn FnMut(Reg) -> Option<u64>,
    ptr_bits: u32,
) -> Option<(Reg, Option<u64>)> {
    Some(match inst {
        Inst::Bin { op, w, dst, a, b } => {
            let x = val(*a).zip(val(*b));
            (*dst, x.and_then(|(x, y)| bin(*op, *w, x, y).ok()))
        }
        Inst::ICmp { pred, w, dst, a, b } => {
            let x = val(*a).zip(val(*b));
            (*dst, x.map(|(x, y)| icmp(*pred, *w, x, y) as u64))
        }
        Inst::Cast {
            op,
            from: from @ Ty::Int(_),
            to: to @ Ty::Int(_),
            dst,
            a,
        } => (*dst, val(*a).map(|x| cast(*op, *from, *to, x, ptr_bits))),
        Inst::Select {
            dst, cond, t, f, ..
        } => {
            let c = val(*cond);
            (*dst, c.and_then(|c| val(if c & 1 == 1 { *t } else { *f })))
        }
        _ => return None,
    })
}
