use super::*;
use crate::{Builder, Inertia};

/// A 1 kg ball of radius 0.1 dropped from 5 cm onto the ground, recorded every step.
fn record_ball_drop(path: &Path, steps: usize) -> serde_json::Value {
    let mut b = Builder::new();
    let ball = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
    b.add_ground_contact(ball, [0.0; 3], 0.1, 0.5).unwrap();
    let model = Arc::new(Model::new(&b).unwrap());
    let mut sim = Sim::new(model, 0.01).unwrap();
    let mut s = sim.body_state(ball).unwrap();
    s[2] = 0.15;
    sim.set_body_state(ball, &s).unwrap();
    let mut rec = Recorder::create(path, &sim).unwrap();
    rec.add_frame(&sim).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
        rec.add_frame(&sim).unwrap();
    }
    assert_eq!(rec.frame_count(), steps + 1);
    rec.finish().unwrap();
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_recording_holds_the_model_once_and_every_frame() {
    let path = std::env::temp_dir().join(format!("maxdyn-record-{}.json", std::process::id()));
    let r = record_ball_drop(&path, 100);
    std::fs::remove_file(&path).unwrap();
    assert_eq!((r["format"].as_str(), r["version"].as_u64()), (Some(FORMAT), Some(1)));
    assert_eq!(r["bodies"].as_array().unwrap().len(), 1);
    let types: Vec<&str> = r["shapes"].as_array().unwrap().iter().map(|s| s["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["sphere", "plane"]);
    let frames = r["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 101);
    assert_eq!(frames[0]["t"].as_f64(), Some(0.0));
    assert!((frames[100]["t"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(frames[0]["x"].as_array().unwrap().len(), 3);
    assert_eq!(frames[0]["q"].as_array().unwrap().len(), 4);
    // in the air no force at all (the polish opens the contact; before it, the interior
    // point's remainder of 2.5e-8 N acted across the 5 cm gap); at rest after 1 s the
    // ground carries m g = 9.81 N at the ball's lowest point
    assert_eq!(frames[1]["contacts"].as_array().unwrap().len(), 0, "{}", frames[1]["contacts"]);
    let last = &frames[100]["contacts"][0];
    let f: Vec<f64> = last["force"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    let p: Vec<f64> = last["point"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!((f[2] - 9.81).abs() < 1e-6 && f[0].abs() < 1e-9 && f[1].abs() < 1e-9, "{f:?}");
    assert!(p[2].abs() < 1e-6, "{p:?}");
}

#[test]
fn a_recording_refuses_another_model_and_a_path_it_cannot_create() {
    let mut b = Builder::new();
    b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
    let sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let other = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let err = Recorder::create("/nonexistent-dir/x.json", &sim).err().unwrap();
    assert!(matches!(&err, Error::InvalidArgument("path", m) if m.contains("cannot create /nonexistent-dir/x.json")), "{err}");
    let path = std::env::temp_dir().join(format!("maxdyn-record-other-{}.json", std::process::id()));
    let mut rec = Recorder::create(&path, &sim).unwrap();
    assert!(matches!(rec.add_frame(&other), Err(Error::InvalidArgument("sim", _))));
    drop(rec);
    // dropping closes the JSON
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(r["frames"].as_array().unwrap().is_empty());
}

/// Collision shapes are drawn as they are, and their contact points are recorded after
/// the described contacts: a box resting on a world plane shows its box and the plane and
/// four forces summing to m g.
#[test]
fn a_recording_draws_collision_shapes_and_their_contacts() {
    use crate::{Parent, ShapeKind};
    let id = [1.0, 0.0, 0.0, 0.0];
    let mut b = Builder::new();
    let body = b.add_body(2.0, Inertia::cuboid(2.0, 0.4, 0.2, 0.1).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.05], id).unwrap();
    b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], id, &[0.2, 0.1, 0.05]).unwrap();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], id, &[]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let path = std::env::temp_dir().join(format!("maxdyn-record-shapes-{}.json", std::process::id()));
    let mut rec = Recorder::create(&path, &sim).unwrap();
    for _ in 0..20 {
        sim.step().unwrap();
    }
    rec.add_frame(&sim).unwrap();
    rec.finish().unwrap();
    let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    let types: Vec<&str> = r["shapes"].as_array().unwrap().iter().map(|s| s["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["box", "plane"], "the box draws the body: no link or inertia box");
    let contacts = r["frames"][0]["contacts"].as_array().unwrap();
    assert_eq!(contacts.len(), 4);
    let load: f64 = contacts.iter().map(|c| c["force"][2].as_f64().unwrap()).sum();
    assert!((load - 2.0 * 9.81).abs() < 1e-9, "{load}");
}
