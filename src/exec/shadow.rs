//! The symbolic shadow of a run: for every register and memory byte that depends on inputs, the
//! expression over input variables it equals, and the path condition of the branches taken.
//!
//! Policy (documented in the README):
//! - Integers and pointers are tracked exactly; floating-point values and aggregates (struct
//!   values in registers) are concretized: their shadow is dropped, which loses constraints but
//!   never adds wrong ones.
//! - A load through a symbolic pointer into an object of at most `MAX_SYMBOLIC_OBJECT` bytes reads
//!   an if-then-else over every element of the object, so the solver can pick any entry of an
//!   input-indexed table; larger objects and stores through symbolic pointers are concretized.
//! - Library models that write memory clear the shadow of what they write; memcpy/memmove/memset
//!   move or set it.

use super::machine::Machine;
use crate::ir::*;
use crate::smt::expr::{ExprId, Pool, VarKey};
use std::collections::BTreeMap;

/// No shadow: the value is concrete.
pub const NONE: ExprId = ExprId(u32::MAX);

pub const MAX_SYMBOLIC_OBJECT: u64 = 4096;

/// One symbolic branch decision of a run.
#[derive(Clone, Debug)]
pub struct BranchRecord {
    pub func: FuncId,
    pub block: BlockId,
    /// Index into `outcomes` of the outcome this run took.
    pub taken: usize,
    /// Every outcome: its condition, the goal it covers, and the target block.
    pub outcomes: Vec<(ExprId, GoalId, BlockId)>,
    /// Call-string context of the decision (`Machine::context`): tells apart the copies of a
    /// function's branches per call site (uncovered-branch expectation search).
    pub ctx: u64,
}

impl BranchRecord {
    pub fn taken_cond(&self) -> ExprId {
        self.outcomes[self.taken].0
    }
}

pub struct Shadow<'p> {
    pub pool: &'p mut Pool,
    pub regs: Vec<ExprId>,
    pub mem: BTreeMap<u64, ExprId>,
    pub path: Vec<BranchRecord>,
    /// Shadows of the arguments of the call being made.
    pub args: Vec<ExprId>,
    /// Shadow of the value an external function returns.
    pub ret: ExprId,
    /// How many symbolic values were replaced by their concrete value.
    pub concretized: u64,
    /// Stop recording branches after this many (very long paths).
    pub max_path: usize,
    /// Calls of opaque user functions in progress: their branches are not recorded.
    pub opaque_frames: Vec<super::opaque::OpaqueFrame>,
}

impl<'p> Shadow<'p> {
    pub fn new(pool: &'p mut Pool) -> Shadow<'p> {
        Shadow {
            pool,
            regs: vec![],
            mem: BTreeMap::new(),
            path: vec![],
            args: vec![],
            ret: NONE,
            concretized: 0,
            max_path: 100_000,
            opaque_frames: vec![],
        }
    }
}

fn size_of(ty: Ty, ptr_bytes: u32) -> u32 {
    match ty {
        Ty::Ptr => ptr_bytes,
        Ty::Int(w) => (w as u32).div_ceil(8),
        Ty::F32 => 4,
        Ty::F64 => 8,
        _ => 0,
    }
}

impl<'m> Machine<'m> {
    #[inline]
    pub(super) fn sh(&self, rb: usize, r: Reg) -> ExprId {
        match &self.sym {
            Some(s) => s.regs.get(rb + r as usize).copied().unwrap_or(NONE),
            None => NONE,
        }
    }

    /// Shadow of register `r` as an expression (a constant if it is concrete).
    fn sh_expr(&mut self, rb: usize, r: Reg, w: u8) -> ExprId {
        let e = self.sh(rb, r);
        if e != NONE {
            return e;
        }
        let v = self.regs[rb + r as usize];
        self.sym.as_mut().unwrap().pool.constant(w, v)
    }

    fn set_sh(&mut self, rb: usize, r: Reg, e: ExprId) {
        if let Some(s) = &mut self.sym {
            let i = rb + r as usize;
            if s.regs.len() <= i {
                s.regs.resize(i + 1, NONE);
            }
            // A constant expression is no shadow at all.
            s.regs[i] = if e != NONE && s.pool.as_const(e).is_some() {
                NONE
            } else {
                e
            };
        }
    }

    /// Creates the input variable(s) of the input just consumed (`self.inputs.last()`).
    pub fn input_var(&mut self, byte: u32, w: u8) -> ExprId {
        let input = (self.inputs.len() - 1) as u32;
        match &mut self.sym {
            Some(s) => s.pool.var(VarKey { input, byte, w }),
            None => NONE,
        }
    }

    /// Symbolic bytes of `[addr, addr+n)` as one little-endian expression, or NONE if all concrete.
    pub fn mem_shadow(&mut self, addr: u64, n: u32) -> ExprId {
        let Some(s) = &self.sym else { return NONE };
        if s.mem.is_empty() || s.mem.range(addr..addr + n as u64).next().is_none() {
            return NONE;
        }
        let mut e: Option<ExprId> = None;
        for i in 0..n as u64 {
            let a = addr + i;
            let byte = match self.sym.as_ref().unwrap().mem.get(&a) {
                Some(b) => *b,
                None => {
                    let v = self.mem.read_uint(a, 1).unwrap_or(0);
                    self.sym.as_mut().unwrap().pool.constant(8, v)
                }
            };
            let pool = &mut *self.sym.as_mut().unwrap().pool;
            e = Some(match e {
                None => byte,
                Some(lo) => pool.concat(byte, lo),
            });
        }
        e.unwrap_or(NONE)
    }

    /// Records the shadow of a store of `n` bytes (NONE clears).
    pub fn set_mem_shadow(&mut self, addr: u64, n: u32, e: ExprId) {
        let Some(s) = &mut self.sym else { return };
        if e == NONE || s.pool.as_const(e).is_some() {
            if !s.mem.is_empty() {
                let keys: Vec<u64> = s
                    .mem
                    .range(addr..addr + n as u64)
                    .map(|(k, _)| *k)
                    .collect();
                for k in keys {
                    s.mem.remove(&k);
                }
            }
            return;
        }
        for i in 0..n {
            let b = s.pool.extract(8, (8 * i) as u8, e);
            if s.pool.as_const(b).is_some() {
                s.mem.remove(&(addr + i as u64));
            } else {
                s.mem.insert(addr + i as u64, b);
            }
        }
    }

    /// Clears the shadow of `[addr, addr+len)` (library writes, stack pops).
    pub fn clear_mem_shadow(&mut self, addr: u64, len: u64) {
        if let Some(s) = &mut self.sym {
            if s.mem.is_empty() {
                return;
            }
            let keys: Vec<u64> = s
                .mem
                .range(addr..addr.saturating_add(len))
                .map(|(k, _)| *k)
                .collect();
            for k in keys {
                s.mem.remove(&k);
            }
        }
    }

    /// memcpy/memmove: copies the shadow along with the bytes.
    pub fn copy_mem_shadow(&mut self, dst: u64, src: u64, len: u64) {
        let Some(s) = &mut self.sym else { return };
        if s.mem.is_empty() {
            return;
        }
        let moved: Vec<(u64, ExprId)> = s
            .mem
            .range(src..src.saturating_add(len))
            .map(|(k, v)| (k - src + dst, *v))
            .collect();
        let keys: Vec<u64> = s
            .mem
            .range(dst..dst.saturating_add(len))
            .map(|(k, _)| *k)
            .collect();
        for k in keys {
            s.mem.remove(&k);
        }
        for (k, v) in moved {
            s.mem.insert(k, v);
        }
    }

    fn concretize(&mut self) {
        if let Some(s) = &mut self.sym {
            s.concretized += 1;
        }
    }

    /// Computes the shadow of `inst`'s result. Runs before the concrete step, so operand
    /// registers and memory still hold their inputs.
    pub(super) fn shadow_inst(&mut self, inst: &Inst, rb: usize, site: (FuncId, BlockId)) {
        let pb = self.ptr_bits;
        match inst {
            Inst::Bin { op, w, dst, a, b } => {
                let (sa, sb) = (self.sh(rb, *a), self.sh(rb, *b));
                if sa == NONE && sb == NONE {
                    return self.set_sh(rb, *dst, NONE);
                }
                if sb != NONE && matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem)
                {
                    // Division by an input: the divisor being zero is an alternative to explore.
                    let pool = &mut *self.sym.as_mut().unwrap().pool;
                    let z = pool.constant(*w, 0);
                    let nz = pool.cmp(IPred::Ne, sb, z);
                    self.check(site, nz);
                }
                let (x, y) = (self.sh_expr(rb, *a, *w), self.sh_expr(rb, *b, *w));
                let e = self.sym.as_mut().unwrap().pool.bin(*op, *w, x, y);
                self.set_sh(rb, *dst, e);
            }
            Inst::ICmp { pred, w, dst, a, b } => {
                let (sa, sb) = (self.sh(rb, *a), self.sh(rb, *b));
                if sa == NONE && sb == NONE {
                    return self.set_sh(rb, *dst, NONE);
                }
                let (x, y) = (self.sh_expr(rb, *a, *w), self.sh_expr(rb, *b, *w));
                let e = self.sym.as_mut().unwrap().pool.cmp(*pred, x, y);
                self.set_sh(rb, *dst, e);
            }
            Inst::Cast {
                op,
                from,
                to,
                dst,
                a,
            } => {
                let sa = self.sh(rb, *a);
                if sa == NONE {
                    return self.set_sh(rb, *dst, NONE);
                }
                let (fw, tw) = (from.bits_with(pb) as u8, to.bits_with(pb) as u8);
                let pool = &mut *self.sym.as_mut().unwrap().pool;
                let e = match op {
                    CastOp::Trunc => pool.extract(tw, 0, sa),
                    CastOp::ZExt => pool.zext(tw, sa),
                    CastOp::SExt => pool.sext(tw, sa),
                    // Floats are tracked as their IEEE bit patterns.
                    CastOp::Bits if fw == tw => sa,
                    CastOp::Bits => NONE,
                    op => pool.fcast(*op, tw, sa),
                };
                if e == NONE {
                    self.concretize();
                }
                self.set_sh(rb, *dst, e);
            }
            Inst::Select {
                ty,
                dst,
                cond,
                t,
                f,
            } => {
                let (sc, st, sf) = (self.sh(rb, *cond), self.sh(rb, *t), self.sh(rb, *f));
                if sc == NONE {
                    let pick = if self.regs[rb + *cond as usize] & 1 != 0 {
                        st
                    } else {
                        sf
                    };
                    return self.set_sh(rb, *dst, pick);
                }
                let w = ty.bits_with(pb) as u8;
                let x = self.sh_expr(rb, *t, w);
                let y = self.sh_expr(rb, *f, w);
                let e = self.sym.as_mut().unwrap().pool.ite(sc, x, y);
                self.set_sh(rb, *dst, e);
            }
            Inst::Gep {
                dst,
                base,
                terms,
                offset,
            } => {
                let sbase = self.sh(rb, *base);
                let symbolic_terms = terms.iter().any(|(r, _, _)| self.sh(rb, *r) != NONE);
                if sbase == NONE && !symbolic_terms {
                    return self.set_sh(rb, *dst, NONE);
                }
                let w = pb as u8;
                let mut e = self.sh_expr(rb, *base, w);
                let pool_off = self.sym.as_mut().unwrap().pool.constant(w, *offset as u64);
                e = self
                    .sym
                    .as_mut()
                    .unwrap()
                    .pool
                    .bin(BinOp::Add, w, e, pool_off);
                for (r, iw, scale) in terms {
                    let idx = self.sh_expr(rb, *r, *iw);
                    let pool = &mut *self.sym.as_mut().unwrap().pool;
                    let idx = if *iw < w {
                        pool.sext(w, idx)
                    } else {
                        pool.extract(w, 0, idx)
                    };
                    let sc = pool.constant(w, *scale as u64);
                    let t = pool.bin(BinOp::Mul, w, idx, sc);
                    e = pool.bin(BinOp::Add, w, e, t);
                }
                self.set_sh(rb, *dst, e);
            }
            Inst::Load { dst, ty, addr } => {
                let n = size_of(*ty, pb / 8);
                let a = self.regs[rb + *addr as usize];
                let sa = self.sh(rb, *addr);
                if sa != NONE {
                    self.check_pointer(site, sa, a, n);
                }
                let e = if sa != NONE {
                    self.symbolic_load(sa, a, n)
                } else {
                    self.mem_shadow(a, n)
                };
                self.set_sh(rb, *dst, e);
            }
            Inst::Store { ty, addr, val } => {
                let n = size_of(*ty, pb / 8);
                let a = self.regs[rb + *addr as usize];
                let sa = self.sh(rb, *addr);
                if sa != NONE {
                    self.check_pointer(site, sa, a, n);
                    self.concretize();
                }
                let sv = self.sh(rb, *val);
                self.set_mem_shadow(a, n, sv);
            }
            Inst::LoadAgg { dst: _, .. } => {}
            Inst::StoreAgg { size, addr, .. } => {
                let a = self.regs[rb + *addr as usize];
                self.clear_mem_shadow(a, *size as u64);
            }
            Inst::ExtractValue { dst, .. } => self.set_sh(rb, *dst, NONE),
            Inst::Intrinsic {
                op,
                ty,
                dst: Val::Reg(d, _),
                args,
            } => {
                let any = args.iter().any(|r| self.sh(rb, *r) != NONE);
                if !any {
                    return self.set_sh(rb, *d, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                if let Some(f) = super::opaque::math_intrinsic(*op, w) {
                    let xs = args.iter().map(|r| self.sh_expr(rb, *r, w)).collect();
                    let pool = &mut *self.sym.as_mut().unwrap().pool;
                    let e = pool.opaque(crate::smt::opaque::OpaqueFn::Math(f), w, xs);
                    return self.set_sh(rb, *d, e);
                }
                let e = match op {
                    IntrinsicOp::Copy => self.sh(rb, args[0]),
                    IntrinsicOp::SMax
                    | IntrinsicOp::SMin
                    | IntrinsicOp::UMax
                    | IntrinsicOp::UMin => {
                        let (x, y) = (self.sh_expr(rb, args[0], w), self.sh_expr(rb, args[1], w));
                        let pred = match op {
                            IntrinsicOp::SMax => IPred::Sge,
                            IntrinsicOp::SMin => IPred::Sle,
                            IntrinsicOp::UMax => IPred::Uge,
                            _ => IPred::Ule,
                        };
                        let pool = &mut *self.sym.as_mut().unwrap().pool;
                        let c = pool.cmp(pred, x, y);
                        pool.ite(c, x, y)
                    }
                    IntrinsicOp::CtPop => {
                        let x = self.sh_expr(rb, args[0], w);
                        let pool = &mut *self.sym.as_mut().unwrap().pool;
                        let mut sum = pool.constant(w, 0);
                        for i in 0..w {
                            let bit = pool.extract(1, i, x);
                            let bit = pool.zext(w, bit);
                            sum = pool.bin(BinOp::Add, w, sum, bit);
                        }
                        sum
                    }
                    IntrinsicOp::BSwap => {
                        let x = self.sh_expr(rb, args[0], w);
                        let pool = &mut *self.sym.as_mut().unwrap().pool;
                        let mut acc = pool.extract(8, 0, x);
                        for i in 1..w / 8 {
                            let b = pool.extract(8, 8 * i, x);
                            acc = pool.concat(acc, b);
                        }
                        acc
                    }
                    IntrinsicOp::FMulAdd => {
                        // Unfused, as the x86-64 code clang emits without FMA.
                        let (x, y, z) = (
                            self.sh_expr(rb, args[0], w),
                            self.sh_expr(rb, args[1], w),
                            self.sh_expr(rb, args[2], w),
                        );
                        let pool = &mut *self.sym.as_mut().unwrap().pool;
                        let m = pool.fbin(FBinOp::Mul, w, x, y);
                        pool.fbin(FBinOp::Add, w, m, z)
                    }
                    IntrinsicOp::FAbs => {
                        let x = self.sh_expr(rb, args[0], w);
                        let pool = &mut *self.sym.as_mut().unwrap().pool;
                        let m = pool.constant(w, (1u64 << (w - 1)) - 1);
                        pool.bin(BinOp::And, w, x, m)
                    }
                    IntrinsicOp::Abs => {
                        let x = self.sh_expr(rb, args[0], w);
                        let pool = &mut *self.sym.as_mut().unwrap().pool;
                        let z = pool.constant(w, 0);
                        let neg = pool.bin(BinOp::Sub, w, z, x);
                        let c = pool.cmp(IPred::Slt, x, z);
                        pool.ite(c, neg, x)
                    }
                    _ => {
                        self.concretize();
                        NONE
                    }
                };
                self.set_sh(rb, *d, e);
            }
            Inst::Intrinsic {
                dst: Val::Agg(..),
                args,
                ..
            } => {
                if args.iter().any(|r| self.sh(rb, *r) != NONE) {
                    self.concretize();
                }
            }
            Inst::MemCopy { dst, src, len, .. } => {
                let (d, s, n) = (
                    self.regs[rb + *dst as usize],
                    self.regs[rb + *src as usize],
                    self.regs[rb + *len as usize],
                );
                if self.sh(rb, *len) != NONE {
                    self.concretize();
                }
                self.copy_mem_shadow(d, s, n);
            }
            Inst::MemSet { dst, byte, len } => {
                let (d, n) = (self.regs[rb + *dst as usize], self.regs[rb + *len as usize]);
                let sb = self.sh(rb, *byte);
                if sb == NONE {
                    self.clear_mem_shadow(d, n);
                } else {
                    let b = self.sym.as_mut().unwrap().pool.extract(8, 0, sb);
                    for i in 0..n.min(1 << 20) {
                        self.sym.as_mut().unwrap().mem.insert(d + i, b);
                    }
                }
            }
            Inst::FBin { op, ty, dst, a, b } => {
                if self.sh(rb, *a) == NONE && self.sh(rb, *b) == NONE {
                    return self.set_sh(rb, *dst, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                let (x, y) = (self.sh_expr(rb, *a, w), self.sh_expr(rb, *b, w));
                let e = self.sym.as_mut().unwrap().pool.fbin(*op, w, x, y);
                self.set_sh(rb, *dst, e);
            }
            Inst::FNeg { ty, dst, a } => {
                let sa = self.sh(rb, *a);
                if sa == NONE {
                    return self.set_sh(rb, *dst, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                let pool = &mut *self.sym.as_mut().unwrap().pool;
                let sign = pool.constant(w, 1u64 << (w - 1));
                let e = pool.bin(BinOp::Xor, w, sa, sign);
                self.set_sh(rb, *dst, e);
            }
            Inst::FCmp {
                pred,
                ty,
                dst,
                a,
                b,
            } => {
                if self.sh(rb, *a) == NONE && self.sh(rb, *b) == NONE {
                    return self.set_sh(rb, *dst, NONE);
                }
                let w = ty.bits_with(pb) as u8;
                let (x, y) = (self.sh_expr(rb, *a, w), self.sh_expr(rb, *b, w));
                let e = self.sym.as_mut().unwrap().pool.fcmp(*pred, x, y);
                self.set_sh(rb, *dst, e);
            }
            Inst::Alloca { dst, .. } => {
                self.set_sh(rb, *dst, NONE);
            }
            _ => {}
        }
    }

    /// Records a check that held on this run (`ok`) with its violation as the alternative, so
    /// that search can look for the input that breaks it (a crash is a test too).
    fn check(&mut self, site: (FuncId, BlockId), ok: ExprId) {
        let s = self.sym.as_mut().unwrap();
        if s.path.len() >= s.max_path
            || s.pool.as_const(ok).is_some()
            || !s.opaque_frames.is_empty()
        {
            return;
        }
        let bad = s.pool.not(ok);
        let ctx = self.context();
        let s = self.sym.as_mut().unwrap();
        s.path.push(BranchRecord {
            func: site.0,
            block: site.1,
            taken: 0,
            outcomes: vec![(ok, NO_GOAL, site.1), (bad, NO_GOAL, site.1)],
            ctx,
        });
    }

    /// An access of `n` bytes through a symbolic pointer: in bounds of the object it hit.
    fn check_pointer(&mut self, site: (FuncId, BlockId), addr_e: ExprId, addr: u64, n: u32) {
        let Some((base, size)) = self.mem.object_bounds(addr) else {
            return;
        };
        if size < n as u64 {
            return;
        }
        let w = self.ptr_bits as u8;
        let pool = &mut *self.sym.as_mut().unwrap().pool;
        let b = pool.constant(w, base);
        let off = pool.bin(BinOp::Sub, w, addr_e, b);
        let last = pool.constant(w, size - n as u64);
        let ok = pool.cmp(IPred::Ule, off, last);
        self.check(site, ok);
    }

    /// A load through a symbolic pointer: an if-then-else over the elements of the object.
    fn symbolic_load(&mut self, addr_e: ExprId, addr: u64, n: u32) -> ExprId {
        let Some((base, size)) = self.mem.object_bounds(addr) else {
            self.concretize();
            return self.mem_shadow(addr, n);
        };
        if size > MAX_SYMBOLIC_OBJECT || n == 0 {
            self.concretize();
            return self.mem_shadow(addr, n);
        }
        let w = (n * 8) as u8;
        let aw = self.ptr_bits as u8;
        let stride = if (addr - base) % n as u64 == 0 {
            n as u64
        } else {
            1
        };
        let mut elems: Vec<(u64, ExprId)> = vec![];
        let mut off = 0u64;
        while off + n as u64 <= size {
            let s = self.mem_shadow(base + off, n);
            let val = if s != NONE {
                s
            } else {
                let v = self.mem.read_uint(base + off, n).unwrap_or(0);
                self.sym.as_mut().unwrap().pool.constant(w, v)
            };
            elems.push((base + off, val));
            off += stride;
        }
        // A balanced tree of comparisons on the address: solvers handle depth log(n) far
        // better than a chain of n if-then-elses.
        fn tree(pool: &mut Pool, a: ExprId, aw: u8, e: &[(u64, ExprId)]) -> ExprId {
            if e.len() == 1 {
                return e[0].1;
            }
            let mid = e.len() / 2;
            let k = pool.constant(aw, e[mid].0);
            let c = pool.cmp(IPred::Ult, a, k);
            let l = tree(pool, a, aw, &e[..mid]);
            let r = tree(pool, a, aw, &e[mid..]);
            pool.ite(c, l, r)
        }
        let result = if elems.is_empty() {
            None
        } else {
            Some(tree(
                &mut *self.sym.as_mut().unwrap().pool,
                addr_e,
                aw,
                &elems,
            ))
        };
        result.unwrap_or(NONE)
    }

    /// Records a symbolic branch decision (conditional branch or switch) of the current block.
    pub(super) fn shadow_branch(
        &mut self,
        term: &Terminator,
        rb: usize,
        func: FuncId,
        block: BlockId,
    ) {
        let Some(s) = &self.sym else { return };
        if s.path.len() >= s.max_path || !s.opaque_frames.is_empty() {
            return;
        }
        match term {
            Terminator::CondBr {
                cond,
                then_edge,
                else_edge,
                then_goal,
                else_goal,
            } => {
                let c = self.sh(rb, *cond);
                if c == NONE {
                    return;
                }
                let taken = if self.regs[rb + *cond as usize] & 1 != 0 {
                    0
                } else {
                    1
                };
                let pool = &mut *self.sym.as_mut().unwrap().pool;
                let c = pool.extract(1, 0, c);
                let nc = pool.not(c);
                let rec = BranchRecord {
                    func,
                    block,
                    taken,
                    outcomes: vec![
                        (c, *then_goal, then_edge.target),
                        (nc, *else_goal, else_edge.target),
                    ],
                    ctx: self.context(),
                };
                self.sym.as_mut().unwrap().path.push(rec);
            }
            Terminator::Switch {
                val,
                w,
                cases,
                default,
                default_goal,
            } => {
                let sv = self.sh(rb, *val);
                if sv == NONE {
                    return;
                }
                let v = self.regs[rb + *val as usize];
                let pool = &mut *self.sym.as_mut().unwrap().pool;
                let mut outcomes = vec![];
                let mut none_match = pool.constant(1, 1);
                let mut taken = cases.len();
                for (i, (c, e, g)) in cases.iter().enumerate() {
                    let k = pool.constant(*w, *c);
                    let eq = pool.cmp(IPred::Eq, sv, k);
                    let ne = pool.not(eq);
                    none_match = pool.and(none_match, ne);
                    outcomes.push((eq, *g, e.target));
                    if *c == v && taken == cases.len() {
                        taken = i;
                    }
                }
                outcomes.push((none_match, *default_goal, default.target));
                let rec = BranchRecord {
                    func,
                    block,
                    taken,
                    outcomes,
                    ctx: self.context(),
                };
                self.sym.as_mut().unwrap().path.push(rec);
            }
            _ => {}
        }
    }
}
