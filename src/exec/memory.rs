//! Object-based memory: every global, stack slot and heap block is an object with its own bytes,
//! placed at a fixed address with a red zone around it, so out-of-bounds and use-after-free
//! accesses are detected exactly instead of corrupting a neighbour.
//!
//! Globals and heap objects grow upwards from `GLOBAL_BASE` and are never reused (freed objects
//! stay as tombstones); stack objects are popped in LIFO order when their frame returns.

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
    OutOfMemory,
    StackOverflow,
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
}

#[derive(Clone, Debug)]
pub struct Memory {
    objs: Vec<Object>,
    stack: Vec<Object>,
    heap_next: u64,
    stack_next: u64,
    heap_live: u64,
    pub heap_limit: u64,
    cache: Cell<usize>,
    stack_cache: Cell<usize>,
}

type R<T> = Result<T, MemFault>;

impl Memory {
    pub fn new(heap_start: u64) -> Memory {
        Memory {
            objs: vec![],
            stack: vec![],
            heap_next: heap_start,
            stack_next: STACK_BASE,
            heap_live: 0,
            heap_limit: 1 << 30,
            cache: Cell::new(0),
            stack_cache: Cell::new(0),
        }
    }

    /// Places a global at its precomputed address (globals are added in address order).
    pub fn add_global(&mut self, base: u64, data: Vec<u8>, read_only: bool) {
        let size = data.len() as u64;
        self.objs.push(Object {
            base,
            data,
            size,
            kind: ObjKind::Global,
            alive: true,
            read_only,
        });
    }

    pub fn malloc(&mut self, size: u64) -> R<u64> {
        if size > self.heap_limit || self.heap_live + size > self.heap_limit {
            return Err(MemFault::OutOfMemory);
        }
        let base = self.heap_next.div_ceil(16) * 16;
        let end = base + size + 16;
        if end > HEAP_END {
            return Err(MemFault::OutOfMemory);
        }
        self.heap_next = end;
        self.heap_live += size;
        self.objs.push(Object {
            base,
            data: vec![0; size as usize],
            size,
            kind: ObjKind::Heap,
            alive: true,
            read_only: false,
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
        self.heap_live -= o.size;
        o.data = Vec::new();
        Ok(())
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
        let a = (align as u64).max(16);
        let base = self.stack_next.div_ceil(a) * a;
        let end = base + size + 16;
        if end > STACK_END {
            return Err(MemFault::StackOverflow);
        }
        self.stack_next = end;
        self.stack.push(Object {
            base,
            data: vec![0; size as usize],
            size,
            kind: ObjKind::Stack,
            alive: true,
            read_only: false,
        });
        Ok(base)
    }

    /// Pops the stack objects above `mark`; returns the address range they occupied.
    pub fn pop_stack(&mut self, mark: usize) -> Option<(u64, u64)> {
        if mark < self.stack.len() {
            let range = (self.stack[mark].base, self.stack_next);
            self.stack_next = self.stack[mark].base;
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
        if let Some(o) = self.objs.get(c) {
            if addr >= o.base && addr < o.base + o.size.max(1) {
                return Some(c);
            }
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
        if let Some(o) = self.stack.get(c) {
            if addr >= o.base && addr < o.base + o.size.max(1) {
                return Some(c);
            }
        }
        let i = self.stack.partition_point(|o| o.base <= addr);
        if i == 0 {
            return None;
        }
        self.stack_cache.set(i - 1);
        Some(i - 1)
    }

    #[inline]
    fn locate(&self, addr: u64, len: u64) -> R<(&Object, usize)> {
        if addr < 4096 {
            return Err(MemFault::Null);
        }
        let o = if addr >= STACK_BASE {
            self.find_stack(addr).map(|i| &self.stack[i])
        } else {
            self.find_global(addr).map(|i| &self.objs[i])
        };
        let o = o.ok_or(MemFault::OutOfBounds)?;
        let off = addr - o.base;
        if !o.alive {
            return Err(MemFault::UseAfterFree);
        }
        if off.checked_add(len).is_none_or(|e| e > o.size) {
            return Err(MemFault::OutOfBounds);
        }
        Ok((o, off as usize))
    }

    #[inline]
    fn locate_mut(&mut self, addr: u64, len: u64) -> R<(&mut Object, usize)> {
        if addr < 4096 {
            return Err(MemFault::Null);
        }
        let o = if addr >= STACK_BASE {
            match self.find_stack(addr) {
                Some(i) => &mut self.stack[i],
                None => return Err(MemFault::OutOfBounds),
            }
        } else {
            match self.find_global(addr) {
                Some(i) => &mut self.objs[i],
                None => return Err(MemFault::OutOfBounds),
            }
        };
        let off = addr - o.base;
        if !o.alive {
            return Err(MemFault::UseAfterFree);
        }
        if off.checked_add(len).is_none_or(|e| e > o.size) {
            return Err(MemFault::OutOfBounds);
        }
        if o.read_only {
            return Err(MemFault::WriteReadOnly);
        }
        Ok((o, off as usize))
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
            None => Err(MemFault::OutOfBounds),
        }
    }

    /// Bytes from `addr` to the end of its object (for functions with a length bound).
    pub fn rest(&self, addr: u64) -> R<&[u8]> {
        let (o, off) = self.locate(addr, 1)?;
        Ok(&o.data[off..])
    }
}
