//! The contact point: what a narrow phase hands the step, and the gap it defines.
//!
//! A point pairs side a (a body) with side b (a body or the world) along a world normal n
//! from b to a. Each side has an anchor (a point fixed in its body's frame; for the world a
//! world point) and a radius, and
//!
//!   φ(z) = n·(c_a − c_b) − r_a − r_b,   c = x + Q(q) anchor (c_b = anchor_b for the world).
//!
//! The normal is taken where the narrow phase ran (z_{k+1}) and held fixed for the step, so
//! φ at z_{k+2} is a signed distance along it (see the module doc of `geometry`).
//! Spheres are their centres with their radii; a point is radius 0; a world half-space
//! {n·x ≥ offset} is the world anchor 0 with radius `offset`.
//!
//! Two spheres are the exception (`follows_centres`): their gap is the exact distance
//! |c_a − c_b| − r_a − r_b, its normal the line of the centres at the iterate, while
//! c_a − c_b stays on the held normal's side (n·(c_a − c_b) > 0); past it, the signed
//! distance along the held normal, which stays negative for a sphere passing through the
//! other within a step. The held normal along a turning line of centres lets the gap
//! open by r θ²/2 for a turn θ in the step: a sphere rolling over another was pushed
//! off at a distance, and the push did work (a sphere pour's converged steps gained
//! energy). The force still acts along the normal at z_{k+1}, as a joint's does (the
//! constraint at z_{k+2}, its force at z_{k+1}: the paper's discrete equations).

use crate::integrator::joint_rows::{advance, velocity_map};
use crate::joints::tangent::Placement;
use crate::math::{d_rotate, rotation, M3, V3, V4};

/// One contact point between two sides (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactPoint {
    /// Body of side a.
    pub body_a: usize,
    /// Body of side b; None: the world.
    pub body_b: Option<usize>,
    /// Unit normal (world) from b to a, fixed for the step.
    pub normal: V3,
    /// Per side: anchor in the body frame (world frame for the world side).
    pub anchor: [V3; 2],
    /// Per side: radius around the anchor (the world side's plane offset).
    pub radius: [f64; 2],
    /// Two spheres: the gap is the distance of the anchors (the centres) less the radii,
    /// on the held normal's side (see the module doc).
    pub follows_centres: bool,
}

impl Default for ContactPoint {
    fn default() -> Self {
        ContactPoint { body_a: 0, body_b: None, normal: V3::z(), anchor: [V3::zeros(); 2], radius: [0.0; 2], follows_centres: false }
    }
}

impl ContactPoint {
    /// Bodies acted on: (a, optional b).
    pub fn bodies(&self) -> (usize, Option<usize>) {
        (self.body_a, self.body_b)
    }

    /// The same point with its sides exchanged (both on bodies): the normal reversed, the
    /// gap unchanged.
    pub fn swapped(&self) -> ContactPoint {
        let body_b = self.body_b.expect("swapping sides needs two bodies");
        ContactPoint {
            body_a: body_b,
            body_b: Some(self.body_a),
            normal: -self.normal,
            anchor: [self.anchor[1], self.anchor[0]],
            radius: [self.radius[1], self.radius[0]],
            follows_centres: self.follows_centres,
        }
    }

    /// Witness point of body side `side` in its body frame, with `rt` = Q(q)ᵀ of that body:
    /// where the force acts, anchor_a − Q_aᵀ n r_a and anchor_b + Q_bᵀ n r_b.
    pub fn witness(&self, side: usize, rt: &M3) -> V3 {
        let nb = rt * self.normal;
        if side == 0 {
            self.anchor[0] - nb * self.radius[0]
        } else {
            self.anchor[1] + nb * self.radius[1]
        }
    }

    /// Gap at a configuration (x, q), e.g. the state the user sees.
    pub fn gap(&self, x: &[V3], q: &[V4]) -> f64 {
        let a = self.body_a;
        let ca = x[a] + rotation(&q[a]) * self.anchor[0];
        let cb = match self.body_b {
            Some(b) => x[b] + rotation(&q[b]) * self.anchor[1],
            None => self.anchor[1],
        };
        self.measure(&(ca - cb)).1 - self.radius[0] - self.radius[1]
    }

    /// The normal the gap is measured along and the distance along it, for centres apart
    /// by `d` = c_a − c_b: the held normal, or the line of the centres (see the module doc).
    #[inline]
    fn measure(&self, d: &V3) -> (V3, f64) {
        let along = self.normal.dot(d);
        if self.follows_centres && along > 0.0 {
            let length = d.norm();
            (d / length, length)
        } else {
            (self.normal, along)
        }
    }

    /// Gap at z_{k+2}(v, ω) predicted from z_{k+1} = (x1, q1), and its Jacobian with
    /// respect to each body side's (v, ω) (1 × 6; a world side's row is left as it is).
    /// `vel(body)` gives the body's unknown (v, ω) at the current iterate.
    pub fn gap_and_jacobian(&self, x1: &[V3], q1: &[V4], dt: f64, vel: impl Fn(usize) -> (V3, V3), jac: Option<&mut [[f64; 6]; 2]>) -> f64 {
        let place = |b: usize| {
            let (v, w) = vel(b);
            (Placement::of(&advance(&x1[b], &q1[b], &v, &w, dt)), w)
        };
        self.gap_placed(q1, dt, place, jac)
    }

    /// [`gap_and_jacobian`](Self::gap_and_jacobian) with each body's pose at z_{k+2} given
    /// by `place(body)` = (its placement, its ω): the placements a residual evaluation has
    /// already made (`integrator::NextPoses`), shared by every contact on the body. The
    /// same operations in the same order, so the same bits.
    #[inline]
    pub fn gap_placed(&self, q1: &[V4], dt: f64, place: impl Fn(usize) -> (Placement, V3), jac: Option<&mut [[f64; 6]; 2]>) -> f64 {
        let side = |b: usize, anchor: &V3| {
            let (p, w) = place(b);
            (p.x + p.r * anchor, p.q, w)
        };
        let a = side(self.body_a, &self.anchor[0]);
        let b = self.body_b.map(|b| (b, side(b, &self.anchor[1])));
        let cb = b.as_ref().map_or(self.anchor[1], |(_, (c, _, _))| *c);
        let (n, along) = self.measure(&(a.0 - cb));
        if let Some(j) = jac {
            side_jacobian(&n, &self.anchor[0], &q1[self.body_a], &a.1, &a.2, dt, 1.0, &mut j[0]);
            if let Some((body, (_, q2, w))) = b {
                side_jacobian(&n, &self.anchor[1], &q1[body], &q2, &w, dt, -1.0, &mut j[1]);
            }
        }
        along - self.radius[0] - self.radius[1]
    }
}

/// sign · ∂(n·(x + Q(q) p))/∂(v, ω) at q = q1 ⊗ step(ω): n dt for v, and the rotation's
/// chain through the quaternion for ω (velocity units of the body residual).
// many arguments: inlined kernel of the gap Jacobian: the point's pose pieces as the caller holds them
#[allow(clippy::too_many_arguments)]
#[inline]
fn side_jacobian(n: &V3, p: &V3, q1: &V4, q2: &V4, w: &V3, dt: f64, sign: f64, out: &mut [f64; 6]) {
    let dq = d_rotate(q2, p).transpose() * n; // 4
    let dw = velocity_map(q1, w, dt).transpose() * dq; // 3
    for r in 0..3 {
        out[r] = sign * n[r] * dt;
        out[3 + r] = sign * dw[r];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::from_rotation_vector;

    fn two_bodies() -> (Vec<V3>, Vec<V4>) {
        let x = vec![V3::new(0.3, -0.2, 1.1), V3::new(-0.1, 0.4, 0.2)];
        let q = vec![from_rotation_vector(&V3::new(0.3, -0.5, 0.7)), from_rotation_vector(&V3::new(-0.8, 0.1, 0.4))];
        (x, q)
    }

    fn body_pair() -> ContactPoint {
        ContactPoint {
            body_a: 0,
            body_b: Some(1),
            normal: V3::new(0.2, -0.3, 0.9).normalize(),
            anchor: [V3::new(0.1, 0.2, -0.3), V3::new(-0.2, 0.05, 0.15)],
            radius: [0.1, 0.25],
            follows_centres: false,
        }
    }

    #[test]
    fn gap_by_hand() {
        // body 0 turned a quarter about z: its anchor (1, 0, 0) sits at x + (0, 1, 0)
        let x = vec![V3::new(1.0, 2.0, 3.0)];
        let q = vec![from_rotation_vector(&V3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2))];
        let p = ContactPoint { body_a: 0, body_b: None, normal: V3::y(), anchor: [V3::x(), V3::zeros()], radius: [0.5, 1.0], follows_centres: false };
        assert!((p.gap(&x, &q) - (3.0 - 0.5 - 1.0)).abs() < 1e-14);
        // witness: the anchor moved against the normal by r_a, in the body frame (−x)
        assert!((p.witness(0, &rotation(&q[0]).transpose()) - V3::new(0.5, 0.0, 0.0)).norm() < 1e-14);
    }

    /// Two spheres' gap is the distance of the centres less the radii while they stay on
    /// the held normal's side, the signed distance along it past that.
    #[test]
    fn a_gap_that_follows_the_centres() {
        let held = ContactPoint { body_a: 0, body_b: Some(1), normal: V3::z(), anchor: [V3::zeros(); 2], radius: [0.3, 0.2], follows_centres: false };
        let centres = ContactPoint { follows_centres: true, ..held };
        let q = vec![V4::new(1.0, 0.0, 0.0, 0.0); 2];
        let x = |a: V3| vec![a, V3::zeros()];
        // a rolled a quarter way round b: along the held normal 0.5 √½, the distance 0.5
        let rolled = x(V3::new(0.5, 0.0, 0.5) * 0.5f64.sqrt());
        assert!((held.gap(&rolled, &q) - (0.5 * 0.5f64.sqrt() - 0.5)).abs() < 1e-15);
        assert!(centres.gap(&rolled, &q).abs() < 1e-15);
        // below b's centre: the signed distance along the held normal, as the held point's
        let below = x(V3::new(0.9, 0.0, -0.1));
        assert_eq!(centres.gap(&below, &q), held.gap(&below, &q));
        assert!((centres.gap(&below, &q) + 0.6).abs() < 1e-15);
    }

    #[test]
    fn predicted_gap_at_zero_velocity_is_the_gap() {
        let (x, q) = two_bodies();
        let p = body_pair();
        let phi = p.gap_and_jacobian(&x, &q, 0.01, |_| (V3::zeros(), V3::zeros()), None);
        assert!((phi - p.gap(&x, &q)).abs() < 1e-15);
    }

    /// The analytic velocity Jacobian against central differences of the predicted gap.
    #[test]
    fn jacobian_matches_finite_differences() {
        let (x, q) = two_bodies();
        let dt = 0.01;
        let v0 = [[0.4, -1.2, 0.3, 2.0, -1.0, 0.5], [-0.7, 0.2, 0.9, -0.3, 1.5, 0.8]];
        let world = ContactPoint { body_b: None, anchor: [V3::new(0.1, 0.2, -0.3), V3::new(0.0, 0.0, 0.0)], ..body_pair() };
        let centres = |p: ContactPoint| ContactPoint { follows_centres: true, ..p };
        for p in [body_pair(), world, centres(body_pair()), centres(world)] {
            let sides = if p.body_b.is_some() { 2 } else { 1 };
            let phi_at = |u: &[[f64; 6]; 2]| {
                let vel = |b: usize| (V3::new(u[b][0], u[b][1], u[b][2]), V3::new(u[b][3], u[b][4], u[b][5]));
                p.gap_and_jacobian(&x, &q, dt, vel, None)
            };
            let mut jac = [[0.0; 6]; 2];
            let vel = |b: usize| (V3::new(v0[b][0], v0[b][1], v0[b][2]), V3::new(v0[b][3], v0[b][4], v0[b][5]));
            let phi = p.gap_and_jacobian(&x, &q, dt, vel, Some(&mut jac));
            assert!((phi - phi_at(&v0)).abs() < 1e-15);
            let h = 1e-6;
            for side in 0..sides {
                for k in 0..6 {
                    let (mut up, mut dn) = (v0, v0);
                    up[side][k] += h;
                    dn[side][k] -= h;
                    let fd = (phi_at(&up) - phi_at(&dn)) / (2.0 * h);
                    assert!((jac[side][k] - fd).abs() < 1e-9, "side {side} column {k}: analytic {} fd {fd}", jac[side][k]);
                }
            }
        }
    }

    /// The gap from placed poses (`gap_placed`, what the interior point reads through
    /// `integrator::NextPoses`) is bit for bit the gap each contact used to compute by
    /// advancing its bodies itself: the anchor through the advanced quaternion's rotation.
    #[test]
    fn the_gap_from_placed_poses_is_the_gap_from_advanced_poses_bit_for_bit() {
        let (x, q) = two_bodies();
        let vel = |b: usize| [(V3::new(0.3, -1.1, 0.7), V3::new(2.0, -0.4, 1.3)), (V3::new(-0.2, 0.5, 0.1), V3::new(-0.9, 3.1, 0.2))][b];
        let dt = 0.01;
        for p in [body_pair(), ContactPoint { follows_centres: true, ..body_pair() }] {
            // the arithmetic before the placements: advance, then the rotation of the anchor
            let c = |b: usize, anchor: &V3| {
                let (v, w) = vel(b);
                let pose = advance(&x[b], &q[b], &v, &w, dt);
                pose.x + rotation(&pose.q) * anchor
            };
            let (n, along) = p.measure(&(c(0, &p.anchor[0]) - c(1, &p.anchor[1])));
            let expected = along - p.radius[0] - p.radius[1];
            let placed = |b: usize| {
                let (v, w) = vel(b);
                (Placement::of(&advance(&x[b], &q[b], &v, &w, dt)), w)
            };
            let mut jac = [[0.0; 6]; 2];
            assert_eq!(p.gap_placed(&q, dt, placed, Some(&mut jac)).to_bits(), expected.to_bits());
            let mut reference = [[0.0; 6]; 2];
            let q2 = |b: usize| advance(&x[b], &q[b], &vel(b).0, &vel(b).1, dt).q;
            side_jacobian(&n, &p.anchor[0], &q[0], &q2(0), &vel(0).1, dt, 1.0, &mut reference[0]);
            side_jacobian(&n, &p.anchor[1], &q[1], &q2(1), &vel(1).1, dt, -1.0, &mut reference[1]);
            assert_eq!(jac, reference);
        }
    }
}
