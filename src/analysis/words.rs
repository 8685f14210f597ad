//! The words a program compares its input with: the short C strings its own code refers to
//! (keywords, commands, magic tokens), as fuzzers collect a dictionary from comparisons.
//! Concolic search flips one branch at a time, and a keyword compared with a whole token needs
//! a path where the token already has the keyword's length; a run that spells the word gives
//! the search that path (see `driver::concolic`'s `spell_words`).

use crate::ir::{Global, Module};

/// At most this many words (the first ones found, the program's code before its tables).
const MAX_WORDS: usize = 48;

/// Strings of 2 to 16 printable characters, without spaces or `%` (messages and formats are
/// not words), that the program's functions (not the runtime's) use as constants, then those
/// its pointer tables hold.
pub fn compared_words(m: &Module) -> Vec<Vec<u8>> {
    let mut strings: Vec<&Global> = m.globals.iter().filter(|g| g.read_only).collect();
    strings.sort_by_key(|g| g.addr);
    let word_at = |addr: u64| -> Option<Vec<u8>> {
        let i = strings.partition_point(|g| g.addr + g.size <= addr);
        let g = strings.get(i).filter(|g| g.addr <= addr)?;
        let rest = &g.init[(addr - g.addr) as usize..];
        let len = rest.iter().position(|&b| b == 0)?;
        let w = &rest[..len];
        let printable = w.iter().all(|&b| b.is_ascii_graphic() && b != b'%');
        ((2..=16).contains(&len) && printable).then(|| w.to_vec())
    };
    let mut words: Vec<Vec<u8>> = vec![];
    let add = |w: Vec<u8>, words: &mut Vec<Vec<u8>>| {
        if words.len() < MAX_WORDS && !words.contains(&w) {
            words.push(w);
        }
    };
    for f in m
        .functions
        .iter()
        .filter(|f| !crate::analysis::defuse::is_runtime(m, f))
    {
        for &v in &f.reg_init {
            if let Some(w) = word_at(v) {
                add(w, &mut words);
            }
        }
    }
    let ptr = m.data_model.ptr_bytes() as usize;
    for g in m.globals.iter().filter(|g| g.holds_pointers) {
        for chunk in g.init.chunks_exact(ptr) {
            let mut b = [0u8; 8];
            b[..ptr].copy_from_slice(chunk);
            if let Some(w) = word_at(u64::from_le_bytes(b)) {
                add(w, &mut words);
            }
        }
    }
    words
}
