//! `cairn report DIR`: one self-contained HTML page (`DIR/report/index.html`, no external
//! resources) from an output directory: a summary table, coverage over time as an SVG chart,
//! the techniques' statistics, the program's source with every goal marked — covered (with a
//! link to its test), unreachable (with the kind of proof) or unknown — and the tests.

use crate::output::suite::write_atomic;
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

fn read_json(p: &Path) -> Result<Value> {
    let text = fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{} is not valid JSON", p.display()))
}

/// Points of coverage.csv: (time, covered, unreachable).
fn coverage_points(dir: &Path) -> Vec<(f64, f64, f64)> {
    let text = fs::read_to_string(dir.join("coverage.csv")).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((
                f.first()?.parse().ok()?,
                f.get(1)?.parse().ok()?,
                f.get(2)?.parse().ok()?,
            ))
        })
        .collect()
}

/// Coverage over time: goals covered, and goals decided (covered or proven unreachable).
fn chart_svg(points: &[(f64, f64, f64)], total: f64, end: f64) -> Result<String> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 300)).into_drawing_area();
        root.fill(&WHITE)?;
        let t_max = points.iter().map(|p| p.0).fold(end, f64::max).max(0.001);
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(0.0..t_max * 1.02, 0.0..total.max(1.0) * 1.05)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("goals")
            .light_line_style(RGBColor(235, 235, 235))
            .draw()?;
        // Step curves: a figure holds until the next row changes it.
        let step = |f: &dyn Fn(&(f64, f64, f64)) -> f64| -> Vec<(f64, f64)> {
            let mut v = vec![(0.0, 0.0)];
            for p in points {
                let last = v.last().map_or(0.0, |l| l.1);
                v.push((p.0, last));
                v.push((p.0, f(p)));
            }
            let last = v.last().map_or(0.0, |l| l.1);
            v.push((t_max, last));
            v
        };
        let green = RGBColor(46, 139, 87);
        let grey = RGBColor(120, 120, 160);
        chart
            .draw_series(LineSeries::new(step(&|p| p.1 + p.2), grey.stroke_width(2)))?
            .label("decided (covered + unreachable)")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], grey));
        chart
            .draw_series(LineSeries::new(step(&|p| p.1), green.stroke_width(2)))?
            .label("covered")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], green));
        chart
            .draw_series(LineSeries::new(
                vec![(0.0, total), (t_max, total)],
                RED.mix(0.4),
            ))?
            .label("all goals")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], RED.mix(0.4)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.3))
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

/// A JSON value as nested HTML tables (statistics).
fn json_table(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push_str("<table class=\"stats\">");
            for (k, x) in m {
                let _ = write!(out, "<tr><th>{}</th><td>", esc(k));
                json_table(x, out);
                out.push_str("</td></tr>");
            }
            out.push_str("</table>");
        }
        Value::Array(a) if a.iter().all(|x| x.is_object()) && !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                let _ = write!(out, "<div class=\"item\">#{i}</div>");
                json_table(x, out);
            }
        }
        Value::Number(n) => {
            let s = match n.as_f64() {
                Some(f) if n.is_f64() => format!("{f:.3}"),
                _ => n.to_string(),
            };
            out.push_str(&esc(&s));
        }
        Value::String(s) => out.push_str(&esc(s)),
        Value::Null => out.push('–'),
        other => out.push_str(&esc(&other.to_string())),
    }
}

struct GoalView {
    id: u64,
    status: String,
    /// Covering test number, or proof kind.
    detail: String,
    outcome: String,
    function: String,
    line: u64,
    column: u64,
    /// Tests that take it.
    hits: usize,
    /// The line holds goals at more than one column: badges name theirs.
    show_column: bool,
}

/// Writes `dir/report/index.html`; returns its path.
pub fn write_report(dir: &Path) -> Result<PathBuf> {
    if !dir.join("goals.json").is_file() {
        bail!(
            "{} is not a finished Cairn output directory (no goals.json)",
            dir.display()
        );
    }
    let goals = read_json(&dir.join("goals.json"))?;
    let summary = read_json(&dir.join("summary.json")).unwrap_or(Value::Null);
    let goals = goals
        .as_array()
        .context("goals.json is not a list of goals")?;

    // Goals by source file and line.
    let mut by_file: BTreeMap<String, BTreeMap<u64, Vec<GoalView>>> = BTreeMap::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for g in goals {
        let status = g["status"].as_str().unwrap_or("unknown").to_string();
        if status == "ignored" {
            continue;
        }
        *counts
            .entry(match status.as_str() {
                "covered" => "covered",
                "unreachable" => "unreachable",
                _ => "unknown",
            })
            .or_default() += 1;
        let detail = match status.as_str() {
            "covered" => g["test"].as_str().unwrap_or("").to_string(),
            "unreachable" => g["proof"].as_str().unwrap_or("").to_string(),
            _ => String::new(),
        };
        let v = GoalView {
            id: g["id"].as_u64().unwrap_or(0),
            status,
            detail,
            outcome: g["outcome"].as_str().unwrap_or("").to_string(),
            function: g["function"].as_str().unwrap_or("").to_string(),
            line: g["line"].as_u64().unwrap_or(0),
            column: g["column"].as_u64().unwrap_or(0),
            hits: 0,
            show_column: false,
        };
        by_file
            .entry(g["file"].as_str().unwrap_or("").to_string())
            .or_default()
            .entry(v.line)
            .or_default()
            .push(v);
    }
    let covered = counts.get("covered").copied().unwrap_or(0);
    let unreachable = counts.get("unreachable").copied().unwrap_or(0);
    let unknown = counts.get("unknown").copied().unwrap_or(0);
    let total = covered + unreachable + unknown;
    let pct = |a: usize, b: usize| {
        if b == 0 {
            100.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };

    // Tests.
    let mut tests: Vec<(String, Value)> = vec![];
    if let Ok(rd) = fs::read_dir(dir.join("tests")) {
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
            .collect();
        names.sort();
        for n in names {
            if let Ok(t) = read_json(&dir.join("tests").join(&n)) {
                tests.push((n.trim_end_matches(".json").to_string(), t));
            }
        }
    }

    // Hit counts: how many tests take each goal.
    let mut hits: BTreeMap<u64, usize> = BTreeMap::new();
    for (_, t) in &tests {
        for g in t["covers"].as_array().into_iter().flatten() {
            *hits.entry(g.as_u64().unwrap_or(u64::MAX)).or_default() += 1;
        }
    }
    for lines in by_file.values_mut() {
        for gs in lines.values_mut() {
            let first = gs.first().map_or(0, |g| g.column);
            let several = gs.iter().any(|g| g.column != first);
            for g in gs.iter_mut() {
                g.hits = hits.get(&g.id).copied().unwrap_or(0);
                g.show_column = several;
            }
        }
    }

    let mut h = String::new();
    let program = by_file.keys().next().cloned().unwrap_or_default();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>Cairn report: {}</title><style>{CSS}</style></head><body>\n",
        esc(&program)
    );
    let _ = writeln!(
        h,
        "<h1>Cairn report</h1><p class=\"sub\">{} — {}</p>",
        esc(&program),
        esc(&dir.display().to_string())
    );

    // Summary.
    h.push_str("<h2 id=\"summary\">Summary</h2><table class=\"summary\">");
    let row = |h: &mut String, k: &str, v: String, class: &str| {
        let _ = write!(
            h,
            "<tr class=\"{class}\"><th>{}</th><td>{}</td></tr>",
            esc(k),
            esc(&v)
        );
    };
    row(&mut h, "goals", total.to_string(), "");
    row(
        &mut h,
        "covered",
        format!("{covered} ({:.1}%)", pct(covered, total)),
        "covered",
    );
    row(
        &mut h,
        "proven unreachable",
        unreachable.to_string(),
        "unreachable",
    );
    row(&mut h, "unknown", unknown.to_string(), "unknown");
    row(
        &mut h,
        "coverage of reachable goals",
        format!("{:.1}%", pct(covered, total - unreachable)),
        "",
    );
    if let Some(p) = summary["proofs"].as_object() {
        for (k, n) in p {
            row(
                &mut h,
                &format!("proofs: {k}"),
                n.to_string(),
                "unreachable",
            );
        }
    }
    row(&mut h, "tests", tests.len().to_string(), "");
    if let Some(t) = summary["time_s"].as_f64() {
        row(&mut h, "time", format!("{t:.1} s"), "");
    }
    if let Some(v) = summary["soundness_violations"].as_array()
        && !v.is_empty()
    {
        row(
            &mut h,
            "SOUNDNESS VIOLATIONS",
            format!("{v:?}").replace(['[', ']'], ""),
            "unknown",
        );
    }
    h.push_str("</table>\n");

    // Faults: what a developer looks for first.
    let faults = crate::output::faults::collect(dir);
    if !faults.is_empty() {
        let _ = write!(
            h,
            "<h2 id=\"faults\">Faults ({})</h2><table class=\"summary\"><tr><th>fault</th><th>where</th><th>tests</th><th>reproducer</th></tr>",
            faults.len()
        );
        for f in &faults {
            let _ = write!(
                h,
                "<tr class=\"unknown\"><td>{}</td><td>{}</td><td>{}</td><td><a href=\"#test-{}\">test {}</a></td></tr>",
                esc(&f.kind),
                esc(&f.location),
                f.tests.len(),
                esc(&f.reproducer),
                esc(&f.reproducer)
            );
        }
        h.push_str("</table>\n");
    }

    index(&mut h, &by_file);

    // Chart.
    let points = coverage_points(dir);
    let end = summary["time_s"].as_f64().unwrap_or(0.0);
    h.push_str("<h2 id=\"chart\">Coverage over time</h2><div class=\"chart\">");
    h.push_str(&chart_svg(&points, total as f64, end).context("drawing the chart")?);
    h.push_str("</div>\n");

    // Source.
    h.push_str(
        "<h2 id=\"source\">Source</h2><p class=\"filter\">Show: \
         <label><input type=\"radio\" name=\"show\" value=\"all\" checked> every line</label> \
         <label><input type=\"radio\" name=\"show\" value=\"goals\"> lines with goals</label> \
         <label><input type=\"radio\" name=\"show\" value=\"open\"> lines with unknown goals</label> \
         — <span class=\"g covered\">✓ covered</span> <span class=\"g unreachable\">✗ unreachable</span> \
         <span class=\"g unknown\">? unknown</span></p>\n",
    );
    for (i, (file, lines)) in by_file.iter().enumerate() {
        let _ = write!(h, "<h3 id=\"file-{i}\">{}</h3>", esc(file));
        let Ok(src) = fs::read_to_string(file) else {
            let _ = write!(
                h,
                "<p class=\"note\">The source file is not readable from here: goals by line only.</p><table class=\"src\">"
            );
            for (line, gs) in lines {
                source_row(&mut h, i, *line, "", Some(gs));
            }
            h.push_str("</table>");
            continue;
        };
        h.push_str("<table class=\"src\">");
        for (i, text) in src.lines().enumerate() {
            let line = i as u64 + 1;
            source_row(&mut h, i, line, text, lines.get(&line));
        }
        h.push_str("</table>\n");
    }

    // Tests.
    h.push_str("<h2 id=\"tests\">Tests</h2>");
    for (n, t) in &tests {
        let inputs = inputs_text(t["inputs"].as_array().map_or(&[][..], |a| &a[..]));
        let outcome = match t["outcome"].as_str().unwrap_or("") {
            "exit" if t["exit_code"].is_null() => "exit (status indeterminate)".to_string(),
            "exit" => format!("exit {}", t["exit_code"]),
            "fault" => format!(
                "fault: {} at {}",
                t["fault"].as_str().unwrap_or(""),
                t["fault_location"].as_str().unwrap_or("")
            ),
            o => o.to_string(),
        };
        let _ = writeln!(
            h,
            "<div class=\"test\" id=\"test-{n}\"><b>test {n}</b> <span class=\"meta\">found by {} at {:.2} s; {}{}</span><br><code>{}</code></div>",
            esc(t["found_by"].as_str().unwrap_or("")),
            t["time_s"].as_f64().unwrap_or(0.0),
            esc(&outcome),
            if t["error"] == true {
                "; reaches the error"
            } else {
                ""
            },
            esc(&inputs)
        );
    }

    // Statistics.
    h.push_str("<h2 id=\"stats\">Techniques' statistics</h2>");
    let mut stats = serde_json::Map::new();
    if let Some(m) = summary.as_object() {
        for (k, v) in m {
            if (v.is_object() || v.is_array() || k == "strategy" || k == "seed" || k == "jobs")
                && !matches!(k.as_str(), "goals" | "proofs" | "soundness_violations")
            {
                stats.insert(k.clone(), v.clone());
            }
        }
    }
    json_table(&Value::Object(stats), &mut h);
    let _ = write!(h, "\n<script>{SCRIPT}</script>\n</body></html>\n");

    let out = dir.join("report");
    fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let path = out.join("index.html");
    write_atomic(&path, h.as_bytes())?;
    Ok(path)
}

/// A test's inputs for people: `type value`, but characters as text where they are text —
/// stdin's characters as `stdin "..."`, bytes that are printable, and (in tests that do not
/// mark stdin's characters, of Cairn before stop 81) runs of four or more int inputs in the
/// printable range or -1 as `chars "..."`.
fn inputs_text(inputs: &[Value]) -> String {
    let printable = |c: i64| (32..127).contains(&c) || c == 9 || c == 10 || c == 13;
    let as_char = |c: i64| match c {
        -1 => "⟨EOF⟩".to_string(),
        10 => "\\n".into(),
        9 => "\\t".into(),
        13 => "\\r".into(),
        34 => "\\\"".into(),
        92 => "\\\\".into(),
        c => (c as u8 as char).to_string(),
    };
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < inputs.len() {
        let ty = inputs[i]["type"].as_str().unwrap_or("");
        let value = inputs[i]["value"].as_str().unwrap_or("");
        let int = |v: &Value| {
            (v["type"] == "int")
                .then(|| v["value"].as_str()?.parse::<i64>().ok())
                .flatten()
                .filter(|&c| printable(c) || c == -1)
        };
        let stdin = |v: &Value| {
            (v["from"] == "stdin")
                .then(|| v["value"].as_str()?.parse::<i64>().ok())
                .flatten()
        };
        let run = inputs[i..]
            .iter()
            .take_while(|v| stdin(v).is_some())
            .count();
        if run > 0 {
            let text: String = (inputs[i..i + run].iter().filter_map(stdin))
                .map(|c| match c {
                    c if printable(c) || c == -1 => as_char(c),
                    c => format!("\\x{:02x}", c as u8),
                })
                .collect();
            out.push(format!("stdin \"{text}\""));
            i += run;
            continue;
        }
        if let Some(name) = inputs[i]["null"].as_str() {
            // Whether pointer parameter `name` is NULL; if it is, its buffer (next) is unused.
            if value == "1" {
                out.push(format!("{name} NULL"));
                i += 1;
            }
            i += 1;
            continue;
        }
        let run = inputs[i..].iter().take_while(|v| int(v).is_some()).count();
        if run >= 4 {
            let text: String = inputs[i..i + run]
                .iter()
                .filter_map(int)
                .map(as_char)
                .collect();
            out.push(format!("chars \"{text}\""));
            i += run;
            continue;
        }
        let bytes: Option<Vec<u8>> = (ty == "bytes")
            .then(|| {
                (0..value.len() / 2)
                    .map(|k| u8::from_str_radix(value.get(2 * k..2 * k + 2)?, 16).ok())
                    .collect()
            })
            .flatten();
        let shown = match bytes {
            Some(b) => {
                let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                let name = inputs[i]["name"].as_str().unwrap_or("");
                if end > 0 && b[..end].iter().all(|&c| printable(c as i64)) {
                    let text: String = b[..end].iter().map(|&c| as_char(c as i64)).collect();
                    format!("{name} \"{text}\" ({} bytes)", b.len())
                } else {
                    format!("{name} {value}")
                }
            }
            None => format!("{ty} {value}"),
        };
        out.push(shown);
        i += 1;
    }
    out.join(", ")
}

/// Per-file and per-function tables: goals, covered, unreachable, unknown, coverage.
fn index(h: &mut String, by_file: &BTreeMap<String, BTreeMap<u64, Vec<GoalView>>>) {
    #[derive(Default)]
    struct Count {
        covered: usize,
        unreachable: usize,
        unknown: usize,
        first_line: u64,
    }
    let add = |c: &mut Count, g: &GoalView| match g.status.as_str() {
        "covered" => c.covered += 1,
        "unreachable" => c.unreachable += 1,
        _ => c.unknown += 1,
    };
    let row = |h: &mut String, name: String, c: &Count| {
        let total = c.covered + c.unreachable + c.unknown;
        let reachable = total - c.unreachable;
        let pct = if reachable == 0 {
            100.0
        } else {
            100.0 * c.covered as f64 / reachable as f64
        };
        let _ = write!(
            h,
            "<tr><td>{name}</td><td>{total}</td><td>{}</td><td>{}</td><td>{}</td><td><span class=\"bar\"><span style=\"width:{pct:.0}%\"></span></span> {pct:.1}%</td></tr>",
            c.covered, c.unreachable, c.unknown
        );
    };
    let head = |h: &mut String, what: &str| {
        let _ = write!(
            h,
            "<table class=\"index\"><tr><th>{what}</th><th>goals</th><th>covered</th><th>unreachable</th><th>unknown</th><th>coverage of reachable</th></tr>"
        );
    };
    h.push_str("<h2 id=\"index\">Files and functions</h2>");
    head(h, "file");
    let mut functions: BTreeMap<(String, usize), Count> = BTreeMap::new();
    for (i, (file, lines)) in by_file.iter().enumerate() {
        let mut c = Count::default();
        for (line, gs) in lines {
            for g in gs {
                add(&mut c, g);
                let f = functions.entry((g.function.clone(), i)).or_default();
                if f.first_line == 0 || *line < f.first_line {
                    f.first_line = *line;
                }
                add(f, g);
            }
        }
        row(h, format!("<a href=\"#file-{i}\">{}</a>", esc(file)), &c);
    }
    h.push_str("</table>");
    head(h, "function");
    for ((f, i), c) in &functions {
        row(
            h,
            format!("<a href=\"#F{i}L{}\">{}</a>", c.first_line, esc(f)),
            c,
        );
    }
    h.push_str("</table>\n");
}

/// Which condition of a line a branch goal at `column` decides, in words. Clang places the
/// branch on an `&&`'s or `||`'s left operand at the operator and the branch on a chain's last
/// operand where the whole condition starts, so the source from the column alone misleads
/// there: `if (n && p)`'s goal at `n` is about `p`. `columns`: the line's goal columns.
fn condition_words(text: &str, column: u64, columns: &[u64]) -> String {
    let from = |c: u64| -> String { text.chars().skip(c.saturating_sub(1) as usize).collect() };
    let operator = |c: u64| {
        let s = from(c);
        ["&&", "||"].into_iter().find(|op| s.starts_with(op))
    };
    let quote = |s: &str| {
        s.chars()
            .take(32)
            .collect::<String>()
            .trim_end()
            .to_string()
    };
    if let Some(op) = operator(column) {
        return format!("of the operand before `{op}` at column {column}");
    }
    let last = columns
        .iter()
        .filter(|&&c| c > column && operator(c).is_some())
        .max();
    match last {
        Some(&c) => format!(
            "of the last operand (`{}`) of the condition at column {column}",
            quote(from(c)[2..].trim_start())
        ),
        None => format!("at column {column} (`{}`)", quote(&from(column))),
    }
}

fn source_row(h: &mut String, file: usize, line: u64, text: &str, goals: Option<&Vec<GoalView>>) {
    let class = match goals {
        None => "",
        Some(gs) if gs.iter().any(|g| g.status == "unknown") => "l-unknown",
        Some(gs) if gs.iter().all(|g| g.status == "covered") => "l-covered",
        Some(_) => "l-decided",
    };
    let _ = write!(
        h,
        "<tr class=\"{class}\" id=\"F{file}L{line}\"><td class=\"n\">{line}</td><td class=\"goals\">"
    );
    let columns: Vec<u64> = goals.into_iter().flatten().map(|g| g.column).collect();
    for g in goals.into_iter().flatten() {
        let what = format!(
            "goal {} in {}: {} {}; taken by {} test{}",
            g.id,
            g.function,
            g.outcome,
            condition_words(text, g.column, &columns),
            g.hits,
            if g.hits == 1 { "" } else { "s" }
        );
        let label = match g.show_column {
            true => format!("{} :{}", g.outcome, g.column),
            false => g.outcome.clone(),
        };
        match g.status.as_str() {
            "covered" => {
                let _ = write!(
                    h,
                    "<a class=\"g covered\" href=\"#test-{t}\" title=\"{} — covered first by test {t}\">✓ {}<sup>{}</sup></a>",
                    esc(&what),
                    esc(&label),
                    g.hits,
                    t = esc(&g.detail)
                );
            }
            "unreachable" => {
                let _ = write!(
                    h,
                    "<span class=\"g unreachable\" title=\"{} — proven unreachable ({})\">✗ {} <i>{}</i></span>",
                    esc(&what),
                    esc(&g.detail),
                    esc(&label),
                    esc(&g.detail)
                );
            }
            _ => {
                let _ = write!(
                    h,
                    "<span class=\"g unknown\" title=\"{} — unknown\">? {}</span>",
                    esc(&what),
                    esc(&label)
                );
            }
        }
    }
    let _ = write!(h, "</td><td class=\"code\">{}</td></tr>", esc(text));
}

const CSS: &str = "
body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{margin-bottom:0}.sub{color:#666;margin-top:4px}
table.summary{border-collapse:collapse;min-width:340px}
table.summary th,table.summary td{border-bottom:1px solid #ddd;padding:4px 10px;text-align:left}
tr.covered td{color:#1d6b3a;font-weight:600}tr.unreachable td{color:#555}tr.unknown td{color:#a33;font-weight:600}
.chart svg{max-width:100%;height:auto;border:1px solid #ddd}
table.src{border-collapse:collapse;font-family:ui-monospace,monospace;font-size:13px;width:100%}
table.src td{padding:0 6px;vertical-align:top;white-space:pre}
td.n{color:#999;text-align:right;user-select:none}td.goals{white-space:normal;min-width:120px}
tr.l-covered td.code{background:#e6f6ea}tr.l-unknown td.code{background:#fde8e8}tr.l-decided td.code{background:#eef}
.g{display:inline-block;border-radius:3px;padding:0 4px;margin:1px;font-size:11px;font-family:system-ui,sans-serif;text-decoration:none}
.g.covered{background:#2e8b57;color:#fff}.g.unreachable{background:#778;color:#fff}.g.unknown{background:#c33;color:#fff}
.test{border-left:4px solid #ccc;padding:4px 8px;margin:6px 0}.test:target,.test.hl{border-color:#2e8b57;background:#f0faf3}
.meta{color:#666}.note{color:#a60}
table.stats{border-collapse:collapse;font-size:13px}table.stats th{text-align:left;padding:1px 8px;color:#555;font-weight:500;vertical-align:top}
table.stats td{padding:1px 8px}.item{color:#999;margin-top:6px}
.hidden{display:none}
table.index{border-collapse:collapse;font-size:13px;margin-bottom:12px}
table.index th,table.index td{border-bottom:1px solid #ddd;padding:2px 10px;text-align:left}
.bar{display:inline-block;width:80px;height:8px;background:#fde8e8;vertical-align:middle}
.bar span{display:block;height:8px;background:#2e8b57}
.g sup{font-size:9px;margin-left:2px}
";

/// Filters the source lines; highlights the test a goal links to. Marks the page ready (the
/// browser test reads it).
const SCRIPT: &str = "
(function(){
  var rows=document.querySelectorAll('table.src tr');
  function show(mode){
    rows.forEach(function(r){
      var keep=mode==='all'||(mode==='goals'&&r.className!=='')||(mode==='open'&&r.classList.contains('l-unknown'));
      r.classList.toggle('hidden',!keep);
    });
  }
  document.querySelectorAll('input[name=show]').forEach(function(i){
    i.addEventListener('change',function(){show(i.value);});
  });
  document.querySelectorAll('a.g.covered').forEach(function(a){
    a.addEventListener('click',function(){
      document.querySelectorAll('.test.hl').forEach(function(t){t.classList.remove('hl');});
      var t=document.getElementById(a.getAttribute('href').slice(1));
      if(t){t.classList.add('hl');}
    });
  });
  show('all');
  document.body.setAttribute('data-ready','yes');
})();
";

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn inputs_show_text_as_text() {
        let stdin: Vec<_> = "hi!\n"
            .bytes()
            .map(|c| json!({"type": "int", "value": c.to_string()}))
            .collect();
        let mut inputs = vec![json!({"type": "int", "value": "7"})];
        inputs.extend(stdin);
        inputs.push(json!({"type": "int", "value": "-1"}));
        inputs.push(json!({"type": "bytes", "name": "buf", "value": "6869000000"}));
        inputs.push(json!({"type": "bytes", "name": "raw", "value": "ff01"}));
        assert_eq!(
            super::inputs_text(&inputs),
            r#"int 7, chars "hi!\n⟨EOF⟩", buf "hi" (5 bytes), raw ff01"#
        );
        let stdin: Vec<_> = [103, 111, 233, 10, -1]
            .iter()
            .map(|c| json!({"type": "int", "value": c.to_string(), "from": "stdin"}))
            .collect();
        assert_eq!(super::inputs_text(&stdin), r#"stdin "go\xe9\n⟨EOF⟩""#);
    }

    #[test]
    fn a_short_circuit_goal_says_which_operand_it_decides() {
        // Clang's columns: the branch on `a == 1` at the `&&`, the one on `b == 2` where the
        // condition starts.
        let line = "  if (a == 1 && b == 2) {";
        let columns = [14, 14, 7, 7];
        let words = |c| super::condition_words(line, c, &columns);
        assert_eq!(words(14), "of the operand before `&&` at column 14");
        assert_eq!(
            words(7),
            "of the last operand (`b == 2) {`) of the condition at column 7"
        );
        assert_eq!(
            super::condition_words("  if (n < 3)", 7, &[7, 7]),
            "at column 7 (`n < 3)`)"
        );
    }
}
