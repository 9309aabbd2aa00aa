//! The common shape of every force element here: a scalar generalized force f acting
//! along one "direction" of the mechanism, as an equal-and-opposite wrench pair on two
//! bodies (paper section 2, actuators). Each body contributes a row (jv, jw):
//!
//!   rate  ξ = Σ_bodies jv·v + jw·ω        (v world frame, ω body frame)
//!   wrench on the body = (f jv, f jw)      (force world frame, torque body frame)
//!
//! so the power f ξ is the work rate of the pair. In residual units (rotational rows are
//! twice a torque) the element adds r_v −= f jv, r_ω −= 2 f jw. A damper f = −c ξ(s) at
//! the unknown velocities s is linear in s: ∂r_X/∂s_Y = c [jv_X; 2 jw_X][jv_Y; jw_Y]ᵀ.

use crate::math::V3;
use crate::model::Model;
use crate::solver::BlockMatrix;

/// One body's row of a force element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyRow {
    pub body: usize,
    pub jv: V3,
    pub jw: V3,
}

/// A force element's rows on its parent side `a` (None: the world) and child side `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WrenchPair {
    pub a: Option<BodyRow>,
    pub b: BodyRow,
}

impl WrenchPair {
    #[inline]
    fn rows(&self) -> impl Iterator<Item = &BodyRow> {
        self.a.iter().chain(std::iter::once(&self.b))
    }

    /// ξ for body velocities given by `vel(i) = (v_i, ω_i)`.
    #[inline]
    pub fn rate(&self, vel: impl Fn(usize) -> (V3, V3)) -> f64 {
        self.rows()
            .map(|r| {
                let (v, w) = vel(r.body);
                r.jv.dot(&v) + r.jw.dot(&w)
            })
            .sum()
    }

    /// Adds the pair for generalized force `f` to the step residual.
    #[inline]
    pub fn apply(&self, f: f64, model: &Model, r: &mut [f64]) {
        for row in self.rows() {
            let o = model.addresses.body(row.body);
            let rb: &mut [f64; 6] = (&mut r[o..o + 6]).try_into().expect("six body rows");
            for k in 0..3 {
                rb[k] -= f * row.jv[k];
                rb[3 + k] -= 2.0 * f * row.jw[k];
            }
        }
    }

    /// Jacobian of the damper force f = −c ξ(s) (the residual term c ξ [jv; 2jw]) with
    /// respect to the step's velocities: diagonal blocks and the body–body coupling.
    pub fn add_damping_jacobian(&self, c: f64, model: &Model, m: &mut BlockMatrix) {
        let sym = &model.symbolic;
        for x in self.rows() {
            for y in self.rows() {
                let blk = m.block_mut(sym, model.body_node[x.body], model.body_node[y.body]);
                for i in 0..6 {
                    let ax = if i < 3 { x.jv[i] } else { 2.0 * x.jw[i - 3] };
                    if ax == 0.0 {
                        continue;
                    }
                    for j in 0..6 {
                        let by = if j < 3 { y.jv[j] } else { y.jw[j - 3] };
                        blk[i * 6 + j] += c * ax * by;
                    }
                }
            }
        }
    }
}
