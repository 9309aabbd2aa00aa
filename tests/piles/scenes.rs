//! The pile scenes, built once for the tests and the benchmark.

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

pub const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// Twelve spheres (r 0.1 m, 0.1 kg) in a 2 × 2 × 3 grid, each layer shifted a little so
/// the columns collapse into a pile on a floor; every shape with friction `mu`.
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
