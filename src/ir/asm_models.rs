//! Which inline assembly statements Cairn models, read from their text and constraints.
//!
//! Systems code writes a few idioms in assembly; each recognised statement is rewritten into
//! plain code before lowering (`asm_rewrite`), so the interpreter runs on through it. Native
//! builds keep the assembly. The idioms (x86, AT&T syntax as LLVM keeps it: `$N` operands):
//! - barriers and hints (`""`, `mfence`, `lfence`, `sfence`, `pause`, `nop`, `rep; nop`):
//!   nothing a single-threaded run can observe;
//! - `bsr`/`bsf` (`rep; bsf`): the index of the highest or lowest set bit. Of 0 the destination
//!   keeps its value: a tied input's (Linux's `fls`) or a `cmovz`'s (`ffs`), else the run
//!   stops there as unsupported;
//! - `bt`, `bts`, `btr`, `btc`: on a register, the bit (offset modulo the width); on memory,
//!   the bit string from the address (a register offset is signed and may leave the word);
//! - read-modify-writes of memory, `lock`ed or not: `add`, `sub`, `and`, `or`, `xor`, `inc`,
//!   `dec`, `xadd`, `xchg`, `cmpxchg` (Linux's atomics);
//! - `bswap` of a register;
//! - `cpuid` (alone or between the exchanges of rbx that keep the PIC register);
//! - `rdtsc`, `rdtscp` (fenced or not): the counter's halves into `=a` and `=d`, or whole into
//!   `=A`, and the processor number into `=c`.
//!
//! Flags reach the program through flag outputs (`=@ccc`, `=@cce`, ...), `setcc` or
//! `sbb r, r`, when the idiom defines them (the carry of a bit test, the zero and sign of an
//! atomic's result, ...). Any other statement stays, and an interpreted run stops at it
//! (`Ext::InlineAsm`).

/// What a bit-test instruction does to the bit after reading it (the runtime's numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    Test = 0,
    Set = 1,
    Reset = 2,
    Complement = 3,
}

/// A read-modify-write of memory (the runtime's numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add = 0,
    Sub = 1,
    And = 2,
    Or = 3,
    Xor = 4,
    Inc = 5,
    Dec = 6,
}

/// A flag an instruction defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    Carry,
    Zero,
    Sign,
}

/// How an output reads the flags: 1 when `flag` is `set`, or (`sbb r, r`) all ones when the
/// carry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagRead {
    Is { flag: Flag, set: bool },
    AllOnesOnCarry,
}

impl FlagRead {
    /// A condition code's read (`c`, `nz`, `e`, `s`, ...).
    fn of_condition(cc: &str) -> Option<FlagRead> {
        let (flag, set) = match cc {
            "c" | "b" | "nae" => (Flag::Carry, true),
            "nc" | "ae" | "nb" => (Flag::Carry, false),
            "e" | "z" => (Flag::Zero, true),
            "ne" | "nz" => (Flag::Zero, false),
            "s" => (Flag::Sign, true),
            "ns" => (Flag::Sign, false),
            _ => return None,
        };
        Some(FlagRead::Is { flag, set })
    }

    fn flag(self) -> Flag {
        match self {
            FlagRead::Is { flag, .. } => flag,
            FlagRead::AllOnesOnCarry => Flag::Carry,
        }
    }
}

/// The statement's effect; operands are its numbers (`$N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Nothing,
    Scan {
        highest: bool,
        src: usize,
        dst: usize,
        /// The `cmovz` source that replaces the result of a scan of 0.
        if_zero: Option<usize>,
    },
    BitTest {
        op: BitOp,
        bit: usize,
        base: usize,
    },
    ReadModifyWrite {
        op: Arith,
        src: Option<usize>,
        mem: usize,
    },
    /// `xadd`: memory += register, the register gets the old value.
    ExchangeAdd {
        reg: usize,
        mem: usize,
    },
    Exchange {
        reg: usize,
        mem: usize,
    },
    /// `cmpxchg`: the accumulator (`=a` with a tied input: the expected value) gets the old
    /// value; memory gets `new` if it held the expected one.
    CompareExchange {
        new: usize,
        mem: usize,
    },
    ByteSwap {
        reg: usize,
    },
    /// `cpuid`: the processor's answer for a leaf (and a subleaf, 0 if none is given) into the
    /// outputs that are eax, ebx, ecx and edx.
    CpuId {
        leaf: usize,
        subleaf: Option<usize>,
        outputs: [usize; 4],
    },
    /// `rdtsc` or `rdtscp`: the parts of the time-stamp counter each output gets.
    TimeStampCounter {
        parts: Vec<(usize, CounterPart)>,
    },
}

/// What an output of `rdtsc`/`rdtscp` gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterPart {
    /// eax: the low 32 bits.
    Low,
    /// edx: the high 32 bits.
    High,
    /// `=A`: edx:eax on a 32-bit target; on x86-64, where a 64-bit value takes rax, the low
    /// half.
    Pair,
    /// ecx of `rdtscp`: the processor's number.
    Processor,
}

impl Op {
    /// The flags the operation leaves defined.
    pub fn defines(&self, f: Flag) -> bool {
        match self {
            Op::Scan { .. } => f == Flag::Zero,
            Op::BitTest { .. } => f == Flag::Carry,
            Op::ReadModifyWrite { op, .. } => {
                f != Flag::Carry || !matches!(op, Arith::Inc | Arith::Dec)
            }
            Op::ExchangeAdd { .. } => true,
            Op::CompareExchange { .. } => f == Flag::Zero,
            Op::Nothing
            | Op::Exchange { .. }
            | Op::ByteSwap { .. }
            | Op::CpuId { .. }
            | Op::TimeStampCounter { .. } => false,
        }
    }
}

/// A statement Cairn models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Idiom {
    pub op: Op,
    /// From the mnemonic's size suffix (else the operands' type).
    pub width: Option<u32>,
    /// Outputs that read the flags.
    pub reads: Vec<(usize, FlagRead)>,
    /// The input whose value is the memory operand's address (`($N)`), if not a `*m` one.
    pub address_in: Option<usize>,
}

/// One operand as its constraint describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    pub output: bool,
    /// Passed as a pointer (`*m`): memory.
    pub indirect: bool,
    /// An input tied to output N (`"0"`).
    pub tied_to: Option<usize>,
    /// A flag output (`={@ccc}`, `={@cce}`...).
    pub flag: Option<FlagRead>,
    /// An input that may be an immediate (`I`, `i`, `N`...).
    pub immediate: bool,
    /// The general register it names (`{ax}` / `{eax}` / `{rax}`: `a`; also `b`, `c`, `d`),
    /// or `A` for the a and d pair.
    pub register: Option<char>,
}

impl Operand {
    pub fn accumulator(&self) -> bool {
        self.register == Some('a')
    }
}

/// The operands of a constraint string, clobbers left out.
pub fn operands(constraints: &str) -> Vec<Operand> {
    let mut out = vec![];
    for c in constraints.split(',') {
        if c.starts_with('~') {
            continue;
        }
        let output = c.starts_with('=');
        let body = c.trim_start_matches(['=', '&', '+']);
        let indirect = body.starts_with('*');
        let body = body.trim_start_matches('*');
        let flag = body
            .strip_prefix("{@cc")
            .and_then(|b| b.strip_suffix('}'))
            .and_then(FlagRead::of_condition);
        let tied_to = body.parse::<usize>().ok().filter(|_| !output);
        let braced = body.starts_with('{');
        let immediate = !output && !braced && body.chars().any(|ch| "iINnJKLMe".contains(ch));
        out.push(Operand {
            output,
            indirect,
            tied_to,
            flag,
            immediate,
            register: general_register(body).or((body == "A").then_some('A')),
        });
    }
    out
}

/// `a`, `b`, `c` or `d` for the register a constraint names (`{ax}`, `{eax}`, `{rax}`...).
fn general_register(body: &str) -> Option<char> {
    let name = body.strip_prefix('{')?.strip_suffix('}')?;
    match name.strip_prefix(['e', 'r']).unwrap_or(name) {
        "ax" => Some('a'),
        "bx" => Some('b'),
        "cx" => Some('c'),
        "dx" => Some('d'),
        _ => None,
    }
}

/// The idiom `asm` (LLVM's text of the statement) with `ops` is, if any.
pub fn recognize(asm: &str, ops: &[Operand]) -> Option<Idiom> {
    let insts = instructions(asm);
    let any_output = ops.iter().any(|o| o.output);
    if insts.iter().all(|i| is_hint(i)) {
        return (!any_output).then_some(Idiom {
            op: Op::Nothing,
            width: None,
            reads: vec![],
            address_in: None,
        });
    }
    let whole = |op, width| Idiom {
        op,
        width: Some(width),
        reads: vec![],
        address_in: None,
    };
    if let Some(op) = cpuid(&insts, ops) {
        return Some(whole(op, 32));
    }
    if let Some(op) = time_stamp_counter(&insts, ops) {
        return Some(whole(op, 64));
    }
    let (first, rest) = insts.split_first()?;
    let (mnemonic, args) = first.split_first()?;
    // `($N)`: memory at the address input N holds (`"r"(&x)`).
    let mut address_in = None;
    let args: Vec<usize> = args
        .iter()
        .map(
            |a| match a.strip_prefix('(').and_then(|a| a.strip_suffix(')')) {
                Some(inner) if address_in.is_none() => {
                    let n = operand_number(inner)?;
                    address_in = Some(n);
                    Some(n)
                }
                Some(_) => None,
                None => operand_number(a),
            },
        )
        .collect::<Option<_>>()?;
    if let Some(n) = address_in
        && (ops.get(n).is_none_or(|o| o.output || o.indirect)
            || args.iter().filter(|&&a| a == n).count() > 1)
    {
        return None;
    }
    let through = |n: usize| address_in == Some(n);
    let is_output = |n: usize| ops.get(n).is_some_and(|o| o.output && !o.indirect);
    let is_mem = |n: usize| ops.get(n).is_some_and(|o| o.indirect) || through(n);
    let is_value = |n: usize| ops.get(n).is_some_and(|o| !o.indirect) && !through(n);
    let mut reads: Vec<(usize, FlagRead)> = ops
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.flag.map(|f| (i, f)))
        .collect();
    let mut if_zero = None;
    for then in rest {
        let (m, a) = then.split_first()?;
        let a: Vec<usize> = a.iter().map(|x| operand_number(x)).collect::<Option<_>>()?;
        if let (Some(cc), [r]) = (m.strip_prefix("set"), a.as_slice()) {
            reads.push((*r, FlagRead::of_condition(cc)?));
        } else if let (Some(s), [x, y]) = (m.strip_prefix("sbb"), a.as_slice())
            && x == y
            && suffix_width(s).is_some()
        {
            reads.push((*x, FlagRead::AllOnesOnCarry));
        } else if let (Some(s), [x, y]) = (m.strip_prefix("cmovz"), a.as_slice())
            && suffix_width(s).is_some()
            && if_zero.is_none()
            && args.get(1) == Some(y)
        {
            if_zero = Some(*x);
        } else {
            return None;
        }
    }
    let (name, width) = split_suffix(mnemonic)?;
    let op = match (name, args.as_slice()) {
        ("bsr" | "bsf", &[src, dst]) if is_output(dst) && is_value(src) && width != Some(8) => {
            Op::Scan {
                highest: name == "bsr",
                src,
                dst,
                if_zero: if_zero.take(),
            }
        }
        ("bt" | "bts" | "btr" | "btc", &[bit, base]) if is_value(bit) && width != Some(8) => {
            let op = match name {
                "bts" => BitOp::Set,
                "btr" => BitOp::Reset,
                "btc" => BitOp::Complement,
                _ => BitOp::Test,
            };
            Op::BitTest { op, bit, base }
        }
        ("add" | "sub" | "and" | "or" | "xor", &[src, mem]) if is_mem(mem) && is_value(src) => {
            let op = match name {
                "add" => Arith::Add,
                "sub" => Arith::Sub,
                "and" => Arith::And,
                "or" => Arith::Or,
                _ => Arith::Xor,
            };
            Op::ReadModifyWrite {
                op,
                src: Some(src),
                mem,
            }
        }
        ("inc" | "dec", &[mem]) if is_mem(mem) && width.is_some() => Op::ReadModifyWrite {
            op: if name == "inc" {
                Arith::Inc
            } else {
                Arith::Dec
            },
            src: None,
            mem,
        },
        ("xadd", &[reg, mem]) if is_output(reg) && is_mem(mem) => Op::ExchangeAdd { reg, mem },
        ("xchg", &[a, b]) if is_mem(a) != is_mem(b) => {
            let (reg, mem) = if is_mem(b) { (a, b) } else { (b, a) };
            if !is_output(reg) {
                return None;
            }
            Op::Exchange { reg, mem }
        }
        ("cmpxchg", &[new, mem]) if is_mem(mem) && is_value(new) => {
            Op::CompareExchange { new, mem }
        }
        ("bswap", &[reg]) if is_output(reg) && width != Some(8) && width != Some(16) => {
            Op::ByteSwap { reg }
        }
        _ => return None,
    };
    if if_zero.is_some() || reads.iter().any(|&(_, r)| !op.defines(r.flag())) {
        return None;
    }
    // `setcc` may write memory (`=qm`: a byte), `sbb` and flag outputs only registers.
    let readable = |&(n, r): &(usize, FlagRead)| {
        is_output(n) || is_mem(n) && ops[n].output && matches!(r, FlagRead::Is { .. })
    };
    if !reads.iter().all(readable) {
        return None;
    }
    Some(Idiom {
        op,
        width,
        reads,
        address_in,
    })
}

/// The statement's instructions, each its mnemonic and operands. `lock` is dropped (runs are
/// single-threaded); `rep` is kept only before `nop` (`rep; nop` is `pause`): `rep; bsf` is
/// `bsf` or `tzcnt`, which differ only on 0, where the model stops the run.
fn instructions(asm: &str) -> Vec<Vec<String>> {
    let mut text = String::new();
    let mut rest = asm;
    while let Some(i) = rest.find("/*") {
        text.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    text.push_str(rest);
    let prefixes = ["lock", "rep", "repz", "repe"];
    let mut out: Vec<Vec<String>> = vec![];
    let mut rep = false;
    for line in text.split(['\n', ';']) {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut words: Vec<&str> = line.split_whitespace().collect();
        while let Some(&w) = words.first()
            && prefixes.contains(&w)
        {
            rep = w != "lock";
            words.remove(0);
        }
        let Some((&mnemonic, operands)) = words.split_first() else {
            continue;
        };
        let mnemonic = match (std::mem::take(&mut rep), mnemonic) {
            (true, "nop") => "pause",
            (_, m) => m,
        };
        let operands = operands.join("");
        let mut inst = vec![mnemonic.to_string()];
        inst.extend(
            operands
                .split(',')
                .filter(|a| !a.is_empty())
                .map(str::to_string),
        );
        out.push(inst);
    }
    out
}

/// `cpuid` alone, or between two exchanges of rbx with an output (clang's and gcc's
/// `cpuid.h` keep rbx, the PIC register, that way).
fn cpuid(insts: &[Vec<String>], ops: &[Operand]) -> Option<Op> {
    let output = |n: usize| ops.get(n).is_some_and(|o| o.output && !o.indirect);
    let named = |r: char| (0..ops.len()).find(|&n| output(n) && ops[n].register == Some(r));
    let rbx = |r: &String| matches!(r.as_str(), "%rbx" | "%ebx");
    let b = match insts {
        [c] if c == &["cpuid"] => named('b')?,
        [x, c, y] if c == &["cpuid"] && x == y => match x.as_slice() {
            [m, r, n] | [m, n, r] if m.starts_with("xchg") && rbx(r) => {
                operand_number(n).filter(|&n| output(n))?
            }
            _ => return None,
        },
        _ => return None,
    };
    let (a, c, d) = (named('a')?, named('c')?, named('d')?);
    let input = |out: usize, r: char| {
        ops.iter()
            .position(|o| !o.output && (o.tied_to == Some(out) || o.register == Some(r)))
    };
    Some(Op::CpuId {
        leaf: input(a, 'a')?,
        subleaf: input(c, 'c'),
        outputs: [a, b, c, d],
    })
}

/// `rdtsc` or `rdtscp` between fences, every operand an output it writes.
fn time_stamp_counter(insts: &[Vec<String>], ops: &[Operand]) -> Option<Op> {
    let mut counters = insts.iter().filter(|i| !is_hint(i));
    let processor = match (counters.next()?.as_slice(), counters.next()) {
        ([m], None) if m == "rdtsc" => false,
        ([m], None) if m == "rdtscp" => true,
        _ => return None,
    };
    let mut parts: Vec<(usize, CounterPart)> = vec![];
    for (n, o) in ops.iter().enumerate() {
        let part = match o.register {
            _ if !o.output || o.indirect => return None,
            Some('a') => CounterPart::Low,
            Some('d') => CounterPart::High,
            Some('A') => CounterPart::Pair,
            Some('c') if processor => CounterPart::Processor,
            _ => return None,
        };
        // Each part once; `=A` is eax already.
        let pair = |p: CounterPart| matches!(p, CounterPart::Pair | CounterPart::Low);
        if parts
            .iter()
            .any(|&(_, p)| p == part || pair(p) && pair(part))
        {
            return None;
        }
        parts.push((n, part));
    }
    Some(Op::TimeStampCounter { parts })
}

fn is_hint(inst: &[String]) -> bool {
    inst.len() == 1
        && matches!(
            inst[0].as_str(),
            "nop" | "pause" | "mfence" | "lfence" | "sfence"
        )
}

/// `$N` or `${N:modifier}`.
fn operand_number(a: &str) -> Option<usize> {
    let a = a.strip_prefix('$')?;
    let a = a
        .strip_prefix('{')
        .and_then(|b| b.strip_suffix('}'))
        .map_or(a, |b| b.split(':').next().unwrap_or(""));
    a.parse().ok()
}

fn suffix_width(s: &str) -> Option<Option<u32>> {
    match s {
        "" => Some(None),
        "b" => Some(Some(8)),
        "w" => Some(Some(16)),
        "l" => Some(Some(32)),
        "q" => Some(Some(64)),
        _ => None,
    }
}

/// A mnemonic Cairn models and its size suffix's width.
fn split_suffix(m: &str) -> Option<(&'static str, Option<u32>)> {
    const NAMES: &[&str] = &[
        "bsr", "bsf", "bts", "btr", "btc", "bt", "add", "sub", "and", "or", "xor", "inc", "dec",
        "xadd", "xchg", "cmpxchg", "bswap",
    ];
    // Longest name first: `bts` before `bt`, `xadd` before `add`.
    let mut best: Option<(&'static str, Option<u32>)> = None;
    for &n in NAMES {
        if let Some(s) = m.strip_prefix(n)
            && let Some(w) = suffix_width(s)
            && best.is_none_or(|(b, _)| b.len() < n.len())
        {
            best = Some((n, w));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idiom(asm: &str, constraints: &str) -> Option<Idiom> {
        recognize(asm, &operands(constraints))
    }

    const CLOBBERS: &str = "~{dirflag},~{fpsr},~{flags}";

    fn carry() -> FlagRead {
        FlagRead::Is {
            flag: Flag::Carry,
            set: true,
        }
    }

    #[test]
    fn barriers_and_hints_are_nothing() {
        for asm in [
            "",
            "mfence",
            "rep; nop",
            "pause",
            "lfence\n\tsfence",
            "/* barrier */",
        ] {
            let c = format!("~{{memory}},{CLOBBERS}");
            assert_eq!(idiom(asm, &c).map(|i| i.op), Some(Op::Nothing), "{asm}");
        }
        // An output is something.
        assert_eq!(idiom("nop", "=r"), None);
        assert_eq!(idiom("ud2", ""), None);
    }

    #[test]
    fn cpuid_alone_and_between_rbx_exchanges() {
        let plain = idiom(
            "cpuid",
            &format!("={{ax}},={{bx}},={{cx}},={{dx}},{{ax}},{CLOBBERS}"),
        );
        let expected = |subleaf| Op::CpuId {
            leaf: 4,
            subleaf,
            outputs: [0, 1, 2, 3],
        };
        assert_eq!(plain.map(|i| i.op), Some(expected(None)));
        let xchg = "  xchgq  %rbx,${1:q}\n  cpuid\n  xchgq  %rbx,${1:q}";
        let count = idiom(xchg, &format!("={{ax}},=r,={{cx}},={{dx}},0,2,{CLOBBERS}"));
        assert_eq!(count.map(|i| i.op), Some(expected(Some(5))));
        // Not rbx, or the exchanges differ: something else.
        let other = "  xchgq  %rcx,${1:q}\n  cpuid\n  xchgq  %rcx,${1:q}";
        assert_eq!(idiom(other, "={ax},=r,={cx},={dx},0,2"), None);
        assert_eq!(idiom("cpuid", "={ax},={bx},={cx},0"), None);
    }

    #[test]
    fn time_stamp_counter_reads() {
        use CounterPart::*;
        let parts = |asm: &str, c: &str| match idiom(asm, &format!("{c},{CLOBBERS}")) {
            Some(Idiom {
                op: Op::TimeStampCounter { parts },
                width: Some(64),
                ..
            }) => Some(parts),
            _ => None,
        };
        assert_eq!(
            parts("rdtsc", "={ax},={dx}"),
            Some(vec![(0, Low), (1, High)])
        );
        assert_eq!(
            parts("lfence\n\trdtsc", "={dx},={ax}"),
            Some(vec![(0, High), (1, Low)])
        );
        assert_eq!(parts("rdtsc", "=A"), Some(vec![(0, Pair)]));
        assert_eq!(
            parts("rdtscp", "={ax},={dx},={cx}"),
            Some(vec![(0, Low), (1, High), (2, Processor)])
        );
        // rdtsc leaves ecx alone; more instructions, inputs or overlapping outputs: no idiom.
        assert_eq!(parts("rdtsc", "={ax},={dx},={cx}"), None);
        assert_eq!(parts("rdtsc\n\tshl $$32, %rdx", "={ax},={dx}"), None);
        assert_eq!(parts("rdtsc", "={ax},={dx},r"), None);
        assert_eq!(parts("rdtsc", "=A,={ax}"), None);
        assert_eq!(parts("rdtsc; rdtsc", "={ax},={dx}"), None);
    }

    #[test]
    fn bit_scans_as_linux_writes_them() {
        let fls = idiom("bsrl $1,$0", &format!("=r,rm,0,{CLOBBERS}")).unwrap();
        assert_eq!(
            fls.op,
            Op::Scan {
                highest: true,
                src: 1,
                dst: 0,
                if_zero: None
            }
        );
        assert_eq!(fls.width, Some(32));
        assert_eq!(operands("=r,rm,0")[2].tied_to, Some(0));
        let ffs = idiom("bsfl $1,$0\n\tcmovzl $2,$0", "=&r,rm,r").unwrap();
        assert_eq!(
            ffs.op,
            Op::Scan {
                highest: false,
                src: 1,
                dst: 0,
                if_zero: Some(2)
            }
        );
        assert!(idiom("rep; bsf $1,$0", &format!("=r,rm,{CLOBBERS}")).is_some());
        // A scan into an input, or followed by more, is not the idiom.
        assert_eq!(idiom("bsr $0,$1", "=r,rm"), None);
        assert_eq!(idiom("bsr $1,$0\n\tinc $0", "=r,rm"), None);
        // The carry after a scan is undefined.
        assert_eq!(idiom("bsr $1,$0\n\tsetc $2", "=r,rm,=r"), None);
    }

    #[test]
    fn bit_tests_with_their_carry_outputs() {
        let test = idiom(
            "btq $2,$1\n\t/* output condition code c*/\n",
            &format!("={{@ccc}},*m,Ir,~{{memory}},{CLOBBERS}"),
        )
        .unwrap();
        assert_eq!(
            test.op,
            Op::BitTest {
                op: BitOp::Test,
                bit: 2,
                base: 1
            }
        );
        assert_eq!(test.reads, vec![(0, carry())]);
        let set = idiom(
            "lock; btsq $2,$0",
            &format!("=*m,={{@ccc}},Ir,*m,{CLOBBERS}"),
        )
        .unwrap();
        assert_eq!(
            set.op,
            Op::BitTest {
                op: BitOp::Set,
                bit: 2,
                base: 0
            }
        );
        let sbb = idiom("btl $2,$1\n\tsbbl $0,$0", "=r,r,r").unwrap();
        assert_eq!(sbb.reads, vec![(0, FlagRead::AllOnesOnCarry)]);
        let ops = operands("=*m,Ir,*m");
        assert!(ops[0].output && ops[0].indirect && ops[1].immediate && !ops[2].output);
        assert!(idiom("btq $2, $1\n\tsetc ${0:b}", "=q,r,r").is_some());
        // `bt` then anything but a flag read is not modelled, nor the zero flag after it.
        assert_eq!(idiom("btq $2,$1\n\tadcq $0,$0", "=r,r,r"), None);
        assert_eq!(idiom("btq $2,$1\n\tsetz $0", "=r,r,r"), None);
        assert_eq!(idiom("btx $1,$0", "=*m,Ir"), None);
    }

    #[test]
    fn atomics_as_linux_writes_them() {
        // atomic_inc, atomic_dec_and_test (sete, or a flag output), atomic_add.
        let inc = idiom("lock; incl $0", "=*m,*m,~{memory}").unwrap();
        assert_eq!(
            inc.op,
            Op::ReadModifyWrite {
                op: Arith::Inc,
                src: None,
                mem: 0
            }
        );
        let dec = idiom("lock; decl $0; sete $1", "=*m,=*qm,*m,~{memory}").unwrap();
        assert_eq!(
            dec.reads,
            vec![(
                1,
                FlagRead::Is {
                    flag: Flag::Zero,
                    set: true
                }
            )]
        );
        assert!(idiom("lock; decl $0", "=*m,={@cce},*m").is_some());
        let add = idiom("lock; addl $1,$0", "=*m,ir,*m").unwrap();
        assert_eq!(add.width, Some(32));
        // The carry of inc is unchanged, so not read.
        assert_eq!(idiom("lock; incl $0", "=*m,={@ccc},*m"), None);
        // A register destination is not memory.
        assert_eq!(idiom("addl $1,$0", "=r,r,0"), None);
        // xadd, xchg, cmpxchg.
        let xadd = idiom("lock; xaddl $0, $1", "=r,=*m,0,*m,~{memory}").unwrap();
        assert_eq!(xadd.op, Op::ExchangeAdd { reg: 0, mem: 1 });
        let xchg = idiom("xchgl $0,$1", "=r,=*m,0,*m,~{memory}").unwrap();
        assert_eq!(xchg.op, Op::Exchange { reg: 0, mem: 1 });
        let cas = idiom("lock; cmpxchgl $2,$1", "={ax},=*m,r,0,*m,~{memory}").unwrap();
        assert_eq!(cas.op, Op::CompareExchange { new: 2, mem: 1 });
        assert!(operands("={ax},=*m,r,0,*m")[0].accumulator());
        assert_eq!(
            idiom("bswapl $0", "=r,0").map(|i| i.op),
            Some(Op::ByteSwap { reg: 0 })
        );
        assert_eq!(idiom("bswapw $0", "=r,0"), None);
        // Memory at an address in a register.
        let through = idiom("lock; incl ($0)", "r,~{memory},~{cc}").unwrap();
        assert_eq!(through.address_in, Some(0));
        assert_eq!(
            through.op,
            Op::ReadModifyWrite {
                op: Arith::Inc,
                src: None,
                mem: 0
            }
        );
        assert_eq!(idiom("xchgl ($0),($1)", "r,r"), None);
    }
}
