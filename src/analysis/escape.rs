//! Escaping functions: program functions that can run outside the visible calls.
//!
//! A function whose address is taken (a constant operand anywhere, or bytes of a global
//! initializer) may be called by library code — a `qsort` comparator, an `atexit` handler, a
//! signal handler run by `raise`, a thread start routine. Among them, *asynchronous* ones may
//! run at any moment: thread start routines (threads interleave natively) and handlers of
//! signals that the system, not the program, delivers (timers, faults, child events). Clients
//! (the model checker) must assume synchronous escaping functions run at any library call, and
//! asynchronous ones between any two instructions.

use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};

/// Signals delivered only when the program raises them itself (raise, kill, abort).
const PROGRAM_RAISED_SIGNALS: &[u64] = &[1, 2, 3, 6, 10, 12, 15];

#[derive(Clone, Debug, Default)]
pub struct Escapes {
    /// Functions whose address is taken.
    pub escaping: BTreeSet<FuncId>,
    /// External functions (no body) whose address is taken.
    pub escaping_externs: BTreeSet<u32>,
    /// Escaping functions that may run at any moment, with the reason.
    pub asynchronous: BTreeMap<FuncId, String>,
    /// Set when an asynchronous start cannot be attributed to a function (then every escaping
    /// function counts as asynchronous): the reason.
    pub all_asynchronous: Option<String>,
    /// The program starts threads (the interpreter runs them sequentially).
    pub uses_threads: bool,
}

/// The value of `r` in `f` when it is a constant (no instruction or parameter defines it).
pub fn constant(f: &Function, r: Reg) -> Option<u64> {
    if f.reg_tys.get(r as usize).is_some_and(|t| *t != Ty::Void) {
        return None;
    }
    if f.params
        .iter()
        .any(|p| matches!(p, Val::Reg(x, _) if *x == r))
    {
        return None;
    }
    f.reg_init.get(r as usize).copied()
}

/// The position of the code at address `a` among the functions followed by the externs (the
/// lowering gives each a 16-byte slot from `FUNC_BASE`).
fn code_index(a: u64) -> Option<usize> {
    let off = a.checked_sub(layout::FUNC_BASE)?;
    (off % 16 == 0).then_some((off / 16) as usize)
}

/// The function whose address is `a`.
pub fn func_at(m: &Module, a: u64) -> Option<FuncId> {
    code_index(a)
        .filter(|&i| i < m.functions.len())
        .map(|i| i as FuncId)
}

/// The external function whose address is `a`.
pub fn extern_at(m: &Module, a: u64) -> Option<u32> {
    let e = code_index(a)?.checked_sub(m.functions.len())?;
    (e < m.externs.len()).then_some(e as u32)
}

/// Name of the callee of a call instruction (program, runtime or external function).
pub fn callee_name<'m>(m: &'m Module, i: &Inst) -> Option<&'m str> {
    match i {
        Inst::Call {
            callee: Callee::Func(t),
            ..
        } => Some(&m.functions[*t as usize].name),
        Inst::CallExtern { ext, .. } => Some(&m.externs[*ext as usize].name),
        _ => None,
    }
}

fn call_args(i: &Inst) -> &[Val] {
    match i {
        Inst::Call { args, .. } | Inst::CallExtern { args, .. } => args,
        _ => &[],
    }
}

/// Escaping and asynchronous functions of `m`.
pub fn escapes(m: &Module) -> Escapes {
    let mut e = Escapes::default();
    let taken = |e: &mut Escapes, a: u64| {
        if let Some(t) = func_at(m, a) {
            e.escaping.insert(t);
        } else if let Some(x) = extern_at(m, a) {
            e.escaping_externs.insert(x);
        }
    };
    for f in &m.functions {
        for (r, v) in f.reg_init.iter().enumerate() {
            if constant(f, r as Reg).is_some() {
                taken(&mut e, *v);
            }
        }
    }
    let pb = m.data_model.ptr_bytes() as usize;
    for g in &m.globals {
        for c in g.init.chunks(pb) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            taken(&mut e, u64::from_le_bytes(b));
        }
    }
    let arg_const = |f: &Function, a: Option<&Val>| match a {
        Some(Val::Reg(r, _)) => constant(f, *r),
        _ => None,
    };
    for f in &m.functions {
        for i in f.blocks.iter().flat_map(|b| &b.insts) {
            let Some(name) = callee_name(m, i) else {
                continue;
            };
            let args = call_args(i);
            let start = |idx: usize, why: &str, e: &mut Escapes| match arg_const(f, args.get(idx))
                .and_then(|a| func_at(m, a))
            {
                Some(t) => {
                    e.asynchronous.entry(t).or_insert_with(|| why.to_string());
                }
                None => {
                    e.all_asynchronous.get_or_insert_with(|| {
                        format!("{why} through a function pointer (in `{}`)", f.name)
                    });
                }
            };
            match name {
                "pthread_create" | "thrd_create" => {
                    e.uses_threads = true;
                    let idx = if name == "thrd_create" { 1 } else { 2 };
                    start(idx, "started as a thread", &mut e);
                }
                "signal" | "sigset" | "bsd_signal" | "sysv_signal" | "__sysv_signal" => {
                    let sig = arg_const(f, args.first());
                    if !sig.is_some_and(|s| PROGRAM_RAISED_SIGNALS.contains(&s)) {
                        start(1, "handler of a signal the system may deliver", &mut e);
                    }
                }
                "sigaction" => {
                    let sig = arg_const(f, args.first());
                    if !sig.is_some_and(|s| PROGRAM_RAISED_SIGNALS.contains(&s)) {
                        e.all_asynchronous.get_or_insert_with(|| {
                            format!(
                                "sigaction for a signal the system may deliver (in `{}`)",
                                f.name
                            )
                        });
                    }
                }
                "timer_create" | "sigvec" | "clone" | "__clone" => {
                    e.all_asynchronous.get_or_insert_with(|| {
                        format!("`{name}` may start any escaping function (in `{}`)", f.name)
                    });
                }
                _ => {}
            }
        }
    }
    if let Some(why) = &e.all_asynchronous {
        for &t in &e.escaping {
            e.asynchronous.entry(t).or_insert_with(|| why.clone());
        }
    }
    e
}
