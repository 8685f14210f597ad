//! Fidelity on C nobody here wrote: Csmith programs, `cairn run` against the native build.
//!
//! CI runs a dozen fixed seeds (deterministic); `CAIRN_CSMITH_N=200 CAIRN_CSMITH_SEED=fresh
//! cargo test --release --test csmith -- --nocapture` runs the long version on fresh seeds and
//! prints the figure with every disagreement by kind.

mod common;
use cairn::exec::Outcome;
use cairn::exec::input::Replay;
use common::*;
use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

#[test]
fn csmith_programs_agree_with_native() {
    if Command::new("csmith").arg("--version").output().is_err() {
        panic!("csmith is not installed: run scripts/install.sh");
    }
    let n: u64 = std::env::var("CAIRN_CSMITH_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let fresh = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            % 1_000_000
    };
    let base: u64 = match std::env::var("CAIRN_CSMITH_SEED").ok() {
        Some(s) if s == "fresh" => fresh(),
        Some(s) => s.parse().expect("CAIRN_CSMITH_SEED: a number or `fresh`"),
        None => 320316,
    };
    let dir = tmp("csmith");
    let mut finished = 0;
    let mut agree = 0;
    let mut kinds: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for seed in base..base + n {
        let src = dir.path().join(format!("p{seed}.c"));
        let out = Command::new("csmith")
            .args(["--seed", &seed.to_string(), "-o"])
            .arg(&src)
            .output()
            .unwrap();
        if !out.status.success() {
            continue;
        }
        let exe = dir.path().join("native");
        if native_build(std::slice::from_ref(&src), &exe, &["-I/usr/include/csmith"]).is_err() {
            continue;
        }
        let nat = native_run(&mut Command::new(&exe), Duration::from_secs(10));
        if nat.code.is_none() {
            continue; // does not finish natively within 10 s
        }
        finished += 1;
        let m = match cairn::ir::frontend::load(
            std::slice::from_ref(&src),
            &cairn::ir::frontend::CompileOptions {
                includes: vec!["/usr/include/csmith".into()],
                ..Default::default()
            },
        ) {
            Ok(m) => m,
            Err(e) => {
                let msg = format!("{e:#}");
                let kind = msg
                    .split("unsupported: ")
                    .nth(1)
                    .unwrap_or(&msg)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string();
                kinds
                    .entry(format!("load error: {kind}"))
                    .or_default()
                    .push(seed);
                continue;
            }
        };
        let prog = cairn::exec::Program::new(m);
        let mut inputs = Replay::new(vec![]);
        let cfg = cairn::exec::Config {
            max_steps: 3_000_000_000,
            ..Default::default()
        };
        let r = prog.run(&mut inputs, &cfg);
        if r.stdout == nat.stdout && Some(r.outcome.exit_code()) == nat.code {
            agree += 1;
        } else {
            let kind = match &r.outcome {
                Outcome::Exit(_) if r.stdout != nat.stdout => {
                    "different checksum output".to_string()
                }
                Outcome::Exit(_) => "different exit code".to_string(),
                Outcome::StepLimit => "instruction limit".to_string(),
                Outcome::Fault { kind, .. } => format!("fault: {kind}"),
                Outcome::Unsupported { what, .. } => format!("unsupported: {what}"),
                o => format!("{o:?}"),
            };
            kinds.entry(kind).or_default().push(seed);
        }
    }
    let pct = if finished == 0 {
        100.0
    } else {
        100.0 * agree as f64 / finished as f64
    };
    println!(
        "csmith: seeds {base}..{}: {agree}/{finished} programs that finish natively agree exactly ({pct:.1}%)",
        base + n
    );
    for (k, seeds) in &kinds {
        println!("  {k}: {} (seeds {:?})", seeds.len(), seeds);
    }
    assert!(finished > 0, "no Csmith program finished natively");
    assert!(
        pct >= 95.0 || (finished - agree) <= 1 && finished < 20,
        "csmith agreement {pct:.1}% below 95%: {kinds:?}"
    );
}
