//! What each external function a program calls is (an input call, the error function, a
//! modelled libc function, a math function, unknown): resolved once per module, shared by the
//! interpreter's models and the model checker.

use super::Module;
use super::host_fns::{self, HostFnId};
use super::inputs::InputKind;
use super::math::MathFn;

/// What an external function is, resolved once per module.
#[derive(Clone, Debug)]
pub enum Ext {
    Nondet(InputKind),
    /// CREST's `__CrestInt(&x)` family: writes a fresh input into `*p`.
    CrestInput(InputKind),
    MakeSymbolic,
    Assume,
    ErrorFn,
    AssertFail,
    Exit,
    Abort,
    Malloc,
    Calloc,
    Realloc,
    Free,
    Memcpy,
    Memmove,
    Memset,
    Printf,
    Fprintf,
    Sprintf,
    Snprintf,
    Vprintf,
    Vfprintf,
    Vsprintf,
    Vsnprintf,
    Puts,
    Putchar,
    Fputs,
    Fputc,
    Fflush,
    Fwrite,
    Perror,
    /// The runtime's character read that reaches the host (`__cairn_fgetc`): on stdin each
    /// character is an input (the runtime builds lines, blocks and pushback on it).
    Fgetc,
    CtypeB,
    CtypeLower,
    CtypeUpper,
    Errno,
    Strtod,
    Strtof,
    Atof,
    /// A math-library function: evaluated by `MathFn::eval`, its result an opaque node of the
    /// symbolic shadow when an argument is symbolic.
    Math(MathFn),
    /// A numeric function of the host's math library without a model (`erf`, `scalbn`...):
    /// called natively, its result an opaque node like a `Math` function's.
    HostMath(HostFnId),
    Ldexp,
    Frexp,
    Modf,
    /// `frexpf` and `modff`: the float variants (their second result written through a pointer).
    Frexpf,
    Modff,
    /// Returns 0 and does nothing (setvbuf, fclose...).
    Nop,
    /// The indeterminate initial value of a local (see `ir::normalize`): 0 here.
    Indeterminate,
    /// The initial value of a local read before it is set, as an input
    /// (`normalize::UNINITIALIZED_INPUT`, `--uninitialized-inputs`).
    UninitializedInput,
    /// `getpid`: a fixed process id (a test must not depend on the real one).
    GetPid,
    /// `__cairn_cpuid`: one register of the host processor's `cpuid` answer.
    CpuId,
    /// `__cairn_environment_result(v)`: `v`, a result the environment decides natively (a file
    /// created in the current directory); no proof rests on it (the model checker reads any
    /// value).
    EnvironmentResult,
    /// `__cairn_endless_loop()`: the run is taken never to end (it keeps reading stdin at its
    /// end); it stops as at the step limit.
    EndlessLoop,
    /// `__cairn_tsc`: the time-stamp counter (`rdtsc`), counted in the run's steps.
    TimeStampCounter,
    /// The runtime's view of the process id (`kill` compares against it): getpid's input if read.
    OwnPid,
    /// `__cairn_readable(p)`: the bytes from `p` to the end of its object (0 outside any).
    Readable,
    /// The default action of a signal the program raised: the process dies by that signal.
    SignalDeath,
    /// The runtime reached something the interpreter cannot reproduce (message argument).
    Unsupported,
    /// `fegetround`'s answer: the run's rounding mode (`ir::rounding::Rounding`).
    GetRounding,
    /// `fesetround` of a valid mode: float operations round so from now on.
    SetRounding,
    /// The runtime reached an operation on the machine's environment Cairn does not model (a
    /// file that is not an input, a thread schedule): no run, native or interpreted, decides it.
    Environment,
    /// `setjmp` and its kin: the direct return (0); no jump back is modelled.
    SetJmp,
    /// `longjmp` and its kin: a jump Cairn does not execute (the run stops, unsupported).
    LongJmp,
    /// An inline assembly statement (`ir::INLINE_ASM`): not executed; the run stops there.
    InlineAsm,
    /// An instruction the interpreter cannot execute (`ir::NOT_INTERPRETED`): as `InlineAsm`.
    NotInterpreted,
    /// An external function Cairn has no model of: its result becomes an input.
    Unknown(String),
}

pub fn resolve(m: &Module) -> Vec<Ext> {
    m.externs
        .iter()
        .map(|e| match resolve_name(&e.name) {
            Ext::Unknown(name) => {
                host_fns::lookup(e, m.data_model).map_or(Ext::Unknown(name), Ext::HostMath)
            }
            known => known,
        })
        .collect()
}

fn resolve_name(name: &str) -> Ext {
    use Ext::*;
    if name.starts_with(super::normalize::INDETERMINATE) {
        return Indeterminate;
    }
    if name.starts_with(super::normalize::UNINITIALIZED_INPUT) {
        return UninitializedInput;
    }
    // The runtime's own inputs (argv, files, scanf) are `__cairn_nondet_<type>`.
    if let Some(suffix) = name
        .strip_prefix("__VERIFIER_nondet_")
        .or_else(|| name.strip_prefix("__cairn_nondet_"))
    {
        return match InputKind::from_nondet_suffix(suffix) {
            Some(k) => Nondet(k),
            None => Unknown(name.into()),
        };
    }
    let crest = |k| CrestInput(k);
    match name {
        "__CrestInt" => crest(InputKind::Int),
        "__CrestUInt" => crest(InputKind::UInt),
        "__CrestChar" => crest(InputKind::Char),
        "__CrestUChar" => crest(InputKind::UChar),
        "__CrestShort" => crest(InputKind::Short),
        "__CrestUShort" => crest(InputKind::UShort),
        "__CrestBool" => crest(InputKind::Bool),
        "klee_make_symbolic" | "__cairn_make_symbolic" => MakeSymbolic,
        "klee_assume" | "__VERIFIER_assume" | "assume_abort_if_not" => Assume,
        "reach_error" | "__VERIFIER_error" => ErrorFn,
        "__assert_fail" | "__assert_perror_fail" | "__assert" => AssertFail,
        "__cairn_exit" | "_exit" | "_Exit" | "exit" => Exit,
        "abort" => Abort,
        "malloc" | "valloc" => Malloc,
        "calloc" => Calloc,
        "realloc" => Realloc,
        "free" => Free,
        "memcpy" | "__memcpy_chk" => Memcpy,
        "memmove" | "__memmove_chk" => Memmove,
        "memset" | "__memset_chk" => Memset,
        "printf" => Printf,
        "fprintf" => Fprintf,
        "sprintf" => Sprintf,
        "snprintf" => Snprintf,
        "vprintf" => Vprintf,
        "vfprintf" | "__cairn_vfprintf" => Vfprintf,
        "vsprintf" => Vsprintf,
        "vsnprintf" => Vsnprintf,
        "puts" => Puts,
        "putchar" | "putchar_unlocked" => Putchar,
        "fputs" | "fputs_unlocked" | "__cairn_fputs" => Fputs,
        "fputc" | "putc" | "_IO_putc" | "__cairn_fputc" => Fputc,
        "fflush" | "__cairn_fflush" => Fflush,
        "fwrite" | "__cairn_fwrite" => Fwrite,
        "perror" => Perror,
        "__cairn_fgetc" => Fgetc,
        "__ctype_b_loc" => CtypeB,
        "__ctype_tolower_loc" => CtypeLower,
        "__ctype_toupper_loc" => CtypeUpper,
        "__errno_location" => Errno,
        "strtod" | "__cairn_strtod" => Strtod,
        "strtof" | "__cairn_strtof" => Strtof,
        "atof" => Atof,
        "ldexp" => Ldexp,
        "frexp" => Frexp,
        "modf" => Modf,
        "frexpf" => Frexpf,
        "modff" => Modff,
        "setvbuf" | "setbuf" | "fclose" | "alarm" => Nop,
        "getpid" => GetPid,
        "__cairn_cpuid" => CpuId,
        "__cairn_tsc" => TimeStampCounter,
        "__cairn_environment_result" => EnvironmentResult,
        "__cairn_endless_loop" => EndlessLoop,
        "__cairn_own_pid" => OwnPid,
        "__cairn_readable" => Readable,
        "__cairn_signal_death" => SignalDeath,
        "__cairn_unsupported" => Unsupported,
        "__cairn_get_rounding" => GetRounding,
        "__cairn_set_rounding" => SetRounding,
        "__cairn_environment" => Environment,
        "setjmp" | "_setjmp" | "__sigsetjmp" | "sigsetjmp" => SetJmp,
        "longjmp" | "_longjmp" | "siglongjmp" | "__longjmp_chk" => LongJmp,
        super::INLINE_ASM => InlineAsm,
        super::NOT_INTERPRETED => NotInterpreted,
        _ => match MathFn::by_name(name) {
            Some(f) => Math(f),
            None => Unknown(name.into()),
        },
    }
}
