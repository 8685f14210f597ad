//! The LLVM 19 tools Cairn runs: clang, and the llvm-link, opt and llvm-cov beside it.
//!
//! Cairn reads LLVM 19 bitcode, so the clang must be a clang 19. It is named by `--clang` or
//! `CAIRN_CLANG`, or found: `clang-19` on the PATH, then `clang` if it is version 19. The other
//! tools are taken from the clang's own directory, named as it is (`clang-19` → `opt-19`,
//! `/usr/lib/llvm-19/bin/clang` → `/usr/lib/llvm-19/bin/opt`), else from the PATH.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub struct Toolchain {
    pub clang: String,
    pub llvm_link: String,
    pub opt: String,
    pub llvm_cov: String,
}

static TOOLCHAIN: OnceLock<Toolchain> = OnceLock::new();
static NAMED: OnceLock<PathBuf> = OnceLock::new();

/// Names the clang to use (before any tool runs; later calls are ignored).
pub fn name_clang(path: &Path) {
    let _ = NAMED.set(path.to_path_buf());
}

/// The toolchain, found on first use.
pub fn toolchain() -> &'static Toolchain {
    TOOLCHAIN.get_or_init(|| {
        let named = NAMED
            .get()
            .cloned()
            .or_else(|| std::env::var_os("CAIRN_CLANG").map(PathBuf::from));
        let clang = named.unwrap_or_else(find_clang);
        Toolchain {
            llvm_link: sibling(&clang, "llvm-link"),
            opt: sibling(&clang, "opt"),
            llvm_cov: sibling(&clang, "llvm-cov"),
            clang: clang.display().to_string(),
        }
    })
}

pub fn clang() -> &'static str {
    &toolchain().clang
}

/// clang's `--version` line, or why it cannot run; an error unless it is clang 19.
pub fn check_clang() -> Result<String, String> {
    let clang = clang();
    let line = version_line(Path::new(clang))
        .ok_or_else(|| format!("cannot run {clang} (run scripts/install.sh to install clang 19, or name one with --clang or CAIRN_CLANG)"))?;
    if !line.contains("version 19.") {
        return Err(format!(
            "{clang} is `{line}`: Cairn reads LLVM 19 bitcode and needs clang 19 (--clang or CAIRN_CLANG names one)"
        ));
    }
    Ok(line)
}

fn version_line(clang: &Path) -> Option<String> {
    let o = Command::new(clang).arg("--version").output().ok()?;
    o.status.success().then_some(())?;
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .map(str::to_string)
}

fn find_clang() -> PathBuf {
    let plain = PathBuf::from("clang");
    if version_line(&plain).is_some_and(|l| l.contains("version 19."))
        && version_line(Path::new("clang-19")).is_none()
    {
        return plain;
    }
    PathBuf::from("clang-19")
}

/// `tool` named as `clang` is, in its directory when it exists there.
fn sibling(clang: &Path, tool: &str) -> String {
    let name = clang.file_name().unwrap_or_default().to_string_lossy();
    let suffix = name.strip_prefix("clang").unwrap_or("-19");
    let suffix = if suffix.is_empty() || suffix.starts_with('-') {
        suffix
    } else {
        "-19"
    };
    let candidate = clang.with_file_name(format!("{tool}{suffix}"));
    if clang.parent().is_some_and(|p| !p.as_os_str().is_empty()) && candidate.is_file() {
        return candidate.display().to_string();
    }
    format!("{tool}{}", if suffix.is_empty() { "-19" } else { suffix })
}

#[cfg(test)]
mod tests {
    use super::sibling;
    use std::path::Path;

    #[test]
    fn tools_are_named_as_the_clang_is() {
        assert_eq!(sibling(Path::new("clang-19"), "opt"), "opt-19");
        assert_eq!(sibling(Path::new("clang"), "llvm-link"), "llvm-link-19");
        // A directory without the tool: the PATH's.
        assert_eq!(sibling(Path::new("/nonexistent/clang-19"), "opt"), "opt-19");
        if Path::new("/usr/lib/llvm-19/bin/opt").is_file() {
            assert_eq!(
                sibling(Path::new("/usr/lib/llvm-19/bin/clang"), "opt"),
                "/usr/lib/llvm-19/bin/opt"
            );
        }
    }
}
