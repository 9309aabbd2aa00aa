//! Trajectory recording: a model's drawable shapes once, then frames of time, every
//! body's pose and the contact forces, written as JSON to a file for the viewer
//! (`viewer/`). The format is documented in docs/RECORDING.md.
//!
//! Recording happens between steps and may allocate; `Sim::step` is untouched.
//!
//! ```no_run
//! # fn run(mut sim: maxdyn::Sim) -> maxdyn::model::Result<()> {
//! let mut rec = maxdyn::record::Recorder::create("run.json", &sim)?;
//! for _ in 0..1000 {
//!     sim.step()?;
//!     rec.add_frame(&sim)?;
//! }
//! rec.finish()
//! # }
//! ```

mod json;
pub mod shapes;

pub use shapes::{drawn_shapes, DrawnShape, Role};

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use crate::contact::geometry::{contact_points, ContactPoint, MAX_POINTS_PER_PAIR};
use crate::math::{rotation, V3, V4};
use crate::model::shape::Geometry;
use crate::model::{Error, Model, Result};
use crate::Sim;

/// Format name and version written in every recording's header.
pub const FORMAT: &str = "maxdyn-recording";
pub const VERSION: u32 = 1;

/// A recording being written (see the module doc). Frames go straight to the file;
/// [`Recorder::finish`] closes the JSON (dropping the recorder does too, ignoring errors).
/// After a failed write the file holds a partial frame: every later call returns that
/// write's error and writes nothing more.
pub struct Recorder {
    out: Option<BufWriter<File>>,
    model: Arc<Model>,
    frames: usize,
    x: Vec<V3>,
    q: Vec<V4>,
    /// The first failed write's error, repeated by every later call.
    failed: Option<String>,
}

/// A failed write of the recording, naming the C argument that holds it (`path` when
/// opening, `recorder` afterwards).
fn io_error(arg: &'static str, e: &std::io::Error) -> Error {
    Error::InvalidArgument(arg, format!("writing the recording failed: {e}"))
}

impl Recorder {
    /// Creates (or truncates) the file at `path` and writes the header of `sim`'s model.
    pub fn create(path: impl AsRef<Path>, sim: &Sim) -> Result<Recorder> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| Error::InvalidArgument("path", format!("cannot create {}: {e}", path.display())))?;
        let model = sim.model().clone();
        let n = model.body_count();
        let mut rec = Recorder { out: Some(BufWriter::new(file)), model, frames: 0, x: vec![V3::zeros(); n], q: vec![V4::zeros(); n], failed: None };
        rec.write_header(sim.dt()).map_err(|e| io_error("path", &e))?;
        Ok(rec)
    }

    /// Appends `sim`'s current time, body poses and the last step's contact forces.
    /// `sim` must simulate the model the recording was created with.
    pub fn add_frame(&mut self, sim: &Sim) -> Result<()> {
        self.check_written()?;
        if !Arc::ptr_eq(sim.model(), &self.model) {
            return Err(Error::InvalidArgument("sim", "it simulates another model than the one being recorded".into()));
        }
        for b in 0..self.model.body_count() {
            let s = sim.body_state(b)?;
            self.x[b] = V3::new(s[0], s[1], s[2]);
            self.q[b] = V4::new(s[3], s[4], s[5], s[6]);
        }
        if let Err(e) = self.write_frame(sim) {
            self.failed = Some(e.to_string());
            return Err(io_error("recorder", &e));
        }
        self.frames += 1;
        Ok(())
    }

    /// The error of an earlier failed write, if any (the file then ends in a partial frame).
    fn check_written(&self) -> Result<()> {
        match &self.failed {
            Some(e) => Err(Error::InvalidArgument("recorder", format!("writing the recording failed earlier ({e}): the file is incomplete; close it"))),
            None => Ok(()),
        }
    }

    /// Frames written so far.
    pub fn frame_count(&self) -> usize {
        self.frames
    }

    /// Closes the JSON and flushes the file; after a failed write it closes the file and
    /// returns that write's error.
    pub fn finish(mut self) -> Result<()> {
        self.check_written()?;
        self.close().map_err(|e| io_error("recorder", &e))
    }

    fn close(&mut self) -> std::io::Result<()> {
        match self.out.take() {
            // a partial frame cannot be closed into valid JSON: leave the file as it is
            Some(_) if self.failed.is_some() => Ok(()),
            Some(mut w) => {
                w.write_all(b"\n]}\n")?;
                w.flush()
            }
            None => Ok(()),
        }
    }

    fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("the recording is open until finish")
    }

    fn write_header(&mut self, dt: f64) -> std::io::Result<()> {
        let model = self.model.clone();
        let w = self.writer();
        write!(w, "{{\"format\":\"{FORMAT}\",\"version\":{VERSION},\"dt\":")?;
        json::number(w, dt)?;
        w.write_all(b",\"gravity\":")?;
        json::numbers(w, model.gravity.as_slice())?;
        w.write_all(b",\n\"bodies\":[")?;
        for (i, b) in model.bodies.iter().enumerate() {
            w.write_all(if i > 0 { b",\n" } else { b"\n" })?;
            w.write_all(b"{\"name\":")?;
            json::string(w, &b.name)?;
            w.write_all(b",\"mass\":")?;
            json::number(w, b.mass)?;
            w.write_all(b"}")?;
        }
        w.write_all(b"],\n\"joints\":[")?;
        for (i, j) in model.joints.iter().enumerate() {
            w.write_all(if i > 0 { b",\n" } else { b"\n" })?;
            w.write_all(b"{\"name\":")?;
            json::string(w, &j.name)?;
            write!(w, ",\"type\":\"{}\",\"parent\":", format!("{:?}", j.kind).to_lowercase())?;
            json::body(w, j.parent)?;
            write!(w, ",\"child\":{},\"anchor\":", j.child)?;
            json::numbers(w, j.p_parent.as_slice())?;
            w.write_all(b",\"axis\":")?;
            json::numbers(w, j.axis.as_slice())?;
            w.write_all(b"}")?;
        }
        w.write_all(b"],\n\"shapes\":[")?;
        for (i, s) in drawn_shapes(&model).iter().enumerate() {
            w.write_all(if i > 0 { b",\n" } else { b"\n" })?;
            write_shape(w, s)?;
        }
        w.write_all(b"],\n\"frames\":[")
    }

    fn write_frame(&mut self, sim: &Sim) -> std::io::Result<()> {
        let first = self.frames == 0;
        let contacts = self.contact_forces(sim);
        // flattened before the writer is borrowed: nothing is taken out of `self`, so a
        // failed write leaves the recorder whole
        let x: Vec<f64> = self.x.iter().flat_map(|v| v.iter().copied()).collect();
        let q: Vec<f64> = self.q.iter().flat_map(|v| v.iter().copied()).collect();
        let w = self.writer();
        w.write_all(if first { b"\n{\"t\":" } else { b",\n{\"t\":" })?;
        json::number(w, sim.time())?;
        w.write_all(b",\"x\":")?;
        json::numbers(w, &x)?;
        w.write_all(b",\"q\":")?;
        json::numbers(w, &q)?;
        w.write_all(b",\"contacts\":[")?;
        for (i, (id, point, force)) in contacts.iter().enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            write!(w, "{{\"id\":{id},\"point\":")?;
            json::numbers(w, point.as_slice())?;
            w.write_all(b",\"force\":")?;
            json::numbers(w, force.as_slice())?;
            w.write_all(b"}")?;
        }
        w.write_all(b"]}")
    }

    /// Contacts that carried a force in the last step: (id, world point on side a, force
    /// on side a: normal force along the normal plus friction); the collision shapes'
    /// points get the ids after the described contacts.
    fn contact_forces(&self, sim: &Sim) -> Vec<(usize, V3, V3)> {
        let mut found = Vec::new();
        for (id, c) in self.model.contacts.iter().enumerate() {
            let Ok(report) = sim.contact(id) else { continue };
            let friction = V3::from(report.friction_force);
            if report.normal_force == 0.0 && friction == V3::zeros() {
                continue;
            }
            let mut points = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
            if contact_points(c, &self.x, &self.q, &mut points) == 0 {
                continue;
            }
            let p = &points[0];
            let a = p.body_a;
            let point = self.x[a] + rotation(&self.q[a]) * p.anchor[0] - p.normal * p.radius[0];
            found.push((id, point, p.normal * report.normal_force + friction));
        }
        // the collision shapes' points, numbered after the described contacts
        let described = self.model.contacts.len();
        for (k, c) in sim.shape_contacts().enumerate().filter(|(_, c)| c.normal_force != 0.0 || c.friction_force != [0.0; 3]) {
            found.push((described + k, V3::from(c.point), V3::from(c.normal) * c.normal_force + V3::from(c.friction_force)));
        }
        found
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

fn write_shape(w: &mut impl Write, s: &DrawnShape) -> std::io::Result<()> {
    w.write_all(b"{\"body\":")?;
    json::body(w, s.body)?;
    write!(w, ",\"role\":\"{}\",\"pos\":", s.role.name())?;
    json::numbers(w, s.x.as_slice())?;
    w.write_all(b",\"quat\":")?;
    json::numbers(w, s.q.as_slice())?;
    match &s.geometry {
        Geometry::HalfSpace => w.write_all(b",\"type\":\"plane\"")?,
        &Geometry::Sphere { radius } => {
            w.write_all(b",\"type\":\"sphere\",\"radius\":")?;
            json::number(w, radius)?;
        }
        &Geometry::Capsule { radius, half_length } | &Geometry::Cylinder { radius, half_length } => {
            let kind = if matches!(s.geometry, Geometry::Capsule { .. }) { "capsule" } else { "cylinder" };
            write!(w, ",\"type\":\"{kind}\",\"radius\":")?;
            json::number(w, radius)?;
            w.write_all(b",\"half_length\":")?;
            json::number(w, half_length)?;
        }
        Geometry::Box { half_extents } => {
            w.write_all(b",\"type\":\"box\",\"half_extents\":")?;
            json::numbers(w, half_extents.as_slice())?;
        }
        Geometry::Hull(h) => {
            // vertices as x, y, z triples in the shape frame
            w.write_all(b",\"type\":\"hull\",\"points\":")?;
            let flat: Vec<f64> = h.points.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
            json::numbers(w, &flat)?;
        }
        Geometry::HeightField(h) => {
            // heights row-major (rows along y), the grid centred on the shape frame
            write!(w, ",\"type\":\"heightfield\",\"rows\":{},\"cols\":{},\"dx\":", h.rows, h.cols)?;
            json::number(w, h.dx)?;
            w.write_all(b",\"dy\":")?;
            json::number(w, h.dy)?;
            w.write_all(b",\"heights\":")?;
            json::numbers(w, &h.heights)?;
        }
        Geometry::TriMesh(m) => {
            // vertices as x, y, z triples in the shape frame, triangles as index triples
            w.write_all(b",\"type\":\"trimesh\",\"points\":")?;
            let flat: Vec<f64> = m.vertices.iter().flat_map(|p| [p.x, p.y, p.z]).collect();
            json::numbers(w, &flat)?;
            w.write_all(b",\"triangles\":")?;
            let indices: Vec<f64> = m.triangles.iter().flat_map(|t| t.map(f64::from)).collect();
            json::numbers(w, &indices)?;
        }
    }
    w.write_all(b"}")
}

#[cfg(test)]
mod tests;
