//! Line and point plots into PNG files (plotters, bitmap backend) and their CSV twins.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// Where DejaVu Sans lives on Debian (fonts-dejavu-core, tests/setup.sh installs it).
const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/// Registers the plots' font once per process.
pub fn register_font() -> Result<(), String> {
    let bytes = std::fs::read(FONT).map_err(|e| format!("{FONT}: {e} (install fonts-dejavu-core)"))?;
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).map_err(|_| "bad font file".to_string())
}

pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Markers instead of a line.
    pub markers: bool,
}

impl Series {
    pub fn line(name: &str, points: Vec<(f64, f64)>) -> Series {
        Series { name: name.into(), points, markers: false }
    }
    pub fn points(name: &str, points: Vec<(f64, f64)>) -> Series {
        Series { name: name.into(), points, markers: true }
    }
}

pub struct Figure<'a> {
    pub file: &'a str,
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<Series>,
    /// Horizontal reference lines (y, label).
    pub marks: Vec<(f64, String)>,
    /// Text beside points.
    pub labels: Vec<((f64, f64), String)>,
    pub legend: SeriesLabelPosition,
}

const COLORS: [RGBColor; 6] = [RGBColor(0xd0, 0x5a, 0x1c), RGBColor(0x1f, 0x5f, 0xa8), RGBColor(0x2a, 0x9a, 0x4a), RGBColor(0x8a, 0x3f, 0xa0), RGBColor(0x66, 0x66, 0x66), RGBColor(0xc0, 0x9a, 0x00)];

fn range(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (lo, hi) = values.filter(|v| v.is_finite() && (!log || *v > 0.0)).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (if log { 0.1 } else { 0.0 }, 1.0);
    }
    if log {
        (lo / 2.0, hi * 2.0)
    } else {
        let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 * hi.abs().max(1.0) };
        (lo - pad, hi + pad)
    }
}

/// Writes `dir/<file>.png` and `dir/<file>.csv` (one column pair per series).
pub fn figure(dir: &Path, f: &Figure) -> Result<(), String> {
    write_csv(dir, f)?;
    let xs = f.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = f.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).chain(f.marks.iter().map(|m| m.0));
    let (x0, x1) = range(xs, f.log_x);
    let (y0, y1) = range(ys, f.log_y);
    let path = dir.join(format!("{}.png", f.file));
    match (f.log_x, f.log_y) {
        (false, false) => draw(&path, f, x0..x1, y0..y1),
        (true, false) => draw(&path, f, (x0..x1).log_scale(), y0..y1),
        (false, true) => draw(&path, f, x0..x1, (y0..y1).log_scale()),
        (true, true) => draw(&path, f, (x0..x1).log_scale(), (y0..y1).log_scale()),
    }
    .map_err(|e| format!("{}: {e}", path.display()))
}

fn draw<X, Y>(path: &Path, f: &Figure, x: X, y: Y) -> Result<(), Box<dyn std::error::Error>>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let root = BitMapBackend::new(path, (960, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(f.title, ("sans-serif", 24))
        .margin(20)
        .x_label_area_size(55)
        .y_label_area_size(95)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(f.x_label)
        .y_desc(f.y_label)
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 18))
        .x_labels(8)
        .y_labels(10)
        .x_label_formatter(&|v| number(*v))
        .y_label_formatter(&|v| number(*v))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let (xa, xb) = (chart.x_range().start, chart.x_range().end);
    for (i, s) in f.series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> = s.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite()).collect();
        let legend = if s.markers {
            chart.draw_series(pts.iter().map(|&p| Circle::new(p, 5, color.filled())))?
        } else {
            chart.draw_series(LineSeries::new(pts, color.stroke_width(2)))?
        };
        legend.label(s.name.as_str()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(3)));
    }
    for (k, (level, label)) in f.marks.iter().enumerate() {
        let color = COLORS[(f.series.len() + k) % COLORS.len()];
        chart
            .draw_series(DashedLineSeries::new(vec![(xa, *level), (xb, *level)], 8, 6, color.stroke_width(2)))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
    }
    chart.draw_series(f.labels.iter().map(|(p, text)| Text::new(format!("  {text}"), *p, ("sans-serif", 14).into_font())))?;
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).label_font(("sans-serif", 16)).position(f.legend.clone()).draw()?;
    root.present()?;
    Ok(())
}

/// Tick labels: plain for moderate magnitudes, 1e-5 style otherwise.
fn number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if (1e-3..1e5).contains(&a) {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.0e}")
    }
}

fn write_csv(dir: &Path, f: &Figure) -> Result<(), String> {
    let mut out = String::new();
    let rows = f.series.iter().map(|s| s.points.len()).max().unwrap_or(0);
    let header: Vec<String> = f.series.iter().flat_map(|s| [format!("{} x: {}", s.name, f.x_label), format!("{} y: {}", s.name, f.y_label)]).collect();
    writeln!(out, "{}", header.iter().map(|h| format!("\"{}\"", h.replace('"', "'"))).collect::<Vec<_>>().join(",")).unwrap();
    for r in 0..rows {
        let cells: Vec<String> = f.series.iter().flat_map(|s| match s.points.get(r) {
            Some(p) => [format!("{:e}", p.0), format!("{:e}", p.1)],
            None => [String::new(), String::new()],
        }).collect();
        writeln!(out, "{}", cells.join(",")).unwrap();
    }
    std::fs::write(dir.join(format!("{}.csv", f.file)), out).map_err(|e| e.to_string())
}
