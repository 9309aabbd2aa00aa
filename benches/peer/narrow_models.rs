//! MuJoCo models of one shape pair for the narrow-phase bench: the lower shape fixed in
//! the world, the upper on a free body at the bench's pose, both with the contact margin
//! the bench gives maxdyn (MuJoCo's contacts within a pair's margin, as maxdyn's within
//! `max_gap`). A hull becomes a mesh of its vertices (MuJoCo hulls a mesh for collision).

use maxdyn::math::{V3, V4};
use maxdyn::model::shape::Geometry;
use std::fmt::Write;

/// One geom's type and size attributes, with its mesh asset when it is a hull.
fn geom(name: &str, g: &Geometry, margin: f64, asset: &mut String) -> String {
    let attributes = match g {
        Geometry::HalfSpace => "type=\"plane\" size=\"0 0 1\"".to_string(),
        Geometry::Sphere { radius } => format!("type=\"sphere\" size=\"{radius}\""),
        Geometry::Capsule { radius, half_length } => format!("type=\"capsule\" size=\"{radius} {half_length}\""),
        Geometry::Box { half_extents: e } => format!("type=\"box\" size=\"{} {} {}\"", e.x, e.y, e.z),
        Geometry::Cylinder { radius, half_length } => format!("type=\"cylinder\" size=\"{radius} {half_length}\""),
        Geometry::Hull(h) => {
            let mut vertex = String::new();
            for p in &h.points {
                write!(vertex, "{:e} {:e} {:e} ", p.x, p.y, p.z).expect("a String takes writes");
            }
            writeln!(asset, "    <mesh name=\"{name}\" vertex=\"{}\"/>", vertex.trim_end()).expect("a String takes writes");
            format!("type=\"mesh\" mesh=\"{name}\"")
        }
        Geometry::HeightField(_) | Geometry::TriMesh(_) => unreachable!("the narrow-phase bench has no terrain"),
    };
    format!("{attributes} margin=\"{margin}\"")
}

/// MJCF of `upper` on a free body at (`x`, `q` as w x y z) above `lower`, fixed in the
/// world at `lower_x` (a plane at the origin).
pub fn pair_model(upper: &Geometry, x: &V3, q: &V4, lower: &Geometry, lower_x: &V3, margin: f64) -> String {
    let mut asset = String::new();
    let lower_geom = geom("lower", lower, margin, &mut asset);
    let upper_geom = geom("upper", upper, margin, &mut asset);
    format!(
        "<mujoco model=\"pair\">\n  <asset>\n{asset}  </asset>\n  <worldbody>\n    <geom pos=\"{} {} {}\" {lower_geom}/>\n    <body pos=\"{} {} {}\" quat=\"{} {} {} {}\">\n      <freejoint/>\n      <geom {upper_geom}/>\n    </body>\n  </worldbody>\n</mujoco>\n",
        lower_x.x, lower_x.y, lower_x.z, x.x, x.y, x.z, q[0], q[1], q[2], q[3]
    )
}
