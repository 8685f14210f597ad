//! A project's build as it is: the files of a `compile_commands.json` (CMake's
//! `CMAKE_EXPORT_COMPILE_COMMANDS`, Bear, meson) and the flags each is compiled with.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// The files to test and the flags they are compiled with.
#[derive(Debug, Default)]
pub struct Project {
    pub files: Vec<PathBuf>,
    /// Flags the front end takes (paths made absolute), in order, each once.
    pub flags: Vec<String>,
    /// Flags that disagree between the chosen files (the first file's is taken).
    pub conflicts: Vec<String>,
}

/// Flags followed by a path, as separate argument or joined (`-Idir`).
const PATH_FLAGS: &[&str] = &[
    "-isystem",
    "-iquote",
    "-idirafter",
    "-include",
    "--sysroot",
    "-I",
];

/// Reads `db`, keeping the entries of `wanted` (C files, matched by absolute path or by file
/// name), or every C file when `wanted` is empty.
pub fn read(db: &Path, wanted: &[PathBuf]) -> Result<Project> {
    let text =
        std::fs::read_to_string(db).with_context(|| format!("cannot read {}", db.display()))?;
    let entries: Vec<serde_json::Value> = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a compilation database", db.display()))?;
    let wanted_abs: Vec<PathBuf> = wanted.iter().map(|w| absolute(w, Path::new("."))).collect();
    let mut project = Project::default();
    let mut found = vec![false; wanted.len()];
    for e in &entries {
        let dir = PathBuf::from(e["directory"].as_str().unwrap_or("."));
        let Some(file) = e["file"].as_str() else {
            continue;
        };
        let file = absolute(Path::new(file), &dir);
        if file.extension().is_none_or(|x| x != "c") {
            continue;
        }
        if !wanted.is_empty() {
            // A bare file name matches that file in any directory.
            let hit = (0..wanted.len()).position(|i| {
                wanted_abs[i] == file
                    || (wanted[i].components().count() == 1
                        && file.file_name() == wanted[i].file_name())
            });
            let Some(i) = hit else { continue };
            found[i] = true;
        }
        if project.files.contains(&file) {
            continue;
        }
        let args = match (&e["arguments"], e["command"].as_str()) {
            (serde_json::Value::Array(a), _) => a
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            (_, Some(c)) => shlex::split(c).with_context(|| {
                format!(
                    "{}: cannot split the command of {}",
                    db.display(),
                    file.display()
                )
            })?,
            _ => bail!(
                "{}: the entry of {} has neither `arguments` nor `command`",
                db.display(),
                file.display()
            ),
        };
        let flags = front_end_flags(&args, &dir, &file);
        if project.files.is_empty() {
            project.flags = flags;
        } else {
            for f in flags {
                if !project.flags.contains(&f) && !project.conflicts.contains(&f) {
                    project.conflicts.push(f);
                }
            }
        }
        project.files.push(file);
    }
    if let Some(i) = found.iter().position(|f| !f) {
        bail!("{} has no entry for {}", db.display(), wanted[i].display());
    }
    if project.files.is_empty() {
        bail!("{} lists no C file", db.display());
    }
    Ok(project)
}

/// `p` relative to `dir`, absolute, with `.` and `..` folded (lexically, as build systems
/// write them).
fn absolute(p: &Path, dir: &Path) -> PathBuf {
    use std::path::Component;
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        dir.join(p)
    };
    let joined = std::path::absolute(&joined).unwrap_or(joined);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The flags of a compile command that shape the program (language, macros, includes, target
/// features), without the compiler, the file, the output and what only the build needs.
fn front_end_flags(args: &[String], dir: &Path, file: &Path) -> Vec<String> {
    let mut kept: Vec<String> = vec![];
    let mut i = 1; // args[0] is the compiler
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if matches!(a.as_str(), "-o" | "-MF" | "-MT" | "-MQ" | "-x") {
            i += 1;
        } else if PATH_FLAGS.contains(&a.as_str()) {
            kept.push(a.clone());
            kept.extend(args.get(i).cloned());
            i += 1;
        } else if a.starts_with('-') && absolute(Path::new(a), dir) != file {
            kept.push(a.clone());
        }
    }
    let mut out = vec![];
    for f in super::frontend::user_flags(&absolute_paths(&kept, dir)).0 {
        push_once(&mut out, f);
    }
    out
}

/// `flags` with the path of each path flag absolute (relative to `dir`) and joined to it
/// (`-I inc` → `-I/abs/inc`), so they mean the same from any directory.
pub fn absolute_paths(flags: &[String], dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut i = 0;
    while i < flags.len() {
        let a = &flags[i];
        i += 1;
        let (flag, path) = match PATH_FLAGS.iter().find(|f| a.starts_with(*f)) {
            Some(f) if a == f => match flags.get(i) {
                Some(p) => {
                    i += 1;
                    (*f, p.as_str())
                }
                None => (*f, ""),
            },
            Some(f) => (*f, a[f.len()..].strip_prefix('=').unwrap_or(&a[f.len()..])),
            None => {
                out.push(a.clone());
                continue;
            }
        };
        out.push(format!(
            "{flag}{}",
            absolute(Path::new(path), dir).display()
        ));
    }
    out
}

fn push_once(v: &mut Vec<String>, f: String) {
    if !v.contains(&f) {
        v.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_give_files_and_front_end_flags() {
        let dir = std::env::temp_dir().join(format!("cairn-ccdb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("compile_commands.json");
        let entries = serde_json::json!([
            {"directory": "/p/build", "file": "/p/src/a.c",
             "command": "/usr/bin/cc -DLEVEL=2 -I/p/include -I../gen -std=c99 -O2 -g -o CMakeFiles/a.o -c /p/src/a.c"},
            {"directory": "/p/build", "file": "../src/b.c",
             "arguments": ["cc", "-DLEVEL=2", "-DB_ONLY", "-isystem", "sys", "-std=c99", "-MD", "-MF", "b.d", "-c", "../src/b.c"]},
            {"directory": "/p/build", "file": "../src/c.cpp", "command": "c++ -c ../src/c.cpp"}
        ]);
        std::fs::write(&db, entries.to_string()).unwrap();
        let p = read(&db, &[]).unwrap();
        assert_eq!(
            p.files,
            vec![PathBuf::from("/p/src/a.c"), PathBuf::from("/p/src/b.c")]
        );
        assert_eq!(
            p.flags,
            vec!["-DLEVEL=2", "-I/p/include", "-I/p/gen", "-std=c99"]
        );
        assert_eq!(p.conflicts, vec!["-DB_ONLY", "-isystem/p/build/sys"]);
        let one = read(&db, &[PathBuf::from("b.c")]).unwrap();
        assert_eq!(one.files, vec![PathBuf::from("/p/src/b.c")]);
        let err = read(&db, &[PathBuf::from("zzz.c")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("no entry for zzz.c"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
