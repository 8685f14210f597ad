//! `cairn report`: the page is self-contained and renders in a real browser (headless
//! Chromium) with every kind of goal marked and no script error.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Headless Chromium on `page` with a fresh profile; `what` is `--screenshot=PATH` or
/// `--dump-dom`. Returns (stdout, stderr with the page's console messages).
fn chromium(page: &Path, profile: &Path, what: &str) -> (String, String) {
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1280,2400",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(what)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium is not installed: run scripts/install.sh");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium did not finish in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Pixels of `png` near `rgb` (badge colours are solid fills), and pixels that are not white.
fn pixels(png_path: &Path, colours: &[[u8; 3]]) -> (Vec<usize>, usize, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let mut hits = vec![0; colours.len()];
    let mut not_white = 0;
    let n = (info.width * info.height) as usize;
    for px in buf[..n * channels].chunks(channels) {
        let rgb = [px[0], px[1], px[2]];
        if rgb.iter().any(|&c| c < 245) {
            not_white += 1;
        }
        for (k, c) in colours.iter().enumerate() {
            if rgb.iter().zip(c).all(|(a, b)| a.abs_diff(*b) <= 4) {
                hits[k] += 1;
            }
        }
    }
    (hits, not_white, n)
}

#[test]
fn report_renders_in_chromium_with_every_kind_of_goal() {
    // Kept after the test (target/tmp/report-test): the screenshot is worth a look.
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-test");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let out = base.join("out");
    let p = root().join("tests/programs/report/thermostat.c");
    let o = cairn(&[
        "gen",
        p.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--time",
        "10",
        "--seed",
        "1",
        // One worker: its model checker proves the heating branch by an invariant in about a
        // second; crabs' checker on a second worker refines first, and on a loaded machine
        // ran out of turns.
        "--jobs",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let g = &s["goals"];
    assert!(
        g["covered"].as_u64().unwrap() > 0
            && g["unreachable"].as_u64().unwrap() > 0
            && g["unknown"].as_u64().unwrap() > 0,
        "the program is meant to leave goals of every kind: {s}"
    );

    let o = cairn(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let page = out.join("report/index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing is loaded from elsewhere.
    for bad in [
        "src=",
        "<link",
        "@import",
        "url(",
        "href=\"http",
        "href='http",
    ] {
        assert!(!html.contains(bad), "the page loads a resource ({bad})");
    }
    assert!(html.contains("<svg"), "no chart");
    assert!(html.contains("href=\"#test-000001\"") && html.contains("id=\"test-000001\""));
    // The index: a row per file and per function, with the coverage of reachable goals; every
    // badge says which condition (column and source) it is for and how many tests take it.
    assert!(html.contains("Files and functions"), "no index");
    assert!(html.contains("<a href=\"#file-0\">") && html.contains("<a href=\"#F0L"));
    assert!(html.contains(" at column ") && html.contains("; taken by "));
    // `while (n > 1 && steps < 100000)`: the goal at the `&&` decides its left operand.
    assert!(html.contains("of the operand before `&amp;&amp;` at column 16"));
    assert!(html.contains("model checker") || html.contains("exhaustive"));
    // Every kind of proof is named: here exhaustive exploration's (a program whose paths
    // concolic testing enumerates, with infeasible branches).
    let exh = base.join("exhaustive");
    let o = cairn(&[
        "gen",
        root()
            .join("tests/programs/exhaustive/door_controller.c")
            .to_str()
            .unwrap(),
        "--out",
        exh.to_str().unwrap(),
        // Ends at the exhaustive proof; room for a loaded machine.
        "--time",
        "10",
        "--tests-only",
        "--jobs",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = cairn(&["report", exh.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let exh_html = std::fs::read_to_string(exh.join("report/index.html")).unwrap();
    assert!(
        exh_html.contains("proofs: exhaustive")
            && exh_html.contains("proven unreachable (exhaustive)"),
        "the exhaustive proofs are not named in the report"
    );
    // Cairn's output directory stays Cairn's: gen may reuse it.
    let o = cairn(&[
        "gen",
        p.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--time",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = cairn(&["report", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));

    // The browser: the script runs to its end, no console error, and the screenshot shows
    // the page with badges of all three colours.
    let (dom, log) = chromium(&page, &base.join("profile-dom"), "--dump-dom");
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the page's script did not finish:\n{log}"
    );
    let shot = base.join("screenshot.png");
    let (_, log2) = chromium(
        &page,
        &base.join("profile-shot"),
        &format!("--screenshot={}", shot.display()),
    );
    for l in log.lines().chain(log2.lines()) {
        let console_error = l.contains(":CONSOLE")
            && (l.contains("Uncaught") || l.contains("Error") || l.contains("error"));
        assert!(!console_error, "script error: {l}");
        assert!(!l.contains("Failed to load resource"), "{l}");
    }
    let (hits, not_white, n) = pixels(&shot, &[[46, 139, 87], [204, 51, 51], [119, 119, 136]]);
    eprintln!(
        "screenshot {}: {not_white} of {n} pixels not white; covered/unknown/unreachable badge pixels {hits:?}",
        shot.display()
    );
    assert!(not_white * 50 > n, "the screenshot is (nearly) blank");
    assert!(
        hits.iter().all(|&h| h > 50),
        "a kind of goal is not shown: {hits:?}"
    );
}
