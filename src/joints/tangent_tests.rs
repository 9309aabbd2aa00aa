//! The closed-form rows and blocks against the generic kernel (`GeneralConstraint`) at
//! random configurations, for every joint type and both sides.

use super::*;
use crate::integrator::joint_rows::rotational_map;
use crate::joints::constraint::GeneralConstraint;
use crate::joints::JointType;

/// Largest difference seen over these configurations: 2.7e-15 (entries of order 1); the
/// bound leaves room for other platforms' rounding.
const TOLERANCE: f64 = 1e-13;

pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    pub fn v3(&mut self, s: f64) -> V3 {
        V3::new(self.next(), self.next(), self.next()) * s
    }
    pub fn quat(&mut self) -> V4 {
        V4::new(self.next(), self.next(), self.next(), self.next()).normalize()
    }
    pub fn pose(&mut self) -> Pose {
        Pose { x: self.v3(2.0), q: self.quat() }
    }
}

/// A joint of `kind` with random points and axis, and a random orientation offset or
/// (every third) none.
pub(crate) fn random_joint(kind: JointType, rng: &mut Rng, parent: Option<usize>) -> Joint {
    let mut j = Joint::new(kind, parent, 1, rng.v3(0.5), rng.v3(0.5), rng.v3(1.0));
    if rng.next() > -0.33 {
        j.q_offset = rng.quat();
    }
    j
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

#[test]
fn values_equal_the_generic_constraint() {
    let mut rng = Rng(7);
    for _ in 0..50 {
        for kind in JointType::ALL {
            let j = random_joint(kind, &mut rng, Some(0));
            let (a, b) = (rng.pose(), rng.pose());
            let nc = j.constraint_count();
            let (mut x, mut y) = ([0.0; 6], [0.0; 6]);
            j.constraint(&a, &b, &mut x[..nc]);
            j.constraint_at(&Placement::of(&a), &Placement::of(&b), &mut y[..nc]);
            assert_eq!(x, y, "{kind:?}");
        }
    }
}

#[test]
fn multiplier_blocks_equal_the_generic_kernel() {
    let mut rng = Rng(11);
    let mut worst: f64 = 0.0;
    for _ in 0..50 {
        for kind in JointType::ALL {
            for parent in [Some(0), None] {
                let j = random_joint(kind, &mut rng, parent);
                let a = if parent.is_some() { rng.pose() } else { Pose::WORLD };
                let b = rng.pose();
                let nc = j.constraint_count();
                let g = GeneralConstraint::eval(&j, &a, &b);
                let (pa, pb) = (Placement::of(&a), Placement::of(&b));
                let t = j.tangent_jacobian(&pa, &pb);
                for (side, pose) in [(Side::Parent, &a), (Side::Child, &b)] {
                    let (mut x, mut y) = ([0.0; 36], [0.0; 36]);
                    j.jacobian_block(&g, side, 1.0, &rotational_map(&pose.q), &mut x[..nc * 6]);
                    j.tangent_block(&t, side, 1.0, RotationMap::Scale(2.0), &mut y[..nc * 6]);
                    worst = worst.max(max_diff(&x, &y));
                }
            }
        }
    }
    assert!(worst < TOLERANCE, "largest difference {worst:e}");
}

#[test]
fn structural_zeros_are_exact() {
    let mut rng = Rng(3);
    let j = random_joint(JointType::Revolute, &mut rng, Some(0));
    let (pa, pb) = (Placement::of(&rng.pose()), Placement::of(&rng.pose()));
    let t = j.tangent_jacobian(&pa, &pb);
    let mut y = [f64::NAN; 36];
    j.tangent_block(&t, Side::Child, 0.01, RotationMap::Matrix(&M3::identity()), &mut y[..30]);
    // rotational rows have no translational columns
    for r in 3..5 {
        assert_eq!(&y[r * 6..r * 6 + 3], &[0.0; 3]);
    }
    assert!(y[..30].iter().all(|v| v.is_finite()) && y[30..].iter().all(|v| v.is_nan()));
}
