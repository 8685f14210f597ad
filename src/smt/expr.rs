//! Symbolic expressions: a hash-consed DAG of bit-vector terms with the exact semantics of the
//! concrete interpreter (`exec::ops`), a simplifier applied at construction, and concrete
//! evaluation under an assignment of the input variables.
//!
//! Booleans are 1-bit vectors. Widths are 1..=64 bits.

use super::opaque::{OpaqueFn, UserFnsRef};
use crate::ir::ops::{self, mask, sext};
use crate::ir::rounding::Rounding;
use crate::ir::{BinOp, CastOp, FBinOp, FPred, IPred, Ty};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// Values of evaluated expressions, during one evaluation (`Pool::eval`). Hashed with Fx:
/// concrete evaluation sits in the hottest loops (enumeration, the walk, every model check),
/// and SipHash of a u32 key cost a fifth of a concolic run's time there.
pub type Memo = rustc_hash::FxHashMap<ExprId, u64>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Const {
        w: u8,
        v: u64,
    },
    /// Input variable `id` (see `Pool::var`).
    Var {
        w: u8,
        id: u32,
    },
    Bin {
        op: BinOp,
        w: u8,
        a: ExprId,
        b: ExprId,
    },
    /// 1-bit result.
    Cmp {
        pred: IPred,
        a: ExprId,
        b: ExprId,
    },
    Ite {
        w: u8,
        c: ExprId,
        t: ExprId,
        f: ExprId,
    },
    ZExt {
        w: u8,
        a: ExprId,
    },
    SExt {
        w: u8,
        a: ExprId,
    },
    /// Bits `lo .. lo + w` of `a`.
    Extract {
        w: u8,
        lo: u8,
        a: ExprId,
    },
    /// `hi` bits above `lo` bits.
    Concat {
        w: u8,
        hi: ExprId,
        lo: ExprId,
    },
    /// IEEE floating point over bit patterns (32 or 64 bits wide), rounding as `rm` says (the
    /// mode the program set with `fesetround`; to nearest, ties to even, by default).
    FBin {
        op: FBinOp,
        w: u8,
        a: ExprId,
        b: ExprId,
        rm: Rounding,
    },
    /// 1-bit result; operands are `w`-bit floats.
    FCmp {
        pred: FPred,
        w: u8,
        a: ExprId,
        b: ExprId,
    },
    /// Conversions involving floats (`FpExt`, `FpTrunc`, `FpToSi`, `FpToUi`, `SiToFp`, `UiToFp`)
    /// to a `w`-bit result.
    FCast {
        op: CastOp,
        w: u8,
        a: ExprId,
    },
    /// A call kept opaque (`Pool::opaque_call`): a `w`-bit result evaluated concretely.
    Opaque {
        w: u8,
        call: u32,
    },
}

/// The function and arguments of an opaque node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OpaqueCall {
    pub f: OpaqueFn,
    pub args: Vec<ExprId>,
}

/// A float operation on `w`-bit patterns in rounding mode `rm`, as the machine computes it.
fn fbin_in(rm: Rounding, op: FBinOp, w: u8, x: u64, y: u64) -> u64 {
    use std::hint::black_box;
    rm.scope(|| ops::fbin(op, fty(w), black_box(x), black_box(y)))
}

fn fty(w: u8) -> Ty {
    if w == 32 { Ty::F32 } else { Ty::F64 }
}

/// Where an input variable comes from: the `input`-th input of a run, byte `byte` of it for
/// `klee_make_symbolic` buffers (scalars use byte 0 and their full width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarKey {
    pub input: u32,
    pub byte: u32,
    pub w: u8,
}

/// What a product or quotient of two non-constants adds to an expression's `Pool::depth`.
pub const NONLINEAR_DEPTH: u32 = 64;

#[derive(Default, Debug)]
pub struct Pool {
    nodes: Vec<Node>,
    /// Height of each node's tree (by id): 1 for a leaf.
    heights: Vec<u32>,
    map: rustc_hash::FxHashMap<Node, ExprId>,
    pub vars: std::rc::Rc<Vec<VarKey>>,
    var_map: HashMap<VarKey, u32>,
    /// Variables each expression depends on (sorted), computed lazily.
    /// Per expression (by id): its variables, once asked for (a vector: slicing asks for
    /// every constraint of a path on each query).
    var_sets: Vec<Option<std::rc::Rc<Vec<u32>>>>,
    /// Function and arguments of every opaque node (`Node::Opaque::call` indexes this).
    calls: Vec<OpaqueCall>,
    call_map: HashMap<OpaqueCall, u32>,
    /// Evaluates the program's own opaque functions (`--opaque`); None when there are none.
    pub user_fns: Option<UserFnsRef>,
    /// `depth` of each arithmetic node (by id; 0 past the end).
    depths: Vec<u32>,
}

impl Pool {
    pub fn new() -> Pool {
        Pool::default()
    }

    /// An empty pool that evaluates the same opaque functions (every expression id of this
    /// one is meaningless in it).
    pub fn emptied(&mut self) -> Pool {
        Pool {
            user_fns: self.user_fns.take(),
            ..Pool::default()
        }
    }

    pub fn node(&self, e: ExprId) -> &Node {
        &self.nodes[e.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn width(&self, e: ExprId) -> u8 {
        match self.node(e) {
            Node::Const { w, .. }
            | Node::Var { w, .. }
            | Node::Bin { w, .. }
            | Node::Ite { w, .. }
            | Node::ZExt { w, .. }
            | Node::SExt { w, .. }
            | Node::Extract { w, .. }
            | Node::Concat { w, .. }
            | Node::FBin { w, .. }
            | Node::FCast { w, .. }
            | Node::Opaque { w, .. } => *w,
            Node::Cmp { .. } | Node::FCmp { .. } => 1,
        }
    }

    fn intern(&mut self, n: Node) -> ExprId {
        if let Some(&e) = self.map.get(&n) {
            return e;
        }
        let e = ExprId(self.nodes.len() as u32);
        let h = |x: &ExprId| self.heights[x.0 as usize];
        let below = match &n {
            Node::Const { .. } | Node::Var { .. } => 0,
            Node::Bin { a, b, .. }
            | Node::Cmp { a, b, .. }
            | Node::FBin { a, b, .. }
            | Node::FCmp { a, b, .. }
            | Node::Concat { hi: a, lo: b, .. } => h(a).max(h(b)),
            Node::Ite { c, t, f, .. } => h(c).max(h(t)).max(h(f)),
            Node::ZExt { a, .. }
            | Node::SExt { a, .. }
            | Node::Extract { a, .. }
            | Node::FCast { a, .. } => h(a),
            Node::Opaque { call, .. } => self.calls[*call as usize]
                .args
                .iter()
                .map(h)
                .max()
                .unwrap_or(0),
        };
        self.heights.push(below + 1);
        self.nodes.push(n.clone());
        self.map.insert(n, e);
        e
    }

    pub fn as_const(&self, e: ExprId) -> Option<u64> {
        match self.node(e) {
            Node::Const { v, .. } => Some(*v),
            _ => None,
        }
    }

    pub fn constant(&mut self, w: u8, v: u64) -> ExprId {
        self.intern(Node::Const {
            w,
            v: mask(v, w as u32),
        })
    }

    pub fn var(&mut self, key: VarKey) -> ExprId {
        let id = match self.var_map.get(&key) {
            Some(&i) => i,
            None => {
                let i = self.vars.len() as u32;
                std::rc::Rc::make_mut(&mut self.vars).push(key);
                self.var_map.insert(key, i);
                i
            }
        };
        self.intern(Node::Var { w: key.w, id })
    }

    pub fn bin(&mut self, op: BinOp, w: u8, a: ExprId, b: ExprId) -> ExprId {
        let (ca, cb) = (self.as_const(a), self.as_const(b));
        if let (Some(x), Some(y)) = (ca, cb)
            && let Ok(v) = ops::bin(op, w, x, y)
        {
            return self.constant(w, v);
        }
        use BinOp::*;
        let all = mask(u64::MAX, w as u32);
        // Identities (constants on either side of commutative operators).
        match (op, ca, cb) {
            (Add | Sub | Or | Xor | Shl | LShr | AShr, _, Some(0)) => return a,
            (Add | Or | Xor, Some(0), _) => return b,
            (Mul | UDiv | SDiv, _, Some(1)) => return a,
            (Mul, Some(1), _) => return b,
            (Mul | And, _, Some(0)) | (Mul | And, Some(0), _) => return self.constant(w, 0),
            (And, _, Some(c)) if c == all => return a,
            (And, Some(c), _) if c == all => return b,
            (Or, _, Some(c)) | (Or, Some(c), _) if c == all => return self.constant(w, all),
            _ => {}
        }
        if a == b {
            match op {
                And | Or => return a,
                Xor | Sub => return self.constant(w, 0),
                _ => {}
            }
        }
        // (x + c1) - (x + c2) = c1 - c2: the difference of two pointers into one object.
        if op == Sub {
            let (xa, c1) = self.split_offset(a);
            let (xb, c2) = self.split_offset(b);
            if xa == xb {
                return self.constant(w, c1.wrapping_sub(c2));
            }
        }
        // Constant folding through one level: (a + c1) + c2, (a + c1) - c2.
        if let (Add | Sub, Some(c2)) = (op, cb) {
            if let Node::Bin {
                op: Add,
                a: inner,
                b: c1e,
                ..
            } = self.node(a).clone()
                && let Some(c1) = self.as_const(c1e)
            {
                let c = if op == Add {
                    c1.wrapping_add(c2)
                } else {
                    c1.wrapping_sub(c2)
                };
                let k = self.constant(w, c);
                return self.bin(Add, w, inner, k);
            }
            if op == Sub {
                let k = self.constant(w, c2.wrapping_neg());
                return self.bin(Add, w, a, k);
            }
        }
        // Canonical order for commutative operators: constant last.
        let (a, b) = if matches!(op, Add | Mul | And | Or | Xor) && ca.is_some() && cb.is_none() {
            (b, a)
        } else {
            (a, b)
        };
        if op == And
            && let Some(c) = self.as_const(b)
            && let Some(e) = self.and_mask(w, a, c)
        {
            return e;
        }
        // (x | c1) | c2 = x | (c1 | c2): flags set one by one stay one node deep.
        if let (Or, Some(c2)) = (op, self.as_const(b))
            && let Node::Bin {
                op: Or, a: x, b: k, ..
            } = self.node(a).clone()
            && let Some(c1) = self.as_const(k)
        {
            let m = self.constant(w, c1 | c2);
            return self.bin(Or, w, x, m);
        }
        // x86 masks shift counts; make it explicit so the solver sees the same semantics.
        // (Widths below 5 bits cannot hold a count that the mask would change.)
        let b = if matches!(op, Shl | LShr | AShr) && self.as_const(b).is_none() && w >= 5 {
            let m = self.constant(w, if w > 32 { 63 } else { 31 });
            self.bin(And, w, b, m)
        } else {
            b
        };
        let e = self.intern(Node::Bin { op, w, a, b });
        if self.depths.len() <= e.0 as usize {
            self.depths.resize(e.0 as usize + 1, 0);
            // Only products and quotients of two non-constants count (bit-blasted, a
            // multiplier circuit each): long linear chains are what solvers handle well.
            let cost = match op {
                Mul | UDiv | SDiv | URem | SRem
                    if self.as_const(a).is_none() && self.as_const(b).is_none() =>
                {
                    NONLINEAR_DEPTH
                }
                _ => 0,
            };
            self.depths[e.0 as usize] = cost + self.depth(a).max(self.depth(b));
        }
        e
    }

    /// The height of `e`'s tree: how deep every recursive walk of it (the solvers' translation,
    /// evaluation, rewriting) goes.
    pub fn height(&self, e: ExprId) -> u32 {
        self.heights[e.0 as usize]
    }

    /// How many non-linear operations (products and quotients of two non-constants) deep `e`
    /// is, each counting `NONLINEAR_DEPTH`: a loop that multiplies a value by an input each
    /// time builds an expression as deep as its count.
    pub fn depth(&self, e: ExprId) -> u32 {
        self.depths.get(e.0 as usize).copied().unwrap_or(0)
    }

    /// `e` as `x + c` (c = 0 when `e` adds no constant).
    pub fn split_offset(&self, e: ExprId) -> (ExprId, u64) {
        if let Node::Bin {
            op: BinOp::Add,
            a,
            b,
            ..
        } = self.node(e)
            && let Some(c) = self.as_const(*b)
        {
            return (*a, c);
        }
        (e, 0)
    }

    /// `a & c` when masking simplifies it: nested masks merge, and a mask distributes over an
    /// `|` whose operand it clears or leaves alone. This is how a bit-field store reads: the
    /// storage unit is loaded, the field's bits cleared, the new bits or-ed in, stored back;
    /// after every field of a local was stored, the unit's uninitialized first value no longer
    /// occurs in it (a decision on a field is then no indeterminate one).
    fn and_mask(&mut self, w: u8, a: ExprId, c: u64) -> Option<ExprId> {
        let ones = self.maybe_ones(a, 6);
        if ones & c == 0 {
            return Some(self.constant(w, 0));
        }
        if ones & !c == 0 {
            return Some(a);
        }
        match self.node(a).clone() {
            Node::Bin {
                op: BinOp::And,
                a: x,
                b: k,
                ..
            } => {
                let k = self.as_const(k)?;
                let m = self.constant(w, k & c);
                Some(self.bin(BinOp::And, w, x, m))
            }
            Node::Bin {
                op: BinOp::Or,
                a: x,
                b: y,
                ..
            } => {
                let masked = |p: &Pool, e: ExprId| {
                    let maybe = p.maybe_ones(e, 6);
                    maybe & c == 0 || maybe & !c == 0
                };
                if !masked(self, x) && !masked(self, y) {
                    return None;
                }
                let k = self.constant(w, c);
                let (x, y) = (self.bin(BinOp::And, w, x, k), self.bin(BinOp::And, w, y, k));
                Some(self.bin(BinOp::Or, w, x, y))
            }
            _ => None,
        }
    }

    /// The bits of `e` that may be 1: a cheap over-approximation (masks, shifts by constants,
    /// zero extensions, extracts, concatenations and or-s of those, `depth` levels deep).
    fn maybe_ones(&self, e: ExprId, depth: u32) -> u64 {
        let all = mask(u64::MAX, self.width(e) as u32);
        match self.node(e) {
            Node::Const { v, .. } => *v,
            _ if depth == 0 => all,
            Node::Bin { op, a, b, .. } => {
                let k = self.as_const(*b);
                let ma = || self.maybe_ones(*a, depth - 1);
                match (op, k) {
                    (BinOp::And, _) => ma() & self.maybe_ones(*b, depth - 1),
                    (BinOp::Or, _) => ma() | self.maybe_ones(*b, depth - 1),
                    (BinOp::Shl, Some(k)) if k < 64 => (ma() << k) & all,
                    (BinOp::LShr, Some(k)) if k < 64 => ma() >> k,
                    _ => all,
                }
            }
            Node::ZExt { a, .. } => self.maybe_ones(*a, depth - 1),
            Node::Extract { lo, a, .. } => (self.maybe_ones(*a, depth - 1) >> lo) & all,
            Node::Concat { hi, lo, .. } => {
                let lw = self.width(*lo) as u32;
                let h = self.maybe_ones(*hi, depth - 1);
                ((h.checked_shl(lw).unwrap_or(0)) | self.maybe_ones(*lo, depth - 1)) & all
            }
            Node::Cmp { .. } | Node::FCmp { .. } => 1,
            _ => all,
        }
    }

    pub fn cmp(&mut self, pred: IPred, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.constant(1, ops::icmp(pred, w, x, y) as u64);
        }
        if a == b {
            let v = matches!(
                pred,
                IPred::Eq | IPred::Uge | IPred::Ule | IPred::Sge | IPred::Sle
            );
            return self.constant(1, v as u64);
        }
        // (zext c) == 1 / != 0 on booleans: the condition itself.
        if w == 1
            && let Some(c) = self.as_const(b)
        {
            match (pred, c) {
                (IPred::Eq, 1) | (IPred::Ne, 0) => return a,
                (IPred::Eq, 0) | (IPred::Ne, 1) => return self.not(a),
                _ => {}
            }
        }
        // zext(bool) == c: a comparison of the boolean itself (or a constant).
        if let (Node::ZExt { a: inner, .. }, Some(c)) = (self.node(a).clone(), self.as_const(b))
            && self.width(inner) == 1
            && matches!(pred, IPred::Eq | IPred::Ne)
        {
            if c > 1 {
                return self.constant(1, (pred == IPred::Ne) as u64);
            }
            let k = self.constant(1, c);
            return self.cmp(pred, inner, k);
        }
        self.intern(Node::Cmp { pred, a, b })
    }

    /// Boolean negation (1-bit).
    pub fn not(&mut self, c: ExprId) -> ExprId {
        if let Some(v) = self.as_const(c) {
            return self.constant(1, (v ^ 1) & 1);
        }
        if let Node::Cmp { pred, a, b } = self.node(c).clone() {
            return self.cmp(pred.negate(), a, b);
        }
        if let Node::Bin {
            op: BinOp::Xor,
            w: 1,
            a,
            b,
        } = self.node(c).clone()
            && self.as_const(b) == Some(1)
        {
            return a;
        }
        let one = self.constant(1, 1);
        self.intern(Node::Bin {
            op: BinOp::Xor,
            w: 1,
            a: c,
            b: one,
        })
    }

    pub fn and(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.bin(BinOp::And, 1, a, b)
    }

    pub fn ite(&mut self, c: ExprId, t: ExprId, f: ExprId) -> ExprId {
        if let Some(v) = self.as_const(c) {
            return if v & 1 == 1 { t } else { f };
        }
        if t == f {
            return t;
        }
        let w = self.width(t);
        if w == 1 {
            if let (Some(1), Some(0)) = (self.as_const(t), self.as_const(f)) {
                return c;
            }
            if let (Some(0), Some(1)) = (self.as_const(t), self.as_const(f)) {
                return self.not(c);
            }
        }
        self.intern(Node::Ite { w, c, t, f })
    }

    pub fn zext(&mut self, w: u8, a: ExprId) -> ExprId {
        let aw = self.width(a);
        if aw == w {
            return a;
        }
        if aw > w {
            return self.extract(w, 0, a);
        }
        if let Some(v) = self.as_const(a) {
            return self.constant(w, v);
        }
        if let Node::ZExt { a: inner, .. } = self.node(a).clone() {
            return self.zext(w, inner);
        }
        self.intern(Node::ZExt { w, a })
    }

    pub fn sext(&mut self, w: u8, a: ExprId) -> ExprId {
        let aw = self.width(a);
        if aw == w {
            return a;
        }
        if aw > w {
            return self.extract(w, 0, a);
        }
        if let Some(v) = self.as_const(a) {
            return self.constant(w, sext(v, aw as u32) as u64);
        }
        self.intern(Node::SExt { w, a })
    }

    pub fn extract(&mut self, w: u8, lo: u8, a: ExprId) -> ExprId {
        let aw = self.width(a);
        if lo == 0 && w == aw {
            return a;
        }
        if let Some(v) = self.as_const(a) {
            return self.constant(w, v >> lo);
        }
        match self.node(a).clone() {
            Node::Extract {
                lo: l2, a: inner, ..
            } => return self.extract(w, lo + l2, inner),
            Node::ZExt { a: inner, .. } | Node::SExt { a: inner, .. }
                if lo as u32 + w as u32 <= self.width(inner) as u32 =>
            {
                return self.extract(w, lo, inner);
            }
            Node::ZExt { a: inner, .. } if lo >= self.width(inner) => return self.constant(w, 0),

            Node::Concat { hi, lo: low, .. } => {
                let lw = self.width(low);
                if lo as u32 + w as u32 <= lw as u32 {
                    return self.extract(w, lo, low);
                }
                if lo >= lw {
                    return self.extract(w, lo - lw, hi);
                }
            }
            _ => {}
        }
        self.intern(Node::Extract { w, lo, a })
    }

    pub fn concat(&mut self, hi: ExprId, lo: ExprId) -> ExprId {
        let (hw, lw) = (self.width(hi), self.width(lo));
        let w = hw + lw;
        if let (Some(h), Some(l)) = (self.as_const(hi), self.as_const(lo)) {
            return self.constant(w, (h << lw) | l);
        }
        // Re-join adjacent extracts of the same value (bytes of a stored word loaded back).
        if let (Node::Extract { lo: hl, a: ha, .. }, Node::Extract { lo: ll, a: la, .. }) =
            (self.node(hi).clone(), self.node(lo).clone())
            && ha == la
            && ll + lw == hl
        {
            return self.extract(w, ll, ha);
        }
        // Zero high part: a zero extension.
        if self.as_const(hi) == Some(0) {
            return self.zext(w, lo);
        }
        // concat(extract(x, hi-part), concat(extract(x, mid), rest)) → concat(extract(x, hi+mid), rest)
        if let (Node::Extract { lo: hl, a: ha, .. }, Node::Concat { hi: mh, lo: ml, .. }) =
            (self.node(hi).clone(), self.node(lo).clone())
            && let Node::Extract {
                lo: mlo,
                a: ma,
                w: mw,
            } = self.node(mh).clone()
            && ma == ha
            && mlo + mw == hl
        {
            let joined = self.extract(hw + mw, mlo, ha);
            return self.concat(joined, ml);
        }
        self.intern(Node::Concat { w, hi, lo })
    }

    pub fn fbin(&mut self, op: FBinOp, w: u8, a: ExprId, b: ExprId) -> ExprId {
        self.fbin_in(Rounding::ToNearest, op, w, a, b)
    }

    /// `fbin` rounding as `rm` says.
    pub fn fbin_in(&mut self, rm: Rounding, op: FBinOp, w: u8, a: ExprId, b: ExprId) -> ExprId {
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.constant(w, fbin_in(rm, op, w, x, y));
        }
        self.intern(Node::FBin { op, w, a, b, rm })
    }

    pub fn fcmp(&mut self, pred: FPred, a: ExprId, b: ExprId) -> ExprId {
        let w = self.width(a);
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.constant(1, ops::fcmp(pred, fty(w), x, y) as u64);
        }
        if a == b {
            // A value against itself asks only whether it is a NaN, as its argument is for the
            // functions that round to an integer or drop the sign (`rint(x) != floor(x)` in
            // a directed rounding mode, whose solver query `floor(x) != floor(x)` Z3 took
            // seconds over).
            let x = self.nan_source(a);
            return self.intern(Node::FCmp {
                pred,
                w,
                a: x,
                b: x,
            });
        }
        self.intern(Node::FCmp { pred, w, a, b })
    }

    /// The expression that is a NaN exactly when `a` is one: `a`'s argument, through the
    /// math functions that keep every other value a number (floor, ceil, trunc, round, rint,
    /// fabs).
    fn nan_source(&self, mut a: ExprId) -> ExprId {
        use crate::ir::math::MathOp as M;
        while let Node::Opaque { call, .. } = self.node(a) {
            let c = &self.calls[*call as usize];
            match (&c.f, c.args.as_slice()) {
                (OpaqueFn::Math(f), [x])
                    if matches!(
                        f.op,
                        M::Floor | M::Ceil | M::Trunc | M::Round | M::Rint | M::Fabs
                    ) && self.width(*x) == self.width(a) =>
                {
                    a = *x
                }
                _ => break,
            }
        }
        a
    }

    /// A conversion to a `w`-bit result (float or integer, as `op` says).
    pub fn fcast(&mut self, op: CastOp, w: u8, a: ExprId) -> ExprId {
        if let Some(x) = self.as_const(a) {
            let aw = self.width(a);
            let (from, to) = cast_tys(op, aw, w);
            return self.constant(w, ops::cast(op, from, to, x, 64));
        }
        self.intern(Node::FCast { op, w, a })
    }

    /// A `w`-bit call of `f` on `args`, kept as a node evaluated concretely. Folds to a constant
    /// when every argument is one (math functions only: user functions may be unavailable).
    pub fn opaque(&mut self, f: OpaqueFn, w: u8, args: Vec<ExprId>) -> ExprId {
        if !matches!(f, OpaqueFn::User(_)) {
            let consts: Option<Vec<u64>> = args.iter().map(|a| self.as_const(*a)).collect();
            if let Some(c) = consts {
                return self.constant(w, self.eval_opaque(f, &c));
            }
        }
        let key = OpaqueCall { f, args };
        let call = match self.call_map.get(&key) {
            Some(&c) => c,
            None => {
                let c = self.calls.len() as u32;
                self.calls.push(key.clone());
                self.call_map.insert(key, c);
                c
            }
        };
        self.intern(Node::Opaque { w, call })
    }

    pub fn opaque_call(&self, call: u32) -> &OpaqueCall {
        &self.calls[call as usize]
    }

    /// Concrete result of an opaque call on argument values.
    pub fn eval_opaque(&self, f: OpaqueFn, args: &[u64]) -> u64 {
        match f {
            OpaqueFn::Math(m) => m.eval(args),
            OpaqueFn::Host(h) => crate::ir::host_fns::get(h).call(args).0,
            OpaqueFn::User(func) => self
                .user_fns
                .as_ref()
                .and_then(|u| u.0.call(func, args))
                .unwrap_or(0),
        }
    }

    /// The operands of `e`.
    pub fn children(&self, e: ExprId) -> Vec<ExprId> {
        match self.node(e) {
            Node::Opaque { call, .. } => self.calls[*call as usize].args.clone(),
            Node::Const { .. } | Node::Var { .. } => vec![],
            Node::Bin { a, b, .. }
            | Node::Cmp { a, b, .. }
            | Node::FBin { a, b, .. }
            | Node::FCmp { a, b, .. } => vec![*a, *b],
            Node::Ite { c, t, f, .. } => vec![*c, *t, *f],
            Node::ZExt { a, .. }
            | Node::SExt { a, .. }
            | Node::Extract { a, .. }
            | Node::FCast { a, .. } => vec![*a],
            Node::Concat { hi, lo, .. } => vec![*hi, *lo],
        }
    }

    /// Every expression reachable from `roots` (each once).
    pub fn reachable(&self, roots: &[ExprId]) -> Vec<ExprId> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = roots.to_vec();
        let mut out = vec![];
        while let Some(x) = stack.pop() {
            if seen.insert(x) {
                out.push(x);
                stack.extend(self.children(x));
            }
        }
        out
    }

    /// Sorted input variables `e` depends on.
    pub fn vars_of(&mut self, e: ExprId) -> std::rc::Rc<Vec<u32>> {
        if let Some(Some(v)) = self.var_sets.get(e.0 as usize) {
            return v.clone();
        }
        let mut out: Vec<u32> = self
            .reachable(&[e])
            .into_iter()
            .filter_map(|x| {
                if let Node::Var { id, .. } = self.node(x) {
                    Some(*id)
                } else {
                    None
                }
            })
            .collect();
        out.sort();
        out.dedup();
        let rc = std::rc::Rc::new(out);
        if self.var_sets.len() <= e.0 as usize {
            self.var_sets.resize(e.0 as usize + 1, None);
        }
        self.var_sets[e.0 as usize] = Some(rc.clone());
        rc
    }

    /// Concrete value of `e` when variable `i` has value `vals(i)`.
    pub fn eval(&self, e: ExprId, vals: &dyn Fn(u32) -> u64, memo: &mut Memo) -> u64 {
        if let Some(v) = memo.get(&e) {
            return *v;
        }
        let v = match self.node(e) {
            Node::Const { v, .. } => *v,
            Node::Var { w, id } => mask(vals(*id), *w as u32),
            Node::Bin { op, w, a, b } => {
                let (x, y) = (self.eval(*a, vals, memo), self.eval(*b, vals, memo));
                // Division by zero follows SMT-LIB (the concrete run would have faulted).
                match ops::bin(*op, *w, x, y) {
                    Ok(v) => v,
                    Err(_) => match op {
                        BinOp::UDiv | BinOp::SDiv => mask(u64::MAX, *w as u32),
                        _ => x,
                    },
                }
            }
            Node::Cmp { pred, a, b } => {
                let w = self.width(*a);
                ops::icmp(
                    *pred,
                    w,
                    self.eval(*a, vals, memo),
                    self.eval(*b, vals, memo),
                ) as u64
            }
            Node::Ite { c, t, f, .. } => {
                if self.eval(*c, vals, memo) & 1 == 1 {
                    self.eval(*t, vals, memo)
                } else {
                    self.eval(*f, vals, memo)
                }
            }
            Node::ZExt { a, .. } => self.eval(*a, vals, memo),
            Node::SExt { w, a } => mask(
                sext(self.eval(*a, vals, memo), self.width(*a) as u32) as u64,
                *w as u32,
            ),
            Node::Extract { w, lo, a } => mask(self.eval(*a, vals, memo) >> lo, *w as u32),
            Node::Concat { hi, lo, .. } => {
                let lw = self.width(*lo);
                (self.eval(*hi, vals, memo) << lw) | self.eval(*lo, vals, memo)
            }
            Node::FBin { op, w, a, b, rm } => fbin_in(
                *rm,
                *op,
                *w,
                self.eval(*a, vals, memo),
                self.eval(*b, vals, memo),
            ),
            Node::FCmp { pred, w, a, b } => ops::fcmp(
                *pred,
                fty(*w),
                self.eval(*a, vals, memo),
                self.eval(*b, vals, memo),
            ) as u64,
            Node::FCast { op, w, a } => {
                let (from, to) = cast_tys(*op, self.width(*a), *w);
                ops::cast(*op, from, to, self.eval(*a, vals, memo), 64)
            }
            Node::Opaque { w, call } => {
                let c = &self.calls[*call as usize];
                let args: Vec<u64> = c.args.iter().map(|a| self.eval(*a, vals, memo)).collect();
                mask(self.eval_opaque(c.f, &args), *w as u32)
            }
        };
        memo.insert(e, v);
        v
    }

    /// A short textual form (debugging, reports): at most `SHOW_NODES` nodes, the rest `...`.
    /// Shared subterms print once per use, so a path condition's DAG can spell out to
    /// gigabytes (`--log solver` on 31_libc_results.c ran for minutes into 11 GB).
    pub fn show(&self, e: ExprId) -> String {
        let mut left = SHOW_NODES;
        self.show_within(e, &mut left)
    }

    fn show_within(&self, e: ExprId, left: &mut usize) -> String {
        if *left == 0 {
            return "...".into();
        }
        *left -= 1;
        match self.node(e) {
            Node::Const { w, v } => format!("{v}:{w}"),
            Node::Var { id, .. } => {
                let k = self.vars[*id as usize];
                if k.byte > 0 || k.w == 8 {
                    format!("in{}[{}]", k.input, k.byte)
                } else {
                    format!("in{}", k.input)
                }
            }
            Node::Bin { op, a, b, .. } => format!(
                "({:?} {} {})",
                op,
                self.show_within(*a, left),
                self.show_within(*b, left)
            ),
            Node::Cmp { pred, a, b } => format!(
                "({:?} {} {})",
                pred,
                self.show_within(*a, left),
                self.show_within(*b, left)
            ),
            Node::Ite { c, t, f, .. } => format!(
                "(ite {} {} {})",
                self.show_within(*c, left),
                self.show_within(*t, left),
                self.show_within(*f, left)
            ),
            Node::ZExt { w, a } => format!("(zext{w} {})", self.show_within(*a, left)),
            Node::SExt { w, a } => format!("(sext{w} {})", self.show_within(*a, left)),
            Node::Extract { w, lo, a } => {
                format!("(extract[{lo}+{w}] {})", self.show_within(*a, left))
            }
            Node::Concat { hi, lo, .. } => {
                format!(
                    "(concat {} {})",
                    self.show_within(*hi, left),
                    self.show_within(*lo, left)
                )
            }
            Node::FBin { op, a, b, rm, .. } => {
                let mode = match rm {
                    Rounding::ToNearest => String::new(),
                    rm => format!(" {rm:?}"),
                };
                format!(
                    "(f{:?}{mode} {} {})",
                    op,
                    self.show_within(*a, left),
                    self.show_within(*b, left)
                )
            }
            Node::FCmp { pred, a, b, .. } => {
                format!(
                    "(f{:?} {} {})",
                    pred,
                    self.show_within(*a, left),
                    self.show_within(*b, left)
                )
            }
            Node::FCast { op, w, a } => format!("({:?}{w} {})", op, self.show_within(*a, left)),
            Node::Opaque { call, .. } => {
                let c = &self.calls[*call as usize];
                let name = match c.f {
                    OpaqueFn::Math(m) => m.name(),
                    OpaqueFn::Host(h) => crate::ir::host_fns::get(h).name.clone(),
                    OpaqueFn::User(f) => match &self.user_fns {
                        Some(u) => u.0.name(f),
                        None => format!("fn{f}"),
                    },
                };
                let args: Vec<String> = c.args.iter().map(|a| self.show_within(*a, left)).collect();
                format!("({name} {})", args.join(" "))
            }
        }
    }
}

/// Nodes `Pool::show` spells out before it elides the rest.
const SHOW_NODES: usize = 400;

/// Source and target types of a float conversion between `aw` and `w` bits.
pub fn cast_tys(op: CastOp, aw: u8, w: u8) -> (Ty, Ty) {
    match op {
        CastOp::FpExt | CastOp::FpTrunc => (fty(aw), fty(w)),
        CastOp::FpToSi | CastOp::FpToUi => (fty(aw), Ty::Int(w)),
        _ => (Ty::Int(aw), fty(w)),
    }
}

impl Pool {
    /// `e` with every variable `k` replaced by `f(k)` (kept when `f` returns None).
    pub fn substitute(
        &mut self,
        e: ExprId,
        f: &mut dyn FnMut(&mut Pool, VarKey) -> Option<ExprId>,
        memo: &mut HashMap<ExprId, ExprId>,
    ) -> ExprId {
        if let Some(r) = memo.get(&e) {
            return *r;
        }
        let r = match self.node(e).clone() {
            Node::Const { .. } => e,
            Node::Var { id, .. } => {
                let k = self.vars[id as usize];
                f(self, k).unwrap_or(e)
            }
            Node::Bin { op, w, a, b } => {
                let (a, b) = (self.substitute(a, f, memo), self.substitute(b, f, memo));
                self.bin(op, w, a, b)
            }
            Node::Cmp { pred, a, b } => {
                let (a, b) = (self.substitute(a, f, memo), self.substitute(b, f, memo));
                self.cmp(pred, a, b)
            }
            Node::Ite { c, t, f: ff, .. } => {
                let (c, t, ff) = (
                    self.substitute(c, f, memo),
                    self.substitute(t, f, memo),
                    self.substitute(ff, f, memo),
                );
                self.ite(c, t, ff)
            }
            Node::ZExt { w, a } => {
                let a = self.substitute(a, f, memo);
                self.zext(w, a)
            }
            Node::SExt { w, a } => {
                let a = self.substitute(a, f, memo);
                self.sext(w, a)
            }
            Node::Extract { w, lo, a } => {
                let a = self.substitute(a, f, memo);
                self.extract(w, lo, a)
            }
            Node::Concat { hi, lo, .. } => {
                let (hi, lo) = (self.substitute(hi, f, memo), self.substitute(lo, f, memo));
                self.concat(hi, lo)
            }
            Node::FBin { op, w, a, b, rm } => {
                let (a, b) = (self.substitute(a, f, memo), self.substitute(b, f, memo));
                self.fbin_in(rm, op, w, a, b)
            }
            Node::FCmp { pred, a, b, .. } => {
                let (a, b) = (self.substitute(a, f, memo), self.substitute(b, f, memo));
                self.fcmp(pred, a, b)
            }
            Node::FCast { op, w, a } => {
                let a = self.substitute(a, f, memo);
                self.fcast(op, w, a)
            }
            Node::Opaque { w, call } => {
                let c = self.calls[call as usize].clone();
                let args = c
                    .args
                    .iter()
                    .map(|a| self.substitute(*a, f, memo))
                    .collect();
                self.opaque(c.f, w, args)
            }
        };
        memo.insert(e, r);
        r
    }

    /// `e` rebuilt over new operands `ch` (in the order of `children`), simplifying again.
    pub fn with_children(&mut self, e: ExprId, ch: &[ExprId]) -> ExprId {
        match self.node(e).clone() {
            Node::Const { .. } | Node::Var { .. } => e,
            Node::Bin { op, w, .. } => self.bin(op, w, ch[0], ch[1]),
            Node::Cmp { pred, .. } => self.cmp(pred, ch[0], ch[1]),
            Node::Ite { .. } => self.ite(ch[0], ch[1], ch[2]),
            Node::ZExt { w, .. } => self.zext(w, ch[0]),
            Node::SExt { w, .. } => self.sext(w, ch[0]),
            Node::Extract { w, lo, .. } => self.extract(w, lo, ch[0]),
            Node::Concat { .. } => self.concat(ch[0], ch[1]),
            Node::FBin { op, w, rm, .. } => self.fbin_in(rm, op, w, ch[0], ch[1]),
            Node::FCmp { pred, .. } => self.fcmp(pred, ch[0], ch[1]),
            Node::FCast { op, w, .. } => self.fcast(op, w, ch[0]),
            Node::Opaque { w, call } => {
                let f = self.calls[call as usize].f;
                self.opaque(f, w, ch.to_vec())
            }
        }
    }

    /// A product, quotient or remainder of two non-constant terms, or an opaque call other than
    /// a piecewise-linear math function (`floor`, `fabs`, ...): what linear arithmetic cannot
    /// express. Constraints free of these form the walk's polytope.
    pub fn is_nonlinear_node(&self, e: ExprId) -> bool {
        use crate::ir::FBinOp;
        match self.node(e) {
            Node::Bin { op, a, b, .. } => {
                matches!(
                    op,
                    BinOp::Mul | BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem
                ) && self.as_const(*a).is_none()
                    && self.as_const(*b).is_none()
            }
            Node::FBin { op, a, b, .. } => {
                matches!(op, FBinOp::Mul | FBinOp::Div | FBinOp::Rem)
                    && self.as_const(*a).is_none()
                    && self.as_const(*b).is_none()
            }
            Node::Opaque { call, .. } => match self.calls[*call as usize].f {
                OpaqueFn::Math(m) => !m.piecewise_linear(),
                OpaqueFn::Host(_) | OpaqueFn::User(_) => true,
            },
            _ => false,
        }
    }

    /// Conjuncts of a 1-bit conjunction (`and` trees), for predicate extraction.
    pub fn conjuncts(&self, e: ExprId, out: &mut Vec<ExprId>) {
        match self.node(e) {
            Node::Bin {
                op: BinOp::And,
                w: 1,
                a,
                b,
            } => {
                let (a, b) = (*a, *b);
                self.conjuncts(a, out);
                self.conjuncts(b, out);
            }
            _ => out.push(e),
        }
    }
}
