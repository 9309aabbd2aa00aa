//! Narrow-phase cost per pair type (issue 25): the median time of one `narrow_phase` call
//! for each pair parry's GJK serves (hull against every kind, box–cylinder,
//! cylinder–cylinder) and, beside them, the closed-form pairs they compare with, at a
//! resting pose (the upper shape 1 µm into the lower's top face, turned 0.2 rad about z)
//! and at a pose apart (5 mm above, tilted 0.3 rad). Hulls: a box's 8 corners, a 32-gon
//! prism (64 vertices), and a 1024-point prism (a large mesh hull).
//!
//! Run: cargo bench --bench narrow_phase

use std::sync::Arc;
use std::time::Instant;

use maxdyn::contact::geometry::{narrow_phase, ContactPoint, MAX_POINTS_PER_PAIR};
use maxdyn::math::{from_rotation_vector, V3};
use maxdyn::model::hull::Hull;
use maxdyn::model::shape::{Geometry, Shape};

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

fn prism(k: usize, r: f64, h: f64) -> Geometry {
    let mut p = Vec::new();
    for i in 0..k {
        let a = 2.0 * std::f64::consts::PI * i as f64 / k as f64;
        p.push(V3::new(r * a.cos(), r * a.sin(), -h));
        p.push(V3::new(r * a.cos(), r * a.sin(), h));
    }
    Geometry::Hull(Arc::new(Hull::new(&p).expect("prism")))
}

fn box_hull(e: f64) -> Geometry {
    let p: Vec<V3> = (0..8).map(|i| V3::new(if i & 1 == 0 { -e } else { e }, if i & 2 == 0 { -e } else { e }, if i & 4 == 0 { -e } else { e })).collect();
    Geometry::Hull(Arc::new(Hull::new(&p).expect("box")))
}

/// A shape of `g` on `body` at its origin; every shape here has half height 0.1.
fn on(body: Option<usize>, g: &Geometry) -> Shape {
    Shape::with_geometry(body, [0.0; 3], ID, g.clone()).expect("shape")
}

fn main() {
    let kinds: Vec<(&str, Geometry)> = vec![
        ("sphere", Geometry::Sphere { radius: 0.1 }),
        ("capsule", Geometry::Capsule { radius: 0.1, half_length: 0.0 }),
        ("box", Geometry::Box { half_extents: V3::new(0.1, 0.1, 0.1) }),
        ("cylinder", Geometry::Cylinder { radius: 0.1, half_length: 0.1 }),
        ("hull (box, 8)", box_hull(0.1)),
        ("hull (32-gon, 64)", prism(32, 0.1, 0.1)),
        ("hull (512-gon, 1024)", prism(512, 0.1, 0.1)),
    ];
    let lower: Vec<(&str, Geometry)> = vec![
        ("plane", Geometry::HalfSpace),
        ("box", Geometry::Box { half_extents: V3::new(0.5, 0.5, 0.1) }),
        ("cylinder", Geometry::Cylinder { radius: 0.5, half_length: 0.1 }),
        ("hull (box, 8)", box_hull(0.1)),
        ("hull (32-gon, 64)", prism(32, 0.1, 0.1)),
    ];
    println!("{:>22} on {:<18} | {:>11} {:>6} | {:>11} {:>6}", "upper", "lower (world)", "resting µs", "points", "apart µs", "points");
    for (ln, lg) in &lower {
        // the lower shape's top at z = 0
        let lower_shape = match lg {
            Geometry::HalfSpace => Shape::Plane { normal: V3::z(), offset: 0.0 },
            g => Shape::with_geometry(None, [0.0, 0.0, -0.1], ID, g.clone()).expect("lower"),
        };
        for (un, ug) in &kinds {
            if !maxdyn::model::shape::has_narrow_phase(ug.kind(), lg.kind()) {
                continue;
            }
            let upper = on(Some(0), ug);
            let mut row = Vec::new();
            for (z, tilt) in [(0.1 - 1e-6, 0.0), (0.1 + 5e-3 + 0.1 * 0.3f64.sin(), 0.3)] {
                let x = [V3::new(0.0, 0.0, z)];
                let q = [maxdyn::math::qmul(&from_rotation_vector(&V3::new(tilt, 0.0, 0.0)), &from_rotation_vector(&V3::new(0.0, 0.0, 0.2)))];
                let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
                let mut count = 0;
                let reps = 2000;
                let mut times = Vec::with_capacity(21);
                for _ in 0..21 {
                    let t = Instant::now();
                    for _ in 0..reps {
                        count = narrow_phase(std::hint::black_box(&upper), &lower_shape, &x, &q, 0.05, &mut out);
                    }
                    times.push(t.elapsed().as_secs_f64() / reps as f64 * 1e6);
                }
                times.sort_by(f64::total_cmp);
                row.push((times[10], count));
            }
            println!("{:>22} on {:<18} | {:>11.3} {:>6} | {:>11.3} {:>6}", un, ln, row[0].0, row[0].1, row[1].0, row[1].1);
        }
    }
}
