//! What a URDF may hold before maxdyn refuses it: the size of its text, the attributes of
//! one element, its links and joints. Each cap is far above real robots (example-robot-data:
//! files under 1 MB, at most 12 attributes on an element, at most 130 links) and keeps a
//! load's time linear in the text's size:
//!
//! - the XML parser checks each attribute of an element against the element's earlier
//!   ones, quadratic in their count (one element with 30 000 attributes took 1.2 s, with
//!   300 000 took 193 s), so an element with more than [`MAX_ATTRIBUTES`] is refused by a
//!   pass over the text before the parser runs;
//! - a 1e6-link chain (268 MB of text) took 590 s and 7.1 GB to load and step: text
//!   beyond [`MAX_FILE_BYTES`] and more than [`MAX_LINKS`] links or joints are refused.

use crate::model::{Error, Result};

/// The largest URDF text read, from a file or a string (64 MB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The most attributes one element may have.
pub const MAX_ATTRIBUTES: usize = 64;

/// The most `<link>` elements a URDF may have, and the most `<joint>` plus `<loop_joint>`.
pub const MAX_LINKS: usize = 10_000;

/// Refuses text beyond [`MAX_FILE_BYTES`]; `what` names it ("URDF text", a file's path).
pub fn check_size(bytes: usize, what: &str) -> Result<()> {
    if bytes as u64 > MAX_FILE_BYTES {
        return Err(Error::Urdf(format!("{what} is larger than {} MB, the most maxdyn reads (MAX_FILE_BYTES)", MAX_FILE_BYTES >> 20)));
    }
    Ok(())
}

/// Refuses the `count`-th element of a kind (`tag`, "link" or "joint") beyond [`MAX_LINKS`].
pub fn check_count(count: usize, tag: &str) -> Result<()> {
    if count > MAX_LINKS {
        return Err(Error::Urdf(format!("more than {MAX_LINKS} <{tag}> elements: more than maxdyn loads from a URDF (MAX_LINKS)")));
    }
    Ok(())
}

/// Refuses an element with more than [`MAX_ATTRIBUTES`] attributes, naming it and its line.
/// One pass over the text: in a start tag, every `=` outside a quoted value starts an
/// attribute's value. Comments, CDATA, processing instructions and declarations are
/// skipped; text the parser will refuse anyway (an unclosed tag) ends the pass.
pub fn check_attributes(text: &str) -> Result<()> {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(lt) = find(b, i, b"<") {
        let rest = &b[lt..];
        let skip_to = |end: &[u8]| find(b, lt + 1, end).map(|e| e + end.len());
        let next = if rest.starts_with(b"<!--") {
            skip_to(b"-->")
        } else if rest.starts_with(b"<![CDATA[") {
            skip_to(b"]]>")
        } else if rest.starts_with(b"<?") {
            skip_to(b"?>")
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") {
            skip_to(b">")
        } else {
            start_tag(text, lt)?
        };
        match next {
            Some(n) => i = n,
            None => return Ok(()),
        }
    }
    Ok(())
}

/// Counts the attributes of the start tag at `lt`; the offset after it (None: unclosed).
fn start_tag(text: &str, lt: usize) -> Result<Option<usize>> {
    let b = text.as_bytes();
    let (mut count, mut quote) = (0, None);
    for (k, &c) in b.iter().enumerate().skip(lt + 1) {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'>') => return Ok(Some(k + 1)),
            (None, b'=') => {
                count += 1;
                if count > MAX_ATTRIBUTES {
                    return Err(too_many(text, lt));
                }
            }
            _ => {}
        }
    }
    Ok(None)
}

fn too_many(text: &str, lt: usize) -> Error {
    let line = 1 + text.as_bytes()[..lt].iter().filter(|&&c| c == b'\n').count();
    let name: String = text[lt + 1..].chars().take_while(|c| !c.is_whitespace() && !matches!(c, '/' | '>')).take(40).collect();
    Error::Urdf(format!("element <{name}> at line {line} has more than {MAX_ATTRIBUTES} attributes: more than maxdyn reads on one element (MAX_ATTRIBUTES)"))
}

/// The first offset ≥ `from` where `needle` starts.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(n: usize) -> String {
        let attrs: String = (0..n).map(|k| format!(" a{k}=\"{k}\"")).collect();
        format!("<robot name=\"r\">\n<!-- <x {attrs}/> -->\n<link name=\"l\"{attrs}/>\n</robot>")
    }

    #[test]
    fn elements_up_to_the_cap_pass_and_beyond_it_are_named() {
        assert!(check_attributes(&element(MAX_ATTRIBUTES - 1)).is_ok(), "the robot's name is the 64th");
        let e = check_attributes(&element(MAX_ATTRIBUTES)).unwrap_err().to_string();
        assert!(e.contains("element <link> at line 3 has more than 64 attributes"), "{e}");
    }

    #[test]
    fn quoted_values_comments_and_cdata_hold_no_attributes() {
        let eq = "=".repeat(1000);
        let text = format!("<robot a=\"{eq}\" b='{eq}>'><!-- {eq} --><![CDATA[<a {eq}>]]><?pi {eq}?></robot>");
        assert!(check_attributes(&text).is_ok());
        // an unclosed tag ends the pass: the parser reports it
        assert!(check_attributes("<robot a=\"1\"").is_ok());
    }
}
