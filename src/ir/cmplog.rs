//! The comparison log (AFL++'s CmpLog, libFuzzer's table of recent compares): a second native
//! build whose integer comparisons and memory/string compare calls write both operands to a
//! map the fuzzer reads after a run. Where an operand is spelled in the input, the other
//! operand in its place passes the comparison (input-to-state, `driver::input_to_state`):
//! magic numbers, hex and decimal fields, keywords, checksums the program computes. The log
//! costs a call per comparison, so it is a build of its own, run once per corpus entry; the
//! fuzzer's own build stays as fast as before.

use llvm_sys::LLVMOpcode;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use std::collections::HashMap;
use std::ffi::CString;

/// The log's function for integer comparisons: `(a, b, site << 4 | width in bytes)`.
const INT_FN: &str = "__cairn_cmplog_int";
/// The log's function for a `switch`: `(value, site << 4 | width in bytes)`; its cases are
/// known when it is built (`Switches`), so a run logs the value once, not once per case.
const SWITCH_FN: &str = "__cairn_cmplog_switch";
/// Each `switch`'s case values, by site: the other operands of its comparisons.
pub type Switches = HashMap<u32, Vec<u64>>;
/// Cases a logged `switch` value is compared with (from a place its value picks, so
/// different runs try different cases of a big switch).
const CASES: usize = 32;
/// Sites hashed into this many per-run counters, each letting `PER_SITE` entries in: a
/// comparison in a loop over the input logs its first operands, not the whole input, but
/// enough of them that the inputs compared with one constant take it together
/// (`driver::input_to_state`; AFL++ keeps 32 per site too).
const SITES: usize = 4096;
const PER_SITE: u8 = 32;
const ENTRIES: usize = 4096;
/// Bytes of an operand kept (memory compares: the first 32).
pub const OPERAND: usize = 32;
const ENTRY: usize = 8 + 2 * OPERAND;
const ENTRIES_AT: usize = 8 + SITES;
/// The map's size: the count, the per-site counters, the entries.
pub const MAP_SIZE: usize = ENTRIES_AT + ENTRIES * ENTRY;
/// The memory and string compares the log stands in for (declared functions renamed to
/// `__cairn_cmplog_<name>`, which log and call the library's).
pub const COMPARE_CALLS: [&str; 6] = [
    "strcmp",
    "strncmp",
    "strcasecmp",
    "strncasecmp",
    "memcmp",
    "bcmp",
];

/// One logged comparison's operands: integers of `width` bytes, or the first bytes of two
/// memory operands (strings: up to and with their NUL).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    Int { a: u64, b: u64, width: u8 },
    Bytes { a: Vec<u8>, b: Vec<u8> },
}

/// The renames that route the program's compare calls to the log.
pub fn renames() -> Vec<(String, String)> {
    (COMPARE_CALLS.iter())
        .map(|f| (f.to_string(), format!("__cairn_cmplog_{f}")))
        .collect()
}

/// Clears the log before a run (the count and the per-site counters).
pub fn clear(map: &mut [u8]) {
    map[..ENTRIES_AT].fill(0);
}

/// The comparisons a run logged; a `switch`'s value compared with its cases (`switches`:
/// the build's).
pub fn read(map: &[u8], switches: &Switches) -> Vec<Comparison> {
    let count = (u32::from_ne_bytes(map[..4].try_into().unwrap()) as usize).min(ENTRIES);
    (0..count)
        .flat_map(|k| {
            let e = &map[ENTRIES_AT + k * ENTRY..][..ENTRY];
            let site = u32::from_ne_bytes(e[..4].try_into().unwrap());
            let (kind, la, lb) = (
                e[4],
                (e[5] as usize).min(OPERAND),
                (e[6] as usize).min(OPERAND),
            );
            let (a, b) = (&e[8..8 + la], &e[8 + OPERAND..8 + OPERAND + lb]);
            let word = |x: &[u8]| {
                let mut w = [0u8; 8];
                w[..x.len().min(8)].copy_from_slice(&x[..x.len().min(8)]);
                u64::from_le_bytes(w)
            };
            match kind {
                0 if (1..=8).contains(&la) => vec![Comparison::Int {
                    a: word(a),
                    b: word(b),
                    width: la as u8,
                }],
                1 => vec![Comparison::Bytes {
                    a: a.to_vec(),
                    b: b.to_vec(),
                }],
                2 if (1..=8).contains(&la) => {
                    let (value, cases) = (word(a), switches.get(&site).map_or(&[][..], |c| c));
                    let from = value as usize % cases.len().max(1);
                    (cases.iter().cycle().skip(from).take(cases.len()))
                        .filter(|&&c| c != value)
                        .take(CASES)
                        .map(|&c| Comparison::Int {
                            a: value,
                            b: c,
                            width: la as u8,
                        })
                        .collect()
                }
                _ => vec![],
            }
        })
        .collect()
}

/// Calls the log before every integer comparison and `switch` (8 to 64 bits, not of
/// constants) of the module's own functions; returns the switches' cases.
///
/// # Safety
/// `m` is a module of context `ctx`.
pub unsafe fn log_comparisons(ctx: LLVMContextRef, m: LLVMModuleRef) -> Switches {
    unsafe {
        let i64t = LLVMInt64TypeInContext(ctx);
        let i32t = LLVMInt32TypeInContext(ctx);
        let void = LLVMVoidTypeInContext(ctx);
        let mut params = [i64t, i64t, i32t];
        let fty = LLVMFunctionType(void, params.as_mut_ptr(), 3, 0);
        let name = CString::new(INT_FN).unwrap();
        let log = LLVMAddFunction(m, name.as_ptr(), fty);
        let mut params = [i64t, i32t];
        let switch_fty = LLVMFunctionType(void, params.as_mut_ptr(), 2, 0);
        let name = CString::new(SWITCH_FN).unwrap();
        let switch_log = LLVMAddFunction(m, name.as_ptr(), switch_fty);
        let b = LLVMCreateBuilderInContext(ctx);
        let mut switches = Switches::new();
        let mut sites = 0usize;
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut n = 0;
            let fname = std::slice::from_raw_parts(LLVMGetValueName2(f, &mut n) as *const u8, n);
            let own = LLVMIsDeclaration(f) == 0 && !fname.starts_with(b"__cairn");
            let mut bb = if own {
                LLVMGetFirstBasicBlock(f)
            } else {
                std::ptr::null_mut()
            };
            while !bb.is_null() {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    let opcode = LLVMGetInstructionOpcode(i);
                    let switch = opcode == LLVMOpcode::LLVMSwitch;
                    if switch || opcode == LLVMOpcode::LLVMICmp {
                        let x = LLVMGetOperand(i, 0);
                        let width = int_width(LLVMTypeOf(x));
                        // A switch's other operands are its cases, constants all.
                        let constants = LLVMIsConstant(x) != 0
                            && (switch || LLVMIsConstant(LLVMGetOperand(i, 1)) != 0);
                        if matches!(width, 8 | 16 | 32 | 64) && !constants {
                            LLVMPositionBuilderBefore(b, i);
                            let wide = |v| match width {
                                64 => v,
                                _ => LLVMBuildZExt(b, v, i64t, c"".as_ptr()),
                            };
                            let site = sites as u64 % (1 << 27);
                            let code = LLVMConstInt(i32t, (site << 4) | (width / 8) as u64, 0);
                            if switch {
                                // Operands: the value, the default block, (case, block) pairs.
                                let cases = (1..LLVMGetNumOperands(i) as u32 / 2)
                                    .map(|k| LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2 * k)))
                                    .collect();
                                let mut args = [wide(x), code];
                                let (f, fty) = (switch_log, switch_fty);
                                LLVMBuildCall2(b, fty, f, args.as_mut_ptr(), 2, c"".as_ptr());
                                switches.insert(site as u32, cases);
                            } else {
                                let y = LLVMGetOperand(i, 1);
                                let mut args = [wide(x), wide(y), code];
                                LLVMBuildCall2(b, fty, log, args.as_mut_ptr(), 3, c"".as_ptr());
                            }
                            sites += 1;
                        }
                    }
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            f = LLVMGetNextFunction(f);
        }
        LLVMDisposeBuilder(b);
        switches
    }
}

/// An integer type's width in bits (0 for other types).
unsafe fn int_width(ty: LLVMTypeRef) -> u32 {
    unsafe {
        match LLVMGetTypeKind(ty) {
            llvm_sys::LLVMTypeKind::LLVMIntegerTypeKind => LLVMGetIntTypeWidth(ty),
            _ => 0,
        }
    }
}

/// The log's C side, appended to the probe runtime (whose `cairn_map_env` maps the file the
/// fuzzer names in `CAIRN_CMPLOG` before anything of the program runs).
pub fn runtime_c() -> String {
    let mut wrappers = String::new();
    for f in COMPARE_CALLS {
        let (params, args, len) = match f {
            "strcmp" | "strcasecmp" => {
                ("const char *a, const char *b", "a, b", "(__SIZE_TYPE__)-1")
            }
            "strncmp" | "strncasecmp" => (
                "const char *a, const char *b, __SIZE_TYPE__ n",
                "a, b, n",
                "n",
            ),
            _ => (
                "const void *a, const void *b, __SIZE_TYPE__ n",
                "a, b, n",
                "n",
            ),
        };
        let string = f.starts_with("str") as u8;
        wrappers.push_str(&format!(
            "int {f}({params});\n\
             int __cairn_cmplog_{f}({params}) {{\n\
             \x20 cairn_cmplog_mem(__builtin_return_address(0), a, b, {len}, {string});\n\
             \x20 return {f}({args});\n}}\n"
        ));
    }
    format!(
        r#"/* Cairn comparison log: generated (see `ir::cmplog`). */
struct cairn_cmp {{ unsigned site; unsigned char kind, len_a, len_b, pad; unsigned char a[{OPERAND}], b[{OPERAND}]; }};
struct cairn_cmplog {{ unsigned count, pad; unsigned char per_site[{SITES}]; struct cairn_cmp e[{ENTRIES}]; }};
static struct cairn_cmplog *cairn_log;
static void cairn_cmplog_start(int argc, char **argv, char **envp) {{
  (void)argc; (void)argv;
  unsigned long size = 0;
  void *m = cairn_map_env(envp, "CAIRN_CMPLOG=", &size);
  if (m && size >= sizeof(struct cairn_cmplog)) cairn_log = m;
}}
__attribute__((section(".preinit_array"), used)) static void (*cairn_cmplog_preinit)(int, char **,
                                                                                    char **) =
    cairn_cmplog_start;
static struct cairn_cmp *cairn_cmplog_entry(unsigned site) {{
  struct cairn_cmplog *l = cairn_log;
  if (!l || l->count >= {ENTRIES}) return 0;
  unsigned char *n = &l->per_site[site % {SITES}];
  if (*n >= {PER_SITE}) return 0;
  ++*n;
  struct cairn_cmp *e = &l->e[l->count++];
  e->site = site;
  return e;
}}
void {INT_FN}(unsigned long long a, unsigned long long b, unsigned site) {{
  if (a == b) return;
  struct cairn_cmp *e = cairn_cmplog_entry(site >> 4);
  if (!e) return;
  e->kind = 0;
  e->len_a = e->len_b = site & 15;
  memcpy(e->a, &a, 8);
  memcpy(e->b, &b, 8);
}}
void {SWITCH_FN}(unsigned long long value, unsigned site) {{
  struct cairn_cmp *e = cairn_cmplog_entry(site >> 4);
  if (!e) return;
  e->kind = 2;
  e->len_a = site & 15;
  e->len_b = 0;
  memcpy(e->a, &value, 8);
}}
static void cairn_cmplog_mem(void *at, const void *a, const void *b, __SIZE_TYPE__ n, int string) {{
  if (!a || !b || !cairn_log) return;
  __SIZE_TYPE__ la = n < {OPERAND} ? n : {OPERAND}, lb = la;
  if (string) {{
    __SIZE_TYPE__ x = strnlen(a, la), y = strnlen(b, lb);
    la = x < la ? x + 1 : la; /* with the NUL, where it is among the bytes kept */
    lb = y < lb ? y + 1 : lb;
  }}
  if (la == lb && !memcmp(a, b, la)) return;
  struct cairn_cmp *e = cairn_cmplog_entry((unsigned)((unsigned long)at >> 2));
  if (!e) return;
  e->kind = 1;
  e->len_a = la;
  e->len_b = lb;
  memcpy(e->a, a, la);
  memcpy(e->b, b, lb);
}}
{wrappers}"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_reads_back_its_entries() {
        let mut map = vec![0u8; MAP_SIZE];
        map[..4].copy_from_slice(&3u32.to_ne_bytes());
        let e = &mut map[ENTRIES_AT..];
        e[4..7].copy_from_slice(&[0, 4, 4]);
        e[8..12].copy_from_slice(&0xdc00u32.to_le_bytes());
        e[8 + OPERAND..12 + OPERAND].copy_from_slice(&0x1234u32.to_le_bytes());
        let e = &mut map[ENTRIES_AT + ENTRY..];
        e[4..7].copy_from_slice(&[1, 3, 5]);
        e[8..11].copy_from_slice(b"ab\0");
        e[8 + OPERAND..13 + OPERAND].copy_from_slice(b"true\0");
        // A switch at site 7 on the value 3, whose cases are 1, 3 and 5.
        let e = &mut map[ENTRIES_AT + 2 * ENTRY..];
        e[..4].copy_from_slice(&7u32.to_ne_bytes());
        e[4..7].copy_from_slice(&[2, 4, 0]);
        e[8..12].copy_from_slice(&3u32.to_le_bytes());
        let switches = Switches::from([(7, vec![1, 3, 5])]);
        let logged = read(&map, &switches);
        assert_eq!(
            logged,
            vec![
                Comparison::Int {
                    a: 0xdc00,
                    b: 0x1234,
                    width: 4
                },
                Comparison::Bytes {
                    a: b"ab\0".to_vec(),
                    b: b"true\0".to_vec()
                },
                Comparison::Int {
                    a: 3,
                    b: 1,
                    width: 4
                },
                Comparison::Int {
                    a: 3,
                    b: 5,
                    width: 4
                },
            ]
        );
        clear(&mut map);
        assert!(read(&map, &switches).is_empty());
    }
}
