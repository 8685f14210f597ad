//! Reads Spacer's model (the interpretation of each relation) back into pool expressions over
//! the model's bit-vector variables. Integer invariants are translated exactly: each variable
//! becomes its signed or unsigned reading, widened, and the arithmetic is done on
//! 40 bits, or 64 with wider variables (if that ever overflowed, the bit-vector check would reject the invariant).

use super::super::arg::ModelChecker;
use super::Horn;
use super::smtlib::Views;
use crate::ir::{BinOp, IPred};
use crate::smt::expr::{ExprId, Pool};
use std::collections::HashMap;

#[derive(Clone, Debug)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

fn parse_sexprs(s: &str) -> Result<Vec<Sx>, String> {
    let mut stack: Vec<Vec<Sx>> = vec![vec![]];
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => stack.push(vec![]),
            ')' => {
                let l = stack.pop().ok_or("unbalanced )")?;
                stack.last_mut().ok_or("unbalanced )")?.push(Sx::List(l));
            }
            c if c.is_whitespace() => {}
            '|' => {
                let mut a = String::new();
                for d in chars.by_ref() {
                    if d == '|' {
                        break;
                    }
                    a.push(d);
                }
                stack.last_mut().unwrap().push(Sx::Atom(a));
            }
            c => {
                let mut a = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d == '(' || d == ')' || d.is_whitespace() {
                        break;
                    }
                    a.push(d);
                    chars.next();
                }
                stack.last_mut().unwrap().push(Sx::Atom(a));
            }
        }
    }
    if stack.len() != 1 {
        return Err("unbalanced (".into());
    }
    Ok(stack.pop().unwrap())
}

/// One 1-bit formula per relation of `horn`, from Spacer's certificate: a conjunction of
/// `(forall (vars) (= (R vars) body))`. Relations it leaves out are `true` (they cannot lead
/// to the query); the check decides whether that is right.
pub fn invariants(
    text: &str,
    horn: &Horn,
    mc: &mut ModelChecker,
    views: &Views,
) -> Result<Vec<ExprId>, String> {
    let int = !views.is_empty();
    // Integers as bit-vectors wide enough for linear terms over 32-bit values (narrower
    // vectors keep the check fast); 64 bits when wider variables take part.
    let narrow = horn
        .args
        .iter()
        .flatten()
        .all(|v| mc.model.var_width(*v) <= 32);
    let iw: u8 = if narrow { 40 } else { 64 };
    let no_defs = HashMap::new();
    let mut found: HashMap<String, (Vec<String>, Sx)> = HashMap::new();
    let mut stack = parse_sexprs(text)?;
    while let Some(x) = stack.pop() {
        let Sx::List(l) = x else { continue };
        if let (Some(Sx::Atom(eq)), Some(lhs), Some(body), 3) =
            (l.first(), l.get(1), l.get(2), l.len())
            && eq == "="
        {
            let app = match lhs {
                Sx::Atom(r) if r.starts_with('R') => Some((r.clone(), vec![])),
                Sx::List(a) => match a.first() {
                    Some(Sx::Atom(r)) if r.starts_with('R') => {
                        let params: Option<Vec<String>> = a[1..]
                            .iter()
                            .map(|p| match p {
                                Sx::Atom(n) => Some(n.clone()),
                                _ => None,
                            })
                            .collect();
                        params.map(|ps| (r.clone(), ps))
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some((r, params)) = app {
                found.insert(r, (params, body.clone()));
                continue;
            }
        }
        stack.extend(l);
    }
    let mut out = vec![];
    for (i, args) in horn.args.iter().enumerate() {
        let name = format!("R{i}");
        let e = match found.get(&name) {
            Some((params, body)) if horn.kept[i] => {
                if params.len() != args.len() {
                    return Err(format!("{name}: {} parameters", params.len()));
                }
                let mut env: HashMap<String, ExprId> = HashMap::new();
                for (p, v) in params.iter().zip(args) {
                    let x = mc.model.var_expr(*v);
                    let w = mc.model.var_width(*v);
                    let x = if int && w > 1 {
                        widen(
                            &mut mc.model.pool,
                            x,
                            views.get(v).copied().unwrap_or(true),
                            iw,
                        )
                    } else {
                        x
                    };
                    env.insert(p.clone(), x);
                }
                let r = Reader {
                    int,
                    iw,
                    defs: &no_defs,
                };
                r.term(&mut mc.model.pool, body, &mut env)?
            }
            _ => mc.model.pool.constant(1, 1),
        };
        if mc.model.pool.width(e) != 1 {
            return Err(format!("{name}: not a formula"));
        }
        out.push(e);
    }
    Ok(out)
}

/// The signed or unsigned reading of `x` on `iw` bits.
fn widen(pool: &mut Pool, x: ExprId, signed: bool, iw: u8) -> ExprId {
    if pool.width(x) >= iw {
        x
    } else if signed {
        pool.sext(iw, x)
    } else {
        pool.zext(iw, x)
    }
}

fn numeral(a: &str) -> Option<(u8, u64)> {
    if let Some(h) = a.strip_prefix("#x") {
        if h.len() > 16 {
            return None;
        }
        return Some(((h.len() * 4) as u8, u64::from_str_radix(h, 16).ok()?));
    }
    if let Some(b) = a.strip_prefix("#b") {
        if b.len() > 64 {
            return None;
        }
        return Some((b.len() as u8, u64::from_str_radix(b, 2).ok()?));
    }
    None
}

/// `a * b`; by a small constant as shifts and additions, which bit-vector solvers handle far
/// better than multipliers.
fn scale(pool: &mut Pool, a: ExprId, b: ExprId) -> ExprId {
    let w = pool.width(a);
    let (k, x) = match (pool.as_const(a), pool.as_const(b)) {
        (_, Some(k)) => (k, a),
        (Some(k), _) => (k, b),
        _ => return pool.bin(BinOp::Mul, w, a, b),
    };
    let signed = crate::ir::ops::sext(k, w as u32);
    let neg = signed < 0;
    let m = signed.unsigned_abs();
    if m > 1 << 16 {
        return pool.bin(BinOp::Mul, w, a, b);
    }
    let mut acc = pool.constant(w, 0);
    for bit in 0..17u64 {
        if m >> bit & 1 == 1 {
            let sh = pool.constant(w, bit);
            let t = pool.bin(BinOp::Shl, w, x, sh);
            acc = pool.bin(BinOp::Add, w, acc, t);
        }
    }
    if neg {
        let z = pool.constant(w, 0);
        acc = pool.bin(BinOp::Sub, w, z, acc);
    }
    acc
}

struct Reader<'d> {
    /// Integer terms (`iw`-bit values) rather than bit-vector terms.
    int: bool,
    iw: u8,
    /// Every function the model defines (auxiliary ones are expanded where applied).
    defs: &'d HashMap<String, (Vec<String>, Sx)>,
}

impl Reader<'_> {
    /// An application of an auxiliary function of the model: its body, on the arguments.
    fn expand(
        &self,
        pool: &mut Pool,
        name: &str,
        args: Vec<ExprId>,
        depth: usize,
    ) -> Result<ExprId, String> {
        let (params, body) = self
            .defs
            .get(name)
            .ok_or(format!("unknown symbol {name}"))?;
        if params.len() != args.len() || depth > 32 {
            return Err(format!("cannot expand {name}"));
        }
        let mut env: HashMap<String, ExprId> = params.iter().cloned().zip(args).collect();
        self.term(pool, body, &mut env)
    }

    /// An SMT-LIB term as a pool expression (Booleans as 1-bit vectors).
    fn term(
        &self,
        pool: &mut Pool,
        x: &Sx,
        env: &mut HashMap<String, ExprId>,
    ) -> Result<ExprId, String> {
        let l = match x {
            Sx::Atom(a) => {
                return match a.as_str() {
                    "true" => Ok(pool.constant(1, 1)),
                    "false" => Ok(pool.constant(1, 0)),
                    _ => {
                        if let Some((w, v)) = numeral(a) {
                            Ok(pool.constant(w, v))
                        } else if let (true, Ok(v)) = (self.int, a.parse::<i64>()) {
                            let half = 1i64 << (self.iw - 1).min(62);
                            if self.iw < 64 && (v >= half || v < -half) {
                                return Err(format!("{v} does not fit {} bits", self.iw));
                            }
                            Ok(pool.constant(self.iw, v as u64))
                        } else if let Some(v) = env.get(a) {
                            Ok(*v)
                        } else {
                            self.expand(pool, a, vec![], 0)
                        }
                    }
                };
            }
            Sx::List(l) => l,
        };
        let head = l.first().ok_or("empty application")?;
        // Indexed operators: ((_ extract i j) x), ((_ zero_extend k) x).
        if let Sx::List(ix) = head {
            let (Some(Sx::Atom(u)), Some(Sx::Atom(op))) = (ix.first(), ix.get(1)) else {
                return Err("bad indexed operator".into());
            };
            if u != "_" {
                return Err("bad indexed operator".into());
            }
            let nums: Vec<u32> = ix[2..]
                .iter()
                .filter_map(|n| match n {
                    Sx::Atom(s) => s.parse().ok(),
                    _ => None,
                })
                .collect();
            let a = self.term(pool, l.get(1).ok_or("missing operand")?, env)?;
            let aw = pool.width(a) as u32;
            return match (op.as_str(), nums.as_slice()) {
                ("extract", [hi, lo]) if hi >= lo && *hi < aw => {
                    Ok(pool.extract((hi - lo + 1) as u8, *lo as u8, a))
                }
                ("zero_extend", [k]) if aw + k <= 64 => Ok(pool.zext((aw + k) as u8, a)),
                ("sign_extend", [k]) if aw + k <= 64 => Ok(pool.sext((aw + k) as u8, a)),
                _ => Err(format!("unsupported operator {op}")),
            };
        }
        let Sx::Atom(op) = head else {
            return Err("bad application".into());
        };
        if op == "_" {
            // (_ bvN w)
            if let (Some(Sx::Atom(v)), Some(Sx::Atom(w))) = (l.get(1), l.get(2)) {
                let w: u8 = w.parse().map_err(|_| "bad width")?;
                let v: u64 = v
                    .strip_prefix("bv")
                    .and_then(|v| v.parse().ok())
                    .ok_or("bad numeral")?;
                if w == 0 || w > 64 {
                    return Err("unsupported width".into());
                }
                return Ok(pool.constant(w, v));
            }
            return Err("bad numeral".into());
        }
        if op == "let" {
            let Some(Sx::List(binds)) = l.get(1) else {
                return Err("bad let".into());
            };
            let mut vals = vec![];
            for b in binds {
                if let Sx::List(p) = b
                    && let (Some(Sx::Atom(n)), Some(v)) = (p.first(), p.get(1))
                {
                    vals.push((n.clone(), self.term(pool, v, env)?));
                    continue;
                }
                return Err("bad let binding".into());
            }
            let mut saved = vec![];
            for (n, v) in vals {
                saved.push((n.clone(), env.insert(n, v)));
            }
            let r = self.term(pool, l.get(2).ok_or("bad let")?, env);
            for (n, old) in saved.into_iter().rev() {
                match old {
                    Some(o) => env.insert(n, o),
                    None => env.remove(&n),
                };
            }
            return r;
        }
        if op == "!" {
            // Annotated term: (! t :weight 0).
            return self.term(pool, l.get(1).ok_or("bad annotation")?, env);
        }
        let mut args = vec![];
        for a in &l[1..] {
            args.push(self.term(pool, a, env)?);
        }
        let need = |n: usize| -> Result<(), String> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!("{op}: {} operands", args.len()))
            }
        };
        let same_width = |pool: &Pool, args: &[ExprId]| -> Result<u8, String> {
            let w = pool.width(*args.first().ok_or("no operands")?);
            if args.iter().all(|a| pool.width(*a) == w) {
                Ok(w)
            } else {
                Err(format!("{op}: operand widths differ"))
            }
        };
        let fold = |pool: &mut Pool, o: BinOp, args: &[ExprId]| -> Result<ExprId, String> {
            let w = same_width(pool, args)?;
            let mut acc = args[0];
            for a in &args[1..] {
                acc = pool.bin(o, w, acc, *a);
            }
            Ok(acc)
        };
        let cmp = |pool: &mut Pool, p: IPred, args: &[ExprId]| -> Result<ExprId, String> {
            if args.len() != 2 {
                return Err(format!("{op}: {} operands", args.len()));
            }
            same_width(pool, args)?;
            Ok(pool.cmp(p, args[0], args[1]))
        };
        let floor_div = |pool: &mut Pool, a: ExprId, k: ExprId| -> Result<ExprId, String> {
            match pool.as_const(k) {
                Some(c) if (c as i64) > 0 => {}
                _ => return Err("division by a non-constant or non-positive".into()),
            }
            let iw = pool.width(a);
            let q = pool.bin(BinOp::SDiv, iw, a, k);
            let r = pool.bin(BinOp::SRem, iw, a, k);
            let zero = pool.constant(iw, 0);
            let neg = pool.cmp(IPred::Slt, r, zero);
            let one = pool.constant(iw, 1);
            let q1 = pool.bin(BinOp::Sub, iw, q, one);
            Ok(pool.ite(neg, q1, q))
        };
        Ok(match op.as_str() {
            "and" | "or" if args.is_empty() => pool.constant(1, (op == "and") as u64),
            "and" => fold(pool, BinOp::And, &args)?,
            "or" => fold(pool, BinOp::Or, &args)?,
            "xor" => fold(pool, BinOp::Xor, &args)?,
            "not" => {
                need(1)?;
                pool.not(args[0])
            }
            "=>" => {
                need(2)?;
                let n = pool.not(args[0]);
                pool.bin(BinOp::Or, 1, n, args[1])
            }
            "=" => {
                if args.len() < 2 {
                    return Err("= needs operands".into());
                }
                same_width(pool, &args)?;
                let mut acc = pool.constant(1, 1);
                for w in args.windows(2) {
                    let e = pool.cmp(IPred::Eq, w[0], w[1]);
                    acc = pool.and(acc, e);
                }
                acc
            }
            "distinct" => cmp(pool, IPred::Ne, &args)?,
            "ite" => {
                need(3)?;
                same_width(pool, &args[1..])?;
                pool.ite(args[0], args[1], args[2])
            }
            // Integer arithmetic on 64-bit values.
            "+" if self.int => fold(pool, BinOp::Add, &args)?,
            "*" if self.int => {
                let mut acc = args[0];
                for a in &args[1..] {
                    acc = scale(pool, acc, *a);
                }
                acc
            }
            "-" if self.int && args.len() == 1 => {
                let z = pool.constant(self.iw, 0);
                pool.bin(BinOp::Sub, self.iw, z, args[0])
            }
            "-" if self.int => fold(pool, BinOp::Sub, &args)?,
            "div" if self.int => {
                need(2)?;
                floor_div(pool, args[0], args[1])?
            }
            "mod" if self.int => {
                need(2)?;
                let q = floor_div(pool, args[0], args[1])?;
                let m = pool.bin(BinOp::Mul, self.iw, q, args[1]);
                pool.bin(BinOp::Sub, self.iw, args[0], m)
            }
            "abs" if self.int => {
                need(1)?;
                let z = pool.constant(self.iw, 0);
                let neg = pool.cmp(IPred::Slt, args[0], z);
                let m = pool.bin(BinOp::Sub, self.iw, z, args[0]);
                pool.ite(neg, m, args[0])
            }
            "<=" if self.int => cmp(pool, IPred::Sle, &args)?,
            "<" if self.int => cmp(pool, IPred::Slt, &args)?,
            ">=" if self.int => cmp(pool, IPred::Sge, &args)?,
            ">" if self.int => cmp(pool, IPred::Sgt, &args)?,
            // Bit-vector operators.
            "bvadd" => fold(pool, BinOp::Add, &args)?,
            "bvsub" => fold(pool, BinOp::Sub, &args)?,
            "bvmul" => fold(pool, BinOp::Mul, &args)?,
            "bvudiv" | "bvudiv_i" => fold(pool, BinOp::UDiv, &args)?,
            "bvsdiv" | "bvsdiv_i" => fold(pool, BinOp::SDiv, &args)?,
            "bvurem" | "bvurem_i" => fold(pool, BinOp::URem, &args)?,
            "bvsrem" | "bvsrem_i" => fold(pool, BinOp::SRem, &args)?,
            "bvand" => fold(pool, BinOp::And, &args)?,
            "bvor" => fold(pool, BinOp::Or, &args)?,
            "bvxor" => fold(pool, BinOp::Xor, &args)?,
            "bvshl" => fold(pool, BinOp::Shl, &args)?,
            "bvlshr" => fold(pool, BinOp::LShr, &args)?,
            "bvashr" => fold(pool, BinOp::AShr, &args)?,
            "bvnot" => {
                need(1)?;
                let w = pool.width(args[0]);
                let ones = pool.constant(w, u64::MAX);
                pool.bin(BinOp::Xor, w, args[0], ones)
            }
            "bvneg" => {
                need(1)?;
                let w = pool.width(args[0]);
                let z = pool.constant(w, 0);
                pool.bin(BinOp::Sub, w, z, args[0])
            }
            "concat" => {
                need(2)?;
                if pool.width(args[0]) as u32 + pool.width(args[1]) as u32 > 64 {
                    return Err("concat wider than 64 bits".into());
                }
                pool.concat(args[0], args[1])
            }
            "bvule" => cmp(pool, IPred::Ule, &args)?,
            "bvult" => cmp(pool, IPred::Ult, &args)?,
            "bvuge" => cmp(pool, IPred::Uge, &args)?,
            "bvugt" => cmp(pool, IPred::Ugt, &args)?,
            "bvsle" => cmp(pool, IPred::Sle, &args)?,
            "bvslt" => cmp(pool, IPred::Slt, &args)?,
            "bvsge" => cmp(pool, IPred::Sge, &args)?,
            "bvsgt" => cmp(pool, IPred::Sgt, &args)?,
            name if self.defs.contains_key(name) && !name.starts_with('R') => {
                self.expand(pool, name, args, 0)?
            }
            _ => return Err(format!("unsupported operator {op}")),
        })
    }
}
