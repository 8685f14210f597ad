//! Interpreter throughput: IR instructions per second and the slowdown against the native
//! build of the same program (clang-19 -O0), measured in one run.
//! `cargo bench --bench interp [-- FILE.c ...]`

#[path = "common/args.rs"]
mod args;

use cairn::exec::input::Replay;
use cairn::exec::{Config, Program};
use cairn::ir::frontend::{CompileOptions, TempDir, load};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn main() {
    let mut files = args::c_files();
    if files.is_empty() {
        files.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/programs/cpu_mix.c"));
    }
    println!(
        "{:<20} {:>12} {:>10} {:>12} {:>10} {:>9}",
        "program", "IR instrs", "cairn s", "instr/s", "native s", "slowdown"
    );
    for f in files {
        let m = load(std::slice::from_ref(&f), &CompileOptions::default()).expect("load");
        let p = Program::new(m);
        let cfg = Config {
            max_steps: u64::MAX,
            ..Config::default()
        };
        let t = Instant::now();
        let r = p.run(&mut Replay::new(vec![]), &cfg);
        let cairn_s = t.elapsed().as_secs_f64();
        let tmp = TempDir::new("bench").unwrap();
        let exe = tmp.path().join("native");
        let ok = Command::new("clang-19")
            .args(["-O0", "-w", "-o"])
            .arg(&exe)
            .arg(&f)
            .arg("-lm")
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        let mut native_s = f64::NAN;
        if ok {
            // best of 5 native runs
            for _ in 0..5 {
                let t = Instant::now();
                // In its own directory: a program writing files leaves them there.
                let out = Command::new(&exe).current_dir(tmp.path()).output().unwrap();
                let s = t.elapsed().as_secs_f64();
                if native_s.is_nan() || s < native_s {
                    native_s = s;
                }
                assert_eq!(out.stdout, r.stdout, "output differs from native");
            }
        }
        println!(
            "{:<20} {:>12} {:>10.3} {:>11.1}M {:>10.4} {:>8.1}x",
            f.file_name().unwrap().to_string_lossy(),
            r.steps,
            cairn_s,
            r.steps as f64 / cairn_s / 1e6,
            native_s,
            cairn_s / native_s
        );
    }
}
