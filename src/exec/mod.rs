//! The executor: runs a lowered program on concrete inputs.

pub mod abstraction;
pub mod choices;
pub mod defuse;
pub mod env;
pub mod fingerprint;
pub mod forkserver;
pub mod input;
pub mod launcher;
pub mod libc;
pub(crate) mod links;
pub mod machine;
pub mod memory;
pub mod native;
pub mod observer;
pub mod opaque;
pub mod revisit;
// Operation semantics live in `ir` (the analyses and the solver share them).
pub use crate::ir::ops;
pub mod sandbox;
pub mod shadow;

pub use input::{InputKind, InputSource, InputValue};
pub use machine::{Config, Machine, Outcome, RunResult};

use crate::ir::Module;

/// A loaded program ready to run: the IR and its resolved external functions.
pub struct Program {
    pub module: Module,
    pub exts: Vec<libc::Ext>,
    pub entry: String,
    /// How a unit-mode entry (not `main`) is called.
    pub unit: Unit,
    /// Def-use pairs to track on every run (data-flow testing), else None.
    pub def_use: Option<std::sync::Arc<crate::analysis::defuse::DefUse>>,
    /// The sources and compile options the module came from, for native builds (fuzzing at
    /// native speed); None for a module built otherwise.
    pub source: Option<Source>,
}

/// Whether the pointer results of `name`, an external function without a model, are made up
/// (`libc::made_up_pointer`): a function of the project that was not given (another file) is
/// tested past; a library's (a stream, a directory entry, `localeconv`'s struct) has results
/// only the library can make, and a run stops at its call.
pub fn makes_up_pointers(name: &str) -> bool {
    !crate::ir::host_fns::host_defines(name)
}

/// File functions with no model: the program reads files Cairn does not make inputs.
const FILE_IO: &[&str] = &[
    "fopen64", "open", "open64", "openat", "fdopen", "freopen", "read", "mmap", "stat", "fstat",
];

#[derive(Clone, Debug)]
pub struct Source {
    pub files: Vec<std::path::PathBuf>,
    pub opts: crate::ir::frontend::CompileOptions,
}

/// The calling context unit mode builds for an entry function (the replay harness builds the
/// same natively).
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// Bytes behind each pointer parameter (the last one is NUL).
    pub buffer: u64,
    /// Globals (indices into `Module::globals`) whose bytes are inputs, read after the
    /// parameters, in this order.
    pub globals: Vec<u32>,
    /// The entry's length parameters (see `length_params`).
    pub lengths: Vec<LengthParam>,
}

/// A length parameter: its position, the most elements the buffer before it holds, and
/// whether it is unsigned (a signed one may be negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthParam {
    pub pos: usize,
    /// Its value's index among a run's values (`param_value`); the buffer's bytes are the
    /// value before.
    pub value: usize,
    pub max: u64,
    pub unsigned: bool,
}

impl LengthParam {
    /// Whether an input of `width` bits with these `bits` is within the buffer.
    pub fn holds(&self, bits: u64, width: u32) -> bool {
        match self.unsigned {
            true => ops::mask(bits, width) <= self.max,
            false => ops::sext(bits, width) <= self.max as i64,
        }
    }

    /// How many bytes of the buffer at `values[i]` a run reads, where one of `lengths` follows
    /// it (a fuzz target's `data, size`): the length's value, if within the buffer's bound.
    pub fn read_bytes(lengths: &[LengthParam], values: &[InputValue], i: usize) -> Option<usize> {
        let l = lengths.iter().find(|l| l.value == i + 1)?;
        let n = (values.get(l.value)).filter(|x| x.kind != InputKind::Bytes && x.width > 0)?;
        l.holds(n.bits, n.width)
            .then(|| ops::mask(n.bits, n.width) as usize)
    }
}

impl Default for Unit {
    fn default() -> Self {
        Unit {
            buffer: machine::UNIT_BUFFER,
            globals: vec![],
            lengths: vec![],
        }
    }
}

/// The parameters of `f` that give the length of the pointer parameter right before them
/// (`f(const uint8_t *data, size_t size)`, `sum(int *a, int n)`), by their name: a caller
/// passes at most the elements its buffer holds, so a unit test does too — a length past the
/// `buffer` bytes Cairn gave the pointer would make the function's reads past them Cairn's
/// fault, not the function's. The most elements are of the pointer's declared type.
pub fn length_params(f: &crate::ir::Function, buffer: u64) -> Vec<LengthParam> {
    use crate::ir::Ty;
    let normal = |name: &str| name.to_ascii_lowercase().replace('_', "");
    // A length's name: `n`, `size`, or a word ending so (`s_len`, `nbytes`); one whose first
    // part names another parameter is that one's (`aes_key_setup(key, w, keysize)`: the key's
    // size in bits, not how many words `w` holds).
    let lengthy = |i: usize, name: &str| {
        let n = normal(name);
        if matches!(
            n.as_str(),
            "n" | "sz" | "cnt" | "num" | "nmemb" | "nelem" | "nelems" | "nitems"
        ) {
            return true;
        }
        let Some(k) = ["length", "len", "size", "count", "bytes"]
            .iter()
            .find(|k| n.ends_with(*k))
        else {
            return false;
        };
        let of = &n[..n.len() - k.len()];
        !(0..f.params.len())
            .any(|j| j != i - 1 && j != i && f.param_name(j).is_some_and(|p| normal(p) == of))
    };
    (1..f.params.len())
        .filter(|&i| matches!(f.params[i].ty(), Ty::Int(w) if w >= 8))
        .filter(|&i| f.params[i - 1].ty() == Ty::Ptr && !f.byval.iter().any(|b| b.0 == i - 1))
        .filter(|&i| f.param_name(i).is_some_and(|name| lengthy(i, name)))
        .map(|pos| LengthParam {
            pos,
            value: param_value(f, pos),
            max: buffer / f.pointee_bytes.get(pos - 1).copied().unwrap_or(0).max(1),
            unsigned: f.param_unsigned.get(pos).copied().unwrap_or(false),
        })
        .collect()
}

/// The index among a unit run's values of parameter `pos`'s first one: the parameters are read
/// in order, a pointer as two values (whether it is NULL, then its buffer's bytes), a struct
/// passed by value or a scalar as one, a function pointer (the runtime's callback) as none.
pub fn param_value(f: &crate::ir::Function, pos: usize) -> usize {
    (0..pos)
        .map(|i| {
            let by_value = f.byval.iter().any(|b| b.0 == i);
            match f.params[i].ty() {
                _ if f.param_callback.get(i) == Some(&true) => 0,
                crate::ir::Ty::Ptr if !by_value => 2,
                _ => 1,
            }
        })
        .sum()
}

impl Program {
    pub fn new(module: Module) -> Program {
        let exts = libc::resolve(&module);
        Program {
            module,
            exts,
            entry: "main".into(),
            unit: Unit::default(),
            def_use: None,
            source: None,
        }
    }

    /// Tracks the def-use pairs of the program's variables on every run (`RunResult::observed` gets a `DefUseRun`).
    pub fn track_def_use(&mut self) {
        let du = crate::analysis::defuse::DefUse::compute(&self.module, &self.entry);
        self.def_use = Some(std::sync::Arc::new(du));
    }

    /// Tests `entry` (unit mode unless it is `main`) with `buffer` bytes behind each pointer
    /// parameter; with `symbolic_globals`, the globals it refers to start as inputs.
    pub fn set_entry(&mut self, entry: &str, buffer: u64, symbolic_globals: bool) {
        self.entry = entry.to_string();
        // A pointer parameter to an object larger than `buffer` (a struct) gets a buffer that
        // holds it and a NUL: a smaller one would make every access past its end a fault.
        let pointees = self
            .module
            .function(entry)
            .map_or(0, |f| f.pointee_bytes.iter().copied().max().unwrap_or(0));
        let buffer = buffer.max(pointees + 1);
        self.unit = Unit {
            buffer,
            globals: vec![],
            lengths: match self.module.function(entry) {
                Some(f) if entry != "main" => length_params(f, buffer),
                _ => vec![],
            },
        };
        if symbolic_globals
            && entry != "main"
            && let Some(&f) = self.module.func_by_name.get(entry)
        {
            let effects = crate::analysis::effects::Effects::compute(&self.module, &|_| false);
            self.unit.globals = crate::analysis::effects::entry_globals(&self.module, &effects, f);
        }
    }

    /// Makes argv and files inputs (`--sym-args`, `--sym-files`).
    pub fn set_env(&mut self, env: &env::SymEnv) -> Result<(), String> {
        env.apply(&mut self.module)
    }

    /// Runs the program once, drawing inputs from `input`.
    pub fn run(&self, input: &mut dyn InputSource, cfg: &Config) -> RunResult {
        if self.def_use.is_some() {
            return self.run_observed(input, cfg, &mut ());
        }
        let mut m = Machine::new(&self.module, &self.exts, cfg.clone(), input);
        m.unit = self.unit.clone();
        m.run_main(&self.entry)
    }

    /// Runs the program once with `obs` watching every event.
    pub fn run_observed(
        &self,
        input: &mut dyn InputSource,
        cfg: &Config,
        obs: &mut dyn observer::Observer,
    ) -> RunResult {
        let Some(du) = &self.def_use else {
            let mut m = Machine::new(&self.module, &self.exts, cfg.clone(), input);
            m.unit = self.unit.clone();
            m.observe(obs);
            return m.run_main(&self.entry);
        };
        let mut tracker = defuse::DefUseTracker::new(du);
        let mut r = {
            let mut both = observer::Observers(vec![obs, &mut tracker]);
            let mut m = Machine::new(&self.module, &self.exts, cfg.clone(), input);
            m.unit = self.unit.clone();
            m.observe(&mut both);
            m.run_main(&self.entry)
        };
        r.observed.insert(defuse::DefUseRun::new(
            tracker.covered.into_iter().collect(),
            tracker.trace,
        ));
        r
    }

    /// What the user should know about external functions with no model: a scalar result
    /// becomes an input; a pointer result cannot be made up, so runs stop at the call; files
    /// are inputs through `fopen` and `open` to read by a relative name.
    pub fn extern_warnings(&self) -> Vec<String> {
        let mut out = vec![];
        let mut files = vec![];
        for (e, ext) in self.module.externs.iter().zip(&self.exts) {
            let libc::Ext::Unknown(name) = ext else {
                continue;
            };
            // Referred to by the runtime's start only: a library without `main` (unit mode).
            if name == "main" {
                continue;
            }
            if FILE_IO.contains(&name.as_str()) {
                files.push(format!("`{name}`"));
                continue;
            }
            out.push(match e.ret {
                crate::ir::Ty::Ptr if makes_up_pointers(name) => format!(
                    "no model of external function `{name}`: its results are made up (null, or a fresh block of {} input bytes)",
                    libc::MADE_UP_BLOCK
                ),
                crate::ir::Ty::Ptr | crate::ir::Ty::Agg(_) => format!(
                    "no model of external function `{name}`: it returns a pointer or a struct, so runs stop at its call"
                ),
                _ => format!(
                    "no model of external function `{name}`: its results are treated as inputs"
                ),
            });
        }
        if !files.is_empty() {
            out.push(format!(
                "the program reads files ({}): without a model, so runs stop at the first such call (fopen and open of a file to read by a relative name are modelled: the file is an input)",
                files.join(", ")
            ));
        }
        let calls = crate::analysis::defuse::library_calls(&self.module);
        if calls.contains("fopen") && env::SymEnv::of(&self.module).files == 0 {
            out.push(format!("the program opens files (`fopen`): a file it reads by a relative name is an input, absent or holding bytes the search chooses (up to {}, or SIZE with --sym-files N SIZE, which also adds files named A, B, ...); one it writes in the current directory is created, and what stdio writes to it is read back (a run that reads back what `write` wrote stops); runs stop at any other open", env::NAMED_FILE_SIZE));
        }
        out
    }

    /// Whether the program may act on the machine's environment, which Cairn does not model: it
    /// opens files or descriptors (other than the symbolic files, which the interpreter tells
    /// apart), reads a descriptor, or starts threads. Its native runs are then not a function of
    /// their inputs alone, so only the interpreter's verdict on a run counts
    /// ([`libc::Ext::Environment`] stops).
    pub fn touches_environment(&self) -> bool {
        const ENVIRONMENT: &[&str] = &[
            "fopen",
            "fopen64",
            "fdopen",
            "freopen",
            "tmpfile",
            "popen",
            "open",
            "open64",
            "openat",
            "read",
            "pthread_create",
        ];
        let calls = crate::analysis::defuse::library_calls(&self.module);
        ENVIRONMENT.iter().any(|f| calls.contains(f))
            || self.unknown_externs().iter().any(|n| FILE_IO.contains(n))
    }

    /// Names of external functions with no model (their results become inputs).
    pub fn unknown_externs(&self) -> Vec<&str> {
        self.exts
            .iter()
            .filter_map(|e| {
                if let libc::Ext::Unknown(n) = e {
                    Some(n.as_str())
                } else {
                    None
                }
            })
            .collect()
    }
}
