//! The few JSON pieces a recording needs, written straight to a stream (no JSON library in
//! the crate's dependencies): numbers, number arrays, strings.

use std::io::{self, Write};

/// A number; JSON has no NaN or infinity, so those are written as `null`. Rust's `Debug`
/// form is the shortest that reads back to the same double, and is valid JSON.
pub fn number(w: &mut impl Write, v: f64) -> io::Result<()> {
    if v.is_finite() {
        write!(w, "{v:?}")
    } else {
        w.write_all(b"null")
    }
}

/// `[v0,v1,…]`.
pub fn numbers(w: &mut impl Write, v: &[f64]) -> io::Result<()> {
    w.write_all(b"[")?;
    for (i, &x) in v.iter().enumerate() {
        if i > 0 {
            w.write_all(b",")?;
        }
        number(w, x)?;
    }
    w.write_all(b"]")
}

/// A string with JSON's escapes.
pub fn string(w: &mut impl Write, s: &str) -> io::Result<()> {
    w.write_all(b"\"")?;
    for c in s.chars() {
        match c {
            '"' => w.write_all(b"\\\"")?,
            '\\' => w.write_all(b"\\\\")?,
            c if (c as u32) < 0x20 => write!(w, "\\u{:04x}", c as u32)?,
            c => write!(w, "{c}")?,
        }
    }
    w.write_all(b"\"")
}

/// A body index, or `null` for the world.
pub fn body(w: &mut impl Write, b: Option<usize>) -> io::Result<()> {
    match b {
        Some(i) => write!(w, "{i}"),
        None => w.write_all(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: impl Fn(&mut Vec<u8>) -> io::Result<()>) -> String {
        let mut v = Vec::new();
        f(&mut v).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn numbers_read_back_exactly_and_non_finite_is_null() {
        let v = [0.1, -1e-7, 1.0, 12345678.9, f64::NAN, f64::INFINITY, 2.0f64.sqrt()];
        let s = text(|w| numbers(w, &v));
        assert_eq!(s, "[0.1,-1e-7,1.0,12345678.9,null,null,1.4142135623730951]");
        let back: Vec<f64> = s.trim_matches(['[', ']']).split(',').filter(|t| *t != "null").map(|t| t.parse().unwrap()).collect();
        assert_eq!(back[4], 2.0f64.sqrt());
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(text(|w| string(w, "a\"b\\c\nd")), r#""a\"b\\c\u000ad""#);
    }
}
