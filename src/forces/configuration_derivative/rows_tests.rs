//! The rows' derivatives (`rows`) against central differences of the rows themselves
//! (`joint_directions`, `PointSpring::rows`) and of the minimal coordinates, for every
//! joint type at random configurations off the joints' constraints.

use super::rows::{self, PairDerivative};
use crate::forces::joint_directions::{gradient_rows, rate_rows_at};
use crate::forces::wrench_pair::WrenchPair;
use crate::joints::constraint::Pose;
use crate::joints::tangent::tests::{random_joint, Rng};
use crate::joints::tangent::Placement;
use crate::joints::JointType;
use crate::math::{from_rotation_vector, qmul, M6, V3, V6};
use crate::model::forces::PointSpring;

const H: f64 = 1e-6;

/// Placements (parent, child) with side `y`'s tangent `c` moved by `t`.
fn moved(p: &[Placement; 2], y: usize, c: usize, t: f64) -> [Placement; 2] {
    let mut out = *p;
    let mut pose = Pose { x: p[y].x, q: p[y].q };
    if c < 3 {
        pose.x[c] += t;
    } else {
        pose.q = qmul(&pose.q, &from_rotation_vector(&V3::ith(c - 3, t))).normalize();
    }
    out[y] = Placement::of(&pose);
    out
}

fn stacked(pair: &WrenchPair) -> [V6; 2] {
    let s = |jv: V3, jw: V3| V6::new(jv.x, jv.y, jv.z, jw.x, jw.y, jw.z);
    [pair.a.map_or(V6::zeros(), |r| s(r.jv, r.jw)), s(pair.b.jv, pair.b.jw)]
}

/// Largest |d − differences of `f`| relative to the largest derivative entry (at least 1).
fn error(d: &[[M6; 2]; 2], p: &[Placement; 2], sides: &[usize], f: impl Fn(&[Placement; 2]) -> [V6; 2]) -> f64 {
    let mut worst: f64 = 0.0;
    let mut scale: f64 = 1.0;
    for &y in sides {
        for c in 0..6 {
            let (fp, fm) = (f(&moved(p, y, c, H)), f(&moved(p, y, c, -H)));
            for &x in sides {
                let fd = (fp[x] - fm[x]) / (2.0 * H);
                worst = worst.max((fd - d[x][y].column(c)).amax());
                scale = scale.max(d[x][y].column(c).amax());
            }
        }
    }
    worst / scale
}

/// Random placements with moderate rotations (inside the rotation-vector chart).
fn placements(rng: &mut Rng) -> [Placement; 2] {
    [0, 1].map(|_| Placement::of(&Pose { x: rng.v3(1.0), q: from_rotation_vector(&rng.v3(0.5)) }))
}

#[test]
fn rate_and_gradient_rows_derivatives_match_central_differences() {
    let mut rng = Rng(31);
    let (mut worst_rate, mut worst_gradient): (f64, f64) = (0.0, 0.0);
    for _ in 0..20 {
        for kind in JointType::ALL {
            for parent in [Some(0), None] {
                let mut j = random_joint(kind, &mut rng, parent);
                j.q_offset = from_rotation_vector(&rng.v3(0.3));
                let mut p = placements(&mut rng);
                let sides: &[usize] = if parent.is_some() { &[0, 1] } else { &[1] };
                if parent.is_none() {
                    p[0] = Placement::WORLD;
                }
                for i in 0..j.dof() {
                    let d: PairDerivative = rows::rate(&j, &p[0], &p[1], i);
                    assert_eq!(stacked(&d.pair), stacked(&rate_rows_at(&j, &p[0], &p[1], i)));
                    worst_rate = worst_rate.max(error(&d.d, &p, sides, |q| stacked(&rate_rows_at(&j, &q[0], &q[1], i))));
                    let d = rows::gradient(&j, &p[0], &p[1], i);
                    let rows_at = |q: &[Placement; 2]| stacked(&gradient_rows(&j, &Pose { x: q[0].x, q: q[0].q }, &Pose { x: q[1].x, q: q[1].q }, i));
                    worst_gradient = worst_gradient.max(error(&d.d, &p, sides, rows_at));
                }
            }
        }
    }
    // h = 1e-6: 4.4e-10 measured for both (the differences' rounding, entries of order 1)
    assert!(worst_rate < 1e-9 && worst_gradient < 1e-9, "{worst_rate:e} {worst_gradient:e}");
}

/// The coordinates' gradients, the universal joint's off its constraint included.
#[test]
fn coordinate_gradients_match_central_differences() {
    let mut rng = Rng(37);
    let mut worst: f64 = 0.0;
    for _ in 0..20 {
        for kind in JointType::ALL {
            let mut j = random_joint(kind, &mut rng, Some(0));
            j.q_offset = from_rotation_vector(&rng.v3(0.3));
            let p = placements(&mut rng);
            let theta = |q: &[Placement; 2], i: usize| {
                let mut t = [0.0; 6];
                j.minimal_position(&Pose { x: q[0].x, q: q[0].q }, &Pose { x: q[1].x, q: q[1].q }, &mut t[..j.dof()]);
                t[i]
            };
            for i in 0..j.dof() {
                let g = rows::coordinate_gradient(&j, &p[0], &p[1], i, &rows::gradient(&j, &p[0], &p[1], i));
                for y in 0..2 {
                    for c in 0..6 {
                        let fd = (theta(&moved(&p, y, c, H), i) - theta(&moved(&p, y, c, -H), i)) / (2.0 * H);
                        worst = worst.max((fd - g[y][c]).abs());
                    }
                }
            }
        }
    }
    // h = 1e-6: 5.4e-10 measured (gradients of order 1)
    assert!(worst < 2e-9, "{worst:e}");
}

#[test]
fn point_spring_rows_derivatives_match_central_differences() {
    let mut rng = Rng(41);
    let mut worst: f64 = 0.0;
    for k in 0..40 {
        let a = if k % 2 == 0 { Some(0) } else { None };
        let sp = PointSpring { a, pa: rng.v3(0.5), b: 1, pb: rng.v3(0.5), stiffness: 1.0, damping: 1.0, rest_length: 0.3 };
        let mut p = placements(&mut rng);
        if a.is_none() {
            p[0] = Placement::WORLD;
        }
        let sides: &[usize] = if a.is_some() { &[0, 1] } else { &[1] };
        let (d, len) = rows::point_spring(&sp, |i| p[i]).unwrap();
        let (pair, len0) = sp.rows(|i| (p[i].x, p[i].q)).unwrap();
        assert_eq!((stacked(&d.pair), len), (stacked(&pair), len0));
        worst = worst.max(error(&d.d, &p, sides, |q| stacked(&sp.rows(|i| (q[i].x, q[i].q)).unwrap().0)));
    }
    // h = 1e-6: 2.4e-10 measured
    assert!(worst < 1e-9, "{worst:e}");
}
