//! Cairn's runtime compiled once per toolchain and set of flags, kept between loads in the
//! user's cache directory (`$XDG_CACHE_HOME/cairn`, else `~/.cache/cairn`): compiling it was
//! half of a small program's load (0.34 of 0.7 s), and the test suite loads thousands.
//!
//! An entry is the bitcode and clang's diagnostics (the loader reads warnings from them). Its
//! key covers everything that shapes the output: the runtime's text, the flags, and the clang
//! binary (path, size, modification time). Entries are written under a temporary name and
//! renamed, so concurrent loads see a whole entry or none; any failure means compiling as
//! before.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Where the entry for compiling `source` with `flags` by `clang` lives (None: no cache
/// directory, or the clang binary cannot be inspected).
pub fn entry(clang: &str, flags: &[String], source: &Path) -> Option<PathBuf> {
    let dir = match std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?).join(".cache"),
    }
    .join("cairn");
    let clang_path = which(clang)?;
    let meta = std::fs::metadata(&clang_path).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (
        env!("CARGO_PKG_VERSION"),
        &clang_path,
        meta.len(),
        meta.modified().ok(),
    )
        .hash(&mut h);
    flags.hash(&mut h);
    std::fs::read(source).ok()?.hash(&mut h);
    Some(dir.join(format!("runtime-{:016x}", h.finish())))
}

/// Copies the entry's bitcode to `out` and returns clang's diagnostics, if the entry exists.
pub fn fetch(entry: &Path, out: &Path) -> Option<String> {
    let stderr = std::fs::read_to_string(entry.with_extension("stderr")).ok()?;
    std::fs::copy(entry.with_extension("bc"), out).ok()?;
    Some(stderr)
}

/// Keeps `bitcode` and its diagnostics as the entry (best effort).
pub fn store(entry: &Path, bitcode: &Path, stderr: &str) {
    let (Some(dir), Ok(bc)) = (entry.parent(), std::fs::read(bitcode)) else {
        return;
    };
    let _ = std::fs::create_dir_all(dir);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    // A name of its own per writer, renamed into place: concurrent loads never see half.
    let put = |ext: &str, bytes: &[u8]| {
        let tmp = dir.join(format!("tmp-{}-{nanos}.{ext}", std::process::id()));
        let ok = std::fs::write(&tmp, bytes)
            .and_then(|_| std::fs::rename(&tmp, entry.with_extension(ext)));
        if ok.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        ok
    };
    // The diagnostics first: `fetch` reads them, then the bitcode whose presence completes it.
    if put("stderr", stderr.as_bytes()).is_ok() {
        let _ = put("bc", &bc);
    }
}

/// `tool` as a path: itself if it names one, else found on `PATH`.
fn which(tool: &str) -> Option<PathBuf> {
    if tool.contains('/') {
        return Some(PathBuf::from(tool));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_whole_or_absent_and_its_key_follows_the_flags() {
        let dir = crate::ir::frontend::TempDir::new("runtime-cache").unwrap();
        let src = dir.path().join("rt.c");
        std::fs::write(&src, "int f(void) { return 1; }\n").unwrap();
        let sh = "/bin/sh";
        let a = entry(sh, &["-m32".into()], &src).unwrap();
        let b = entry(sh, &[], &src).unwrap();
        assert_ne!(a, b, "the flags are part of the key");
        std::fs::write(&src, "int f(void) { return 2; }\n").unwrap();
        assert_ne!(entry(sh, &[], &src).unwrap(), b, "so is the source");

        let e = dir.path().join("cache").join("runtime-1");
        let out = dir.path().join("out.bc");
        assert_eq!(fetch(&e, &out), None);
        let bc = dir.path().join("built.bc");
        std::fs::write(&bc, b"BC").unwrap();
        store(&e, &bc, "warning: w\n");
        assert_eq!(fetch(&e, &out).as_deref(), Some("warning: w\n"));
        assert_eq!(std::fs::read(&out).unwrap(), b"BC");
        // No temporary file is left beside the entry.
        let names: Vec<_> = std::fs::read_dir(e.parent().unwrap())
            .unwrap()
            .map(|f| f.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }
}
