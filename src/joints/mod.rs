//! Joints: the general translational and rotational constraints of the paper's
//! appendix B, composed with selection matrices D (constrained directions) and their
//! null-space matrices C (free directions, the minimal coordinates).

pub mod constraint;
pub mod coordinate;
pub mod coordinate_hessian;
pub mod force_derivative;
pub mod hooke;
pub mod minimal;
pub mod tangent;

use crate::math::{axis_frame, V3, V4, IDENTITY};

/// The joint table of appendix B (table "List of joints"). Discriminants are the C ABI's.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointType {
    Fixed = 0,
    Prismatic = 1,
    Planar = 2,
    FixedOrientation = 3,
    Revolute = 4,
    Cylindrical = 5,
    PlanarAxis = 6,
    FreeRevolute = 7,
    Spherical = 8,
    CylindricalFree = 9,
    PlanarFree = 10,
    Floating = 11,
    /// Hooke joint: points held together, the parent's axis kept perpendicular to the
    /// child's (`hooke`); two rotational DoF. Not in appendix B's table.
    Universal = 12,
}

/// Which directions a general constraint restricts (table "Constraint selection").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    /// D = 0: no restriction, C = I.
    None,
    /// D = V₃: restricted to the plane V₁:₂, C = V₁:₂.
    Plane,
    /// D = V₁:₂: restricted to the axis V₃, C = V₃.
    Axis,
    /// D = I: fully restricted, C = 0.
    Full,
    /// Rotations only: one row keeping the parent's axis perpendicular to the child's
    /// (`hooke`), not a selection of g_R; free directions a and b'.
    Hooke,
}

/// How a joint's rotational minimal coordinates chart its relative rotation
/// q_rel = q_a* ⊗ q_b ⊗ q_off*. It follows from the rotational column of the joint table
/// ([`JointType::selection`]); what differs between the charts is in `minimal` (the
/// coordinates, rates, poses) and `hooke` (the angles' axes and gradients), and every
/// other module asks the joint (`Joint::rotation_chart`, `Joint::child_fixed_axis`,
/// `Joint::angle_gradients`) instead of naming a joint type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RotationChart {
    /// The rotation vector log(q_rel) projected on the free directions C_R, all fixed in
    /// the parent frame: every joint of appendix B.
    RotationVector,
    /// One angle per free axis, turned in turn: the first axis fixed in the parent, the
    /// second in the child (`hooke`'s α, β). Each angle's rate is the relative angular
    /// velocity along its axis, and where the constraint holds its gradient rows are
    /// those rates' rows.
    Angles,
}

impl Selection {
    /// The chart of rotational coordinates this rotational selection leaves free.
    fn rotation_chart(self) -> RotationChart {
        match self {
            Selection::Hooke => RotationChart::Angles,
            Selection::None | Selection::Plane | Selection::Axis | Selection::Full => RotationChart::RotationVector,
        }
    }
}

impl JointType {
    pub const ALL: [JointType; 13] = [
        JointType::Fixed,
        JointType::Prismatic,
        JointType::Planar,
        JointType::FixedOrientation,
        JointType::Revolute,
        JointType::Cylindrical,
        JointType::PlanarAxis,
        JointType::FreeRevolute,
        JointType::Spherical,
        JointType::CylindricalFree,
        JointType::PlanarFree,
        JointType::Floating,
        JointType::Universal,
    ];

    pub fn from_i32(v: i32) -> Option<JointType> {
        JointType::ALL.get(usize::try_from(v).ok()?).copied()
    }

    /// (translational, rotational) selection, appendix B.
    pub fn selection(self) -> (Selection, Selection) {
        use Selection::*;
        match self {
            JointType::Fixed => (Full, Full),
            JointType::Prismatic => (Axis, Full),
            JointType::Planar => (Plane, Full),
            JointType::FixedOrientation => (None, Full),
            JointType::Revolute => (Full, Axis),
            JointType::Cylindrical => (Axis, Axis),
            JointType::PlanarAxis => (Plane, Axis),
            JointType::FreeRevolute => (None, Axis),
            JointType::Spherical => (Full, None),
            JointType::CylindricalFree => (Axis, None),
            JointType::PlanarFree => (Plane, None),
            JointType::Floating => (None, None),
            JointType::Universal => (Full, Hooke),
        }
    }

    /// How the rotational coordinates chart the relative rotation (from the table's
    /// rotational column).
    pub fn rotation_chart(self) -> RotationChart {
        self.selection().1.rotation_chart()
    }

    /// Whether the joint needs an axis (some selection uses V₃).
    pub fn uses_axis(self) -> bool {
        let (t, r) = self.selection();
        matches!(t, Selection::Plane | Selection::Axis) || matches!(r, Selection::Plane | Selection::Axis | Selection::Hooke)
    }
}

/// Up to three directions, stored inline (no heap).
#[derive(Debug, Clone, Copy)]
pub struct Directions {
    pub dirs: [V3; 3],
    pub len: usize,
}

impl Directions {
    fn new(list: &[V3]) -> Directions {
        let mut dirs = [V3::zeros(); 3];
        dirs[..list.len()].copy_from_slice(list);
        Directions { dirs, len: list.len() }
    }
    pub fn as_slice(&self) -> &[V3] {
        &self.dirs[..self.len]
    }
}

/// Constrained (D) and free (C) directions of one general constraint.
fn split(sel: Selection, v1: V3, v2: V3, v3: V3) -> (Directions, Directions) {
    let i3 = [V3::x(), V3::y(), V3::z()];
    match sel {
        Selection::None => (Directions::new(&[]), Directions::new(&i3)),
        Selection::Plane => (Directions::new(&[v3]), Directions::new(&[v1, v2])),
        Selection::Axis => (Directions::new(&[v1, v2]), Directions::new(&[v3])),
        Selection::Full => (Directions::new(&i3), Directions::new(&[])),
        // b' = v₁ until `Joint::set_second_axis`: constrained a × b' = v₂, free a and b'
        Selection::Hooke => (Directions::new(&[v2]), Directions::new(&[v3, v1])),
    }
}

/// A joint between a parent (None: the world) and a child body.
#[derive(Debug, Clone)]
pub struct Joint {
    pub name: String,
    pub kind: JointType,
    pub parent: Option<usize>,
    pub child: usize,
    /// Joint point in the parent frame (world frame for the world).
    pub p_parent: V3,
    /// Joint point in the child frame.
    pub p_child: V3,
    /// Unit axis in the parent frame.
    pub axis: V3,
    /// Orientation offset q_off: the child's orientation relative to the parent when all
    /// rotational coordinates are zero.
    pub q_offset: V4,
    /// Universal joints: the child's axis b' as it lies in the parent frame at zero
    /// coordinates (unit, perpendicular to `axis`); zero for every other type.
    pub second_axis: V3,
    /// Constrained translational directions (rows of D_Tᵀ), parent frame.
    pub dt: Directions,
    /// Constrained rotational directions (rows of D_Rᵀ).
    pub dr: Directions,
    /// Free translational directions (columns of C_T).
    pub ct: Directions,
    /// Free rotational directions (columns of C_R).
    pub cr: Directions,
}

impl Joint {
    pub fn new(kind: JointType, parent: Option<usize>, child: usize, p_parent: V3, p_child: V3, axis: V3) -> Joint {
        let (v1, v2, v3) = axis_frame(&axis);
        let (ts, rs) = kind.selection();
        let (dt, ct) = split(ts, v1, v2, v3);
        let (dr, cr) = split(rs, v1, v2, v3);
        Joint {
            name: String::new(),
            kind,
            parent,
            child,
            p_parent,
            p_child,
            axis: v3,
            q_offset: IDENTITY,
            second_axis: if rs == Selection::Hooke { v1 } else { V3::zeros() },
            dt,
            dr,
            ct,
            cr,
        }
    }

    /// Number of constraint rows (multipliers).
    pub fn constraint_count(&self) -> usize {
        self.dt.len + self.dr.len
    }

    /// Number of minimal coordinates (free directions).
    pub fn dof(&self) -> usize {
        self.ct.len + self.cr.len
    }

    /// How the rotational coordinates chart the relative rotation ([`RotationChart`]).
    #[inline]
    pub fn rotation_chart(&self) -> RotationChart {
        self.kind.rotation_chart()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table decides the chart: the Hooke row is the one joint with angles, and a
    /// joint built from the table asks its kind.
    #[test]
    fn only_the_hooke_row_charts_its_rotations_by_angles() {
        let angles: Vec<JointType> = JointType::ALL.into_iter().filter(|k| k.rotation_chart() == RotationChart::Angles).collect();
        assert_eq!(angles, [JointType::Universal]);
        for kind in JointType::ALL {
            let j = Joint::new(kind, None, 0, V3::zeros(), V3::zeros(), V3::z());
            assert_eq!(j.rotation_chart(), kind.rotation_chart());
            // an axis fixed in the child only where the chart turns one with it
            let child_fixed: Vec<usize> = (0..j.cr.len).filter(|&k| j.child_fixed_axis(k).is_some()).collect();
            assert_eq!(child_fixed, if kind == JointType::Universal { vec![1] } else { vec![] }, "{kind:?}");
        }
    }
}
