//! Horn clauses as SMT-LIB scripts for Spacer, in two encodings, and a Z3 runner.
//!
//! Bit-vectors: the model's semantics exactly. Integers: each `w`-bit variable is a
//! mathematical integer holding its signed or unsigned reading (chosen per variable by the
//! comparisons it takes part in); `+ - *` do not wrap, bitwise operations the encoding cannot
//! express become unconstrained values. Not exact in either direction — which is why every
//! invariant is checked in bit-vector semantics afterwards.

use super::super::arg::ModelChecker;
use super::super::model::VarKind;
use super::{Head, Horn};
use crate::ir::{BinOp, IPred};
use crate::smt::expr::{ExprId, Node, Pool};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Encoding {
    Int,
    /// Integers, where leaving a type's range is an error too.
    IntBounded,
    BitVec,
}

/// Per model variable of more than one bit: read as signed (true) or unsigned.
pub type Views = HashMap<u32, bool>;

/// The script asking whether any of `goals` is reachable, and the views it used.
pub fn script(
    horn: &Horn,
    mc: &mut ModelChecker,
    goals: &HashSet<usize>,
    enc: Encoding,
) -> (String, Views) {
    let int = enc != Encoding::BitVec;
    let views = if int {
        choose_views(horn, mc)
    } else {
        Views::new()
    };
    // Z3's fixedpoint format: relations, rules, one query (`Err`, reached by every goal
    // clause). Engine options are set through `run`.
    let mut s = String::from("(declare-rel Err ())\n");
    let arg_exprs: Vec<Vec<ExprId>> = horn
        .args
        .iter()
        .map(|a| a.iter().map(|v| mc.model.var_expr(*v)).collect())
        .collect();
    for (i, a) in horn.args.iter().enumerate() {
        if !horn.kept[i] {
            continue;
        }
        let sorts: Vec<String> = a
            .iter()
            .map(|v| sort(enc, mc.model.var_width(*v)))
            .collect();
        let _ = writeln!(s, "(declare-rel R{i} ({}))", sorts.join(" "));
    }
    for c in &horn.clauses {
        if let Head::Goal(g) = c.head
            && !goals.contains(&g)
        {
            continue;
        }
        let mut p = Printer::new(enc, &views);
        let pool = &mut mc.model.pool;
        let mut body: Vec<String> = vec![];
        if let Some(src) = c.src {
            body.push(p.app(pool, src, &horn.args[src], &arg_exprs[src], None));
        }
        for g in &c.effect.guards {
            body.push(p.boolean(pool, *g));
        }
        let head = match c.head {
            Head::Goal(_) => "Err".to_string(),
            Head::Node(d) => p.app(
                pool,
                d,
                &horn.args[d],
                &arg_exprs[d],
                Some(&c.effect.assigns),
            ),
        };
        // Integers: values computed by arithmetic must stay within their type, or the
        // clause reaches `Err` too. Spacer then proves bounds along with the goals, and on
        // the states its invariants allow, integers and bit-vectors agree.
        let mut overflow: Vec<String> = vec![];
        if int {
            let mut watched: Vec<(ExprId, bool)> = vec![];
            if let Head::Node(d) = c.head {
                for (v, x) in &c.effect.assigns {
                    if horn.args[d].contains(v) {
                        watched.push((*x, views.get(v).copied().unwrap_or(true)));
                    }
                }
            }
            for g in &c.effect.guards {
                if let Node::Cmp { pred, a, b } = pool.node(*g).clone() {
                    let signed = !matches!(pred, IPred::Ult | IPred::Ule | IPred::Ugt | IPred::Uge);
                    watched.push((a, signed));
                    watched.push((b, signed));
                }
            }
            for (x, signed) in watched {
                let w = pool.width(x);
                let arith = matches!(
                    pool.node(x),
                    Node::Bin {
                        op: BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl,
                        ..
                    }
                );
                if w > 1 && arith && enc == Encoding::IntBounded {
                    let t = p.int(pool, x, signed);
                    let (lo, hi) = range(w, signed);
                    let o = format!("(or (< {t} {}) (> {t} {}))", int_lit(lo), int_lit(hi));
                    if !overflow.contains(&o) {
                        overflow.push(o);
                    }
                }
            }
            // Havoc values (inputs, unknown results) range over their type.
            for (id, w) in p.vars.clone() {
                if w > 1 && matches!(mc.model.vars[id as usize], VarKind::Havoc(_)) {
                    let (lo, hi) = range(w, views.get(&id).copied().unwrap_or(true));
                    body.push(format!("(<= {} x{id} {})", int_lit(lo), int_lit(hi)));
                }
            }
        }
        let body_s = match body.len() {
            0 => "true".to_string(),
            1 => body.pop().unwrap(),
            _ => format!("(and {})", body.join(" ")),
        };
        let mut bound: Vec<String> = p
            .vars
            .iter()
            .map(|(id, w)| format!("(x{id} {})", sort(enc, *w)))
            .collect();
        bound.extend(p.aux.iter().map(|(n, srt)| format!("({n} {srt})")));
        let mut rules = vec![format!("(=> {body_s} {head})")];
        if !overflow.is_empty() {
            rules.push(format!(
                "(=> (and {body_s} (or {})) Err)",
                overflow.join(" ")
            ));
        }
        for mut f in rules {
            for (name, def) in p.lets.iter().rev() {
                f = format!("(let (({name} {def})) {f})");
            }
            if bound.is_empty() {
                let _ = writeln!(s, "(rule {f})");
            } else {
                let _ = writeln!(s, "(rule (forall ({}) {f}))", bound.join(" "));
            }
        }
    }
    s.push_str("(query Err)\n");
    (s, views)
}

fn sort(enc: Encoding, w: u8) -> String {
    match (enc, w) {
        (Encoding::BitVec, w) => format!("(_ BitVec {w})"),
        (_, 1) => "Bool".into(),
        (_, _) => "Int".into(),
    }
}

/// Values of a `w`-bit integer read as signed or unsigned.
pub fn range(w: u8, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

fn int_lit(v: i128) -> String {
    if v < 0 {
        format!("(- {})", -v)
    } else {
        v.to_string()
    }
}

/// Signed unless unsigned comparisons involve the variable more often than signed ones.
fn choose_views(horn: &Horn, mc: &mut ModelChecker) -> Views {
    let mut votes: HashMap<u32, i64> = HashMap::new();
    let mut seen: HashSet<ExprId> = HashSet::new();
    let mut roots: Vec<ExprId> = vec![];
    for c in &horn.clauses {
        roots.extend(c.effect.guards.iter().copied());
        roots.extend(c.effect.assigns.iter().map(|a| a.1));
    }
    let pool = &mut mc.model.pool;
    for e in pool.reachable(&roots) {
        if !seen.insert(e) {
            continue;
        }
        if let Node::Cmp { pred, a, b } = pool.node(e).clone() {
            let vote = match pred {
                IPred::Ult | IPred::Ule | IPred::Ugt | IPred::Uge => -1,
                IPred::Slt | IPred::Sle | IPred::Sgt | IPred::Sge => 1,
                _ => 0,
            };
            if vote == 0 {
                continue;
            }
            for x in [a, b] {
                let vs = pool.vars_of(x);
                for v in vs.iter() {
                    let k = pool.vars[*v as usize];
                    *votes.entry(k.input).or_insert(0) += vote;
                }
            }
        }
    }
    let mut views = Views::new();
    for v in 0..mc.model.vars.len() as u32 {
        views.insert(v, votes.get(&v).is_none_or(|n| *n >= 0));
    }
    views
}

/// Prints pool expressions in one encoding; shared subterms become `let`s, variables and
/// the unconstrained values standing for what the encoding cannot express are collected for
/// the clause's quantifier.
struct Printer<'v> {
    enc: Encoding,
    views: &'v Views,
    names: HashMap<(ExprId, u8), String>,
    lets: Vec<(String, String)>,
    vars: Vec<(u32, u8)>,
    seen_vars: HashSet<u32>,
    aux: Vec<(String, String)>,
}

// View tags for the memo: 0 bit-vector / Boolean, 1 signed integer, 2 unsigned integer.
const BOOL: u8 = 0;
const SIGNED: u8 = 1;
const UNSIGNED: u8 = 2;

impl<'v> Printer<'v> {
    fn new(enc: Encoding, views: &'v Views) -> Printer<'v> {
        Printer {
            enc,
            views,
            names: HashMap::new(),
            lets: vec![],
            vars: vec![],
            seen_vars: HashSet::new(),
            aux: vec![],
        }
    }

    fn int_enc(&self) -> bool {
        self.enc != Encoding::BitVec
    }

    /// `R{n}` applied to its arguments, after `assigns` when given (the post-state).
    fn app(
        &mut self,
        pool: &mut Pool,
        n: usize,
        args: &[u32],
        exprs: &[ExprId],
        assigns: Option<&Vec<(u32, ExprId)>>,
    ) -> String {
        if args.is_empty() {
            return format!("R{n}");
        }
        let mut parts = vec![];
        for (&v, &own) in args.iter().zip(exprs) {
            let x = match assigns.and_then(|a| a.iter().find(|a| a.0 == v)) {
                Some((_, e)) => *e,
                None => own,
            };
            let t = if !self.int_enc() {
                self.bv(pool, x)
            } else if pool.width(x) == 1 {
                self.boolean(pool, x)
            } else {
                let signed = self.views.get(&v).copied().unwrap_or(true);
                self.int(pool, x, signed)
            };
            parts.push(t);
        }
        format!("(R{n} {})", parts.join(" "))
    }

    fn var(&mut self, pool: &Pool, id: u32) -> (u32, u8) {
        let k = pool.vars[id as usize];
        if self.seen_vars.insert(k.input) {
            self.vars.push((k.input, k.w));
        }
        (k.input, k.w)
    }

    fn fresh(&mut self, sort: &str) -> String {
        let n = format!("a{}", self.aux.len());
        self.aux.push((n.clone(), sort.to_string()));
        n
    }

    fn bind(&mut self, key: (ExprId, u8), t: String) -> String {
        let name = format!("t{}_{}", key.0.0, key.1);
        self.lets.push((name.clone(), t));
        self.names.insert(key, name.clone());
        name
    }

    /// A 1-bit expression as a Boolean term.
    fn boolean(&mut self, pool: &Pool, e: ExprId) -> String {
        if let Some(n) = self.names.get(&(e, BOOL)) {
            return n.clone();
        }
        if !self.int_enc() {
            return match pool.node(e) {
                Node::Const { v, .. } => (if v & 1 == 1 { "true" } else { "false" }).into(),
                Node::Cmp { pred, a, b } => {
                    let (a, b) = (self.bv(pool, *a), self.bv(pool, *b));
                    cmp_term(*pred, &a, &b, false)
                }
                _ => format!("(= {} #b1)", self.bv(pool, e)),
            };
        }
        let t = match pool.node(e).clone() {
            Node::Const { v, .. } => return (if v & 1 == 1 { "true" } else { "false" }).into(),
            Node::Var { id, .. } => return format!("x{}", self.var(pool, id).0),
            Node::Cmp { pred, a, b } => {
                if pool.width(a) == 1 {
                    let (x, y) = (self.boolean(pool, a), self.boolean(pool, b));
                    match pred {
                        IPred::Eq => format!("(= {x} {y})"),
                        IPred::Ne => format!("(not (= {x} {y}))"),
                        _ => format!("(= {x} {y} {})", self.fresh("Bool")),
                    }
                } else {
                    let signed = match pred {
                        IPred::Ult | IPred::Ule | IPred::Ugt | IPred::Uge => false,
                        IPred::Slt | IPred::Sle | IPred::Sgt | IPred::Sge => true,
                        _ => self.preferred(pool, a),
                    };
                    let (x, y) = (self.int(pool, a, signed), self.int(pool, b, signed));
                    cmp_term(pred, &x, &y, true)
                }
            }
            Node::Bin { op, a, b, .. } => {
                let (x, y) = (self.boolean(pool, a), self.boolean(pool, b));
                match op {
                    BinOp::And => format!("(and {x} {y})"),
                    BinOp::Or => format!("(or {x} {y})"),
                    BinOp::Xor if y == "true" => format!("(not {x})"),
                    BinOp::Xor => format!("(xor {x} {y})"),
                    _ => self.fresh("Bool"),
                }
            }
            Node::Ite { c, t, f, .. } => {
                let (c, t, f) = (
                    self.boolean(pool, c),
                    self.boolean(pool, t),
                    self.boolean(pool, f),
                );
                format!("(ite {c} {t} {f})")
            }
            Node::Extract { lo, a, .. } => {
                let x = self.int(pool, a, false);
                format!("(= (mod (div {x} {}) 2) 1)", 1u128 << lo)
            }
            _ => self.fresh("Bool"),
        };
        self.bind((e, BOOL), t)
    }

    /// The view an equality compares in: the one of the variable it involves, if any.
    fn preferred(&self, pool: &Pool, e: ExprId) -> bool {
        let mut x = e;
        loop {
            match pool.node(x) {
                Node::Var { id, .. } => {
                    let k = pool.vars[*id as usize];
                    return self.views.get(&k.input).copied().unwrap_or(true);
                }
                Node::Bin { a, .. } | Node::Extract { a, .. } | Node::SExt { a, .. } => x = *a,
                Node::ZExt { .. } => return false,
                _ => return true,
            }
        }
    }

    /// A wider-than-one-bit expression as an integer term (its signed or unsigned reading).
    fn int(&mut self, pool: &Pool, e: ExprId, signed: bool) -> String {
        let key = (e, if signed { SIGNED } else { UNSIGNED });
        if let Some(n) = self.names.get(&key) {
            return n.clone();
        }
        let w = pool.width(e);
        let wrap = 1i128 << w;
        let t = match pool.node(e).clone() {
            Node::Const { v, .. } => {
                let x = v as i128;
                let x = if signed && w < 128 && x >= wrap / 2 {
                    x - wrap
                } else {
                    x
                };
                return int_lit(x);
            }
            Node::Var { id, .. } => {
                let (v, _) = self.var(pool, id);
                let own = self.views.get(&v).copied().unwrap_or(true);
                match (own, signed) {
                    (true, true) | (false, false) => return format!("x{v}"),
                    (true, false) => format!("(ite (< x{v} 0) (+ x{v} {wrap}) x{v})"),
                    (false, true) => {
                        format!("(ite (>= x{v} {}) (- x{v} {wrap}) x{v})", wrap / 2)
                    }
                }
            }
            Node::Bin { op, a, b, .. } => {
                let cb = pool.as_const(b);
                match op {
                    BinOp::Add | BinOp::Sub => {
                        let (x, y) = (self.int(pool, a, signed), self.int(pool, b, signed));
                        let o = if op == BinOp::Add { "+" } else { "-" };
                        format!("({o} {x} {y})")
                    }
                    BinOp::Mul if cb.is_some() || pool.as_const(a).is_some() => {
                        let (x, y) = (self.int(pool, a, signed), self.int(pool, b, signed));
                        format!("(* {x} {y})")
                    }
                    BinOp::Shl if cb.is_some_and(|k| k < 62) => {
                        let x = self.int(pool, a, signed);
                        format!("(* {x} {})", 1u64 << cb.unwrap())
                    }
                    BinOp::LShr | BinOp::AShr if cb.is_some_and(|k| k < 62) => {
                        let x = self.int(pool, a, op == BinOp::AShr);
                        format!("(div {x} {})", 1u64 << cb.unwrap())
                    }
                    BinOp::UDiv | BinOp::SDiv if cb.is_some_and(|k| k > 0 && k < 1 << 62) => {
                        let x = self.int(pool, a, op == BinOp::SDiv);
                        format!("(div {x} {})", cb.unwrap())
                    }
                    BinOp::URem | BinOp::SRem if cb.is_some_and(|k| k > 0 && k < 1 << 62) => {
                        let x = self.int(pool, a, op == BinOp::SRem);
                        format!("(mod {x} {})", cb.unwrap())
                    }
                    BinOp::And if cb.is_some_and(|k| k < 1 << 62 && (k + 1).is_power_of_two()) => {
                        let x = self.int(pool, a, false);
                        format!("(mod {x} {})", cb.unwrap() + 1)
                    }
                    _ => self.fresh("Int"),
                }
            }
            Node::Ite { c, t, f, .. } => {
                let c = self.boolean(pool, c);
                let (t, f) = (self.int(pool, t, signed), self.int(pool, f, signed));
                format!("(ite {c} {t} {f})")
            }
            Node::ZExt { a, .. } if pool.width(a) == 1 => {
                let b = self.boolean(pool, a);
                format!("(ite {b} 1 0)")
            }
            Node::SExt { a, .. } if pool.width(a) == 1 => {
                let b = self.boolean(pool, a);
                let ones = if signed {
                    "(- 1)".to_string()
                } else {
                    (wrap - 1).to_string()
                };
                format!("(ite {b} {ones} 0)")
            }
            Node::ZExt { a, .. } => return self.int(pool, a, false),
            Node::SExt { a, .. } => {
                let x = self.int(pool, a, true);
                if signed {
                    return x;
                }
                format!("(ite (< {x} 0) (+ {x} {wrap}) {x})")
            }
            // Truncation: assumed not to lose bits (the check catches it when it does).
            Node::Extract { lo: 0, a, .. } => return self.int(pool, a, signed),
            _ => self.fresh("Int"),
        };
        self.bind(key, t)
    }

    /// A bit-vector term (exact encoding).
    fn bv(&mut self, pool: &Pool, e: ExprId) -> String {
        if let Some(n) = self.names.get(&(e, BOOL)) {
            return n.clone();
        }
        let t = match pool.node(e).clone() {
            Node::Const { w, v } => return format!("(_ bv{v} {w})"),
            Node::Var { id, .. } => return format!("x{}", self.var(pool, id).0),
            Node::Bin { op, a, b, .. } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, b));
                let name = match op {
                    BinOp::Add => "bvadd",
                    BinOp::Sub => "bvsub",
                    BinOp::Mul => "bvmul",
                    BinOp::UDiv => "bvudiv",
                    BinOp::SDiv => "bvsdiv",
                    BinOp::URem => "bvurem",
                    BinOp::SRem => "bvsrem",
                    BinOp::And => "bvand",
                    BinOp::Or => "bvor",
                    BinOp::Xor => "bvxor",
                    BinOp::Shl => "bvshl",
                    BinOp::LShr => "bvlshr",
                    BinOp::AShr => "bvashr",
                };
                format!("({name} {x} {y})")
            }
            Node::Cmp { pred, a, b } => {
                let (x, y) = (self.bv(pool, a), self.bv(pool, b));
                format!("(ite {} #b1 #b0)", cmp_term(pred, &x, &y, false))
            }
            Node::Ite { c, t, f, .. } => {
                let c = self.boolean(pool, c);
                let (t, f) = (self.bv(pool, t), self.bv(pool, f));
                format!("(ite {c} {t} {f})")
            }
            Node::ZExt { w, a } => {
                let k = w - pool.width(a);
                format!("((_ zero_extend {k}) {})", self.bv(pool, a))
            }
            Node::SExt { w, a } => {
                let k = w - pool.width(a);
                format!("((_ sign_extend {k}) {})", self.bv(pool, a))
            }
            Node::Extract { w, lo, a } => {
                format!("((_ extract {} {lo}) {})", lo + w - 1, self.bv(pool, a))
            }
            Node::Concat { hi, lo, .. } => {
                let (h, l) = (self.bv(pool, hi), self.bv(pool, lo));
                format!("(concat {h} {l})")
            }
            // The model makes floating-point results havoc: none reach here.
            _ => {
                let w = pool.width(e);
                self.fresh(&format!("(_ BitVec {w})"))
            }
        };
        self.bind((e, BOOL), t)
    }
}

fn cmp_term(p: IPred, a: &str, b: &str, int: bool) -> String {
    let op = match (p, int) {
        (IPred::Eq, _) => return format!("(= {a} {b})"),
        (IPred::Ne, _) => return format!("(not (= {a} {b}))"),
        (IPred::Ugt | IPred::Sgt, true) => ">",
        (IPred::Uge | IPred::Sge, true) => ">=",
        (IPred::Ult | IPred::Slt, true) => "<",
        (IPred::Ule | IPred::Sle, true) => "<=",
        (IPred::Ugt, false) => "bvugt",
        (IPred::Uge, false) => "bvuge",
        (IPred::Ult, false) => "bvult",
        (IPred::Ule, false) => "bvule",
        (IPred::Sgt, false) => "bvsgt",
        (IPred::Sge, false) => "bvsge",
        (IPred::Slt, false) => "bvslt",
        (IPred::Sle, false) => "bvsle",
    };
    format!("({op} {a} {b})")
}

/// What Spacer answered about the query.
pub enum Answer {
    /// Unreachable; the certificate (the relations' interpretations) as SMT-LIB text.
    Unreachable(String),
    Reachable,
    Unknown(String),
}

/// Runs a fixedpoint script with Spacer in a private Z3 context, interrupted after `timeout`.
/// (The fixedpoint API, not `Z3_eval_smtlib2_string`: through the latter, Z3 4.8.12 does not
/// apply Spacer's options and stalls on queries it otherwise answers in milliseconds.)
pub fn run_z3(script: &str, enc: Encoding, timeout: Duration) -> Answer {
    use std::ffi::{CStr, CString};
    use std::sync::{Arc, Condvar, Mutex};
    use z3_sys::*;
    unsafe {
        let cfg = Z3_mk_config().expect("z3 config");
        let ctx = Z3_mk_context(cfg).expect("z3 context");
        Z3_del_config(cfg);
        // Errors are reported through error codes, not by aborting the process.
        Z3_set_error_handler(ctx, None);
        let sym = |s: &str| {
            let c = CString::new(s).unwrap();
            Z3_mk_string_symbol(ctx, c.as_ptr()).unwrap()
        };
        let fp = Z3_mk_fixedpoint(ctx).expect("fixedpoint");
        Z3_fixedpoint_inc_ref(ctx, fp);
        let params = Z3_mk_params(ctx).expect("params");
        Z3_params_inc_ref(ctx, params);
        Z3_params_set_symbol(ctx, params, sym("engine"), sym("spacer"));
        // Relations off loops are already eliminated; Z3's own inlining would only make the
        // certificate of the rest existentially quantified.
        Z3_params_set_bool(ctx, params, sym("xform.inline_eager"), false);
        Z3_params_set_bool(ctx, params, sym("xform.inline_linear"), false);
        if enc != Encoding::BitVec {
            // Plain Farkas interpolation finds relational invariants (i <= n) where the
            // default unrolls a loop up to its constant bound.
            Z3_params_set_uint(ctx, params, sym("spacer.iuc.arith"), 0);
        }
        Z3_fixedpoint_set_params(ctx, fp, params);
        let finish = |a: Answer| {
            Z3_params_dec_ref(ctx, params);
            Z3_fixedpoint_dec_ref(ctx, fp);
            Z3_del_context(ctx);
            a
        };
        let text = CString::new(script).unwrap_or_default();
        let queries = Z3_fixedpoint_from_string(ctx, fp, text.as_ptr());
        let query = match queries {
            Some(q) if Z3_get_error_code(ctx) == ErrorCode::Ok => {
                Z3_ast_vector_inc_ref(ctx, q);

                if Z3_ast_vector_size(ctx, q) == 1 {
                    Z3_ast_vector_get(ctx, q, 0)
                } else {
                    None
                }
            }
            _ => None,
        };
        let Some(query) = query else {
            return finish(Answer::Unknown("the clauses do not parse".into()));
        };
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let ctx_addr = ctx.as_ptr() as usize;
        let watchdog = {
            let done = done.clone();
            std::thread::spawn(move || {
                let (lock, cv) = &*done;
                let mut finished = lock.lock().unwrap();
                let end = Instant::now() + timeout;
                // Repeated: an interrupt that arrives before Z3 starts working is forgotten.
                // Ctrl-C and SIGTERM stop it too (this context is not in the solver layer's
                // registry): checked every 50 ms.
                while !*finished {
                    let left = end.saturating_duration_since(Instant::now());
                    let stop = left.is_zero() || crate::smt::solver::solvers_interrupted();
                    if stop && let Some(c) = std::ptr::NonNull::new(ctx_addr as *mut _Z3_context) {
                        Z3_interrupt(c);
                    }
                    let wait = if stop {
                        Duration::from_millis(20)
                    } else {
                        left.min(Duration::from_millis(50))
                    };
                    finished = cv.wait_timeout(finished, wait).unwrap().0;
                }
            })
        };
        let r = Z3_fixedpoint_query(ctx, fp, query);
        {
            let (lock, cv) = &*done;
            *lock.lock().unwrap() = true;
            cv.notify_all();
        }
        let _ = watchdog.join();
        let string = |p: *const std::ffi::c_char| {
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        let a = match r {
            Z3_L_FALSE => match Z3_fixedpoint_get_answer(ctx, fp) {
                Some(ans) => Answer::Unreachable(string(Z3_ast_to_string(ctx, ans))),
                None => Answer::Unknown("no certificate".into()),
            },
            Z3_L_TRUE => Answer::Reachable,
            _ => Answer::Unknown(string(Z3_fixedpoint_get_reason_unknown(ctx, fp))),
        };
        finish(a)
    }
}
