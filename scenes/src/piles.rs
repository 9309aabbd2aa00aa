//! Piles (issue 24): many mutually touching frictional bodies, whose contact forces are
//! statically indeterminate.

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// A turn by `a` (rad) about world axis `axis`.
fn turn(axis: usize, a: f64) -> [f64; 4] {
    let mut q = [(a / 2.0).cos(), 0.0, 0.0, 0.0];
    q[1 + axis] = (a / 2.0).sin();
    q
}

/// Twelve spheres (r 0.1 m, 0.1 kg) in a 2 × 2 × 3 grid of `spacing` (m), each layer
/// shifted by `shift` and lifted by `lift` (m) so the columns collapse into a pile on a
/// floor; every shape with friction `mu`; dt 0.01.
pub fn twelve_spheres(mu: f64, spacing: f64, shift: f64, lift: f64) -> Sim {
    let r = 0.1;
    let mut b = Builder::new();
    let floor = b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    b.set_shape_friction(floor, mu).unwrap();
    for i in 0..12 {
        let body = b.add_body(0.1, Inertia::sphere(0.1, r).unwrap()).unwrap();
        let (gx, gy, layer) = ((i % 2) as f64, ((i / 2) % 2) as f64, (i / 4) as f64);
        let sh = shift * layer;
        b.set_body_pose(body, [spacing * gx + sh, spacing * gy - 0.5 * sh, r + lift + (2.0 * r + lift) * layer], ID).unwrap();
        let s = b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], ID, &[r]).unwrap();
        b.set_shape_friction(s, mu).unwrap();
    }
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

/// What a pour drops into its box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pour {
    Spheres,
    Boxes,
    /// Spheres, boxes and capsules in turn.
    Mixed,
}

/// 100 bodies (0.1 kg, 0.1 m across) in 7 layers of a 4 × 4 grid, each layer shifted and
/// each body turned a little, dropped into a box of four walls (0.7 m square) on a floor;
/// every shape with friction `mu`; dt 0.01.
pub fn pour(kind: Pour, mu: f64) -> Sim {
    let (r, half) = (0.05, 0.35);
    let mut b = Builder::new();
    let quarter = std::f64::consts::FRAC_PI_2;
    let walls = [([0.0; 3], ID), ([half, 0.0, 0.0], turn(1, -quarter)), ([-half, 0.0, 0.0], turn(1, quarter)), ([0.0, half, 0.0], turn(0, quarter)), ([0.0, -half, 0.0], turn(0, -quarter))];
    for (at, q) in walls {
        let s = b.add_shape(Parent::World, ShapeKind::Plane, at, q, &[]).unwrap();
        b.set_shape_friction(s, mu).unwrap();
    }
    for i in 0..100 {
        let which = match kind {
            Pour::Spheres => 0,
            Pour::Boxes => 1,
            Pour::Mixed => i % 3,
        };
        let (inertia, shape, size): (Inertia, ShapeKind, Vec<f64>) = match which {
            0 => (Inertia::sphere(0.1, r).unwrap(), ShapeKind::Sphere, vec![r]),
            1 => (Inertia::cuboid(0.1, 2.0 * r, 2.0 * r, 2.0 * r).unwrap(), ShapeKind::Box, vec![r; 3]),
            _ => (Inertia::capsule(0.1, 0.6 * r, 0.8 * r).unwrap(), ShapeKind::Capsule, vec![0.6 * r, 0.4 * r]),
        };
        let body = b.add_body(0.1, inertia).unwrap();
        let (gx, gy, layer) = ((i % 4) as f64, ((i / 4) % 4) as f64, (i / 16) as f64);
        let shift = 0.012 * (layer - 3.0);
        b.set_body_pose(body, [-0.24 + 0.16 * gx + shift, -0.24 + 0.16 * gy - 0.7 * shift, 0.1 + 0.16 * layer], turn(i % 3, 0.3 * (i as f64 * 0.7).sin())).unwrap();
        let s = b.add_shape(body.into(), shape, [0.0; 3], ID, &size).unwrap();
        b.set_shape_friction(s, mu).unwrap();
    }
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}
