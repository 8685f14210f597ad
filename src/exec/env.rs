//! Command-line arguments and files as inputs (`--sym-args MIN MAX LEN`, `--sym-files N SIZE`),
//! as KLEE's POSIX environment makes them. The runtime's start builds them (its `__cairn_env`
//! global holds the configuration, so that the program is self-describing: the replay harness
//! reads the same values back and builds argv and the files natively).

use crate::ir::Module;

/// Name of the runtime global that holds the configuration.
const GLOBAL: &str = "__cairn_env";

/// Largest argument count (the count is a byte input).
pub const MAX_ARGS: u32 = 255;
/// Most symbolic files: named "A" to "Z".
pub const MAX_FILES: u32 = 26;

/// The most bytes a file read by name holds without `--sym-files` (the runtime's
/// `CAIRN_NAMED_FILE_SIZE`, which must agree: replay checks it).
pub const NAMED_FILE_SIZE: u32 = 128;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SymEnv {
    /// Fewest and most arguments after the program name; bytes per argument (then a NUL).
    pub args_min: u32,
    pub args_max: u32,
    pub arg_len: u32,
    /// Files "A", "B", ... of at most `file_size` bytes each (their size is an input too).
    pub files: u32,
    pub file_size: u32,
}

impl SymEnv {
    pub fn is_empty(&self) -> bool {
        self.args_max == 0 && self.files == 0
    }

    /// The bytes of a file the program reads by a relative name (the runtime's
    /// `named_file`): `--sym-files`'s size, or [`NAMED_FILE_SIZE`].
    pub fn named_file_size(&self) -> u32 {
        if self.file_size > 0 {
            self.file_size
        } else {
            NAMED_FILE_SIZE
        }
    }

    fn fields(&self) -> [u32; 5] {
        [
            self.args_min,
            self.args_max,
            self.arg_len,
            self.files,
            self.file_size,
        ]
    }

    /// The configuration `m`'s runtime starts with.
    pub fn of(m: &Module) -> SymEnv {
        let Some(g) = m.globals.iter().find(|g| g.name == GLOBAL) else {
            return SymEnv::default();
        };
        let f = |i: usize| {
            g.init
                .get(4 * i..4 * i + 4)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()))
        };
        SymEnv {
            args_min: f(0),
            args_max: f(1),
            arg_len: f(2),
            files: f(3),
            file_size: f(4),
        }
    }

    /// Makes `m`'s runtime start with this configuration.
    pub fn apply(&self, m: &mut Module) -> Result<(), String> {
        if self.args_min > self.args_max || self.args_max > MAX_ARGS {
            return Err(format!(
                "--sym-args MIN MAX LEN needs MIN <= MAX <= {MAX_ARGS}"
            ));
        }
        if self.files > MAX_FILES {
            return Err(format!("--sym-files: at most {MAX_FILES} files (A to Z)"));
        }
        let Some(g) = m.globals.iter_mut().find(|g| g.name == GLOBAL) else {
            return Err("the runtime has no argv/file configuration".into());
        };
        let mut bytes: Vec<u8> = self.fields().iter().flat_map(|v| v.to_le_bytes()).collect();
        bytes.resize(g.init.len().max(bytes.len()), 0);
        g.init = bytes;
        Ok(())
    }
}
