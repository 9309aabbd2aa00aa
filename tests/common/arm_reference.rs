//! The accuracy reference of the arm tests (issue 31): Pinocchio 4.1's ABA integrated by
//! classical RK4 at a small step in the venv that tests/setup.sh makes, from a seeded random
//! start, fixed base, gravity, no inputs. The arms are example-robot-data's, with the
//! fingers welded (Pinocchio's ABA has no mimic joints; the panda's second finger mimics the
//! first) and the joints' `<dynamics damping>` kept (Pinocchio reads it; the reference adds
//! −damping·q̇).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use super::require;

pub const ROBOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots");

/// RK4 on Pinocchio's ABA; prints the configuration every `every` steps, in the order of
/// the joint names given, after a first line with the step count.
const RK4: &str = r#"
import sys, json, numpy as np, pinocchio as pin
path, h, every, steps, names, q0, v0 = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), json.loads(sys.argv[5]), json.loads(sys.argv[6]), json.loads(sys.argv[7])
model = pin.buildModelFromUrdf(path)
data = model.createData()
assert model.nq == model.nv == len(names), (model.nq, model.nv, len(names))
order = [model.joints[model.getJointId(n)].idx_q for n in names]
q, v = np.zeros(model.nq), np.zeros(model.nv)
q[order], v[order] = q0, v0
c = model.damping.copy()
acc = lambda q, v: pin.aba(model, data, q, v, -c * v)
out = [q[order].copy()]
for k in range(1, steps + 1):
    a1 = acc(q, v); q2 = q + 0.5 * h * v; v2 = v + 0.5 * h * a1
    a2 = acc(q2, v2); q3 = q + 0.5 * h * v2; v3 = v + 0.5 * h * a2
    a3 = acc(q3, v3); q4 = q + h * v3; v4 = v + h * a3
    a4 = acc(q4, v4)
    q = q + h / 6 * (v + 2 * v2 + 2 * v3 + v4)
    v = v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
    if k % every == 0:
        out.append(q[order].copy())
print(len(out))
for row in out:
    print(" ".join(repr(float(x)) for x in row))
"#;

/// The arm's URDF under target/ with its finger joints welded, or None (after require's
/// message) when the corpus is missing.
pub fn welded_urdf(test: &str, relative: &str) -> Option<PathBuf> {
    let path = format!("{ROBOTS}/{relative}");
    if !require::corpus(test, &path) {
        return None;
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let welded = text.replace(r#"name="panda_finger_joint1" type="prismatic""#, r#"name="panda_finger_joint1" type="fixed""#).replace(r#"name="panda_finger_joint2" type="prismatic""#, r#"name="panda_finger_joint2" type="fixed""#);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("second_order");
    std::fs::create_dir_all(&dir).unwrap();
    // one file per test: tests run in parallel, and one writing while another reads it
    // made the reader see an empty document
    let out = dir.join(format!("{test}_{}", Path::new(relative).file_name().unwrap().to_string_lossy()));
    std::fs::write(&out, welded).unwrap();
    Some(out)
}

/// The reference configurations at every multiple of `every`·`h` up to `seconds`, in the
/// order of `names`, from (q0, v0); None when the venv is missing (and skipping is asked).
pub fn rk4(test: &str, urdf: &Path, names: &[String], q0: &[f64], v0: &[f64], h: f64, every: usize, seconds: f64) -> Option<Vec<Vec<f64>>> {
    let python = require::venv_python(test)?;
    let steps = (seconds / h).round() as usize;
    let json = |v: &[f64]| format!("[{}]", v.iter().map(|x| format!("{x:e}")).collect::<Vec<_>>().join(","));
    let names_json = format!("[{}]", names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(","));
    let out = Command::new(python)
        .args(["-c", RK4, urdf.to_str().unwrap(), &format!("{h:e}"), &every.to_string(), &steps.to_string(), &names_json, &json(q0), &json(v0)])
        .output()
        .unwrap();
    assert!(out.status.success(), "pinocchio RK4: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let count: usize = lines.next().unwrap().trim().parse().unwrap();
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), count);
    Some(rows)
}
