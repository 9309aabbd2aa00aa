use maxdyn::*;
use std::sync::Arc;
fn main() {
    let mut b = Builder::new();
    let j = model::box_inertia(1.0, 0.1, 0.1, 0.1);
    let ja: [f64; 9] = j.transpose().as_slice().try_into().unwrap();
    let b1 = b.add_body(1.0, ja).unwrap();
    let b2 = b.add_body(1.0, ja).unwrap();
    let j1 = b.add_joint(JointType::Revolute, WORLD, b1 as i32, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, b1 as i32, b2 as i32, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    let m = Arc::new(Model::new(&b).unwrap());
    let mut s = Sim::new(m, 0.01).unwrap();
    s.set_joint_position(j1, &[std::f64::consts::FRAC_PI_2]).unwrap();
    s.set_joint_position(j2, &[0.0]).unwrap();
    println!("{:?} {:?}", s.body_state(0).unwrap(), s.body_state(1).unwrap());
    let (k0, p0) = s.energy();
    let mut maxe: f64 = 0.0;
    let t = std::time::Instant::now();
    for k in 0..(if std::env::args().count()>1 {100} else {10000}) {
        let st = s.step().unwrap();
        let (k1, p1) = s.energy();
        maxe = maxe.max((k1 + p1 - k0 - p0).abs());
        if k % 1000 == 0 { println!("{k} it={} res={:e} viol={:e} dE={:e}", st.iterations, st.residual, s.constraint_violation(), k1 + p1 - k0 - p0); }
    }
    println!("max dE {maxe:e} time {:?}", t.elapsed()); println!("{:?}\n{:?}", s.body_state(0).unwrap(), s.body_state(1).unwrap());
}
#[allow(dead_code)]
fn unused() {}
