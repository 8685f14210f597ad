//! Program inputs: the typed values returned by input calls, and where they come from.
//!
//! A test *is* the ordered sequence of input values a run consumed.

use rand::Rng;
use std::sync::Arc;

pub use crate::ir::inputs::InputKind;

/// One input value. Integers are kept as raw bits (zero-extended); floats as IEEE bits.
/// A number is 24 bytes and copied without a call: the fuzzer copies a corpus entry's values
/// for every mutant.
#[derive(Debug)]
pub struct InputValue {
    pub bits: u64,
    /// Width in bits of integer kinds (resolves `long`).
    pub width: u32,
    pub kind: InputKind,
    /// How the program read it (fits in the padding: a value stays 24 bytes).
    pub channel: Channel,
    /// A `klee_make_symbolic` buffer's contents and name, or the name of the unmodelled
    /// function whose result this is; shared between copies until one changes it.
    extra: Option<Arc<Extra>>,
}

/// How a run read an input value: tests show stdin's text apart from the other values (a run
/// that read stdin by characters only has that text as a file of its own), and the Test-Comp
/// files leave out what no `__VERIFIER_nondet_*` call reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Channel {
    /// An input call, a parameter, a buffer, an unmodelled function's result.
    #[default]
    Call,
    /// A character of stdin (`getchar`, `fgets`, `fread`...): 0..=255, or -1 at its end.
    Stdin,
    /// What a `scanf` on stdin read: where it stops, or a conversion's value.
    Scanf,
    /// The block of a pointer made up for a function not given (`libc::made_up_pointer`).
    MadeUp,
    /// Whether a pointer parameter of a unit-mode entry is NULL (1) or its buffer (0): a
    /// choice concolic search makes where the function compares it with null, never a
    /// fuzzer's (see `InputSource::next_null_flag`).
    Null,
}

impl Channel {
    /// The name tests give it (`"from"`), if not an input call.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Channel::Call | Channel::MadeUp | Channel::Null => None,
            Channel::Stdin => Some("stdin"),
            Channel::Scanf => Some("scanf"),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Extra {
    bytes: Vec<u8>,
    /// Shared: a mutated copy's bytes are its own, its name need not be.
    name: Arc<str>,
    /// A lazily linked pointer's place (`exec::links`): the index of the value holding the
    /// block it is in, and its offset there.
    link: Option<(u32, u32)>,
}

impl Clone for InputValue {
    fn clone(&self) -> InputValue {
        InputValue {
            extra: self.extra.clone(),
            ..*self
        }
    }

    /// A copy of its own made before (a fuzzer's batch reuses its buffers) takes the bytes in
    /// its own allocation: the fuzzer's next mutation then need not allocate one, and the
    /// last batch's need not be freed, for every run.
    fn clone_from(&mut self, o: &InputValue) {
        (self.bits, self.width, self.kind, self.channel) = (o.bits, o.width, o.kind, o.channel);
        match (self.extra.as_mut().and_then(Arc::get_mut), &o.extra) {
            (Some(mine), Some(theirs)) => mine.clone_from(theirs),
            _ => self.extra.clone_from(&o.extra),
        }
    }
}

impl PartialEq for InputValue {
    fn eq(&self, o: &InputValue) -> bool {
        (self.kind, self.bits, self.width, self.channel) == (o.kind, o.bits, o.width, o.channel)
            && self.bytes() == o.bytes()
            && self.name() == o.name()
            && self.link() == o.link()
    }
}

impl Eq for InputValue {}

impl std::hash::Hash for InputValue {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let v = (self.kind, self.bits, self.width, self.channel);
        (v, self.bytes(), self.name()).hash(h);
    }
}

impl InputValue {
    /// A buffer's contents (empty for numbers).
    pub fn bytes(&self) -> &[u8] {
        self.extra.as_ref().map_or(&[], |e| &e.bytes)
    }

    /// The buffer's name; for the result of an unmodelled external function, the function's.
    pub fn name(&self) -> &str {
        self.extra.as_ref().map_or("", |e| &e.name)
    }

    /// The contents to change (a copy of them if another value shares them).
    pub fn bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut Arc::make_mut(self.extra.get_or_insert_default()).bytes
    }

    /// The same input with other bits.
    pub fn with_bits(&self, bits: u64) -> InputValue {
        InputValue {
            bits,
            ..self.clone()
        }
    }

    pub fn set_bytes(&mut self, bytes: Vec<u8>) {
        *self.bytes_mut() = bytes;
    }

    /// Where a lazily linked pointer goes (`exec::links`): the index of the value whose block
    /// holds it, and its offset there.
    pub fn link(&self) -> Option<(u32, u32)> {
        self.extra.as_ref().and_then(|e| e.link)
    }

    pub fn set_link(&mut self, parent: u32, offset: u32) {
        if self.link() != Some((parent, offset)) {
            Arc::make_mut(self.extra.get_or_insert_default()).link = Some((parent, offset));
        }
    }

    pub fn set_name(&mut self, name: &str) {
        if name != self.name() {
            Arc::make_mut(self.extra.get_or_insert_default()).name = name.into();
        }
    }

    /// A `klee_make_symbolic` buffer.
    pub fn buffer(name: &str, bytes: Vec<u8>) -> InputValue {
        InputValue {
            kind: InputKind::Bytes,
            bits: 0,
            width: 0,
            channel: Channel::Call,
            extra: Some(Arc::new(Extra {
                bytes,
                name: name.into(),
                link: None,
            })),
        }
    }

    /// The result of an unmodelled external function (not an input call of the program).
    pub fn is_extern_result(&self) -> bool {
        (self.kind != InputKind::Bytes && !self.name().is_empty())
            || self.channel == Channel::MadeUp
    }

    pub fn int(kind: InputKind, width: u32, bits: u64) -> InputValue {
        InputValue {
            kind,
            bits: crate::ir::ops::mask(bits, width),
            width,
            channel: Channel::Call,
            extra: None,
        }
    }

    /// Decimal for integers, C hex-float for floating values, hex for byte buffers.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        self.write_text(&mut s);
        s
    }

    /// An integer's 64 bits: sign-extended for signed kinds, as C widens it to `long long`.
    pub fn word(&self) -> u64 {
        match self.kind.int_info(64).is_some_and(|i| i.1) {
            true => crate::ir::ops::sext(self.bits, self.width) as u64,
            false => self.bits,
        }
    }

    /// Appends `to_text` to `out`.
    pub fn write_text(&self, out: &mut String) {
        use std::fmt::Write;
        let _ = match self.kind {
            InputKind::Float => {
                write!(out, "{}", hexfloat(f32::from_bits(self.bits as u32) as f64))
            }
            InputKind::Double => write!(out, "{}", hexfloat(f64::from_bits(self.bits))),
            InputKind::Bytes => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                for b in self.bytes() {
                    out.push(HEX[(b >> 4) as usize] as char);
                    out.push(HEX[(b & 15) as usize] as char);
                }
                Ok(())
            }
            k => match k.int_info(64).is_some_and(|i| i.1) {
                true => write!(out, "{}", self.word() as i64),
                false => write!(out, "{}", self.bits),
            },
        };
    }

    /// Parses a textual value for an input of `kind` (decimal, 0x-hex, hex-float, or hex bytes).
    pub fn parse(kind: InputKind, width: u32, text: &str) -> Result<InputValue, String> {
        let t = text.trim();
        match kind {
            InputKind::Float | InputKind::Double => {
                let v = parse_float(t).ok_or_else(|| format!("`{t}` is not a floating value"))?;
                let bits = if kind == InputKind::Float {
                    (v as f32).to_bits() as u64
                } else {
                    v.to_bits()
                };
                Ok(InputValue {
                    kind,
                    bits,
                    width: if kind == InputKind::Float { 32 } else { 64 },
                    channel: Channel::Call,
                    extra: None,
                })
            }
            InputKind::Bytes => {
                let t = t.trim_start_matches("0x");
                if !t.len().is_multiple_of(2) {
                    return Err(format!("`{t}` is not a hex byte string"));
                }
                let bytes = (0..t.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&t[i..i + 2], 16))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| e.to_string())?;
                Ok(InputValue::buffer("", bytes))
            }
            _ => {
                let bits = parse_int(t).ok_or_else(|| format!("`{t}` is not an integer"))?;
                Ok(InputValue::int(kind, width, bits))
            }
        }
    }
}

pub fn parse_int(t: &str) -> Option<u64> {
    let t = t.trim().trim_end_matches(['u', 'U', 'l', 'L']);
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()?
    } else if body == "true" {
        1
    } else if body == "false" {
        0
    } else if body.starts_with('\'') && body.ends_with('\'') && body.len() == 3 {
        body.as_bytes()[1] as u64
    } else {
        body.parse::<u64>().ok()?
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

pub fn parse_float(t: &str) -> Option<f64> {
    let c = std::ffi::CString::new(t).ok()?;
    let mut end: *mut libc::c_char = std::ptr::null_mut();
    let v = unsafe { libc::strtod(c.as_ptr(), &mut end) };
    let used = unsafe { end.offset_from(c.as_ptr()) } as usize;
    let rest = t[used.min(t.len())..].trim_end_matches(['f', 'F', 'l', 'L']);
    if used == 0 || !rest.trim().is_empty() {
        return None;
    }
    Some(v)
}

/// `%a` formatting as C's printf does it (exact, round-trippable).
pub fn hexfloat(v: f64) -> String {
    let mut buf = [0u8; 64];
    let n = unsafe { libc::snprintf(buf.as_mut_ptr() as *mut libc::c_char, 64, c"%a".as_ptr(), v) };
    String::from_utf8_lossy(&buf[..n as usize]).into_owned()
}

/// Where input values come from during a run.
pub trait InputSource {
    /// The next value for an input call of `kind` (`width` bits for integers, `len` bytes for buffers).
    fn next(&mut self, kind: InputKind, width: u32, len: usize) -> InputValue;

    /// The next character of stdin: an int, 0..=255 or -1 at the end of input. Sources that
    /// draw values at random draw text here; the others read it as any int input.
    fn next_char(&mut self) -> InputValue {
        self.next(InputKind::Int, 32, 0)
    }

    /// Whether the next pointer parameter is NULL (`Channel::Null`): a bool, 1 for NULL.
    /// Sources that draw values at random never draw NULL: a function that does not say what
    /// it does with a null argument is not called with one (its dereference would be a fault
    /// of the caller's), and one that does gets it from concolic search flipping its test.
    fn next_null_flag(&mut self) -> InputValue {
        self.next(InputKind::Bool, 1, 0)
    }
}

/// Replays a fixed sequence of values; past its end every input is zero, and stdin is at its
/// end.
pub struct Replay {
    pub values: Vec<String>,
    pub pos: usize,
    pub errors: Vec<String>,
}

impl Replay {
    pub fn new(values: Vec<String>) -> Replay {
        Replay {
            values,
            pos: 0,
            errors: vec![],
        }
    }
}

impl InputSource for Replay {
    /// Past the values, stdin is at its end (a loop reading lines ends, as the harness's).
    fn next_char(&mut self) -> InputValue {
        if self.pos >= self.values.len() {
            self.pos += 1;
            return InputValue::int(InputKind::Int, 32, u32::MAX as u64);
        }
        self.next(InputKind::Int, 32, 0)
    }

    fn next(&mut self, kind: InputKind, width: u32, len: usize) -> InputValue {
        let text = self.values.get(self.pos).cloned();
        self.pos += 1;
        let v = match text {
            Some(t) => match InputValue::parse(kind, width, &t) {
                Ok(v) => v,
                Err(e) => {
                    self.errors.push(format!("input {}: {e}", self.pos));
                    zero(kind, width, len)
                }
            },
            None => zero(kind, width, len),
        };
        fit_len(v, len)
    }
}

fn fit_len(mut v: InputValue, len: usize) -> InputValue {
    if v.kind == InputKind::Bytes {
        v.bytes_mut().resize(len, 0);
    }
    v
}

pub fn zero(kind: InputKind, width: u32, len: usize) -> InputValue {
    match kind {
        InputKind::Bytes => InputValue::buffer("", vec![0; len]),
        _ => InputValue::int(kind, width, 0),
    }
}

/// Random values biased towards small magnitudes and boundary values, which is where branches
/// of real programs tend to split.
pub struct RandomInputs<R: Rng> {
    pub rng: R,
}

impl<R: Rng> RandomInputs<R> {
    /// A buffer's bytes drawn afresh. A buffer of whole words is mostly integers
    /// (`klee_make_symbolic(&n, ...)`): each word drawn as one, small more often than not, as
    /// scalar inputs are.
    pub fn fill(&mut self, b: &mut [u8]) {
        if b.len().is_multiple_of(4) && self.rng.gen_bool(0.75) {
            for w in b.chunks_mut(4) {
                w.copy_from_slice(&(self.int(32) as u32).to_le_bytes());
            }
        } else {
            for x in b.iter_mut() {
                *x = self.int(8) as u8;
            }
        }
    }

    fn int(&mut self, width: u32) -> u64 {
        let r = &mut self.rng;
        let v: u64 = match r.gen_range(0..10) {
            0..=3 => r.gen_range(0..=16),
            4 => (r.gen_range(0..=16) as u64).wrapping_neg(),
            5 => [
                0,
                1,
                u64::MAX,
                1u64 << (width.max(1) - 1),
                (1u64 << (width.max(1) - 1)).wrapping_sub(1),
            ][r.gen_range(0..5)],
            6 => r.gen_range(0..=255),
            7 => r.gen_range(32..127),
            _ => r.r#gen(),
        };
        crate::ir::ops::mask(v, width)
    }
}

impl<R: Rng> InputSource for RandomInputs<R> {
    /// Text: lines of words and numbers, the end of input rare. Drawn as any int, a character
    /// ended a line 2% of the time and the input 2%: a random line mostly ran into the end of
    /// input before its newline, and nothing the program reads after a line (tot_info's table
    /// after its header line) was reached without first flipping one of the line's characters
    /// to a newline.
    fn next_char(&mut self) -> InputValue {
        let r = &mut self.rng;
        let c: i64 = match r.gen_range(0..100) {
            0..=1 => -1,
            2..=9 => b'\n' as i64,
            10..=17 => b' ' as i64,
            18..=35 => r.gen_range(b'0'..=b'9') as i64,
            36..=85 => r.gen_range(33..127),
            _ => r.gen_range(0..=255),
        };
        InputValue::int(InputKind::Int, 32, crate::ir::ops::mask(c as u64, 32))
    }

    fn next_null_flag(&mut self) -> InputValue {
        InputValue::int(InputKind::Bool, 1, 0)
    }

    fn next(&mut self, kind: InputKind, width: u32, len: usize) -> InputValue {
        match kind {
            InputKind::Float | InputKind::Double => {
                let r = &mut self.rng;
                let v: f64 = match r.gen_range(0..6) {
                    0 => r.gen_range(-10..=10) as f64,
                    1 => r.gen_range(-1.0..1.0),
                    2 => r.gen_range(-1e6..1e6),
                    3 => [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 0.5]
                        [r.gen_range(0..6)],
                    _ => f64::from_bits(r.r#gen()),
                };
                let bits = if kind == InputKind::Float {
                    (v as f32).to_bits() as u64
                } else {
                    v.to_bits()
                };
                InputValue {
                    kind,
                    bits,
                    width,
                    channel: Channel::Call,
                    extra: None,
                }
            }
            InputKind::Bytes => {
                let mut b = vec![0u8; len];
                self.fill(&mut b);
                InputValue::buffer("", b)
            }
            _ => {
                let bits = self.int(width);
                InputValue::int(kind, width, bits)
            }
        }
    }
}

/// Replays typed values (the inputs of an earlier run, updated by a solver model); when the
/// program asks for more inputs than there are, or for an input of another kind, it draws
/// random ones.
pub struct Seeded<R: Rng> {
    pub values: Vec<InputValue>,
    pub pos: usize,
    pub fallback: RandomInputs<R>,
}

impl<R: Rng> Seeded<R> {
    /// The seed's next value as `kind` of `width` bits; past the seed, the fallback's own
    /// draw (`draw`: text for stdin, never NULL for a parameter).
    fn seeded_or(
        &mut self,
        kind: InputKind,
        width: u32,
        draw: impl FnOnce(&mut RandomInputs<R>) -> InputValue,
    ) -> InputValue {
        if self.pos < self.values.len() {
            return self.next(kind, width, 0);
        }
        self.pos += 1;
        draw(&mut self.fallback)
    }
}

impl<R: Rng> InputSource for Seeded<R> {
    fn next_char(&mut self) -> InputValue {
        self.seeded_or(InputKind::Int, 32, |r| r.next_char())
    }

    fn next_null_flag(&mut self) -> InputValue {
        self.seeded_or(InputKind::Bool, 1, |r| r.next_null_flag())
    }

    fn next(&mut self, kind: InputKind, width: u32, len: usize) -> InputValue {
        let v = self.values.get(self.pos).cloned();
        self.pos += 1;
        match v {
            Some(mut v)
                if v.kind == kind && (kind != InputKind::Bytes || v.bytes().len() == len) =>
            {
                // The caller names the value if it is an external function's result.
                if kind != InputKind::Bytes {
                    v.extra = None;
                }
                v
            }
            Some(v)
                if v.kind != InputKind::Bytes
                    && kind != InputKind::Bytes
                    && kind.int_info(64).is_some()
                    && v.kind.int_info(64).is_some() =>
            {
                InputValue::int(kind, width, v.bits)
            }
            _ => self.fallback.next(kind, width, len),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch's copy reused for the next mutant holds the new entry's value and name, and
    /// its mutation leaves the entry (and a copy sharing the entry's bytes) as they were.
    #[test]
    fn a_reused_copy_takes_the_value_and_leaves_the_original() {
        let (a, b) = (
            InputValue::buffer("a", vec![1, 2, 3]),
            InputValue::buffer("b", vec![9]),
        );
        let mut copy = a.clone();
        copy.bytes_mut()[0] = 7;
        let shared = b.clone();
        copy.clone_from(&b);
        assert_eq!(copy, b);
        assert_eq!((copy.bytes(), copy.name()), (&[9u8][..], "b"));
        copy.bytes_mut().push(4);
        assert_eq!(
            (b.bytes(), shared.bytes(), a.bytes()),
            (&[9u8][..], &[9u8][..], &[1u8, 2, 3][..])
        );
        copy.clone_from(&InputValue::int(InputKind::Int, 32, 5));
        assert_eq!((copy.bits, copy.bytes(), copy.name()), (5, &[][..], ""));
    }

    #[test]
    fn integers_are_spelled_by_their_kind_signedness() {
        let text = |k, w, bits| InputValue::int(k, w, bits).to_text();
        assert_eq!(text(InputKind::Char, 8, 0xff), "-1");
        assert_eq!(text(InputKind::UChar, 8, 0xff), "255");
        assert_eq!(text(InputKind::Int, 32, 0x8000_0000), "-2147483648");
        assert_eq!(text(InputKind::UInt, 32, u32::MAX as u64), "4294967295");
        assert_eq!(
            text(InputKind::LongLong, 64, i64::MIN as u64),
            i64::MIN.to_string()
        );
        assert_eq!(
            text(InputKind::ULongLong, 64, u64::MAX),
            u64::MAX.to_string()
        );
    }
}
