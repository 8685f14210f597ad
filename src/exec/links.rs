//! Pointers among a run's input bytes, initialized lazily (as CUTE and KLEE do): a pointer the
//! program loads from a block of input bytes it was given (in unit mode a parameter's buffer, a
//! struct passed by value, a global that starts as input; in any mode the block made up for a
//! function not given) is not those bytes, which would point anywhere and make every dereference
//! a fault of Cairn's choosing, but null or a fresh block of input bytes, as an input value says
//! when the run first loads it. A block made so is a root in turn: a list or a tree grows as far
//! as the run walks it, and concolic search flips a null test like any other branch. The replay
//! harness builds the same links before the call (`"link"` in a test).

use super::input::InputKind;
use super::machine::{Machine, Stop};
use super::observer::InputUse;
use std::collections::BTreeMap;

/// Most blocks one run links: a run that would link more is cut (`Limit::Links`), since past
/// them a pointer would be its input bytes, a wild pointer of Cairn's making.
pub const MAX_BLOCKS: usize = 256;

/// The input blocks of a run whose pointer-sized slots are linked when first loaded, by
/// address.
#[derive(Default)]
pub(crate) struct Roots {
    blocks: BTreeMap<u64, Root>,
    made: usize,
}

struct Root {
    len: u64,
    /// Made by a link (its faults name it).
    linked: bool,
    /// How long the blocks linked from it are (the replay harness's rule: as long as it, and
    /// at least the unit buffer or the made-up block it descends from).
    child_len: u64,
    /// The input value holding the block's bytes (the test's index the harness places it by).
    value: usize,
    name: String,
    /// Slots already loaded once (or linked): later loads read what is there.
    seen: Vec<bool>,
}

impl Roots {
    /// Block `[addr, addr+len)` holds input value `value`'s bytes, named `name`; the blocks
    /// linked from it hold at least `min_child` bytes.
    pub fn add(
        &mut self,
        (addr, len): (u64, u64),
        min_child: u64,
        value: usize,
        name: &str,
        ptr_bytes: u64,
    ) {
        let root = Root {
            len,
            linked: false,
            child_len: len.max(min_child).max(1),
            value,
            name: name.to_string(),
            seen: vec![false; (len / ptr_bytes) as usize],
        };
        self.blocks.insert(addr, root);
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The name of the block at `base` if a link made it (`list+8`): a fault's description
    /// names it.
    pub fn linked_block(&self, base: u64) -> Option<&str> {
        let b = self.blocks.get(&base).filter(|b| b.linked)?;
        Some(&b.name)
    }
}

impl Machine<'_> {
    /// Fills the fresh block `block` of `n` bytes with the next input value's bytes, named
    /// `name`; a `string`'s last one is NUL (a string, or a small struct, either way).
    pub(crate) fn fill_input_block(
        &mut self,
        block: u64,
        n: u64,
        name: &str,
        string: bool,
    ) -> Result<(), Stop> {
        let mut v = self.next_input(InputKind::Bytes, n as usize);
        v.bytes_mut().resize(n as usize, 0);
        if string {
            v.bytes_mut()[n as usize - 1] = 0;
        }
        self.mem.write(block, v.bytes())?;
        if let Some(last) = self.inputs.last_mut() {
            last.set_bytes(v.bytes().to_vec());
            last.set_name(name);
        }
        self.input_used(InputUse::Bytes {
            addr: block,
            n: if string { n - 1 } else { n },
        });
        Ok(())
    }

    /// Before a pointer is loaded from `a`: the first load of a pointer slot of an input block,
    /// while the slot still holds the input's bytes (a pointer the program stored stays),
    /// reads whether it is null, then a block's bytes (both either way, so the values after
    /// them keep their places), and stores null or the block there. The run counts as inexact:
    /// a caller may pass a pointer into an object the function has, or two that alias.
    pub(super) fn link_pointer(&mut self, a: u64) -> Result<(), Stop> {
        let pb = (self.ptr_bits / 8) as u64;
        let Some((&addr, root)) = self.links.blocks.range_mut(..=a).next_back() else {
            return Ok(());
        };
        let off = a - addr;
        if off + pb > root.len || !off.is_multiple_of(pb) {
            return Ok(());
        }
        let slot = (off / pb) as usize;
        if std::mem::replace(&mut root.seen[slot], true) {
            return Ok(());
        }
        let (parent, name, n) = (root.value, format!("{}+{off}", root.name), root.child_len);
        let original = self.inputs[parent]
            .bytes()
            .get(off as usize..(off + pb) as usize);
        if self.mem.read(a, pb).ok() != original {
            return Ok(());
        }
        if self.links.made == MAX_BLOCKS {
            return Err(Stop::Cut(super::machine::Limit::Links));
        }
        self.links.made += 1;
        let block = self.mem.malloc(n)?;
        let nonnull = self.next_input(InputKind::Bool, 0).bits != 0;
        if let Some(last) = self.inputs.last_mut() {
            last.set_name(&name);
            last.set_link(parent as u32, off as u32);
        }
        self.mem
            .write_uint(a, pb as u32, if nonnull { block } else { 0 })?;
        self.input_used(InputUse::Link {
            addr: a,
            n: pb as u32,
            block,
        });
        self.fill_input_block(block, n, &name, true)?;
        let value = self.inputs.len() - 1;
        self.links.add((block, n), n, value, &name, pb);
        if let Some(b) = self.links.blocks.get_mut(&block) {
            b.linked = true;
        }
        Ok(())
    }
}
