//! Contacts between jointed bodies close kinematic cycles (issue "Kinematic loops"): two
//! pendulums hung side by side from the world, their tip spheres colliding, make the cycle
//! world – joint – link – contact – link – joint – world. The graph LDU handles it with
//! the same loop machinery as a closed chain: its solve equals dense LU, the spheres never
//! interpenetrate, and momentum passes from the first pendulum to the second.

use crate::common::*;
use maxdyn::{Builder, JointType, Parent};

fn side_by_side() -> (Builder, usize) {
    let mut b = Builder::new();
    let l1 = box_body(&mut b, 1.0, 0.05, 0.05, 1.0);
    let l2 = box_body(&mut b, 1.0, 0.05, 0.05, 1.0);
    b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, l2, [0.0, 0.3, 0.0], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    // tip spheres r = 0.1, 0.3 apart at rest: gap 0.1
    let c = b.add_sphere_contact(l1, [0.0, 0.0, -0.5], 0.1, l2, [0.0, 0.0, -0.5], 0.1, 0.2).unwrap();
    (b, c)
}

#[test]
fn contact_between_jointed_bodies_closes_a_cycle_and_solves_like_dense() {
    let (b, c) = side_by_side();
    let model = maxdyn::Model::new(&b).unwrap();
    assert!(model.symbolic.fill_blocks > 0, "the contact must close a cycle (fill inside it)");
    let mut s = sim(&b, 0.01);
    s.set_joint_position(0, &[-0.6]).unwrap();
    let (mut worst_pen, mut first_touch) = (0.0f64, None);
    let mut checked = false;
    for k in 0..150 {
        s.step().unwrap_or_else(|e| panic!("step {k}: {e}"));
        let o = s.contact(c).unwrap();
        worst_pen = worst_pen.max(-o.gap);
        if o.normal_force > 1e-3 && first_touch.is_none() {
            first_touch = Some(k);
        }
        // while the spheres press on each other, the cycle's system is solved exactly
        if o.normal_force > 1.0 && !checked {
            for (it, mu) in [(0, 1.0), (3, 1e-2), (6, 1e-5)] {
                let chk = s.debug_contact_system_check(it, mu);
                assert!(chk.sparse_vs_dense < 1e-10, "{chk:?}");
                assert!(chk.condensed_vs_full < 1e-10, "{chk:?}");
            }
            checked = true;
        }
        assert!(s.constraint_violation() < 1e-9);
    }
    let mut w2 = [0.0];
    s.joint_velocity(1, &mut w2).unwrap();
    let mut th2 = [0.0];
    s.joint_position(1, &mut th2).unwrap();
    println!("first touch at step {first_touch:?}, worst penetration {worst_pen:e} m, pendulum 2 at {:.4} rad", th2[0]);
    assert!(first_touch.is_some() && checked, "the pendulums never collided");
    assert!(worst_pen <= 1e-4, "penetration {worst_pen}");
    assert!(th2[0] > 0.05 || w2[0].abs() > 0.05, "the second pendulum never moved: {} rad, {} rad/s", th2[0], w2[0]);
}
