//! The report's index.html: what ran where and when, the headline numbers, the figures.

use crate::Report;
use std::fmt::Write as _;
use std::process::Command;

fn command(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd).args(args).output().ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_else(|| "?".into())
}

fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).unwrap_or("?").trim().to_string();
    format!("{model}, {} cores", info.lines().filter(|l| l.starts_with("processor")).count())
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

pub fn write(r: &Report, mujoco: Option<&str>, seconds: f64) -> std::io::Result<()> {
    let mut h = String::new();
    let date = command("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    let commit = command("git", &["-C", &r.repo.to_string_lossy(), "rev-parse", "--short", "HEAD"]);
    writeln!(h, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>maxdyn report</title>").unwrap();
    writeln!(h, "<style>body{{font:15px system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}}img{{max-width:100%;border:1px solid #ddd}}li{{margin:.2em 0}}</style></head><body>").unwrap();
    writeln!(h, "<h1>maxdyn evaluation report{}</h1>", if r.quick { " (quick run)" } else { "" }).unwrap();
    writeln!(h, "<p>maxdyn {} (commit {commit}); MuJoCo {}; {}; {}; {date}; {seconds:.0} s.</p>", env!("CARGO_PKG_VERSION"), escape(mujoco.unwrap_or("not set up")), escape(&command("uname", &["-srm"])), escape(&cpu())).unwrap();
    writeln!(h, "<p>Times are CPU time of the step calls on a shared machine; each figure's data is in the CSV of the same name. Regenerate: <code>cargo run --release --example report</code>.</p>").unwrap();
    if let Some(v) = &r.viewer {
        writeln!(h, "<p><a href=\"{v}\">The quadruped in the viewer</a> (recording: quadruped.json).</p>").unwrap();
    }
    writeln!(h, "<h2>Numbers</h2><ul>").unwrap();
    for n in &r.notes {
        writeln!(h, "<li>{}</li>", escape(n)).unwrap();
    }
    writeln!(h, "</ul><h2>Figures</h2>").unwrap();
    for (file, title) in &r.figures {
        writeln!(h, "<h3>{}</h3><p><img src=\"{file}.png\" alt=\"{}\"><br><a href=\"{file}.csv\">{file}.csv</a></p>", escape(title), escape(title)).unwrap();
    }
    writeln!(h, "</body></html>").unwrap();
    std::fs::write(r.dir.join("index.html"), h)
}
