//! Object-based memory: every global, stack slot and heap block is an object with its own bytes,
//! placed at a fixed address with a red zone around it, so out-of-bounds and use-after-free
//! accesses are detected exactly instead of corrupting a neighbour.
//!
//! Globals and heap objects grow upwards from `GLOBAL_BASE` and are never reused (freed objects
//! stay as tombstones); stack objects are popped in LIFO order when their frame returns.
//!
//! Two limits keep a run honest and bounded. The stack has the native size (8 MB by default), so
//! a 100 MB local array overflows as natively while deep but legal recursion does not. The
//! footprint (object contents plus the object records, tombstones included) has a limit of
//! Cairn's own;
//! reaching it is `LimitReached`, which ends the run as a limit of Cairn's, never as a fault or
//! a NULL from malloc the native program would not see. Only a request no machine could grant
//! (more than its RAM and swap) makes malloc return NULL, as natively.

use crate::ir::layout::*;
use std::cell::Cell;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemFault {
    Null,
    OutOfBounds,
    UseAfterFree,
    WriteReadOnly,
    InvalidFree,
    DoubleFree,
    /// A request larger than the machine could ever grant: malloc returns NULL, as natively.
    OutOfMemory,
    StackOverflow,
    /// Cairn's memory limit for a run (not the program's fault): the run ends there.
    LimitReached,
}

impl MemFault {
    pub fn describe(self) -> &'static str {
        match self {
            MemFault::Null => "null pointer dereference",
            MemFault::OutOfBounds => "out-of-bounds memory access",
            MemFault::UseAfterFree => "use after free",
            MemFault::WriteReadOnly => "write to read-only memory",
            MemFault::InvalidFree => "free of a pointer that malloc did not return",
            MemFault::DoubleFree => "double free",
            MemFault::OutOfMemory => "out of memory",
            MemFault::StackOverflow => "stack overflow",
            MemFault::LimitReached => "memory limit of the run reached",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjKind {
    Global,
    Heap,
    Stack,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub base: u64,
    pub data: Vec<u8>,
    pub size: u64,
    pub kind: ObjKind,
    pub alive: bool,
    pub read_only: bool,
    /// Where the program allocated it (heap blocks of the program's own malloc calls): a leak
    /// of it is reported there. None for blocks Cairn's runtime made for itself.
    pub site: Option<crate::ir::Loc>,
    /// The fingerprint of `data` (`Memory::fingerprint`), kept until the next write: most
    /// objects do not change between two states compared.
    data_fp: Cell<Option<u128>>,
}

impl Object {
    /// The fingerprint of its contents.
    fn data_fingerprint(&self) -> u128 {
        if let Some(fp) = self.data_fp.get() {
            return fp;
        }
        let fp = super::fingerprint::hash128(&self.data);
        self.data_fp.set(Some(fp));
        fp
    }
}

/// Heap blocks the program allocated and could no longer reach when it ended (what
/// LeakSanitizer reports at exit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leak {
    pub bytes: u64,
    pub blocks: u64,
    /// Where they were allocated, each site once, in the order of allocation.
    pub sites: Vec<crate::ir::Loc>,
}

#[derive(Clone, Debug)]
pub struct Memory {
    objs: Vec<Object>,
    stack: Vec<Object>,
    heap_next: u64,
    stack_next: u64,
    /// Bytes of object contents the run holds (with the allocator's per-block overhead).
    contents: u64,
    /// Limit of the footprint: contents plus the object records (`LimitReached` beyond it).
    pub limit: u64,
    /// Stack bytes available to the program (frames and locals), as natively.
    pub stack_size: u64,
    /// Largest single allocation the machine could grant (RAM and swap); larger ones get NULL.
    pub native_max_alloc: u64,
    cache: Cell<usize>,
    stack_cache: Cell<usize>,
    /// The fingerprint of where `objs` lie (bounds, kind, alive), kept until one is added or
    /// freed.
    objs_layout_fp: Cell<Option<u128>>,
    /// The access (address, bytes) of the last read or write that faulted: what a library
    /// model's fault was, in words (`Machine::library_fault`).
    pub last_fault: Cell<Option<(u64, u64)>>,
}

type R<T> = Result<T, MemFault>;

/// Bookkeeping bytes of one object (its `Object` record).
pub const OBJECT_COST: u64 = std::mem::size_of::<Object>() as u64;

/// The system allocator's overhead per block holding an object's contents.
const BLOCK_OVERHEAD: u64 = 16;

/// Pushes the words of `data` (`width` bytes, little-endian, at multiples of `width`) that lie
/// in `lo..lo + span` onto `out`: the one test most words fail, in a loop tight enough that a
/// megabyte of globals is scanned in a fraction of a millisecond.
fn words_in(data: &[u8], width: usize, (lo, span): (u64, u64), out: &mut Vec<u64>) {
    let near = |w: &u64| w.wrapping_sub(lo) < span;
    match width {
        8 => out.extend(
            data.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .filter(near),
        ),
        _ => out.extend(
            data.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as u64)
                .filter(near),
        ),
    }
}

/// The native default stack (`ulimit -s` 8192), which native replay also sets.
pub const NATIVE_STACK: u64 = 8 << 20;

/// RAM of this machine, if known.
pub fn physical_memory() -> Option<u64> {
    let mut si: libc::sysinfo = unsafe { std::mem::zeroed() };
    (unsafe { libc::sysinfo(&mut si) } == 0).then(|| si.totalram as u64 * si.mem_unit as u64)
}

/// Resident memory of this process (Linux `/proc/self/statm`).
pub fn resident_memory() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as u64)
}

/// Returns memory the allocator holds but no longer uses to the system (glibc).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    unsafe {
        libc::malloc_trim(0);
    }
}

/// RAM plus swap: natively, malloc of more than this returns NULL (heuristic overcommit).
fn native_max_alloc() -> u64 {
    let mut si: libc::sysinfo = unsafe { std::mem::zeroed() };
    if unsafe { libc::sysinfo(&mut si) } == 0 {
        (si.totalram as u64 + si.totalswap as u64) * si.mem_unit as u64
    } else {
        1 << 40
    }
}

impl Memory {
    pub fn new(heap_start: u64) -> Memory {
        static NATIVE_MAX: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        Memory {
            objs: vec![],
            stack: vec![],
            heap_next: heap_start,
            stack_next: STACK_BASE,
            contents: 0,
            limit: 2 << 30,
            stack_size: NATIVE_STACK,
            native_max_alloc: *NATIVE_MAX.get_or_init(native_max_alloc),
            cache: Cell::new(0),
            stack_cache: Cell::new(0),
            objs_layout_fp: Cell::new(None),
            last_fault: Cell::new(None),
        }
    }

    /// Feeds everything a later access can observe to `h` (`exec::revisit`): every object's
    /// bounds and whether it is alive, the contents of those that can change, where the
    /// allocators stand. The bytes at `symbolic`'s addresses are written as 0: what they hold
    /// is written apart. Fingerprints of the objects' layout and of contents not written since
    /// are reused: a loop compares its state at each iteration.
    pub fn fingerprint<T>(
        &self,
        h: &mut impl std::hash::Hasher,
        symbolic: &std::collections::BTreeMap<u64, T>,
    ) {
        use std::hash::Hasher as _;
        let layout = |objs: &[Object]| {
            let mut h = super::fingerprint::Fingerprinter::default();
            for o in objs {
                h.write_u64(o.base);
                h.write_u64(o.size);
                h.write_u8(o.alive as u8 | (o.read_only as u8) << 1 | (o.kind as u8) << 2);
            }
            h.finish128()
        };
        h.write_u64(self.heap_next);
        h.write_u64(self.stack_next);
        let objs_layout = self.objs_layout_fp.get().unwrap_or_else(|| {
            let fp = layout(&self.objs);
            self.objs_layout_fp.set(Some(fp));
            fp
        });
        h.write_u128(objs_layout);
        h.write_u128(layout(&self.stack));
        for o in self.objs.iter().chain(&self.stack) {
            if !o.alive || o.read_only {
                continue;
            }
            let mut masked = symbolic
                .range(o.base..o.base + o.data.len() as u64)
                .peekable();
            if masked.peek().is_none() {
                h.write_u128(o.data_fingerprint());
                continue;
            }
            let mut data = o.data.clone();
            for (a, _) in masked {
                data[(a - o.base) as usize] = 0;
            }
            h.write_u128(super::fingerprint::hash128(&data));
        }
    }

    /// Bytes of object contents the run holds (with the allocator's per-block overhead).
    pub fn contents(&self) -> u64 {
        self.contents
    }

    /// Objects, live or not (globals, the heap's, the stack's): what a fingerprint reads.
    pub fn objects(&self) -> usize {
        self.objs.len() + self.stack.len()
    }

    /// Bytes the run holds: contents, and the object records (tombstones included) as
    /// allocated.
    pub fn footprint(&self) -> u64 {
        self.contents + (self.objs.capacity() + self.stack.capacity()) as u64 * OBJECT_COST
    }

    /// Stack bytes in use.
    pub fn stack_used(&self) -> u64 {
        self.stack_next - STACK_BASE
    }

    /// Accounts a new object of `size` content bytes (on the stack or not); `LimitReached`
    /// (and nothing accounted) beyond the limit. A full record vector grows by doubling, and
    /// for a moment holds the old and the new records: that peak is what counts.
    fn charge(&mut self, size: u64, on_stack: bool) -> R<()> {
        let (grows, other) = if on_stack {
            (&self.stack, &self.objs)
        } else {
            (&self.objs, &self.stack)
        };
        let records = if grows.len() == grows.capacity() {
            3 * grows.capacity().max(4)
        } else {
            grows.capacity()
        } + other.capacity();
        let bytes = size
            .checked_add(BLOCK_OVERHEAD)
            .ok_or(MemFault::LimitReached)?;
        match self.contents.checked_add(bytes) {
            Some(c) if c + records as u64 * OBJECT_COST <= self.limit => {
                self.contents = c;
                Ok(())
            }
            _ => Err(MemFault::LimitReached),
        }
    }

    /// Places a global at its precomputed address (globals are added in address order).
    pub fn add_global(&mut self, base: u64, data: Vec<u8>, read_only: bool) {
        let size = data.len() as u64;
        self.contents += size + BLOCK_OVERHEAD;
        self.objs_layout_fp.set(None);
        self.objs.push(Object {
            base,
            data,
            size,
            kind: ObjKind::Global,
            alive: true,
            read_only,
            site: None,
            data_fp: Cell::new(None),
        });
    }

    /// A heap block: `OutOfMemory` (malloc returns NULL) for a size no machine grants,
    /// `LimitReached` when Cairn's limit or its heap address range is exhausted.
    pub fn malloc(&mut self, size: u64) -> R<u64> {
        if size > self.native_max_alloc {
            return Err(MemFault::OutOfMemory);
        }
        let base = self.heap_next.div_ceil(16) * 16;
        let end = base
            .checked_add(size)
            .and_then(|e| e.checked_add(16))
            .ok_or(MemFault::LimitReached)?;
        if end > HEAP_END {
            return Err(MemFault::LimitReached);
        }
        self.charge(size, false)?;
        self.heap_next = end;
        self.objs_layout_fp.set(None);
        self.objs.push(Object {
            base,
            data: vec![0; size as usize],
            size,
            kind: ObjKind::Heap,
            alive: true,
            read_only: false,
            site: None,
            data_fp: Cell::new(None),
        });
        Ok(base)
    }

    pub fn free(&mut self, addr: u64) -> R<()> {
        if addr == 0 {
            return Ok(());
        }
        let i = self.find_global(addr).ok_or(MemFault::InvalidFree)?;
        let o = &mut self.objs[i];
        if o.base != addr || o.kind != ObjKind::Heap {
            return Err(MemFault::InvalidFree);
        }
        if !o.alive {
            return Err(MemFault::DoubleFree);
        }
        o.alive = false;
        self.contents -= o.size + BLOCK_OVERHEAD;
        o.data = Vec::new();
        o.data_fp.set(None);
        self.objs_layout_fp.set(None);
        Ok(())
    }

    /// Whether the object starting at `addr` is still allocated.
    pub fn is_alive(&self, addr: u64) -> bool {
        self.find_global(addr)
            .is_some_and(|i| self.objs[i].base == addr && self.objs[i].alive)
    }

    /// Marks the heap block `addr` (just allocated) as the program's, allocated at `site`.
    pub fn set_site(&mut self, addr: u64, site: crate::ir::Loc) {
        if let Some(i) = self.find_global(addr)
            && self.objs[i].base == addr
        {
            self.objs[i].site = Some(site);
        }
    }

    /// Forgets the allocation site of the heap block holding `addr`, if any: its leak is not
    /// reported (a library function that may keep it was given it).
    pub fn disown(&mut self, addr: u64) {
        if let Some(i) = self.find_global(addr)
            && let o = &mut self.objs[i]
            && o.kind == ObjKind::Heap
            && addr < o.base + o.size.max(1)
        {
            o.site = None;
        }
    }

    /// The program's heap blocks that nothing reachable points to, as LeakSanitizer finds
    /// them at exit: every aligned word of the globals, the live stack objects, `root_data`
    /// and `roots` (the live frames' aggregates and registers) that points into a block
    /// reaches it, and each reached block's words reach further. Blocks of Cairn's runtime
    /// are not reported.
    pub fn leaks<'a>(
        &self,
        roots: &[u64],
        root_data: impl Iterator<Item = &'a [u8]>,
        ptr_bytes: usize,
    ) -> Option<Leak> {
        let first_heap = self
            .objs
            .iter()
            .position(|o| o.kind == ObjKind::Heap && o.alive && o.site.is_some())?;
        let (lo, hi) = (self.objs[first_heap].base, self.heap_next);
        let range = (lo, hi - lo);
        let mut reached = vec![false; self.objs.len()];
        let (mut work, mut found) = (vec![], vec![]);
        let reach = |found: &mut Vec<u64>, reached: &mut Vec<bool>, work: &mut Vec<usize>| {
            for w in found.drain(..) {
                let i = self.objs.partition_point(|o| o.base <= w) - 1;
                let o = &self.objs[i];
                if o.kind == ObjKind::Heap && o.alive && w < o.base + o.size.max(1) && !reached[i] {
                    reached[i] = true;
                    work.push(i);
                }
            }
        };
        let scanned = self.objs.iter().chain(&self.stack);
        let objects = scanned.filter(|o| o.alive && o.kind != ObjKind::Heap);
        for o in objects {
            words_in(&o.data, ptr_bytes, range, &mut found);
        }
        for data in root_data {
            words_in(data, ptr_bytes, range, &mut found);
        }
        found.extend(roots.iter().filter(|w| w.wrapping_sub(lo) < range.1));
        reach(&mut found, &mut reached, &mut work);
        while let Some(i) = work.pop() {
            words_in(&self.objs[i].data, ptr_bytes, range, &mut found);
            reach(&mut found, &mut reached, &mut work);
        }
        let mut leak: Option<Leak> = None;
        for (o, _) in self.objs[first_heap..]
            .iter()
            .zip(&reached[first_heap..])
            .filter(|(o, r)| o.alive && o.kind == ObjKind::Heap && !**r)
        {
            let Some(site) = o.site else { continue };
            let l = leak.get_or_insert(Leak {
                bytes: 0,
                blocks: 0,
                sites: vec![],
            });
            l.bytes += o.size;
            l.blocks += 1;
            if !l.sites.contains(&site) {
                l.sites.push(site);
            }
        }
        leak
    }

    /// Size of the live heap object starting at `addr`.
    pub fn heap_size(&self, addr: u64) -> R<u64> {
        let i = self.find_global(addr).ok_or(MemFault::InvalidFree)?;
        let o = &self.objs[i];
        if o.base != addr || o.kind != ObjKind::Heap {
            return Err(MemFault::InvalidFree);
        }
        if !o.alive {
            return Err(MemFault::UseAfterFree);
        }
        Ok(o.size)
    }

    pub fn stack_mark(&self) -> usize {
        self.stack.len()
    }

    pub fn alloca(&mut self, size: u64, align: u32) -> R<u64> {
        match self.alloca_room(align) {
            Some(room) if size <= room => {}
            _ => return Err(MemFault::StackOverflow),
        }
        self.charge(size, true)?;
        let base = self.stack_top(align);
        self.stack_next = base + size + 16;
        self.stack.push(Object {
            base,
            data: vec![0; size as usize],
            size,
            kind: ObjKind::Stack,
            alive: true,
            read_only: false,
            site: None,
            data_fp: Cell::new(None),
        });
        Ok(base)
    }

    /// The most bytes `alloca` can allocate now without overflowing the stack (None: not even
    /// an empty object fits). The shadow records the same bound as the path's decision.
    pub fn alloca_room(&self, align: u32) -> Option<u64> {
        self.stack_limit()
            .checked_sub(self.stack_top(align))?
            .checked_sub(16)
    }

    /// Where the next stack object of alignment `align` starts.
    fn stack_top(&self, align: u32) -> u64 {
        let a = (align as u64).max(16);
        self.stack_next.div_ceil(a) * a
    }

    fn stack_limit(&self) -> u64 {
        STACK_BASE + self.stack_size.min(STACK_END - STACK_BASE)
    }

    /// Reserves `bytes` of stack with no object in them: a frame's native overhead (return
    /// address, saved registers, spill slots). Popped with the frame's objects.
    pub fn reserve_frame(&mut self, bytes: u64) -> R<()> {
        let base = self.stack_top(16);
        if base + bytes > self.stack_limit() {
            return Err(MemFault::StackOverflow);
        }
        self.charge(0, true)?;
        self.stack_next = base + bytes;
        self.stack.push(Object {
            base,
            data: Vec::new(),
            size: 0,
            kind: ObjKind::Stack,
            alive: false,
            read_only: true,
            site: None,
            data_fp: Cell::new(None),
        });
        Ok(())
    }

    /// Pops the stack objects above `mark`; returns the address range they occupied.
    pub fn pop_stack(&mut self, mark: usize) -> Option<(u64, u64)> {
        if mark < self.stack.len() {
            let range = (self.stack[mark].base, self.stack_next);
            self.stack_next = self.stack[mark].base;
            let freed: u64 = self.stack[mark..]
                .iter()
                .map(|o| o.size + BLOCK_OVERHEAD)
                .sum();
            self.contents -= freed;
            self.stack.truncate(mark);
            self.stack_cache.set(0);
            return Some(range);
        }
        None
    }

    /// Base and size of the live object containing `addr`.
    pub fn object_bounds(&self, addr: u64) -> Option<(u64, u64)> {
        let o = if addr >= STACK_BASE {
            self.find_stack(addr).map(|i| &self.stack[i])
        } else {
            self.find_global(addr).map(|i| &self.objs[i])
        }?;
        (o.alive && addr < o.base + o.size).then_some((o.base, o.size))
    }

    /// Base and size of the live object `addr` points into, or one past the end of (a loop's
    /// end, `data + len`: a valid pointer of that object, which red zones keep apart from
    /// the next object's start).
    pub fn object_or_end(&self, addr: u64) -> Option<(u64, u64)> {
        self.object_bounds(addr).or_else(|| {
            let (base, size) = self.object_bounds(addr.checked_sub(1)?)?;
            (base + size == addr).then_some((base, size))
        })
    }

    /// The objects around `addr` (a fault's description): the one holding it or nearest below,
    /// and the nearest above.
    pub fn around(&self, addr: u64) -> (Option<&Object>, Option<&Object>) {
        let list = if addr >= STACK_BASE {
            &self.stack
        } else {
            &self.objs
        };
        let i = list.partition_point(|o| o.base <= addr);
        (i.checked_sub(1).map(|j| &list[j]), list.get(i))
    }

    /// Bounds of the live object holding `addr`, if the program may write it.
    pub fn writable_bounds(&self, addr: u64) -> Option<(u64, u64)> {
        let o = if addr >= STACK_BASE {
            self.find_stack(addr).map(|i| &self.stack[i])
        } else {
            self.find_global(addr).map(|i| &self.objs[i])
        }?;
        (o.alive && !o.read_only && addr < o.base + o.size).then_some((o.base, o.size))
    }

    fn find_global(&self, addr: u64) -> Option<usize> {
        let c = self.cache.get();
        if let Some(o) = self.objs.get(c)
            && addr >= o.base
            && addr < o.base + o.size.max(1)
        {
            return Some(c);
        }
        let i = self.objs.partition_point(|o| o.base <= addr);
        if i == 0 {
            return None;
        }
        self.cache.set(i - 1);
        Some(i - 1)
    }

    fn find_stack(&self, addr: u64) -> Option<usize> {
        let c = self.stack_cache.get();
        if let Some(o) = self.stack.get(c)
            && addr >= o.base
            && addr < o.base + o.size.max(1)
        {
            return Some(c);
        }
        let i = self.stack.partition_point(|o| o.base <= addr);
        if i == 0 {
            return None;
        }
        self.stack_cache.set(i - 1);
        Some(i - 1)
    }

    /// The object holding the `len` bytes at `addr`, and their offset in it; a fault records
    /// the access (`last_fault`).
    #[inline]
    fn locate(&self, addr: u64, len: u64) -> R<(&Object, usize)> {
        self.locate_unrecorded(addr, len)
            .inspect_err(|_| faulted(&self.last_fault, addr, len))
    }

    #[inline]
    fn locate_unrecorded(&self, addr: u64, len: u64) -> R<(&Object, usize)> {
        if addr < 4096 {
            return Err(MemFault::Null);
        }
        let o = if addr >= STACK_BASE {
            self.find_stack(addr).map(|i| &self.stack[i])
        } else {
            self.find_global(addr).map(|i| &self.objs[i])
        };
        let o = o.ok_or(MemFault::OutOfBounds)?;
        let off = access_offset(o, addr, len)?;
        Ok((o, off))
    }

    #[inline]
    fn locate_mut(&mut self, addr: u64, len: u64) -> R<(&mut Object, usize)> {
        let fault = |e| {
            faulted(&self.last_fault, addr, len);
            Err(e)
        };
        if addr < 4096 {
            return fault(MemFault::Null);
        }
        let i = match addr >= STACK_BASE {
            true => self.find_stack(addr),
            false => self.find_global(addr),
        };
        let Some(i) = i else {
            return fault(MemFault::OutOfBounds);
        };
        let o = match addr >= STACK_BASE {
            true => &mut self.stack[i],
            false => &mut self.objs[i],
        };
        let off = match access_offset(o, addr, len) {
            Ok(off) => off,
            Err(e) => {
                faulted(&self.last_fault, addr, len);
                return Err(e);
            }
        };
        if o.read_only {
            return Err(MemFault::WriteReadOnly);
        }
        o.data_fp.set(None);
        Ok((o, off))
    }

    #[inline]
    pub fn read_uint(&self, addr: u64, n: u32) -> R<u64> {
        let (o, off) = self.locate(addr, n as u64)?;
        let mut b = [0u8; 8];
        b[..n as usize].copy_from_slice(&o.data[off..off + n as usize]);
        Ok(u64::from_le_bytes(b))
    }

    #[inline]
    pub fn write_uint(&mut self, addr: u64, n: u32, v: u64) -> R<()> {
        let (o, off) = self.locate_mut(addr, n as u64)?;
        o.data[off..off + n as usize].copy_from_slice(&v.to_le_bytes()[..n as usize]);
        Ok(())
    }

    pub fn read(&self, addr: u64, len: u64) -> R<&[u8]> {
        if len == 0 {
            return Ok(&[]);
        }
        let (o, off) = self.locate(addr, len)?;
        Ok(&o.data[off..off + len as usize])
    }

    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> R<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let (o, off) = self.locate_mut(addr, bytes.len() as u64)?;
        o.data[off..off + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    pub fn fill(&mut self, addr: u64, byte: u8, len: u64) -> R<()> {
        if len == 0 {
            return Ok(());
        }
        let (o, off) = self.locate_mut(addr, len)?;
        o.data[off..off + len as usize].fill(byte);
        Ok(())
    }

    pub fn copy(&mut self, dst: u64, src: u64, len: u64) -> R<()> {
        if len == 0 {
            return Ok(());
        }
        let tmp = self.read(src, len)?.to_vec();
        self.write(dst, &tmp)
    }

    /// The NUL-terminated string at `addr` (without the NUL).
    pub fn cstr(&self, addr: u64) -> R<Vec<u8>> {
        let (o, off) = self.locate(addr, 1)?;
        match o.data[off..].iter().position(|&b| b == 0) {
            Some(n) => Ok(o.data[off..off + n].to_vec()),
            None => {
                // The string runs past its object's end: the first byte past it.
                faulted(&self.last_fault, o.base + o.size, 1);
                Err(MemFault::OutOfBounds)
            }
        }
    }

    /// Bytes from `addr` to the end of its object (for functions with a length bound).
    pub fn rest(&self, addr: u64) -> R<&[u8]> {
        let (o, off) = self.locate(addr, 1)?;
        Ok(&o.data[off..])
    }
}

/// Remembers a faulting access (`Memory::last_fault`): off the hot path.
#[cold]
fn faulted(last: &Cell<Option<(u64, u64)>>, addr: u64, len: u64) {
    last.set(Some((addr, len)));
}

/// The offset of an access of `len` bytes at `addr` in `o`, the object holding or nearest
/// below `addr`. Past a dead object's end is its red zone (or a neighbour's): out of bounds,
/// as AddressSanitizer reports it. A dead stack object is a frame's reserved bytes, never a
/// freed object (a frame's objects are popped with it).
#[inline]
fn access_offset(o: &Object, addr: u64, len: u64) -> R<usize> {
    let off = addr - o.base;
    if !o.alive && o.kind != ObjKind::Stack && off < o.size.max(1) {
        return Err(MemFault::UseAfterFree);
    }
    if off.checked_add(len).is_none_or(|e| e > o.size) {
        return Err(MemFault::OutOfBounds);
    }
    Ok(off as usize)
}
