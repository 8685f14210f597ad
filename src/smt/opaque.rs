//! Opaque functions: calls that stay in symbolic expressions as nodes evaluated concretely
//! (`Node::Opaque`), instead of being replaced by their values. Math-library functions are
//! evaluated here with the host's libm (the same functions the interpreter runs, so the solver's
//! concrete check agrees with the run), modelled ones and the others alike (`HostFn`); user functions named by `--opaque` are evaluated by the
//! layer that can run them (the interpreter), through `UserFns`.

use std::fmt;

// Math-library functions are classified in `ir` (extern resolution needs them).
pub use crate::ir::host_fns::HostFnId;
pub use crate::ir::math::{MathFn, MathOp};

/// What an opaque node calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpaqueFn {
    Math(MathFn),
    /// A numeric function of the host's math library without a model (`erf`, `scalbn`...),
    /// called natively.
    Host(HostFnId),
    /// A function of the program (by `FuncId`), named with `--opaque`.
    User(u32),
}

/// Concrete evaluation of the program's own opaque functions, provided by the layer that can
/// run them. Implementations must be deterministic (they are memoized freely).
pub trait UserFns {
    /// Is calls of function `func` kept as opaque nodes?
    fn is_opaque(&self, func: u32) -> bool;
    /// Bit pattern of `func(args)`, or None when the call does not return normally.
    fn call(&self, func: u32, args: &[u64]) -> Option<u64>;
    fn name(&self, func: u32) -> String;
}

/// A shared handle on a `UserFns` (the pool holds one).
#[derive(Clone)]
pub struct UserFnsRef(pub std::rc::Rc<dyn UserFns>);

impl fmt::Debug for UserFnsRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("UserFns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_evaluation() {
        let s = MathFn::by_name("sinf").unwrap();
        assert_eq!((s.op, s.w), (MathOp::Sin, 32));
        assert_eq!(MathFn::by_name("pow").unwrap().arity(), 2);
        assert!(MathFn::by_name("printf").is_none());
        let p = MathFn::by_name("pow").unwrap();
        assert_eq!(
            f64::from_bits(p.eval(&[2f64.to_bits(), 10f64.to_bits()])),
            1024.0
        );
        assert_eq!(MathFn::by_name("hypotf").unwrap().name(), "hypotf");
    }
}
