//! External wrench on a body: a world-frame force F at a body-fixed point p and a
//! body-frame torque τ. The force and torque themselves enter through the body residual
//! (`Inputs::force`, `torque`); this adds the moment of F about the centre of mass,
//! p × Q(q_{k+1})ᵀ F (body frame), at z_{k+1} like every explicit force.

use crate::integrator::{Inputs, StepFrame};
use crate::math::{rotation, V3, V4};
use crate::model::Model;

/// Body-frame moment of a world force `f` applied at body point `p`, orientation `q`.
#[inline]
pub fn moment(q: &V4, p: &V3, f: &V3) -> V3 {
    p.cross(&(rotation(q).transpose() * f))
}

pub fn add_residual(model: &Model, frame: &StepFrame, inputs: &Inputs, r: &mut [f64]) {
    for (i, p) in inputs.force_point.iter().enumerate() {
        if *p == V3::zeros() || inputs.force[i] == V3::zeros() {
            continue;
        }
        let m = moment(&frame.q1[i], p, &inputs.force[i]);
        let o = model.addresses.body(i);
        for k in 0..3 {
            r[o + 3 + k] -= 2.0 * m[k];
        }
    }
}
