//! AFL's havoc stage over Cairn's inputs: a run's inputs are a typed list (integers, floats,
//! byte buffers, stdin characters as ints), and a mutation changes one value or one stretch of
//! the list. Stdin is read a character per input, so inserting or deleting list entries is
//! inserting or deleting text; argv strings and `--sym-files` contents are byte buffers whose
//! length stays fixed (the harness gives each its size).

use crate::exec::input::{Channel, InputKind, InputSource, InputValue, RandomInputs};
use crate::ir::ops::{mask, sext};
use rand::Rng;
use rand::rngs::SmallRng;

/// Longest input list a mutation may build (a run reads its inputs in order, and longer lists
/// only slow the runs down).
pub const MAX_INPUTS: usize = 4096;

/// libFuzzer's length control: mutations grow an input only up to a limit that starts small
/// and grows (by its logarithm) while the fuzzer finds nothing new, so short inputs, whose
/// runs are fast and whose mutations hit what matters, are tried first. An input that is
/// already longer (a seed, or a run that read random values past its list) is not cut.
pub struct LengthLimit {
    limit: usize,
    /// Runs since the corpus last grew or the limit last did.
    stalled: u64,
}

/// The first limit, in values.
const FIRST_LENGTH_LIMIT: usize = 8;
/// Fruitless runs per unit of the limit's logarithm before it grows (libFuzzer's
/// `-len_control=100`).
const LENGTH_CONTROL: u64 = 100;

impl Default for LengthLimit {
    fn default() -> LengthLimit {
        LengthLimit {
            limit: FIRST_LENGTH_LIMIT,
            stalled: 0,
        }
    }
}

impl LengthLimit {
    pub fn get(&self) -> usize {
        self.limit
    }

    /// An input that joined the corpus from elsewhere: mutants of its length are fair.
    pub fn admit(&mut self, len: usize) {
        self.limit = self.limit.max(len).min(MAX_INPUTS);
    }

    /// After `runs` runs, of which some grew the corpus when `grew`.
    pub fn after(&mut self, runs: u64, grew: bool) {
        if grew {
            self.stalled = 0;
            return;
        }
        self.stalled += runs;
        let log = self.limit.ilog2().max(1) as usize;
        if self.stalled > LENGTH_CONTROL * log as u64 {
            self.limit = (self.limit + log).min(MAX_INPUTS);
            self.stalled = 0;
        }
    }
}

/// Values at which integer comparisons tend to split (AFL's interesting values, and a few
/// sizes C programs compare counts with).
const INTERESTING: [i64; 24] = [
    0, 1, -1, 2, 3, 4, 7, 8, 10, 16, 32, 64, 100, 127, 128, 255, 256, 512, 1000, 1024, 4096, 32767,
    -32768, 65535,
];

/// The mutation that inserts a character of text (`Havoc::apply`'s last arm; in a buffer
/// with a length parameter, `Havoc::edit_text`).
const TEXT_EDIT: u32 = 12;

/// Characters at which text parsers split: digits, signs, a decimal point, separators.
const TEXT: &[u8] = b"0123456789 \n\t-+.,:;";

/// What the program compares its input with: integer constants of its code and the words it
/// refers to (`analysis::words`).
pub struct Dictionary {
    pub ints: Vec<i64>,
    pub words: Vec<Vec<u8>>,
}

pub struct Havoc {
    pub dict: Dictionary,
    /// Unit mode's length parameters (`exec::length_params`; a parameter's position is its
    /// value's index). A mutant's length past its buffer would be no run: it gets one within.
    pub lengths: Vec<crate::exec::LengthParam>,
}

/// A stdin character (`getchar`'s result: 0..=255 or -1).
fn is_char(v: &InputValue) -> bool {
    v.kind == InputKind::Int && v.width == 32 && (v.bits <= 255 || v.bits == 0xffff_ffff)
}

fn char_value(c: i64) -> InputValue {
    InputValue::int(InputKind::Int, 32, mask(c as u64, 32))
}

impl Havoc {
    /// Applies 1, 2, 4 or 8 mutations to `v`; `other` is another corpus entry to splice from.
    /// The result is no longer than `limit` or `v` was.
    pub fn mutate(
        &self,
        rng: &mut SmallRng,
        v: &mut Vec<InputValue>,
        other: &[InputValue],
        limit: usize,
    ) {
        let longest = limit.max(v.len()).min(MAX_INPUTS);
        // Whether a unit's pointer parameter is NULL is concolic search's choice alone: the
        // flags sit at the same places in every run (the parameters are read first), so the
        // list's edits must neither move another value onto one nor cut the list before one
        // (the values past a mutant's end are random).
        let last_flag = v.iter().rposition(|x| x.channel == Channel::Null);
        let head: Vec<InputValue> = last_flag.map_or(vec![], |l| v[..=l].to_vec());
        let n = 1 << rng.gen_range(0..4);
        for _ in 0..n {
            self.mutate_once(rng, v, other);
        }
        v.truncate(longest);
        if v.len() < head.len() {
            v.extend_from_slice(&head[v.len()..]);
        }
        for (x, flag) in v.iter_mut().zip(&head) {
            if flag.channel == Channel::Null {
                x.clone_from(flag);
            }
        }
        for l in &self.lengths {
            if let Some(x) = v.get_mut(l.value)
                && x.kind != InputKind::Bytes
                && x.width > 0
                && !l.holds(x.bits, x.width)
            {
                x.bits = rng.gen_range(0..=l.max);
            }
        }
    }

    fn mutate_once(&self, rng: &mut SmallRng, v: &mut Vec<InputValue>, other: &[InputValue]) {
        if v.is_empty() {
            // Nothing read yet: the run draws fresh values past the list's end.
            return;
        }
        let i = rng.gen_range(0..v.len());
        let op = rng.gen_range(0..13);
        if v[i].channel == Channel::Null {
            // Whether a parameter is NULL is concolic search's choice (`next_null_flag`).
            return;
        }
        if op == TEXT_EDIT
            && v[i].kind == InputKind::Bytes
            && let Some(live) = self.read_bytes(v, i)
        {
            return self.edit_text(rng, v, i, live);
        }
        // A buffer's bytes past its length parameter's value (a fuzz target's `data` past
        // `size`) are read by no run: its byte mutations stay within that length. The list's
        // own edits (6..=9, see `apply`) leave the buffer's bytes as they are.
        let live = match v[i].kind == InputKind::Bytes && !(6..=9).contains(&op) {
            true => self.read_bytes(v, i).filter(|&n| n < v[i].bytes().len()),
            false => None,
        };
        let Some(live) = live else {
            return self.apply(rng, v, other, i, op);
        };
        let whole = v[i].bytes().to_vec();
        v[i].set_bytes(whole[..live.max(1)].to_vec());
        self.apply(rng, v, other, i, op);
        let mut mutated = std::mem::take(v[i].bytes_mut());
        mutated.extend_from_slice(&whole[mutated.len().min(whole.len())..]);
        v[i].set_bytes(mutated);
    }

    /// Text in buffer `i`, whose length parameter (next) says it holds `live` bytes (a fuzz
    /// target's `data, size`): a character inserted or deleted within them, what follows
    /// moving and the length following, as a line of stdin grows and shrinks. The character:
    /// one the program compares with (a printable constant of its dictionary) or a separator
    /// or digit.
    fn edit_text(&self, rng: &mut SmallRng, v: &mut [InputValue], i: usize, live: usize) {
        let len = v[i].bytes().len();
        let live = live.min(len);
        let grow = live == 0 || (live < len && rng.gen_bool(0.75));
        let b = v[i].bytes_mut();
        if grow {
            if live == len {
                return;
            }
            let compared: Vec<u8> = (self.dict.ints.iter())
                .filter(|&&x| (0x20..0x7f).contains(&x))
                .map(|&x| x as u8)
                .collect();
            let c = match pick(rng, &compared) {
                Some(&c) if rng.gen_bool(0.5) => c,
                _ => TEXT[rng.gen_range(0..TEXT.len())],
            };
            b.insert(rng.gen_range(0..=live), c);
            b.truncate(len);
        } else {
            b.remove(rng.gen_range(0..live));
            b.push(0);
        }
        let n = &mut v[i + 1];
        let live = if grow { live + 1 } else { live - 1 };
        n.bits = mask(live as u64, n.width);
    }

    /// The bytes of buffer `i` a run reads (`LengthParam::read_bytes`).
    fn read_bytes(&self, v: &[InputValue], i: usize) -> Option<usize> {
        crate::exec::LengthParam::read_bytes(&self.lengths, v, i)
    }

    /// Mutation `op` at value `i`: 6..=9 edit the list, the others the value.
    fn apply(
        &self,
        rng: &mut SmallRng,
        v: &mut Vec<InputValue>,
        other: &[InputValue],
        i: usize,
        op: u32,
    ) {
        match op {
            0 | 1 if is_char(&v[i]) => {
                // Stays a character (a byte; end of file becomes one).
                let c = v[i].bits as u8;
                let d = rng.gen_range(1..=35u8);
                let c = match rng.gen_range(0..3) {
                    0 => c ^ (1 << rng.gen_range(0..8)),
                    1 => c.wrapping_add(d),
                    _ => c.wrapping_sub(d),
                };
                v[i] = char_value(c as i64);
            }
            0 => flip_bit(rng, &mut v[i]),
            1 => add_small(rng, &mut v[i]),
            2 => self.interesting(rng, &mut v[i]),
            3 => fresh(rng, &mut v[i]),
            4 => self.dictionary_int(rng, v, i),
            5 => self.word(rng, v, i),
            6 => {
                let k = rng.gen_range(1..=8).min(v.len() - i);
                v.drain(i..i + k);
            }
            7 => {
                // A stretch of this entry or of the other, inserted here (repeats a command
                // line, a record).
                let src = this_or_other(rng, v, other);
                let j = rng.gen_range(0..src.len());
                let k = rng.gen_range(1..=32).min(src.len() - j);
                let block: Vec<InputValue> = src[j..j + k].to_vec();
                v.splice(i..i, block);
            }
            8 => {
                // The input ends here: stdin reads end of file from now on.
                if is_char(&v[i]) {
                    v[i] = char_value(-1);
                    v.truncate(i + 1);
                } else {
                    v.truncate(i);
                }
            }
            9 => {
                if !other.is_empty() {
                    let j = rng.gen_range(0..other.len());
                    v.truncate(i);
                    v.extend_from_slice(&other[j..]);
                }
            }
            10 | 11 if v[i].kind == InputKind::Bytes && v[i].bytes().len() > 1 => {
                let from = other.get(i).filter(|o| o.kind == InputKind::Bytes);
                let from = from.map(|o| o.bytes().to_vec());
                edit_bytes(rng, v[i].bytes_mut(), from.as_deref());
            }
            10 | 11 if is_char(&v[i]) => {
                // A whole line of this entry or the other, inserted at a line's start (a
                // command before or after another: create a job, then find it) — or deleted.
                let at = line_start(v, i);
                if rng.gen_bool(0.25) {
                    let end = line_end(v, at);
                    v.drain(at..end);
                    return;
                }
                let src = this_or_other(rng, v, other);
                let j = line_start(src, rng.gen_range(0..src.len()));
                let line: Vec<InputValue> = src[j..line_end(src, j)].to_vec();
                if line.iter().all(is_char) {
                    v.splice(at..at, line);
                }
            }
            _ => {
                // A character of text inserted (a separator, a digit).
                if is_char(&v[i]) {
                    v.insert(i, char_value(TEXT[rng.gen_range(0..TEXT.len())] as i64));
                } else {
                    fresh(rng, &mut v[i]);
                }
            }
        }
    }

    fn interesting(&self, rng: &mut SmallRng, v: &mut InputValue) {
        if is_char(v) {
            *v = char_value(TEXT[rng.gen_range(0..TEXT.len())] as i64);
            return;
        }
        let x = INTERESTING[rng.gen_range(0..INTERESTING.len())];
        match v.kind {
            InputKind::Bytes if !v.bytes().is_empty() => {
                let k = rng.gen_range(0..v.bytes().len());
                v.bytes_mut()[k] = x as u8;
            }
            _ => set_number(v, x),
        }
    }

    /// A constant of the program: the value itself, or its decimal spelling in text.
    fn dictionary_int(&self, rng: &mut SmallRng, v: &mut Vec<InputValue>, i: usize) {
        let Some(&x) = pick(rng, &self.dict.ints) else {
            return self.interesting(rng, &mut v[i]);
        };
        let x = if rng.gen_bool(0.2) {
            x + rng.gen_range(-1..=1)
        } else {
            x
        };
        if v[i].kind == InputKind::Bytes && !v[i].bytes().is_empty() && rng.gen_bool(0.5) {
            // The constant as the program holds it in binary data: a byte (a character it
            // compares with), or a little-endian word.
            let raw = x.to_le_bytes();
            let n = if (-128..256).contains(&x) { 1 } else { 4 }.min(v[i].bytes().len());
            let k = rng.gen_range(0..=v[i].bytes().len() - n);
            v[i].bytes_mut()[k..k + n].copy_from_slice(&raw[..n]);
            return;
        }
        if is_char(&v[i]) || v[i].kind == InputKind::Bytes {
            // A number in text, often a field of its own; now and then a fraction (ratios,
            // weights: parsers of `%f` split at 0 and 1).
            let sep = if is_char(&v[i]) && rng.gen_bool(0.5) {
                " "
            } else {
                ""
            };
            let num = match rng.gen_bool(0.1) {
                true => ["0.5", "0.25", "-0.5", "1.5"][rng.gen_range(0..4)].to_string(),
                false => x.to_string(),
            };
            return spell(rng, v, i, format!("{sep}{num}").as_bytes());
        }
        set_number(&mut v[i], x);
    }

    fn word(&self, rng: &mut SmallRng, v: &mut Vec<InputValue>, i: usize) {
        match pick(rng, &self.dict.words) {
            Some(w) if is_char(&v[i]) || v[i].kind == InputKind::Bytes => spell(rng, v, i, w),
            _ => self.interesting(rng, &mut v[i]),
        }
    }
}

/// `x` as the value's kind holds it (a float's value, an integer's bits at its width).
fn set_number(v: &mut InputValue, x: i64) {
    match v.kind {
        InputKind::Bytes => {}
        InputKind::Float => v.bits = (x as f32).to_bits() as u64,
        InputKind::Double => v.bits = (x as f64).to_bits(),
        _ => v.bits = mask(x as u64, v.width),
    }
}

/// The entry being mutated or, half the time, the other one (when there is one).
fn this_or_other<'a>(
    rng: &mut SmallRng,
    v: &'a [InputValue],
    other: &'a [InputValue],
) -> &'a [InputValue] {
    match rng.gen_bool(0.5) || other.is_empty() {
        true => v,
        false => other,
    }
}

/// Where the line holding entry `i` starts (after the previous newline).
fn line_start(v: &[InputValue], i: usize) -> usize {
    v[..i]
        .iter()
        .rposition(|x| !is_char(x) || x.bits == b'\n' as u64)
        .map_or(0, |p| p + 1)
}

/// Just past the line starting at `i`: after its newline, or where the text ends.
fn line_end(v: &[InputValue], i: usize) -> usize {
    v[i..]
        .iter()
        .position(|x| !is_char(x) || x.bits == b'\n' as u64 || x.bits == 0xffff_ffff)
        .map_or(v.len(), |p| {
            i + p + (v[i + p].bits == b'\n' as u64 && is_char(&v[i + p])) as usize
        })
}

fn pick<'a, T>(rng: &mut SmallRng, xs: &'a [T]) -> Option<&'a T> {
    (!xs.is_empty()).then(|| &xs[rng.gen_range(0..xs.len())])
}

/// Writes `text` at entry `i`: over a byte buffer (at a random offset, ended by a NUL when it
/// fits, as an argv string reads it), or into stdin's characters (inserted, or overwriting).
fn spell(rng: &mut SmallRng, v: &mut Vec<InputValue>, i: usize, text: &[u8]) {
    if v[i].kind == InputKind::Bytes {
        if v[i].bytes().is_empty() {
            return;
        }
        let b = v[i].bytes_mut();
        let at = if rng.gen_bool(0.5) {
            0
        } else {
            rng.gen_range(0..b.len())
        };
        let room = b.len() - at;
        let n = text.len().min(room);
        b[at..at + n].copy_from_slice(&text[..n]);
        if n < room && rng.gen_bool(0.5) {
            b[at + n] = 0;
        }
        return;
    }
    let chars = text.iter().map(|&c| char_value(c as i64));
    match rng.gen_range(0..3) {
        0 => drop(v.splice(i..i, chars)),
        1 => {
            let end = (i + text.len()).min(v.len());
            v.splice(i..end, chars);
        }
        _ => {
            // In place of the field (the run of non-blank characters) holding entry i: a
            // command's junk argument becomes a number.
            let blank = |x: &InputValue| !is_char(x) || x.bits == 0xffff_ffff || x.bits <= 32;
            let start = v[..i].iter().rposition(blank).map_or(0, |p| p + 1);
            let end = v[i..].iter().position(blank).map_or(v.len(), |p| i + p);
            v.splice(start..end.max(start), chars);
        }
    }
}

/// AFL's block edits inside a byte buffer, its length kept (a harness gives each buffer its
/// size): a stretch deleted (what follows moves up, zeros fill the end), or inserted (what
/// follows moves down, the end drops off) — random bytes, one byte repeated, or a stretch of
/// this buffer or of `other` (the same buffer of another corpus entry) — or overwritten by
/// such a stretch. Text in a buffer (JSON, a command line) changes by insertion and
/// deletion; byte-wise mutations alone only overwrite it.
fn edit_bytes(rng: &mut SmallRng, b: &mut [u8], other: Option<&[u8]>) {
    let len = b.len();
    let at = rng.gen_range(0..len);
    let n = rng.gen_range(1..=(len - at).min(16));
    let op = rng.gen_range(0..3);
    if op == 0 {
        b.copy_within(at + n.., at);
        b[len - n..].fill(0);
        return;
    }
    let block: Vec<u8> = match rng.gen_range(0..4) {
        0 => (0..n).map(|_| rng.r#gen()).collect(),
        1 => vec![b[rng.gen_range(0..len)]; n],
        2 => match other.filter(|o| o.len() >= n) {
            Some(o) => {
                let from = rng.gen_range(0..=o.len() - n);
                o[from..from + n].to_vec()
            }
            None => b[..n].to_vec(),
        },
        _ => {
            let from = rng.gen_range(0..=len - n);
            b[from..from + n].to_vec()
        }
    };
    if op == 1 {
        b.copy_within(at..len - n, at + n);
    }
    b[at..at + n].copy_from_slice(&block);
}

fn flip_bit(rng: &mut SmallRng, v: &mut InputValue) {
    match v.kind {
        InputKind::Bytes if !v.bytes().is_empty() => {
            let k = rng.gen_range(0..v.bytes().len());
            v.bytes_mut()[k] ^= 1 << rng.gen_range(0..8);
        }
        InputKind::Bytes => {}
        InputKind::Float => v.bits ^= 1 << rng.gen_range(0..32),
        InputKind::Double => v.bits ^= 1 << rng.gen_range(0..64),
        _ => {
            v.bits = mask(
                v.bits ^ (1 << rng.gen_range(0..v.width.clamp(1, 64))),
                v.width,
            )
        }
    }
}

fn add_small(rng: &mut SmallRng, v: &mut InputValue) {
    let d = rng.gen_range(1..=35i64) * if rng.gen_bool(0.5) { 1 } else { -1 };
    match v.kind {
        InputKind::Bytes if !v.bytes().is_empty() => {
            let k = rng.gen_range(0..v.bytes().len());
            let b = &mut v.bytes_mut()[k];
            *b = b.wrapping_add(d as u8);
        }
        InputKind::Bytes => {}
        InputKind::Float => {
            v.bits = (f32::from_bits(v.bits as u32) + d as f32).to_bits() as u64;
        }
        InputKind::Double => v.bits = (f64::from_bits(v.bits) + d as f64).to_bits(),
        _ => {
            let x = sext(v.bits, v.width).wrapping_add(d);
            v.bits = mask(x as u64, v.width);
        }
    }
}

/// A value drawn afresh, as random testing draws it (text for a stdin character); in a buffer
/// of more than a few bytes, one of its words (or bytes): an object made symbolic whole is
/// mostly an array of values, and drawing all of them would cost a draw per byte for a
/// mutation that changes everything at once.
fn fresh(rng: &mut SmallRng, v: &mut InputValue) {
    let len = v.bytes().len();
    if v.kind == InputKind::Bytes && len > 8 {
        let word = if len.is_multiple_of(4) { 4 } else { 1 };
        let at = rng.gen_range(0..len / word) * word;
        let mut r = RandomInputs { rng };
        let x = r.next(InputKind::Int, 8 * word as u32, 0).bits as u32;
        v.bytes_mut()[at..at + word].copy_from_slice(&x.to_le_bytes()[..word]);
        return;
    }
    let mut r = RandomInputs { rng };
    if v.kind == InputKind::Bytes {
        // In place: the buffer keeps its name and its copy of the bytes.
        return r.fill(v.bytes_mut());
    }
    let mut new = match is_char(v) {
        true => r.next_char(),
        false => r.next(v.kind, v.width, v.bytes().len()),
    };
    new.set_name(v.name());
    *v = new;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn text(s: &[u8]) -> Vec<InputValue> {
        s.iter().map(|&c| char_value(c as i64)).collect()
    }

    fn havoc(ints: Vec<i64>, words: Vec<&[u8]>) -> Havoc {
        Havoc {
            lengths: vec![],
            dict: Dictionary {
                ints,
                words: words.into_iter().map(|w| w.to_vec()).collect(),
            },
        }
    }

    /// The harness gives every buffer (argv string, file) its size: a mutation that changed it
    /// would make the run draw a random buffer instead.
    #[test]
    fn buffers_keep_their_length_and_text_stays_characters() {
        let h = havoc(vec![7, 1000], vec![b"start"]);
        let mut rng = SmallRng::seed_from_u64(1);
        let arg = InputValue::buffer("arg01", vec![b'a'; 4]);
        for _ in 0..2000 {
            let mut v = vec![arg.clone()];
            v.extend(text(b"1 2 0.5\n"));
            let other = text(b"3\n");
            h.mutate(&mut rng, &mut v, &other, MAX_INPUTS);
            for x in &v {
                match x.kind {
                    InputKind::Bytes => assert_eq!((x.bytes().len(), x.name()), (4, "arg01")),
                    _ => assert!(is_char(x), "{x:?} is not a character"),
                }
            }
            assert!(v.len() <= MAX_INPUTS);
        }
    }

    /// Text in a byte buffer gets characters inserted and deleted (what follows moves), and
    /// stretches of another entry's buffer; the buffer keeps its length.
    #[test]
    fn text_in_a_buffer_gets_insertions_deletions_and_stretches_of_another() {
        let h = havoc(vec![], vec![]);
        let mut rng = SmallRng::seed_from_u64(3);
        let text = b"{\"a\":[1,2]}\0\0\0\0".to_vec();
        let other = vec![InputValue::buffer("data", b"XYZW".repeat(4)[..15].to_vec())];
        let (mut shifted_up, mut shifted_down, mut crossed) = (false, false, false);
        for _ in 0..2000 {
            let mut v = vec![InputValue::buffer("data", text.clone())];
            h.mutate(&mut rng, &mut v, &other, 4);
            let Some(b) = v.first().map(InputValue::bytes) else {
                continue; // the list itself was cut
            };
            assert_eq!(b.len(), text.len());
            let s = String::from_utf8_lossy(b);
            // The tail `]}` moved with the text before it.
            shifted_down |= s.contains("2]}") && b.iter().position(|&c| c == b'}') > Some(11);
            shifted_up |= s.contains("2]}") && b.iter().position(|&c| c == b'}') < Some(11);
            crossed |= s.contains("XYZ") || s.contains("YZW") || s.contains("ZWX");
        }
        assert!(shifted_up && shifted_down && crossed);
    }

    /// A unit's pointer parameters are NULL only where concolic search made them so: no
    /// mutant moves a value onto a NULL flag (pico's `phr_parse_request` got NULL
    /// `num_headers` from a deletion that shifted a length onto its flag), while the values
    /// around the flags still change.
    #[test]
    fn mutants_keep_the_null_flags_of_pointer_parameters() {
        let h = havoc(vec![7], vec![]);
        let mut rng = SmallRng::seed_from_u64(9);
        let flag = |bits| {
            let mut f = InputValue::int(InputKind::Bool, 1, bits);
            f.channel = Channel::Null;
            f
        };
        let parent = vec![
            flag(0),
            InputValue::buffer("buf", vec![b'a'; 8]),
            InputValue::int(InputKind::LongLong, 64, 5),
            flag(1),
            InputValue::buffer("out", vec![0; 8]),
            InputValue::int(InputKind::Int, 32, 3),
        ];
        let other = vec![flag(1), InputValue::int(InputKind::Int, 32, 9)];
        let mut changed = 0;
        for _ in 0..3000 {
            let mut v = parent.clone();
            h.mutate(&mut rng, &mut v, &other, 8);
            for i in [0, 3] {
                assert_eq!(v.get(i), Some(&parent[i]), "the flag at {i} in {v:?}");
            }
            changed += (v != parent) as usize;
        }
        assert!(changed > 2000, "{changed} mutants of 3000 differ");
    }

    /// A unit's length parameter stays within its buffer in every mutant (one past it would
    /// be no run), and mutants still vary it.
    #[test]
    fn a_length_parameter_stays_within_its_buffer() {
        let mut h = havoc(vec![1000, -5], vec![]);
        let length = |pos, max, unsigned| crate::exec::LengthParam {
            pos,
            value: pos,
            max,
            unsigned,
        };
        h.lengths = vec![length(1, 64, true), length(3, 16, false)];
        let mut rng = SmallRng::seed_from_u64(5);
        let data = InputValue::buffer("data", vec![b'a'; 65]);
        let (mut sizes, mut negative) = (std::collections::HashSet::new(), false);
        for _ in 0..3000 {
            let mut v = vec![
                data.clone(),
                InputValue::int(InputKind::LongLong, 64, 10),
                data.clone(),
                InputValue::int(InputKind::Int, 32, 3),
            ];
            h.mutate(&mut rng, &mut v, &[], 4);
            if let Some(x) = v.get(1).filter(|x| x.kind == InputKind::LongLong) {
                assert!(x.bits <= 64, "size {}", x.bits);
                sizes.insert(x.bits);
            }
            if let Some(x) = v.get(3).filter(|x| x.kind == InputKind::Int) {
                assert!(sext(x.bits, 32) <= 16, "n {}", sext(x.bits, 32));
                negative |= sext(x.bits, 32) < 0;
            }
        }
        assert!(sizes.len() > 20 && negative, "{} sizes", sizes.len());
    }

    /// A buffer's bytes past its length parameter's value are read by no run: mutants change
    /// only the bytes before it, and keep the others.
    #[test]
    fn a_buffer_is_mutated_within_its_length_parameter() {
        let mut h = havoc(vec![1000, -5], vec![b"word"]);
        h.lengths = vec![crate::exec::LengthParam {
            pos: 1,
            value: 1,
            max: 64,
            unsigned: true,
        }];
        let mut rng = SmallRng::seed_from_u64(7);
        let (mut changed, mut runs) = (0, 0);
        for _ in 0..3000 {
            let mut v = vec![
                InputValue::buffer("data", vec![b'a'; 64]),
                InputValue::int(InputKind::LongLong, 64, 10),
            ];
            // One mutation: of the buffer's bytes, of the length, or of the list.
            h.mutate_once(&mut rng, &mut v, &[]);
            let (Some(data), Some(size)) = (v.first(), v.get(1)) else {
                continue;
            };
            if data.kind != InputKind::Bytes || size.bits != 10 {
                continue;
            }
            runs += 1;
            assert_eq!(data.bytes().len(), 64);
            assert!(data.bytes()[10..].iter().all(|&b| b == b'a'), "{data:?}");
            changed += (data.bytes()[..10] != [b'a'; 10]) as usize;
        }
        assert!(
            runs > 300 && changed > runs / 4,
            "{changed} of {runs} changed"
        );
    }

    /// A fuzz target's text grows and shrinks with its length: a character inserted within
    /// `size` (one the program compares with, or a separator or digit) moves what follows and
    /// adds one to `size`; a character deleted takes one off.
    #[test]
    fn text_in_a_buffer_grows_and_shrinks_with_its_length() {
        let mut h = havoc(vec![b',' as i64, 70000], vec![]);
        h.lengths = vec![crate::exec::LengthParam {
            pos: 1,
            value: 1,
            max: 64,
            unsigned: true,
        }];
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut grew, mut shrank, mut commas) = (0, 0, 0);
        for _ in 0..4000 {
            let mut data = b"f(1)".to_vec();
            data.resize(16, b'z');
            let mut v = vec![
                InputValue::buffer("data", data),
                InputValue::int(InputKind::LongLong, 64, 4),
            ];
            h.mutate_once(&mut rng, &mut v, &[]);
            let (Some(data), Some(size)) = (v.first(), v.get(1)) else {
                continue;
            };
            let (b, n) = (data.bytes(), size.bits as usize);
            // (A mutation of the length alone leaves the bytes as they were.)
            if data.kind != InputKind::Bytes || b.len() != 16 || n == 4 || b[..6] == *b"f(1)zz" {
                continue;
            }
            let shorter = |long: &[u8], short: &[u8]| {
                (0..long.len()).any(|k| [&long[..k], &long[k + 1..]].concat() == short)
            };
            match n {
                5 => {
                    assert!(shorter(&b[..5], b"f(1)"), "{b:?}");
                    assert!(b[5..].iter().all(|&c| c == b'z'), "{b:?}");
                    commas += b[..5].contains(&b',') as usize;
                    grew += 1;
                }
                3 => {
                    assert!(shorter(b"f(1)", &b[..3]), "{b:?}");
                    shrank += 1;
                }
                _ => {}
            }
        }
        assert!(
            grew > 30 && shrank > 10 && commas > 5,
            "{grew} {shrank} {commas}"
        );
    }

    /// Mutants grow only to the limit (an entry already longer keeps its length at most); the
    /// limit grows while nothing new is found, and waits while the corpus grows.
    #[test]
    fn mutants_grow_to_the_length_limit() {
        let h = havoc(vec![1, 2], vec![]);
        let mut rng = SmallRng::seed_from_u64(3);
        let long = text(b"a line of text that is longer than the limit\n");
        let mut lengths = LengthLimit::default();
        let mut grew_past_4 = false;
        for _ in 0..2000 {
            let mut v = text(b"abcd");
            h.mutate(&mut rng, &mut v, &long, lengths.get());
            assert!(v.len() <= FIRST_LENGTH_LIMIT, "{} values", v.len());
            grew_past_4 |= v.len() > 4;
            let mut w = long.clone();
            h.mutate(&mut rng, &mut w, &long, lengths.get());
            assert!(w.len() <= long.len());
        }
        assert!(grew_past_4, "no mutant grew at all");
        // 100 fruitless runs per unit of log2(8) = 3, then the limit grows by 3.
        lengths.after(300, false);
        assert_eq!(lengths.get(), FIRST_LENGTH_LIMIT);
        lengths.after(1, false);
        assert_eq!(lengths.get(), FIRST_LENGTH_LIMIT + 3);
        lengths.after(300, true);
        lengths.after(300, false);
        assert_eq!(
            lengths.get(),
            FIRST_LENGTH_LIMIT + 3,
            "new entries restart the count"
        );
        lengths.admit(100);
        assert_eq!(lengths.get(), 100);
    }

    /// A constant the program compares with reaches its text: spelled in decimal, in stdin
    /// and in an argv string.
    #[test]
    fn dictionary_numbers_are_spelled_into_text() {
        let h = havoc(vec![4711], vec![]);
        let mut rng = SmallRng::seed_from_u64(2);
        let (mut in_text, mut in_arg) = (false, false);
        for _ in 0..5000 {
            let mut v = text(b"ab");
            h.dictionary_int(&mut rng, &mut v, 1);
            let s: Vec<u8> = v.iter().map(|x| x.bits as u8).collect();
            in_text |= s.windows(4).any(|w| w == b"4711");
            let mut a = vec![InputValue::buffer("", vec![b'x'; 6])];
            h.dictionary_int(&mut rng, &mut a, 0);
            in_arg |= a[0].bytes().starts_with(b"4711");
        }
        assert!(in_text && in_arg, "text {in_text}, argv {in_arg}");
    }

    /// Commands of two inputs combine: a line of one is inserted whole at a line start of
    /// the other (schedule2 finds a job only after another command created it).
    #[test]
    fn lines_of_another_input_are_inserted_whole() {
        let h = havoc(vec![], vec![]);
        let mut rng = SmallRng::seed_from_u64(4);
        let (create, find) = (text(b"1 2\n"), text(b"7 x\n2 1 0\n"));
        let mut seen = std::collections::HashSet::new();
        for _ in 0..20000 {
            let mut v = create.clone();
            h.mutate_once(&mut rng, &mut v, &find);
            seen.insert(v.iter().map(|x| x.bits as u8).collect::<Vec<u8>>());
        }
        assert!(seen.contains(b"1 2\n2 1 0\n".as_slice()));
        assert!(seen.contains(b"2 1 0\n1 2\n".as_slice()));
    }

    /// The input ends early: a prefix of the text, then end of file (tot_info totals its
    /// tables only when the input ends right after one).
    #[test]
    fn inputs_end_after_a_prefix() {
        let h = havoc(vec![], vec![]);
        let mut rng = SmallRng::seed_from_u64(3);
        let original = text(b"hello world\n");
        let mut ends = std::collections::HashSet::new();
        for _ in 0..5000 {
            let mut v = original.clone();
            h.mutate_once(&mut rng, &mut v, &[]);
            if let Some((last, prefix)) = v.split_last()
                && last.bits == 0xffff_ffff
                && original.starts_with(prefix)
            {
                ends.insert(prefix.len());
            }
        }
        assert_eq!(ends.len(), original.len(), "ends after {ends:?}");
    }
}
