//! Each joint type (appendix B's twelve and the universal joint): its free directions move as
//! physics says and its constrained directions hold.
//!
//! Setup: one isotropic body (sphere inertia) jointed to the world at its centre of mass,
//! gravity g = (0.3, −0.5, −9.81), axis (1, 2, 3)/√14, spinning at 0.7 rad/s in every free
//! rotational direction. With no torque about the COM, the free rotation rates stay
//! constant (angle after N steps: |rates|·N·dt); the free translations accelerate
//! by the projection of g on them: after N steps, rate = Cᵀg·N dt and offset =
//! Cᵀg·dt²·N(N−1)/2 (exact for this first-order integrator).

use crate::common;
use maxdyn::{Builder, Inertia, JointType, Parent};
use nalgebra::Vector3;

#[test]
fn every_joint_type_moves_in_its_free_directions_only() {
    let g = Vector3::new(0.3, -0.5, -9.81);
    let axis = [1.0, 2.0, 3.0];
    let dt = 0.01;
    let n = 200usize;
    for kind in JointType::ALL {
        let mut b = Builder::new();
        b.set_gravity(g.into()).unwrap();
        let body = b.add_body(2.0, Inertia::sphere(2.0, 0.3).unwrap()).unwrap();
        let anchor = [0.1, 0.2, 0.3];
        b.set_body_pose(body, anchor, [1.0, 0.0, 0.0, 0.0]).unwrap();
        let j = b.add_joint(kind, Parent::World, body, anchor, [0.0; 3], axis).unwrap();
        let mut sim = common::sim(&b, dt);
        let joint = sim.model().joints[j].clone();
        let nt = joint.ct.len;
        let nr = joint.cr.len;
        let dof = nt + nr;
        assert_eq!(dof, sim.joint_dof(j).unwrap());
        let mut rates = vec![0.0; dof];
        for r in nt..dof {
            rates[r] = 0.7;
        }
        sim.set_joint_velocity(j, &rates).unwrap();
        let w0 = (0.7f64 * 0.7 * nr as f64).sqrt();
        let mut worst = 0.0f64;
        for _ in 0..n {
            sim.step().unwrap();
            worst = worst.max(sim.constraint_violation());
        }
        assert!(worst < 1e-10, "{kind:?}: constraint violation {worst:e}");
        let mut pos = vec![0.0; dof];
        let mut vel = vec![0.0; dof];
        sim.joint_position(j, &mut pos).unwrap();
        sim.joint_velocity(j, &mut vel).unwrap();
        let nf = n as f64;
        for (k, c) in joint.ct.as_slice().iter().enumerate() {
            let a = c.dot(&g);
            let (ev, ep) = (a * nf * dt, a * dt * dt * nf * (nf - 1.0) / 2.0);
            assert!((vel[k] - ev).abs() < 1e-8, "{kind:?}: translational rate {} vs {}", vel[k], ev);
            assert!((pos[k] - ep).abs() < 1e-8, "{kind:?}: translation {} vs {}", pos[k], ep);
        }
        // rotation: the rates are discrete (per-step increments / dt) and stay constant
        let angle = nf * w0 * dt;
        let mut rot = 0.0;
        for k in nt..dof {
            assert!((vel[k] - 0.7).abs() < 1e-9, "{kind:?}: rotational rate {}", vel[k]);
            rot += pos[k] * pos[k];
        }
        if nr > 0 {
            let expected = angle.rem_euclid(2.0 * std::f64::consts::PI);
            let expected = if expected > std::f64::consts::PI { 2.0 * std::f64::consts::PI - expected } else { expected };
            assert!((rot.sqrt() - expected).abs() < 1e-8, "{kind:?}: angle {} vs {}", rot.sqrt(), expected);
        } else {
            let s = sim.body_state(0).unwrap();
            assert!((s[3] - 1.0).abs() < 1e-12, "{kind:?}: orientation changed");
        }
    }
}

#[test]
fn prismatic_slider_accelerates_by_g_cos_angle() {
    // a slider along an axis 30° below the horizontal under g = 9.81 along −z
    let ang = 30f64.to_radians();
    let mut b = Builder::new();
    let body = common::box_body(&mut b, 1.0, 0.1, 0.1, 0.1);
    b.add_joint(JointType::Prismatic, Parent::World, body, [0.0; 3], [0.0; 3], [ang.cos(), 0.0, -ang.sin()]).unwrap();
    let mut sim = common::sim(&b, 0.001);
    for _ in 0..1000 {
        sim.step().unwrap();
    }
    let mut v = [0.0];
    sim.joint_velocity(0, &mut v).unwrap();
    // acceleration along the axis: g·cos(angle between axis and gravity) = g·sin 30°
    let a = v[0] / 1.0;
    assert!((a - 9.81 * ang.sin()).abs() < 1e-9, "a = {a}");
}
