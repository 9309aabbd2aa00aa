//! A contact point's force and slip maps at z_{k+1} (where the forces act, like G(z_{k+1})
//! for joints), fixed during a step.
//!
//! Units follow the body residual: forces in the world frame, rotational rows twice the
//! body-frame torque, so a force f at body point p_c enters as [f; 2 p_c × Q(q)ᵀ f]. The
//! slip velocity of a contact point is v + Q(q)(ω × p_c), projected on a direction t:
//! tᵀv + (p_c × Q(q)ᵀt)ᵀω. p_c is the side's witness point (`ContactPoint::witness`).

use super::ContactPoint;
use crate::contact::cone::{directions, Layout, MAX_K};
use crate::contact::MAX_DIRECTIONS;
use crate::math::{rotation, V3, V4};

/// A contact's force and slip maps at z_{k+1}, fixed during a step.
#[derive(Debug, Clone)]
pub struct ContactFrame {
    /// Unit normal (world), pointing into the free side of body a (plane: the plane normal).
    pub n: V3,
    /// Friction directions (world), `layout.nt` of them.
    pub dirs: [V3; MAX_DIRECTIONS],
    /// Bodies acted on (1 or 2).
    pub bodies: [usize; 2],
    pub sides: usize,
    /// Per side: body rows × K columns (6 × nk, row-major); the body residual gets −W·K.
    pub w: [[f64; 6 * MAX_K]; 2],
    /// Per side: slip rows × body velocity (nt × 6, row-major), relative slip of a w.r.t. b.
    pub bv: [[f64; 6 * MAX_DIRECTIONS]; 2],
}

impl Default for ContactFrame {
    fn default() -> Self {
        ContactFrame {
            n: V3::z(),
            dirs: [V3::zeros(); MAX_DIRECTIONS],
            bodies: [0; 2],
            sides: 1,
            w: [[0.0; 6 * MAX_K]; 2],
            bv: [[0.0; 6 * MAX_DIRECTIONS]; 2],
        }
    }
}

impl ContactFrame {
    /// Fills the maps of contact point `p` for a node of `layout`, at orientations `q1`.
    pub fn fill(&mut self, p: &ContactPoint, layout: &Layout, q1: &[V4]) {
        let n = p.normal;
        self.n = n;
        directions(layout, &n, &mut self.dirs);
        self.bodies = [p.body_a, p.body_b.unwrap_or(p.body_a)];
        self.sides = if p.body_b.is_some() { 2 } else { 1 };
        let nk = layout.nk;
        for side in 0..self.sides {
            let body = self.bodies[side];
            let sign = if side == 0 { 1.0 } else { -1.0 };
            let rt = rotation(&q1[body]).transpose();
            let pc = p.witness(side, &rt);
            let w = &mut self.w[side];
            // column 0: normal force, columns 1..: friction directions
            let mut put_col = |col: usize, dir: &V3| {
                let tq = pc.cross(&(rt * dir)) * 2.0;
                for r in 0..3 {
                    w[r * nk + col] = sign * dir[r];
                    w[(3 + r) * nk + col] = sign * tq[r];
                }
            };
            put_col(0, &n);
            for i in 0..layout.nt {
                put_col(1 + i, &self.dirs[i]);
            }
            for i in 0..layout.nt {
                let d = self.dirs[i];
                let rot = pc.cross(&(rt * d));
                let row = &mut self.bv[side][i * 6..i * 6 + 6];
                for r in 0..3 {
                    row[r] = sign * d[r];
                    row[3 + r] = sign * rot[r];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::cone::Kind;
    use crate::math::from_rotation_vector;

    /// The slip rows are the velocity of the witness points along the friction directions,
    /// and the force columns are the transposed map in the body residual's units (the
    /// rotational rows twice the slip's), for both sides of a body pair.
    #[test]
    fn slip_rows_are_witness_velocities_and_force_columns_their_transpose() {
        let layout = Layout { kind: Kind::Linear, nt: 4, nk: 5, ne: 7 };
        let q = vec![from_rotation_vector(&V3::new(0.3, -0.5, 0.7)), from_rotation_vector(&V3::new(-0.8, 0.1, 0.4))];
        let p = ContactPoint {
            body_a: 1,
            body_b: Some(0),
            normal: V3::new(0.2, -0.3, 0.9).normalize(),
            anchor: [V3::new(0.1, 0.2, -0.3), V3::new(-0.2, 0.05, 0.15)],
            radius: [0.1, 0.25],
            follows_centres: false,
        };
        let mut f = ContactFrame::default();
        f.fill(&p, &layout, &q);
        assert_eq!((f.bodies, f.sides), ([1, 0], 2));
        let (v, w) = (V3::new(0.3, -0.1, 0.7), V3::new(-1.1, 0.4, 0.2));
        for side in 0..2 {
            let sign = if side == 0 { 1.0 } else { -1.0 };
            let r = rotation(&q[f.bodies[side]]);
            let pc = p.witness(side, &r.transpose());
            // world velocity of the body point pc: v + Q (ω × pc)
            let u = v + r * w.cross(&pc);
            for i in 0..layout.nt {
                let row = &f.bv[side][i * 6..i * 6 + 6];
                let slip = (0..3).map(|k| row[k] * v[k] + row[3 + k] * w[k]).sum::<f64>();
                assert!((slip - sign * f.dirs[i].dot(&u)).abs() < 1e-14);
                for k in 0..6 {
                    let scale = if k < 3 { 1.0 } else { 2.0 };
                    assert!((f.w[side][k * layout.nk + 1 + i] - scale * row[k]).abs() < 1e-14);
                }
            }
            // normal column: ±[n; 2 pc × Qᵀ n]
            let tq = pc.cross(&(r.transpose() * p.normal)) * 2.0;
            for k in 0..3 {
                assert!((f.w[side][k * layout.nk] - sign * p.normal[k]).abs() < 1e-15);
                assert!((f.w[side][(3 + k) * layout.nk] - sign * tq[k]).abs() < 1e-15);
            }
        }
    }
}
