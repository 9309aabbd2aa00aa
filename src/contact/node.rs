//! The condensed contact node (paper section 4, first paragraph: "each inequality node
//! carries its own slacks").
//!
//! A contact's Newton rows, with K its kept variables (they act on the bodies), E its
//! slacks and cone variables (they do not), and b the bodies' velocities:
//! ```text
//!   [A_KK A_KE] [dK]   [C_b db]     [r_K]
//!   [A_EK A_EE] [dE] + [  0   ]  = −[r_E]
//! ```
//! E is eliminated inside the node: with X = A_EE⁻¹A_EK and z = A_EE⁻¹r_E,
//! ```text
//!   (A_KK − A_KE X) dK + C_b db = −(r_K − A_KE z),     dE = −z − X dK,
//! ```
//! so the graph sees one nk × nk block per contact. A_EE is block triangular with the
//! complementarity partners on its diagonal, hence invertible strictly inside the cones.
//!
//! [`ContactNodes`] holds the layout and the condensation of every contact;
//! [`ContactWork`] adds what a step's solve keeps per contact: the interior point's E
//! buffers, the contact frames, which contacts take part. Storage for
//! all contacts is allocated once; nothing here allocates during a step.

use super::cone::{by_node_size, FrictionLaw, Kind, Layout, MAX_Y};
use super::condense::{self, Factors};
use super::geometry::{ContactFrame, ContactPoint};
use super::body_lists::BodyLists;
use super::Contact;

use std::ops::Range;

/// Every contact's node layout (cone, where its E variables sit in the flat E vectors)
/// and the factors of its last condensation.
#[derive(Debug, Clone, Default)]
pub struct ContactNodes {
    layouts: Vec<Layout>,
    friction: Vec<f64>,
    /// Per node: its normal pair closed by the active-set polish (`Layout::close_normal_row`).
    closed: Vec<bool>,
    /// Offset of each contact's E variables in the flat E vectors.
    e_offset: Vec<usize>,
    e_len: usize,
    has_soc: bool,
    // condensation scratch, per contact at its offsets: the local Jacobian (ny × ny),
    // A_EE's factors (the LU only for the second-order cone, `condense`), X (ne × nk), z
    a_off: Vec<usize>,
    a: Vec<f64>,
    lu_off: Vec<usize>,
    lu: Vec<f64>,
    piv: Vec<usize>,
    inv_pivot: Vec<f64>,
    x_off: Vec<usize>,
    x: Vec<f64>,
    z: Vec<f64>,
}

impl ContactNodes {
    pub fn new(contacts: &[Contact]) -> ContactNodes {
        ContactNodes::with_limit_sides(contacts, 0)
    }

    /// The contacts' nodes followed by `limit_sides` frictionless nodes (joint limits,
    /// `crate::limits`).
    pub fn with_limit_sides(contacts: &[Contact], limit_sides: usize) -> ContactNodes {
        let mut w = ContactNodes::default();
        let (mut eo, mut ao, mut lo, mut xo) = (0, 0, 0, 0);
        let frictionless = (Layout { kind: Kind::Frictionless, nt: 0, nk: 1, ne: 1 }, 0.0);
        let nodes = contacts.iter().map(|c| (c.layout(), c.friction)).chain(std::iter::repeat_n(frictionless, limit_sides));
        for (l, friction) in nodes {
            w.layouts.push(l);
            w.has_soc |= l.kind == super::cone::Kind::Soc;
            w.friction.push(friction);
            w.closed.push(false);
            w.e_offset.push(eo);
            w.a_off.push(ao);
            w.lu_off.push(lo);
            w.x_off.push(xo);
            eo += l.ne;
            ao += l.ny() * l.ny();
            if l.kind == Kind::Soc {
                lo += l.ne * l.ne;
            }
            xo += l.ne * l.nk;
        }
        w.e_len = eo;
        w.z = vec![0.0; eo];
        w.piv = vec![0; eo];
        w.inv_pivot = vec![0.0; eo];
        w.a = vec![0.0; ao];
        w.lu = vec![0.0; lo];
        w.x = vec![0.0; xo];
        w
    }

    pub fn count(&self) -> usize {
        self.layouts.len()
    }

    /// Contact `ci`'s cone layout.
    #[inline]
    pub fn layout(&self, ci: usize) -> Layout {
        self.layouts[ci]
    }

    /// Contact `ci`'s friction coefficient μ_f.
    #[inline]
    pub fn friction(&self, ci: usize) -> f64 {
        self.friction[ci]
    }

    /// Whether contact `ci`'s normal pair is closed (the active-set polish).
    #[inline]
    pub fn is_closed(&self, ci: usize) -> bool {
        self.closed[ci]
    }

    pub fn set_closed(&mut self, ci: usize, closed: bool) {
        self.closed[ci] = closed;
    }

    /// Whether some normal pair is closed.
    pub fn any_closed(&self) -> bool {
        self.closed.iter().any(|&c| c)
    }

    /// Some contact has friction.
    pub fn has_friction(&self) -> bool {
        self.friction.iter().any(|&f| f > 0.0)
    }

    /// Some contact uses the second-order cone.
    pub fn has_soc(&self) -> bool {
        self.has_soc
    }

    /// Where contact `ci`'s E variables sit in the flat E vectors.
    #[inline]
    pub fn e_range(&self, ci: usize) -> Range<usize> {
        let o = self.e_offset[ci];
        o..o + self.layouts[ci].ne
    }

    /// Length of the flat E vectors.
    pub fn e_len(&self) -> usize {
        self.e_len
    }

    /// The node's variables y = [K; E] gathered from the graph vector slice `k` and `e`.
    #[inline(always)]
    pub fn gather(&self, ci: usize, k: &[f64], e: &[f64], y: &mut [f64; MAX_Y]) {
        let l = &self.layouts[ci];
        by_node_size!(l, gather_sized(k, &e[self.e_offset[ci]..], y))
    }

    /// The inverse of [`ContactNodes::gather`]: y = [K; E] into the graph vector slice `k`
    /// and the flat `e`.
    #[inline]
    pub fn scatter(&self, ci: usize, y: &[f64; MAX_Y], k: &mut [f64], e: &mut [f64]) {
        let l = &self.layouts[ci];
        by_node_size!(l, scatter_sized(y, k, &mut e[self.e_offset[ci]..]))
    }

    /// Condenses contact `ci` at its variables `y` with E residual rows `re` (flat; under
    /// the friction `law`): writes the node's diagonal block (nk × nk) into `diag` and
    /// turns `rk` (the K rows of the residual) into r_K − A_KE A_EE⁻¹ r_E. Returns false
    /// if A_EE is singular (the iterate left the cones' interior).
    // many arguments: per-contact kernel of every Newton iteration: the iterate, the inputs and the two outputs as slices
    #[allow(clippy::too_many_arguments)]
    pub fn condense(&mut self, ci: usize, y: &[f64], re: &[f64], law: FrictionLaw, dt: f64, diag: &mut [f64], rk: &mut [f64]) -> bool {
        let l = self.layouts[ci];
        let (nk, ne, ny) = (l.nk, l.ne, l.ny());
        let a = &mut self.a[self.a_off[ci]..self.a_off[ci] + ny * ny];
        l.jacobian(y, self.friction[ci], law, dt, a);
        if self.closed[ci] {
            l.close_normal_jacobian(a);
        }
        let a = &*a;
        let eo = self.e_offset[ci];
        let lu_len = if l.kind == Kind::Soc { ne * ne } else { 0 };
        let lu = &mut self.lu[self.lu_off[ci]..self.lu_off[ci] + lu_len];
        let (piv, inv) = (&mut self.piv[eo..eo + ne], &mut self.inv_pivot[eo..eo + ne]);
        if !condense::factor(&l, a, Factors { lu, piv, inv }) {
            return false;
        }
        let x = &mut self.x[self.x_off[ci]..self.x_off[ci] + ne * nk];
        let (lu, piv, inv) = (&self.lu[self.lu_off[ci]..self.lu_off[ci] + lu_len], &self.piv[eo..eo + ne], &self.inv_pivot[eo..eo + ne]);
        condense::schur(&l, a, lu, piv, inv, x, diag);
        self.condense_rhs(ci, re, rk);
        true
    }

    /// The right-hand side part of `condense` alone, with the factors of the last
    /// condensation: turns `rk` into r_K − A_KE A_EE⁻¹ r_E for the E rows now in `re`
    /// (the predictor–corrector solves twice with one matrix; only the complementarity
    /// rows' right-hand side changes between the solves).
    pub fn condense_rhs(&mut self, ci: usize, re: &[f64], rk: &mut [f64]) {
        let l = self.layouts[ci];
        let a = &self.a[self.a_off[ci]..self.a_off[ci] + l.ny() * l.ny()];
        let lu_len = if l.kind == Kind::Soc { l.ne * l.ne } else { 0 };
        let lu = &self.lu[self.lu_off[ci]..self.lu_off[ci] + lu_len];
        let e = self.e_range(ci);
        let (piv, inv) = (&self.piv[e.clone()], &self.inv_pivot[e.clone()]);
        condense::condense_rhs(&l, a, lu, piv, inv, &re[e.clone()], &mut self.z[e], rk);
    }

    /// Recovers the E part of the Newton direction from the K part into `de` (flat):
    /// dE = −z − X dK.
    pub fn recover(&self, ci: usize, dk: &[f64], de: &mut [f64]) {
        let l = self.layouts[ci];
        let e = self.e_range(ci);
        let x = &self.x[self.x_off[ci]..self.x_off[ci] + l.ne * l.nk];
        condense::recover(&l, x, &self.z[e.clone()], dk, &mut de[e]);
    }

    /// The full local Jacobian of contact `ci` from its last condensation (tests: the
    /// uncondensed Newton system).
    pub fn local_jacobian(&self, ci: usize) -> &[f64] {
        let ny = self.layouts[ci].ny();
        &self.a[self.a_off[ci]..self.a_off[ci] + ny * ny]
    }
}

/// y = [K; E] from a node's K (`k`) and E (`e`) at their starts (sizes as literals where
/// `by_node_size` knows them: moves instead of copy calls).
#[inline(always)]
fn gather_sized(nk: usize, ne: usize, k: &[f64], e: &[f64], y: &mut [f64; MAX_Y]) {
    y[..nk].copy_from_slice(&k[..nk]);
    y[nk..nk + ne].copy_from_slice(&e[..ne]);
}

/// The inverse of `gather_sized`.
#[inline(always)]
fn scatter_sized(nk: usize, ne: usize, y: &[f64; MAX_Y], k: &mut [f64], e: &mut [f64]) {
    k[..nk].copy_from_slice(&y[..nk]);
    e[..ne].copy_from_slice(&y[nk..nk + ne]);
}

/// The interior point's E buffers (flat, contact `ci` at `ContactNodes::e_range(ci)`).
#[derive(Debug, Clone, Default)]
pub struct ContactVariables {
    /// Iterate.
    pub e: Vec<f64>,
    /// Line-search trial point.
    pub e_trial: Vec<f64>,
    /// Newton direction.
    pub de: Vec<f64>,
    /// E residual rows at the iterate and at the trial point.
    pub re: Vec<f64>,
    pub re_trial: Vec<f64>,
    /// Iterative refinement of a direction: the E rows of its residual, the E part of
    /// its correction (`step::interior_point::direction`).
    pub lin_re: Vec<f64>,
    pub lin_de: Vec<f64>,
}

impl ContactVariables {
    fn new(len: usize) -> ContactVariables {
        let z = vec![0.0; len];
        ContactVariables { e: z.clone(), e_trial: z.clone(), de: z.clone(), re: z.clone(), re_trial: z.clone(), lin_re: z.clone(), lin_de: z }
    }
}

/// The contacts taking part in the current step's solve (see `step::culling`); a left-out
/// contact's node is an identity block with zero multipliers.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    active: Vec<bool>,
}

impl Selection {
    /// Whether contact `ci` takes part.
    #[inline]
    pub fn contains(&self, ci: usize) -> bool {
        self.active[ci]
    }

    /// Copies `other`'s choice (of the same contacts).
    pub fn copy_from(&mut self, other: &Selection) {
        self.active.copy_from_slice(&other.active);
    }

    /// The contacts taking part, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.active.len()).filter(|&ci| self.active[ci])
    }
}

/// What a step's contact solve keeps per contact besides the graph vector.
#[derive(Debug, Clone, Default)]
pub struct ContactWork {
    pub nodes: ContactNodes,
    pub vars: ContactVariables,
    /// Each contact's point from the narrow phase at z_{k+1} (the step's first stages).
    pub points: Vec<ContactPoint>,
    /// Contact frames at z_{k+1} (set when a solve starts).
    pub frames: Vec<ContactFrame>,
    /// Predictor (affine) direction of each node's variables y = [K; E].
    pub dy_aff: Vec<[f64; MAX_Y]>,
    /// Change through [`ContactWork::set_active`].
    pub selection: Selection,
    /// Whether the solve under way moves second-order cone variables near their boundary
    /// along arcs (`Layout::trial`): the step's refined solves.
    pub arcs: bool,
    /// Each body's contacts (`interior_point::projected`'s `determinate`).
    pub by_body: BodyLists,
}

impl ContactWork {
    pub fn new(contacts: &[Contact]) -> ContactWork {
        ContactWork::with_limit_sides(contacts, 0)
    }

    /// The work of the contacts and of `limit_sides` frictionless limit nodes after them
    /// (inequality i: contact i, then limit side i − contacts; points only for contacts).
    pub fn with_limit_sides(contacts: &[Contact], limit_sides: usize) -> ContactWork {
        let nodes = ContactNodes::with_limit_sides(contacts, limit_sides);
        let n = nodes.count();
        ContactWork {
            vars: ContactVariables::new(nodes.e_len()),
            points: vec![ContactPoint::default(); contacts.len()],
            frames: vec![ContactFrame::default(); n],
            dy_aff: vec![[0.0; MAX_Y]; n],
            selection: Selection { active: vec![true; n] },
            arcs: false,
            by_body: BodyLists::new(contacts),
            nodes,
        }
    }

    pub fn count(&self) -> usize {
        self.nodes.count()
    }

    /// Contact `ci`'s variables y = [K; E] and a step dy of them: K from the graph vector
    /// slices `k` and `dk` (starting at the contact's address), E from `vars.e` and
    /// `vars.de`.
    #[inline(always)]
    pub fn node_and_step(&self, ci: usize, k: &[f64], dk: &[f64]) -> ([f64; MAX_Y], [f64; MAX_Y]) {
        let (mut y, mut dy) = ([0.0; MAX_Y], [0.0; MAX_Y]);
        self.node_and_step_into(ci, k, dk, &mut y, &mut dy);
        (y, dy)
    }

    /// [`ContactWork::node_and_step`] into the first ny entries of `y` and `dy` (buffers a
    /// loop over the contacts reuses: no zeroing and no copies per contact).
    #[inline(always)]
    pub fn node_and_step_into(&self, ci: usize, k: &[f64], dk: &[f64], y: &mut [f64; MAX_Y], dy: &mut [f64; MAX_Y]) {
        self.nodes.gather(ci, k, &self.vars.e, y);
        self.nodes.gather(ci, dk, &self.vars.de, dy);
    }

    /// Puts contact `ci` into the solve or leaves it out; a contact entering or leaving
    /// gets zero multipliers and direction (its variables are set again when a solve
    /// starts with it).
    pub fn set_active(&mut self, ci: usize, active: bool) {
        if self.selection.active[ci] == active {
            return;
        }
        self.selection.active[ci] = active;
        let l = self.nodes.layout(ci);
        let er = self.nodes.e_range(ci);
        let mut y = [0.0; MAX_Y];
        l.init(&mut y);
        self.vars.e[er.clone()].copy_from_slice(&y[l.nk..l.ny()]);
        self.vars.de[er].iter_mut().for_each(|d| *d = 0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::geometry::Shape;
    use crate::contact::ConeType;
    use crate::math::V3;

    fn ground(friction: f64, cone: ConeType) -> Contact {
        let shapes = [Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.0 }, Shape::Plane { normal: V3::z(), offset: 0.0 }];
        Contact { shapes, friction, cone, directions: 4 }
    }

    fn three() -> Vec<Contact> {
        vec![ground(0.5, ConeType::Linear), ground(0.0, ConeType::Linear), ground(0.5, ConeType::Nonlinear)]
    }

    #[test]
    fn e_ranges_tile_the_flat_vectors() {
        let nodes = ContactNodes::new(&three());
        let mut next = 0;
        for ci in 0..nodes.count() {
            let r = nodes.e_range(ci);
            assert_eq!((r.start, r.len()), (next, nodes.layout(ci).ne));
            next = r.end;
        }
        assert_eq!(nodes.e_len(), next);
        assert!(nodes.has_soc() && nodes.has_friction());
        assert!(!ContactNodes::new(&[ground(0.0, ConeType::Linear)]).has_friction());
    }

    #[test]
    fn a_contact_leaving_or_entering_restarts_at_the_cone_centre() {
        let mut cw = ContactWork::new(&three());
        cw.vars.e.iter_mut().for_each(|v| *v = 7.0);
        cw.vars.de.iter_mut().for_each(|v| *v = 3.0);
        cw.set_active(1, false);
        assert_eq!(cw.selection.iter().collect::<Vec<_>>(), vec![0, 2]);
        let (r0, r1) = (cw.nodes.e_range(0), cw.nodes.e_range(1));
        assert!(cw.vars.e[r1.clone()].iter().all(|&v| v == 1.0) && cw.vars.de[r1].iter().all(|&v| v == 0.0));
        assert!(cw.vars.e[r0.clone()].iter().all(|&v| v == 7.0) && cw.vars.de[r0].iter().all(|&v| v == 3.0));
        // no change, no reset
        cw.vars.e.iter_mut().for_each(|v| *v = 7.0);
        cw.set_active(1, false);
        assert!(cw.vars.e.iter().all(|&v| v == 7.0));
        cw.set_active(1, true);
        assert!(cw.selection.contains(1));
    }
}
