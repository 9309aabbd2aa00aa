//! `<collision>` elements → collision shapes ([`UrdfOptions::collision`]), and the ground
//! half-space ([`UrdfOptions::ground_plane`]).
//!
//! Geometry: `<sphere radius>`, `<box size>` (full sizes; shapes take half extents),
//! `<cylinder radius length>` and the capsule extension `<capsule radius length>` (also
//! Drake's `<drake:capsule>`; `length` is the distance between the two hemispheres'
//! centres, along z, as for the cylinder). A `<mesh filename scale>` is its convex hull
//! (`mesh`: search roots, formats, one hull per file and scale), or its triangles for a
//! link of the world with [`UrdfOptions::world_meshes_as_trimesh`]; a mesh that cannot be
//! found, read or hulled fails the load, naming the link and the file. A shape the model
//! refuses (a box of size 0) is skipped with a warning. Each shape sits on the body that
//! carries its link (its own or the one it was merged into), at the link frame composed
//! with the collision's `<origin>`, expressed in the body frame (centre of mass); a link
//! of the world gives a static shape. A link left out of the model (a massless subtree on
//! moving joints: nothing moves them) has its shapes ride rigidly on its nearest ancestor
//! that has a frame, at the joint origins composed down to it at zero coordinates, with a
//! warning listing them. PyBullet's `<contact><lateral_friction value>` in a `<link>` sets its
//! shapes' friction.
//!
//! Filters: the robot's shapes are in group [`ROBOT_GROUP`]; with
//! [`UrdfOptions::self_collision`] they collide with everything, without it with
//! everything but the robot (only world–body pairs then: the ground, and shapes the user
//! adds with the default group). With self-collision, shapes on the world (a fixed base)
//! and shapes of the bodies jointed to the world are excluded pairwise, as the bodies of
//! one joint are.

use std::path::Path;
use std::sync::Arc;

use roxmltree::Node;

use super::frames::{compose, pose};
use super::parse::{child, number, origin_child, required, vec3, Description};
use super::mesh::Meshes;
use super::{refused_by_builder, LinkFrame, Urdf, UrdfOptions};
use crate::joints::constraint::Pose;
use crate::model::shape::Geometry;
use crate::model::{Error, Parent, Result, ShapeId, ShapeKind};

/// Collision group bit of the shapes loaded from a URDF (the ground and default shapes
/// are group 1).
pub const ROBOT_GROUP: u32 = 2;

/// One `<collision>` of a link, in the link frame.
#[derive(Debug, Clone)]
struct LinkShape {
    link: String,
    /// `link `name` <collision> k`, for messages.
    what: String,
    origin: Pose,
    geometry: Source,
}

/// A collision's geometry as the file gives it.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    Primitive(ShapeKind, Vec<f64>),
    /// `<mesh filename scale>`.
    Mesh(String, [f64; 3]),
}

/// What the file's `<collision>` elements hold.
#[derive(Debug, Default)]
struct Collisions {
    shapes: Vec<LinkShape>,
    /// Per link, PyBullet's `<contact><lateral_friction value>`.
    friction: Vec<(String, f64)>,
}

fn err(msg: String) -> Error {
    Error::Urdf(msg)
}

/// The collisions of every `<link>` of the document.
fn read(xml: &str) -> Result<Collisions> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| err(format!("malformed XML: {e}")))?;
    let mut c = Collisions::default();
    for link in doc.root_element().children().filter(|n| n.is_element() && n.tag_name().name() == "link") {
        let name = required(link, "name", "<link>")?;
        for (k, col) in link.children().filter(|n| n.is_element() && n.tag_name().name() == "collision").enumerate() {
            let what = format!("link `{name}` <collision> {k}");
            let origin = origin_child(col, &what)?;
            let Some(g) = child(col, "geometry").and_then(|g| g.children().find(Node::is_element)) else {
                return Err(err(format!("{what}: no <geometry>")));
            };
            let w = format!("{what} <{}>", g.tag_name().name());
            let attr = |a: &str| number(required(g, a, &w)?, &format!("{w} `{a}`"));
            let geometry = match g.tag_name().name() {
                "sphere" => Source::Primitive(ShapeKind::Sphere, vec![attr("radius")?]),
                "box" => {
                    let size = vec3(required(g, "size", &w)?, &format!("{w} `size`"))?;
                    Source::Primitive(ShapeKind::Box, (0.5 * size).as_slice().to_vec())
                }
                "cylinder" => Source::Primitive(ShapeKind::Cylinder, vec![attr("radius")?, 0.5 * attr("length")?]),
                "capsule" => Source::Primitive(ShapeKind::Capsule, vec![attr("radius")?, 0.5 * attr("length")?]),
                "mesh" => {
                    let filename = required(g, "filename", &w)?.to_string();
                    let scale = match g.attribute("scale") {
                        Some(s) => vec3(s, &format!("{w} `scale`"))?.into(),
                        None => [1.0; 3],
                    };
                    Source::Mesh(filename, scale)
                }
                other => return Err(err(format!("{what}: unknown geometry <{other}>"))),
            };
            c.shapes.push(LinkShape { link: name.to_string(), what: w, origin, geometry });
        }
        if let Some(f) = child(link, "contact").and_then(|n| child(n, "lateral_friction")) {
            let w = format!("link `{name}` <contact> <lateral_friction>");
            c.friction.push((name.to_string(), number(required(f, "value", &w)?, &format!("{w} `value`"))?));
        }
    }
    Ok(c)
}

/// The frame that carries the shapes of `link`, a link without a frame of its own (left
/// out with a massless subtree): its nearest ancestor in the file `d` that has one,
/// composed with the joint origins from there down to `link` (zero joint coordinates),
/// and that ancestor's name. None if no ancestor has a frame.
fn carrying_frame<'a>(u: &Urdf, d: &'a Description, link: &'a str) -> Option<(LinkFrame, &'a str)> {
    let mut below = Pose::WORLD;
    let mut at = link;
    // a tree: at most one joint per link on the way up (the file was checked for cycles)
    for _ in 0..d.joints.len() {
        let j = d.joints.iter().find(|j| j.child == at)?;
        below = compose(&j.origin, &below);
        at = &j.parent;
        if let Some(f) = u.frame(at) {
            let p = compose(&pose(&f), &below);
            return Some((LinkFrame { body: f.body, x: p.x.into(), q: p.q.into() }, at));
        }
    }
    None
}

/// Adds the ground and the collision shapes `options` ask for to the loaded `u` (its
/// frames are final; `d` is the file's description, every link), with their warnings.
pub fn add_shapes(u: &mut Urdf, d: &Description, xml: &str, options: &UrdfOptions, dir: Option<&Path>) -> Result<()> {
    if options.ground_plane {
        u.builder.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], [1.0, 0.0, 0.0, 0.0], &[])?;
    }
    if !options.collision {
        return Ok(());
    }
    let c = read(xml)?;
    let mut meshes = Meshes::new(dir, &options.mesh_roots);
    let mask = if options.self_collision { u32::MAX } else { !ROBOT_GROUP };
    let (mut on_world, mut on_bodies): (Vec<ShapeId>, Vec<ShapeId>) = (Vec::new(), Vec::new());
    let (mut left_out, mut carried, mut refused) = (Vec::new(), Vec::new(), Vec::new());
    for s in &c.shapes {
        let frame = match u.frame(&s.link) {
            Some(f) => f,
            None => match carrying_frame(u, d, &s.link) {
                Some((f, on)) => {
                    carried.push(format!("`{}` on `{on}`", s.link));
                    f
                }
                None => {
                    left_out.push(format!("`{}`", s.link));
                    continue;
                }
            },
        };
        let p = compose(&pose(&frame), &s.origin);
        let on = frame.body.map_or(Parent::World, Parent::Body);
        let added = match &s.geometry {
            Source::Primitive(kind, params) => u.builder.add_shape(on, *kind, p.x.into(), p.q.into(), params),
            Source::Mesh(filename, scale) if options.world_meshes_as_trimesh && frame.body.is_none() => {
                let mesh = meshes.trimesh(filename, *scale).map_err(|m| err(format!("{}: {m}", s.what)))?;
                u.builder.add_geometry(on, p.x.into(), p.q.into(), Geometry::TriMesh(mesh))
            }
            Source::Mesh(filename, scale) => {
                let hull = meshes.hull(filename, *scale).map_err(|m| err(format!("{}: {m}", s.what)))?;
                u.builder.add_geometry(on, p.x.into(), p.q.into(), Geometry::Hull(Arc::clone(&hull)))
            }
        };
        let id = match added {
            Ok(id) => id,
            Err(Error::InvalidShape(_, m)) => {
                refused.push(format!("link `{}`: {m}", s.link));
                continue;
            }
            Err(e) => return Err(refused_by_builder(&format!("link `{}` <collision>", s.link), e)),
        };
        u.builder.set_collision_filter(id, ROBOT_GROUP, mask)?;
        u.link_shapes.entry(s.link.clone()).or_default().push(id);
        if let Some(&(_, mu)) = c.friction.iter().find(|(l, _)| *l == s.link) {
            u.builder.set_shape_friction(id, mu).map_err(|e| refused_by_builder(&format!("link `{}` <lateral_friction>", s.link), e))?;
        }
        if frame.body.is_some() { on_bodies.push(id) } else { on_world.push(id) }
    }
    if options.self_collision {
        exclude_world_neighbours(u, &on_world, &on_bodies)?;
    }
    if !refused.is_empty() {
        u.warnings.push(format!("collision shape(s) skipped: {}", refused.join("; ")));
    }
    if !carried.is_empty() {
        carried.dedup();
        u.warnings.push(format!("collisions of links not simulated (massless, on joints nothing moves) ride rigidly on their nearest simulated link at zero joint coordinates: {}", carried.join(", ")));
    }
    if !left_out.is_empty() {
        left_out.dedup();
        u.warnings.push(format!("collisions of links left out of the model skipped: {}", left_out.join(", ")));
    }
    Ok(())
}

/// Shapes on the world (a fixed base) never meet the shapes of the bodies jointed to it.
fn exclude_world_neighbours(u: &mut Urdf, on_world: &[ShapeId], on_bodies: &[ShapeId]) -> Result<()> {
    let b = &mut u.builder;
    let jointed_to_world: Vec<usize> = (0..b.joint_count()).filter_map(|j| b.joint(j).ok()).filter(|j| j.parent.is_none()).map(|j| j.child).collect();
    for &w in on_world {
        for &s in on_bodies {
            if b.shape(s)?.body.is_some_and(|body| jointed_to_world.contains(&body)) {
                b.exclude_shape_pair(w, s)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_elements_become_shape_parameters() {
        let xml = r#"<robot name="r">
          <link name="a">
            <collision><origin xyz="1 2 3"/><geometry><box size="0.2 0.4 0.6"/></geometry></collision>
            <collision><geometry><cylinder radius="0.1" length="0.5"/></geometry></collision>
            <collision><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>
            <collision><geometry><mesh filename="a.stl" scale="1 -1 0.001"/></geometry></collision>
            <contact><lateral_friction value="0.6"/></contact>
          </link>
          <link name="b"><collision><geometry><sphere radius="0.25"/></geometry></collision></link>
        </robot>"#;
        let c = read(xml).unwrap();
        let got: Vec<(&str, Source)> = c.shapes.iter().map(|s| (s.link.as_str(), s.geometry.clone())).collect();
        assert_eq!(
            got,
            vec![
                ("a", Source::Primitive(ShapeKind::Box, vec![0.1, 0.2, 0.3])),
                ("a", Source::Primitive(ShapeKind::Cylinder, vec![0.1, 0.25])),
                ("a", Source::Primitive(ShapeKind::Capsule, vec![0.05, 0.15])),
                ("a", Source::Mesh("a.stl".into(), [1.0, -1.0, 0.001])),
                ("b", Source::Primitive(ShapeKind::Sphere, vec![0.25])),
            ]
        );
        assert_eq!(c.shapes[0].origin.x, crate::math::V3::new(1.0, 2.0, 3.0));
        assert_eq!(c.shapes[3].what, "link `a` <collision> 3 <mesh>");
        assert_eq!(c.friction, vec![("a".to_string(), 0.6)]);
    }

    #[test]
    fn malformed_collisions_are_errors_that_name_the_element() {
        let bad = |geometry: &str| {
            let xml = format!(r#"<robot name="r"><link name="a"><collision>{geometry}</collision></link></robot>"#);
            read(&xml).unwrap_err().to_string()
        };
        assert!(bad("<geometry><sphere/></geometry>").contains("link `a` <collision> 0 <sphere>: missing attribute `radius`"));
        assert!(bad("<geometry><box size=\"1 2\"/></geometry>").contains("must have 3 numbers"));
        assert!(bad("<geometry><cone radius=\"1\"/></geometry>").contains("unknown geometry <cone>"));
        assert!(bad("").contains("no <geometry>"));
        assert!(bad("<geometry><mesh/></geometry>").contains("link `a` <collision> 0 <mesh>: missing attribute `filename`"));
        assert!(bad("<geometry><mesh filename=\"a.stl\" scale=\"1 1\"/></geometry>").contains("must have 3 numbers"));
        assert!(bad("<geometry><sphere radius=\"nan\"/></geometry>").contains("not finite"));
    }
}
