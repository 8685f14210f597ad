//! Quantities typed on the command line: durations, memory sizes, instruction limits.

use std::time::Duration;

/// The longest time budget accepted (a year): beyond it a budget is surely a typo.
pub const MAX_BUDGET_S: f64 = 366.0 * 24.0 * 3600.0;

/// A time budget: a positive, finite number with an optional `ms`, `s`, `m` or `h` suffix.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = s.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = s.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("invalid duration `{s}` (examples: 30, 30s, 500ms, 2m, 1h)"))?;
    let secs = v * mult;
    if !secs.is_finite() || secs <= 0.0 {
        return Err(format!(
            "invalid duration `{s}`: it must be a positive number of seconds"
        ));
    }
    if secs > MAX_BUDGET_S {
        return Err(format!("invalid duration `{s}`: at most a year"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// An instruction limit: a whole number, at least 1.
pub fn parse_steps(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("the instruction limit must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "invalid instruction limit `{s}`: a whole number, at least 1"
        )),
    }
}

/// A memory size: bytes, or a number with a `K`, `M`, `G` or `T` suffix (powers of 1024).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim().trim_end_matches(['b', 'B']);
    let (num, shift) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        Some('T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("invalid size `{s}` (examples: 4G, 512M)"))?;
    let bytes = v * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < (16u64 << 20) as f64 || bytes > (1u64 << 50) as f64 {
        return Err(format!("invalid size `{s}`: between 16M and 1024T"));
    }
    Ok(bytes as u64)
}
