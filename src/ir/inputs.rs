//! The types of a program's inputs, named as its input calls name them.

use serde::{Deserialize, Serialize};

/// The C type of an input, named as in `__VERIFIER_nondet_<type>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Float,
    Double,
    Pointer,
    /// A `klee_make_symbolic` buffer.
    Bytes,
}

impl InputKind {
    /// Width in bits and signedness for integer kinds (`long` depends on the data model).
    pub fn int_info(self, long_bits: u32) -> Option<(u32, bool)> {
        use InputKind::*;
        Some(match self {
            Bool => (1, false),
            Char => (8, true),
            UChar => (8, false),
            Short => (16, true),
            UShort => (16, false),
            Int => (32, true),
            UInt => (32, false),
            Long => (long_bits, true),
            ULong | Pointer => (long_bits, false),
            LongLong => (64, true),
            ULongLong => (64, false),
            _ => return None,
        })
    }

    pub fn c_type(self) -> &'static str {
        use InputKind::*;
        match self {
            Bool => "_Bool",
            Char => "char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
            Float => "float",
            Double => "double",
            Pointer => "void *",
            Bytes => "bytes",
        }
    }

    pub fn name(self) -> &'static str {
        use InputKind::*;
        match self {
            Bool => "bool",
            Char => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            LongLong => "longlong",
            ULongLong => "ulonglong",
            Float => "float",
            Double => "double",
            Pointer => "pointer",
            Bytes => "bytes",
        }
    }

    /// The input kind of `__VERIFIER_nondet_<suffix>`.
    pub fn from_nondet_suffix(s: &str) -> Option<InputKind> {
        use InputKind::*;
        Some(match s {
            "bool" | "_Bool" => Bool,
            "char" => Char,
            "uchar" | "unsigned_char" => UChar,
            "short" => Short,
            "ushort" | "unsigned_short" => UShort,
            "int" => Int,
            "uint" | "unsigned" | "unsigned_int" | "u32" => UInt,
            "long" => Long,
            "ulong" | "unsigned_long" | "size_t" => ULong,
            "longlong" | "long_long" => LongLong,
            "ulonglong" | "unsigned_long_long" | "u64" => ULongLong,
            "float" => Float,
            "double" => Double,
            "pointer" => Pointer,
            "loff_t" => Long,
            "u8" => UChar,
            "u16" => UShort,
            "s8" => Char,
            "s16" => Short,
            "s32" => Int,
            _ => return None,
        })
    }
}
