//! Inputs concolic search runs besides the solver's: the program's keywords spelled into its
//! latest tests, and runs whose input ends right after something new.

use crate::driver::session::Session;
use crate::exec::shadow::BranchRecord;
use crate::exec::{InputKind, InputValue, RunResult};
use crate::smt::expr::Pool;

/// Runs before the program's words are spelled into its tests, and how many of the latest
/// tests they are spelled into.
const SPELL_AFTER_RUNS: usize = 200;
const SPELLING_TEMPLATES: usize = 4;

/// Runs the latest tests again spelling each word the program compares with (its keywords) at
/// the start of their text inputs, so that the search also goes on from paths where a token
/// has a keyword's length (see `analysis::words`). Once per search, after its first runs have
/// found tests that reach the comparisons (an argument that opens the file, a command that
/// reads the token).
#[derive(Default)]
pub struct WordSpelling {
    done: bool,
}

impl WordSpelling {
    /// The inputs to run now (none before `SPELL_AFTER_RUNS` runs, or once done).
    pub fn due(&mut self, s: &Session, runs: usize) -> Vec<Vec<InputValue>> {
        if self.done || runs < SPELL_AFTER_RUNS {
            return vec![];
        }
        self.done = true;
        let words = crate::analysis::words::compared_words(&s.program.module);
        let seeds = s.seeds_since(0);
        let templates = seeds.iter().rev().take(SPELLING_TEMPLATES);
        templates
            .flat_map(|t| words.iter().map(|w| spelled(&t.inputs, w)))
            .collect()
    }
}

/// `inputs` with `word` and a space at the start of every buffer that holds them and of the
/// `int` reads (stdin's characters), the rest kept.
fn spelled(inputs: &[InputValue], word: &[u8]) -> Vec<InputValue> {
    let mut text = word.to_vec();
    text.push(b' ');
    let mut chars = text.iter();
    let mut out: Vec<InputValue> = inputs
        .iter()
        .map(|v| {
            let mut v = v.clone();
            match v.kind {
                InputKind::Bytes if v.bytes().len() >= text.len() => {
                    v.bytes_mut()[..text.len()].copy_from_slice(&text);
                }
                InputKind::Int => {
                    if let Some(&c) = chars.next() {
                        v.bits = c as u64;
                    }
                }
                _ => {}
            }
            v
        })
        .collect();
    // A run that read some characters, fewer than the word's: the rest, then the end of input.
    if (1..text.len()).contains(&chars.len()) {
        out.extend(chars.map(|&c| InputValue::int(InputKind::Int, 32, c as u64)));
        out.push(InputValue::int(InputKind::Int, 32, u64::MAX));
    }
    out
}

/// The run's inputs up to the last one the decision that first covered one of `news` depends
/// on, then the end of input (-1: stdin ends there and stays ended). What a program does when
/// its input ends right after something new is a goal of its own (a table that was complete,
/// then end of input: the only way tot_info totals its tables), and the end of input is one
/// character among hundreds read after it: a flip of those is rarely the one picked. None when
/// the decision was concrete or no character of stdin was read after it (the run then reads
/// nothing that could end).
pub fn ended_after_news(
    pool: &mut Pool,
    records: &[BranchRecord],
    r: &RunResult,
    news: &[usize],
    last_char: Option<usize>,
) -> Option<Vec<InputValue>> {
    let first = records
        .iter()
        .position(|b| news.contains(&(b.outcomes[b.taken].1 as usize)))?;
    // A shared handle (no copy): `vars_of` may add to the pool's caches.
    let vars = pool.vars.clone();
    let mut last = None;
    for b in &records[..=first] {
        for v in pool.vars_of(b.taken_cond()).iter() {
            last = last.max(Some(vars[*v as usize].input as usize));
        }
    }
    let cut = last? + 1;
    if cut >= r.inputs.len() || last_char.is_none_or(|c| c < cut) {
        return None;
    }
    let mut ended = r.inputs[..cut].to_vec();
    ended.push(InputValue::int(InputKind::Int, 32, u32::MAX as u64));
    Some(ended)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(vals: &[i64]) -> Vec<InputValue> {
        vals.iter()
            .map(|&v| InputValue::int(InputKind::Int, 32, v as u64))
            .collect()
    }

    fn chars(v: &[InputValue]) -> Vec<i64> {
        v.iter().map(|x| crate::ir::ops::sext(x.bits, 32)).collect()
    }

    #[test]
    fn words_are_spelled_into_buffers_and_character_reads() {
        // A buffer that holds the word and its space gets them; a shorter one is kept.
        let buf = InputValue::buffer("", b"xxxxxx".to_vec());
        let small = InputValue::buffer("", b"A".to_vec());
        let out = spelled(&[small, buf], b"and");
        assert_eq!(out[0].bytes(), b"A");
        assert_eq!(out[1].bytes(), b"and xx");
        // Character reads: as many as the run made are replaced, the rest of the word and the
        // end of input appended; a run with enough reads keeps its length.
        assert_eq!(
            chars(&spelled(&ints(&[120, -1]), b"if")),
            [105, 102, 32, -1]
        );
        assert_eq!(
            chars(&spelled(&ints(&[1, 2, 3, 4, -1]), b"if")),
            [105, 102, 32, 4, -1]
        );
        assert!(spelled(&[], b"if").is_empty());
    }
}
