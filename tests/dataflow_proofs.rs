//! The model checker's def-use proofs on the text-formatting subject, in a test binary of its
//! own: cargo runs test binaries one after another, so it runs alone (beside the other
//! data-flow tests a proof that takes 1-3 s alone missed its slice: 0-11 proofs in 90 s).

mod common;
use common::dataflow::*;

/// Text formatting: pairs whose infeasibility needs a counter's range (`word++` then
/// `word > 0` false: word stays below the loop's bound, so it never wraps) or the state's
/// history (the `space` owed before a word is always redefined before the wrap test reads it).
/// Every pair the model checker proves is one of those checked by hand below; a pair that
/// needs exactly the ten characters "a\nabcdef g" is covered or left unknown, never proven.
#[test]
fn model_checker_proves_only_infeasible_text_formatting_pairs() {
    let src = program("textfmt.c");
    // Slices of 6 s, then 18 s, per pair: a proof takes 1-3 s alone, and the default first
    // slice (3 s) cut nearly every one on a loaded machine (0-1 proofs beside a second copy
    // of the suite; 14 with these slices).
    let args = [
        "--strategy",
        "cut-point",
        "--time",
        "90s",
        "--seed",
        "1",
        "--pair-slices",
        "6,18",
        // An invariant's check takes about 2 s alone, over 3 s (the default grace) beside a
        // second copy of the suite: 2 proofs there.
        "--mc-check-grace",
        "20s",
    ];
    let (out, pairs) = generate(&src, &args);
    let p = load_dataflow(&src);
    // variable def_line use_kind use_line:column [outcome], from goals.json.
    let infeasible = [
        "word 39 p-use 14:17 false",
        "col 38 p-use 19:30 false",
        "word 39 p-use 26:17 true",
        "col 38 p-use 26:30 false",
        "space 10 p-use 26:47 true",
        "space 10 p-use 26:47 false",
        "space 23 p-use 26:47 true",
        "space 23 p-use 26:47 false",
        "space 30 p-use 26:47 true",
        "space 30 p-use 26:47 false",
        "space 35 p-use 26:47 true",
        "space 35 p-use 26:47 false",
        "lines 28 c-use 28:22",
        "col 10 c-use 34:20",
        "col 22 c-use 34:20",
        "col 29 c-use 34:20",
        "word 39 p-use 42:9 false",
        "col 38 p-use 44:9 false",
        "lines 28 c-use 46:45",
    ];
    let mut by_mc = 0;
    for g in &pairs {
        let outcome = g["outcome"]
            .as_str()
            .map(|o| format!(" {o}"))
            .unwrap_or_default();
        let k = format!(
            "{} {} {} {}:{}{outcome}",
            g["variable"].as_str().unwrap(),
            g["def_line"],
            g["use_kind"].as_str().unwrap(),
            g["use_line"],
            g["column"]
        );
        let proof = g["proof"].as_str().unwrap_or("");
        if proof.starts_with("model checker") {
            assert!(infeasible.contains(&k.as_str()), "{k} proven infeasible");
            by_mc += 1;
        }
        if g["status"] == "covered" {
            assert!(!infeasible.contains(&k.as_str()), "{k} covered");
        }
    }
    // "a\nabcdef g": the newline's `lines` reaches the wrap's `lines++`.
    let c = covered_on(
        &p,
        &[
            "97", "10", "97", "98", "99", "100", "101", "102", "32", "103",
        ],
    );
    assert!(c.contains(&"main lines 21 c-use 28".to_string()), "{c:?}");
    // 13-14 of the 19 in 90 s alone (README, data-flow testing); 0-1 on a slower machine
    // while an invariant's check had a second, which every check of these pairs needed twice.
    eprintln!("{by_mc} pairs proven by the model checker");
    assert!(by_mc >= 3, "{by_mc} pairs proven by the model checker");
    let _ = std::fs::remove_dir_all(&out);
}
