//! URDF load time per MB of text made of attributes (issue 30 item 2): the XML parser
//! checks each attribute of an element against the element's earlier ones, so one element
//! with n attributes cost n²: 30 000 took 1.2 s, 100 000 (1.5 MB) 12.2 s, 300 000 (4.9 MB)
//! 193 s. Elements with more than `MAX_ATTRIBUTES` (64) are now refused by a linear pass
//! before the parser. For 1, 4 and 16 MB of text, two kinds of file:
//!
//! - `one element`: a single `<link>` holding every attribute (refused by the pass);
//! - `at the cap`: `<gazebo>` elements of 64 attributes each (read by the parser, the
//!   worst it is given: 64² / 2 checks per element), around a robot that loads.
//!
//! Prints the median over 5 loads (ms, and ms per MB: linear when it stays flat).
//! `-- --parser-alone` also times the XML parser alone on the 1 MB single element, the
//! path every load took before the cap (seconds).
//!
//! Measured (test profile, 2 shared cores): one element 0.003 ms at 1, 4 and 16 MB
//! (refused at its 65th attribute); at the cap 17.8, 22.5, 22.5 ms/MB at 1, 4, 16 MB
//! (loaded); the parser alone on the 1 MB single element: 7.2 s (4 MB would be ~16×).
//!
//! Run: cargo bench --bench urdf_attributes [-- --parser-alone]

use std::time::Instant;

use maxdyn::urdf::{Urdf, MAX_ATTRIBUTES};

const ROBOT: &str = r#"<robot name="r"><link name="w"/>
<link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
<joint name="j" type="revolute"><parent link="w"/><child link="a"/></joint>
"#;

/// ` a0="0" a1="1" …` for attributes `from..to`.
fn attributes(from: usize, to: usize) -> String {
    (from..to).map(|k| format!(" a{k}=\"{k}\"")).collect()
}

/// About `mb` MB of one element's attributes.
fn one_element(mb: usize) -> String {
    let mut attrs = String::new();
    let mut k = 0;
    while attrs.len() < mb << 20 {
        attrs += &attributes(k, k + 1000);
        k += 1000;
    }
    format!("{ROBOT}<link name=\"l\"{attrs}/>\n</robot>")
}

/// About `mb` MB of `<gazebo>` elements with `MAX_ATTRIBUTES` attributes each.
fn at_the_cap(mb: usize) -> String {
    let element = format!("<gazebo{}/>\n", attributes(0, MAX_ATTRIBUTES));
    let count = (mb << 20) / element.len();
    format!("{ROBOT}{}</robot>", element.repeat(count))
}

fn median_ms(text: &str) -> (f64, &'static str) {
    let mut times = Vec::new();
    let mut outcome = "";
    for _ in 0..5 {
        let t = Instant::now();
        outcome = if Urdf::from_str(text, false).is_ok() { "loaded" } else { "refused" };
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], outcome)
}

fn main() {
    println!("{:>12} | {:>6} | {:>10} | {:>8} | outcome", "file", "MB", "ms", "ms/MB");
    // the single element is refused at its 65th attribute: the pass stops there
    for (kind, make) in [("one element", one_element as fn(usize) -> String), ("at the cap", at_the_cap)] {
        for mb in [1, 4, 16] {
            let text = make(mb);
            let size = text.len() as f64 / (1 << 20) as f64;
            let (ms, outcome) = median_ms(&text);
            println!("{kind:>12} | {size:>6.2} | {ms:>10.3} | {:>8.3} | {outcome}", ms / size);
        }
    }
    if std::env::args().any(|a| a == "--parser-alone") {
        let text = one_element(1);
        let t = Instant::now();
        let parsed = roxmltree::Document::parse(&text).is_ok();
        println!("the XML parser alone on the 1 MB single element (the path before the cap): {:.1} s (parsed: {parsed})", t.elapsed().as_secs_f64());
    }
}
