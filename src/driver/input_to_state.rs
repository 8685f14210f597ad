//! Input-to-state replacement (REDQUEEN; AFL++'s CmpLog stage): a run's logged comparisons
//! (`ir::cmplog`) whose one operand is spelled in the input give mutants with the other
//! operand in its place. A number input equal to an operand; an operand's bytes in a buffer or
//! in stdin's text, as the program holds it (little- or big-endian) or as text spells it
//! (decimal, hexadecimal: `\u00e9` compared with 0xdc00 becomes `\udc00`); a memory or string
//! compare's bytes (a keyword, a magic header). What havoc would find by chance, if at all, in
//! one run per comparison.

use crate::exec::LengthParam;
use crate::exec::input::{Channel, InputKind, InputValue};
use crate::ir::cmplog::Comparison;
use crate::ir::ops::{mask, sext};
use std::collections::{HashMap, HashSet};

/// Places an operand is replaced at per comparison and spelling: a loop's comparison with a
/// common byte would otherwise make a mutant of every place it occurs.
const PLACES: usize = 4;

/// Mutants of `values` from the comparisons a run of them logged, at most `most`, each
/// different from `values` and, but for rare edits of several splices (`Kept`), from the
/// others. `lengths`: unit mode's length parameters (a fuzz target's `size` says how many of
/// `data`'s bytes runs read).
pub fn mutants(
    values: &[InputValue],
    logged: &[Comparison],
    most: usize,
    lengths: &[LengthParam],
) -> Vec<Vec<InputValue>> {
    let streams = streams(values, lengths);
    let mut keep = Kept {
        base: values,
        most,
        edits: HashSet::new(),
        out: vec![],
    };
    // A comparison in a loop logs the same operands again and again.
    let mut seen = HashSet::new();
    let distinct: Vec<&Comparison> = logged.iter().filter(|c| seen.insert(*c)).collect();
    together(values, &distinct, &mut keep);
    for c in &distinct {
        match c {
            Comparison::Int { a, b, width } => {
                for (from, to) in [(*a, *b), (*b, *a)] {
                    numbers(values, from, to, *width, &mut keep);
                    for (pattern, replacement) in spellings(from, to, *width) {
                        for s in &streams {
                            replace(values, s, &pattern, &replacement, &mut keep);
                        }
                    }
                }
            }
            Comparison::Bytes { a, b } => {
                let text = |x: &[u8]| x.strip_suffix(&[0]).unwrap_or(x).to_vec();
                for (from, to) in [(text(a), text(b)), (text(b), text(a))] {
                    if from.is_empty() {
                        continue;
                    }
                    for s in &streams {
                        replace(values, s, &from, &to, &mut keep);
                    }
                }
            }
        }
        if keep.out.len() >= most {
            break;
        }
    }
    // Then, with what room is left, operands an input's small offset (`x + 17 == c`, an index
    // `i - 1`): the input becomes the other operand less the offset.
    for c in &distinct {
        if let Comparison::Int { a, b, width } = c {
            offsets(values, *a, *b, *width, &mut keep);
            offsets(values, *b, *a, *width, &mut keep);
        }
        if keep.out.len() >= most {
            break;
        }
    }
    keep.out
}

/// The mutants so far: new ones only, up to `most`. Candidates come as edits of the base and
/// are told apart by their edits, so one costs what it changes, not the input's length (a
/// reactive program's long input copied, hashed and compared for each candidate took two
/// thirds of the fuzzer's time). An edit of one splice is one mutant's only edit
/// (`canonical`); one of several (a shorter keyword and the zeros after it) may rarely make a
/// mutant another edit made, which then runs twice.
struct Kept<'a> {
    base: &'a [InputValue],
    most: usize,
    edits: HashSet<Edit>,
    out: Vec<Vec<InputValue>>,
}

/// A mutant as splices of the base, in order and apart: where, how many values go, what
/// comes in their place.
type Edit = Vec<(usize, usize, Vec<InputValue>)>;

impl Kept<'_> {
    fn keep(&mut self, edit: Edit) {
        if self.out.len() >= self.most {
            return;
        }
        let edit = canonical(self.base, edit);
        if edit.is_empty() || self.edits.contains(&edit) {
            return;
        }
        let mut m = self.base.to_vec();
        for (at, gone, new) in edit.iter().rev() {
            m.splice(*at..at + gone, new.iter().cloned());
        }
        // Splices may undo each other; one cannot.
        if edit.len() == 1 || m != self.base {
            self.out.push(m);
        }
        self.edits.insert(edit);
    }
}

/// The edit without what its splices leave as it was. Trimmed, a splice changes values at both
/// its ends, and so is the only one making its mutant, or only drops or only adds values: in a
/// run of equal values, the leftmost place doing so stands for them all.
fn canonical(base: &[InputValue], edit: Edit) -> Edit {
    let mut edit: Edit = (edit.into_iter())
        .filter_map(|s| trimmed(base, s))
        .collect();
    if let [(at, gone, new)] = edit.as_mut_slice() {
        if new.is_empty() {
            while *at > 0 && base[*at - 1] == base[*at + *gone - 1] {
                *at -= 1;
            }
        } else if *gone == 0 {
            while *at > 0 && new.last() == Some(&base[*at - 1]) {
                new.rotate_right(1);
                *at -= 1;
            }
        }
    }
    edit
}

/// A splice without the values it leaves as they were at its ends (None if it changes
/// nothing).
fn trimmed(
    base: &[InputValue],
    (mut at, mut gone, mut new): (usize, usize, Vec<InputValue>),
) -> Option<(usize, usize, Vec<InputValue>)> {
    let same = (base[at..at + gone].iter().zip(&new))
        .take_while(|(a, b)| a == b)
        .count();
    new.drain(..same);
    (at, gone) = (at + same, gone - same);
    let same = (base[at..at + gone].iter().rev().zip(new.iter().rev()))
        .take_while(|(a, b)| a == b)
        .count();
    new.truncate(new.len() - same);
    gone -= same;
    (gone > 0 || !new.is_empty()).then_some((at, gone, new))
}

/// A number input the comparisons may use: not a buffer's bytes or a float's, not whether a
/// parameter is NULL.
fn is_number(v: &InputValue) -> bool {
    !matches!(
        v.kind,
        InputKind::Bytes | InputKind::Float | InputKind::Double
    ) && v.width > 0
        && v.channel != Channel::Null
}

/// Inputs compared with one operand (`x != 10` in a loop reading thirty) all take it in one
/// mutant: one at a time, a mutant fixing one of them is no better than its entry until all
/// are fixed, and nothing leads the search there. One mutant per operand compared with two
/// inputs or more.
fn together(values: &[InputValue], distinct: &[&Comparison], keep: &mut Kept) {
    // Per operand and width, in the order logged: the other operands compared with it.
    let mut order: Vec<(u64, u8)> = vec![];
    let mut groups: HashMap<(u64, u8), HashSet<u64>> = HashMap::new();
    for c in distinct {
        let Comparison::Int { a, b, width } = **c else {
            continue;
        };
        let bits = width as u32 * 8;
        for (from, to) in [(a, b), (b, a)] {
            let key = (mask(to, bits), width);
            let froms = groups.entry(key).or_insert_with(|| {
                order.push(key);
                HashSet::new()
            });
            froms.insert(mask(from, bits));
        }
    }
    for (to, width) in order {
        let (froms, bits) = (&groups[&(to, width)], width as u32 * 8);
        if froms.len() < 2 {
            continue;
        }
        let edit: Edit = (values.iter().enumerate())
            .filter(|(_, v)| is_number(v) && froms.contains(&mask(v.bits, bits)))
            .map(|(i, v)| {
                let x = mask(sext(to, bits) as u64, v.width);
                (i, 1, vec![v.with_bits(x)])
            })
            .collect();
        if edit.len() >= 2 {
            keep.keep(edit);
        }
    }
}

/// Integer inputs equal to `from` in its `width` bytes become `to` (and its neighbours, for
/// an ordering comparison), sign-extended as the comparison's operand was.
fn numbers(values: &[InputValue], from: u64, to: u64, width: u8, keep: &mut Kept) {
    let bits = width as u32 * 8;
    let mut places = 0;
    for (i, v) in values.iter().enumerate() {
        if !is_number(v) || mask(v.bits, bits) != mask(from, bits) || places == PLACES {
            continue;
        }
        places += 1;
        for delta in [0i64, 1, -1] {
            let x = sext(to, bits).wrapping_add(delta) as u64;
            keep.keep(vec![(i, 1, vec![v.with_bits(mask(x, v.width))])]);
        }
    }
}

/// Most distance between an input and an operand taken to be the input plus an offset.
const MAX_OFFSET: i64 = 256;

/// Integer inputs within `MAX_OFFSET` of `from` (not equal: `numbers` has those) become
/// `to` less the difference, as if `from` were computed as the input plus a constant.
fn offsets(values: &[InputValue], from: u64, to: u64, width: u8, keep: &mut Kept) {
    let bits = width as u32 * 8;
    let mut places = 0;
    for (i, v) in values.iter().enumerate() {
        if is_number(v) && v.width > 1 && places < PLACES {
            let d = sext(from.wrapping_sub(v.bits), bits);
            if d != 0 && d.abs() <= MAX_OFFSET {
                places += 1;
                let x = mask(to.wrapping_sub(d as u64), v.width);
                keep.keep(vec![(i, 1, vec![v.with_bits(x)])]);
            }
        }
    }
}

/// Where bytes are in the input: a buffer's (`Buffer(i)`) or a run of characters of one kind
/// (`Chars(start, end)`: stdin's, or `char` inputs); with the bytes, read once for every
/// comparison.
enum Stream {
    Buffer(usize, Vec<u8>, Option<Read>),
    Chars(usize, usize, Vec<u8>),
}

/// How much of a buffer runs read: the value of its length parameter (at `param`).
#[derive(Clone, Copy)]
struct Read {
    param: usize,
    bytes: usize,
}

/// A character of text: a stdin character (not the end of input, -1: no byte of text) or a
/// `char` input (a string read a character at a time: `buf[i] = __VERIFIER_nondet_char()`).
fn is_char(v: &InputValue) -> bool {
    match v.kind {
        InputKind::Int => v.width == 32 && v.bits <= 255,
        InputKind::Char | InputKind::UChar => true,
        _ => false,
    }
}

fn streams(values: &[InputValue], lengths: &[LengthParam]) -> Vec<Stream> {
    let mut out = vec![];
    let mut i = 0;
    while i < values.len() {
        if values[i].kind == InputKind::Bytes {
            let read = LengthParam::read_bytes(lengths, values, i).map(|n| Read {
                param: i + 1,
                bytes: n.min(values[i].bytes().len()),
            });
            out.push(Stream::Buffer(i, values[i].bytes().to_vec(), read));
            i += 1;
        } else if is_char(&values[i]) {
            let start = i;
            while i < values.len() && is_char(&values[i]) && values[i].kind == values[start].kind {
                i += 1;
            }
            // A single character is a number as much as text (the numbers cover it).
            if i - start > 1 {
                let text = values[start..i].iter().map(|v| v.bits as u8).collect();
                out.push(Stream::Chars(start, i, text));
            }
        } else {
            i += 1;
        }
    }
    out
}

/// `from` and `to` as bytes may spell them: in memory, in the comparison's width and in the
/// bytes their values need (C compares a byte as an `int`: a checksum byte read from the
/// input is compared in 4 bytes), both byte orders; in decimal (2 digits and more) and in
/// hexadecimal (lower and upper case, as many digits as `from` needs, and 4 or 8 with
/// leading zeros).
fn spellings(from: u64, to: u64, width: u8) -> Vec<(Vec<u8>, Vec<u8>)> {
    let n = width as usize;
    let mut out: Vec<(Vec<u8>, Vec<u8>)> = vec![];
    let (f, t) = (from.to_le_bytes(), to.to_le_bytes());
    let needed = |x: u64| (8 - (mask(x, n as u32 * 8).leading_zeros() as usize) / 8).max(1);
    for k in [n, needed(from).max(needed(to))] {
        let (mut fb, mut tb) = (f[..k].to_vec(), t[..k].to_vec());
        if !out.iter().any(|(q, _)| *q == fb) {
            out.push((fb.clone(), tb.clone()));
        }
        fb.reverse();
        tb.reverse();
        if k >= 2 && !out.iter().any(|(q, _)| *q == fb) {
            out.push((fb, tb));
        }
    }
    let bits = n as u32 * 8;
    let (sf, st) = (sext(from, bits), sext(to, bits));
    if !(-9..=9).contains(&sf) {
        out.push((sf.to_string().into_bytes(), st.to_string().into_bytes()));
    }
    let (uf, ut) = (mask(from, bits), mask(to, bits));
    if uf > 0xf {
        let digits = format!("{uf:x}").len();
        for width in [digits, 4, 8] {
            if width < digits {
                continue;
            }
            let lower = (format!("{uf:0width$x}"), format!("{ut:0width$x}"));
            let upper = (lower.0.to_uppercase(), lower.1.to_uppercase());
            for (p, r) in [lower, upper] {
                if !out.iter().any(|(q, _)| q == p.as_bytes()) {
                    out.push((p.into_bytes(), r.into_bytes()));
                }
            }
        }
    }
    out
}

/// Places (up to `PLACES`) where `stream` holds `from` get `to` in their place: a buffer
/// keeps its length (what follows moves, the end drops off or zeros fill it) and its length
/// parameter follows the text (places past it no run reads), stdin's text grows or shrinks.
fn replace(values: &[InputValue], stream: &Stream, from: &[u8], to: &[u8], keep: &mut Kept) {
    let (bytes, read) = match stream {
        Stream::Buffer(_, b, read) => (b, *read),
        Stream::Chars(_, _, b) => (b, None),
    };
    if from.len() > bytes.len() {
        return;
    }
    let read_to = read.map_or(bytes.len(), |r| r.bytes);
    let places: Vec<usize> = (0..=bytes.len() - from.len())
        .filter(|&k| k < read_to && bytes[k..].starts_with(from))
        .collect();
    // Spread over the places, the first and the last among them: a common pattern (zeros in a
    // buffer) is found everywhere, and the operand's own place may be any.
    let n = places.len();
    let picked = (0..n.min(PLACES)).map(|k| match n <= PLACES {
        true => places[k],
        false => places[k * (n - 1) / (PLACES - 1)],
    });
    for at in picked {
        match *stream {
            Stream::Buffer(i, _, read) => {
                let mut edited = bytes[..at].to_vec();
                edited.extend_from_slice(to);
                edited.extend_from_slice(&bytes[at + from.len()..]);
                edited.resize(bytes.len(), 0);
                let mut buffer = values[i].clone();
                buffer.set_bytes(edited);
                let mut edit = vec![(i, 1, vec![buffer])];
                if let Some(r) = read {
                    let n = (r.bytes + to.len()).saturating_sub(from.len());
                    let size = &values[r.param];
                    let n = mask(n.min(bytes.len()) as u64, size.width);
                    edit.push((r.param, 1, vec![size.with_bits(n)]));
                }
                keep.keep(edit);
            }
            Stream::Chars(s, e, _) => {
                // Characters of the stream's kind, as many as the text needs; `char` inputs
                // fill an array the program reads a fixed count of, so a shorter text ends
                // in zeros there (as in a buffer), where stdin's text just ends sooner.
                let like = &values[s];
                let chars = |t: &[u8]| t.iter().map(|&c| like.with_bits(c as u64)).collect();
                let mut edit = vec![(s + at, from.len(), chars(to))];
                let short = from.len().saturating_sub(to.len());
                if like.kind != InputKind::Int && short > 0 {
                    edit.push((e, 0, chars(&vec![0; short])));
                }
                keep.keep(edit);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &[u8]) -> Vec<InputValue> {
        s.iter()
            .map(|&c| InputValue::int(InputKind::Int, 32, c as u64))
            .collect()
    }

    fn as_text(v: &[InputValue]) -> Vec<u8> {
        v.iter().map(|x| x.bits as u8).collect()
    }

    /// Two edits that make one mutant (a character dropped from either end of a run of it)
    /// give it once, and a replacement by the same value gives none.
    #[test]
    fn one_mutant_made_two_ways_is_kept_once() {
        let input = text(b"aab");
        let logged = [
            Comparison::Bytes {
                a: b"a\0".to_vec(),
                b: b"\0".to_vec(),
            },
            Comparison::Int {
                a: b'b' as u64,
                b: b'b' as u64,
                width: 4,
            },
        ];
        let got: Vec<Vec<u8>> = mutants(&input, &logged, 100, &[])
            .iter()
            .map(|m| as_text(m))
            .collect();
        let ab = got.iter().filter(|m| m.as_slice() == b"ab").count();
        assert_eq!(ab, 1, "{got:?}");
        assert!(!got.contains(&b"aab".to_vec()), "{got:?}");
        // The equal operands' neighbours (an ordering comparison) are mutants all the same.
        assert!(got.contains(&b"aac".to_vec()), "{got:?}");
    }

    /// One splice's canonical edit names its mutant: over random splices of texts with runs
    /// of equal characters, two edits are equal exactly when their mutants are, and no edit
    /// is empty whose mutant differs from the text.
    #[test]
    fn a_splice_and_its_mutant_go_together() {
        use rand::{Rng, SeedableRng, rngs::SmallRng};
        let mut rng = SmallRng::seed_from_u64(38);
        let word = |rng: &mut SmallRng, n: usize| -> Vec<u8> {
            (0..n).map(|_| b"aab"[rng.gen_range(0..3)]).collect()
        };
        for _ in 0..200 {
            let n = rng.gen_range(1..9);
            let base = text(&word(&mut rng, n));
            let splices: Vec<_> = (0..30)
                .map(|_| {
                    let at = rng.gen_range(0..=n);
                    let gone = rng.gen_range(0..=(n - at).min(3));
                    let k = rng.gen_range(0..3);
                    (at, gone, text(&word(&mut rng, k)))
                })
                .collect();
            let apply = |(at, gone, new): &(usize, usize, Vec<InputValue>)| {
                let mut m = base.clone();
                m.splice(*at..at + gone, new.iter().cloned());
                m
            };
            for x in &splices {
                let ex = canonical(&base, vec![x.clone()]);
                assert_eq!(ex.is_empty(), apply(x) == base, "{x:?}");
                for y in &splices {
                    let ey = canonical(&base, vec![y.clone()]);
                    assert_eq!(ex == ey, apply(x) == apply(y), "{x:?} {y:?} of {base:?}");
                }
            }
        }
    }

    /// Thirty inputs each compared with 10 in a loop (two of them already 10) take it in one
    /// mutant; the loop's bound compared with its counter changes no input, one input equal to
    /// a counter's value aside.
    #[test]
    fn inputs_compared_with_one_constant_take_it_together() {
        let int = |x: u64| InputValue::int(InputKind::Int, 32, x);
        let input: Vec<InputValue> = (0..30)
            .map(|i| int([10, 300 + i][(i % 14 != 0) as usize]))
            .collect();
        let mut logged = vec![];
        for (i, v) in input.iter().enumerate() {
            logged.push(Comparison::Int {
                a: i as u64,
                b: 30,
                width: 4,
            });
            if v.bits != 10 {
                logged.push(Comparison::Int {
                    a: v.bits,
                    b: 10,
                    width: 4,
                });
            }
        }
        let got = mutants(&input, &logged, 256, &[]);
        assert!(
            got.iter().any(|m| m.iter().all(|v| v.bits == 10)),
            "{got:?}"
        );
        // Each input alone, as before.
        assert!(
            got.iter()
                .any(|m| m.iter().filter(|v| v.bits == 10).count() == 3)
        );
    }

    /// cJSON's `\u` escapes: the code point parsed from four hex digits is compared with the
    /// surrogates' bounds; the digits spelled as the bound pass it.
    #[test]
    fn a_hex_field_takes_the_value_it_is_compared_with() {
        let input = text(b"\"\\u00e9\"");
        let logged = [Comparison::Int {
            a: 0xe9,
            b: 0xdc00,
            width: 4,
        }];
        let got: Vec<Vec<u8>> = mutants(&input, &logged, 100, &[])
            .iter()
            .map(|m| as_text(m))
            .collect();
        assert!(got.contains(&b"\"\\udc00\"".to_vec()), "{got:?}");
    }

    /// A checksum byte compared as an `int` (lz4's frame header) is found as one byte.
    #[test]
    fn a_byte_compared_as_an_int_is_replaced_as_a_byte() {
        let input = vec![InputValue::buffer(
            "data",
            b"\x04\x22\x4d\x18\x64\x40\x11".to_vec(),
        )];
        let logged = [Comparison::Int {
            a: 0xa7,
            b: 0x11,
            width: 4,
        }];
        let got = mutants(&input, &logged, 100, &[]);
        assert!(
            got.iter()
                .any(|m| m[0].bytes() == b"\x04\x22\x4d\x18\x64\x40\xa7"),
            "{got:?}"
        );
    }

    /// A fuzz target's text (`data`, `size`): a number spelled longer takes more of `data`
    /// and `size` grows with it; bytes past `size` (no run reads them) are left alone.
    #[test]
    fn a_fuzz_targets_size_follows_its_text() {
        let input = vec![
            InputValue::buffer("data", b"x=55;555".to_vec()),
            InputValue::int(InputKind::LongLong, 64, 5),
        ];
        let logged = [Comparison::Int {
            a: 55,
            b: 1000,
            width: 4,
        }];
        let lengths = [LengthParam {
            pos: 1,
            value: 1,
            max: 8,
            unsigned: true,
        }];
        let got: Vec<(Vec<u8>, u64)> = mutants(&input, &logged, 100, &lengths)
            .iter()
            .map(|m| (m[0].bytes().to_vec(), m[1].bits))
            .collect();
        assert!(got.contains(&(b"x=1000;5".to_vec(), 7)), "{got:?}");
        assert!(got.iter().all(|(b, _)| b.starts_with(b"x=")), "{got:?}");
        // Without the length parameter the buffer's every place is the text's.
        let unaware = mutants(&input, &logged, 100, &[]);
        assert!(
            unaware.iter().any(|m| m[0].bytes().starts_with(b"x=55;")),
            "{unaware:?}"
        );
    }

    /// A string read a `char` input at a time and compared with keywords (`strncmp(buf,
    /// "GET ", 4)`, `strcmp(buf, "quit")`) is spelled as each, in `char` inputs still.
    #[test]
    fn char_inputs_are_text_a_keyword_replaces() {
        let input: Vec<InputValue> = (b"xdig\n  ".iter())
            .map(|&c| InputValue::int(InputKind::Char, 8, c as u64))
            .collect();
        let logged = [
            Comparison::Bytes {
                a: b"xdig".to_vec(),
                b: b"GET ".to_vec(),
            },
            Comparison::Bytes {
                a: b"xdig\n  \0".to_vec(),
                b: b"quit\0".to_vec(),
            },
        ];
        let got = mutants(&input, &logged, 100, &[]);
        let texts: Vec<Vec<u8>> = got.iter().map(|m| as_text(m)).collect();
        assert!(texts.contains(&b"GET \n  ".to_vec()), "{texts:?}");
        assert!(texts.contains(&b"quit\0\0\0".to_vec()), "{texts:?}");
        assert!(
            (got.iter().flatten()).all(|v| v.kind == InputKind::Char && v.width == 8),
            "{got:?}"
        );
    }

    /// An input compared after adding a constant (`a + 17 == -98765`) takes the value that
    /// passes: the other operand less the offset, in the input's own width.
    #[test]
    fn an_input_plus_a_constant_takes_the_other_operand_less_it() {
        let input = vec![InputValue::int(InputKind::Int, 32, 5)];
        let logged = [Comparison::Int {
            a: 22,
            b: (-98765i64) as u64 & 0xffff_ffff,
            width: 4,
        }];
        let got = mutants(&input, &logged, 100, &[]);
        let want = (-98782i64) as u64 & 0xffff_ffff;
        assert!(got.iter().any(|m| m[0].bits == want), "{got:?}");
        // Far from every operand: no offset is guessed.
        let far = vec![InputValue::int(InputKind::Int, 32, 5000)];
        assert!(mutants(&far, &logged, 100, &[]).is_empty());
    }

    #[test]
    fn numbers_buffers_and_keywords_are_replaced() {
        let buffer = InputValue::buffer("data", b"GIF7xyz\0".to_vec());
        let number = InputValue::int(InputKind::Int, 32, 41);
        let input = vec![number.clone(), buffer];
        let logged = [
            // A magic number read from the buffer (little-endian), a number input compared.
            Comparison::Int {
                a: u32::from_le_bytes(*b"GIF7") as u64,
                b: u32::from_le_bytes(*b"GIF8") as u64,
                width: 4,
            },
            Comparison::Int {
                a: 41,
                b: (-7i64) as u64 & 0xffff_ffff,
                width: 4,
            },
            Comparison::Bytes {
                a: b"xyz\0".to_vec(),
                b: b"true\0".to_vec(),
            },
        ];
        let got = mutants(&input, &logged, 100, &[]);
        let has = |n: u64, b: &[u8]| got.iter().any(|m| m[0].bits == n && m[1].bytes() == b);
        assert!(has(41, b"GIF8xyz\0"));
        assert!(has((-7i64) as u64 & 0xffff_ffff, b"GIF7xyz\0"));
        assert!(has(41, b"GIF7true"), "a buffer keeps its length");
        assert!(got.len() <= 100 && !got.contains(&input));
        assert_eq!(mutants(&input, &logged, 2, &[]).len(), 2);
    }
}
