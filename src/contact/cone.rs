//! Friction cones as the local equations of a contact node (paper eq. "friction NCP",
//! appendix C; the second-order cone as in Dojo's nonlinear contact).
//!
//! A node's variables y = [K | E]: K are the multipliers that act on the bodies (normal
//! force γ and friction magnitudes), E the slacks and cone variables that are condensed
//! inside the node. Its rows are [K rows | E rows]: the K rows are the ones that depend on
//! body velocities (the gap row and the slip rows), the E rows only on y. With φ the gap at
//! z_{k+2} and `bv` the slip velocity projected on the friction directions (both supplied
//! by the geometry), and μ the barrier parameter:
//!
//! Linear cone, directions d_i (i < nd), y = [γ, β | s_φ, ψ, s_ψ, η]:
//!   K: (s_φ − φ)/dt;  bv_i + ψ − η_i
//!   E: γ s_φ − μ;  s_ψ − (μ_f γ − Σβ);  ψ s_ψ − μ;  β_i η_i − μ
//! Second-order cone, tangents t1, t2, y = [γ, b | s_φ, β₀, η₀, e]:
//!   K: (s_φ − φ)/dt;  bv_i − e_i
//!   E: γ s_φ − μ;  β₀ − μ_f γ;  β∘η − μ(1,0,0)  (Jordan product, β = [β₀; b], η = [η₀; e])
//! Frictionless (μ_f = 0), y = [γ | s_φ]:  K: (s_φ − φ)/dt;  E: γ s_φ − μ.
//!
//! The gap row is divided by dt so that it is in velocity units like the slip rows and its
//! body entries (n·dt·/dt = n) are of order one next to body blocks of order m/dt.

mod frictionless;
mod linear;
mod nt_scaling;
mod soc;

pub use soc::soc_max_step;

use super::{ConeType, Contact, MAX_DIRECTIONS};
use crate::math::V3;
use frictionless::Frictionless;
use linear::Linear;
use soc::Soc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Frictionless,
    Linear,
    Soc,
}

/// Sizes of a contact node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub kind: Kind,
    /// Friction directions in the body coupling (nd for the linear cone, 2 for the SOC).
    pub nt: usize,
    /// Kept (graph) variables: 1 + nt.
    pub nk: usize,
    /// Condensed variables.
    pub ne: usize,
}

/// The node's usual sizes (nk, ne) at compile time: frictionless, linear cone of 4
/// directions, second-order cone. `$f(nk, ne)` is an `#[inline(always)]` kernel whose
/// loops unroll and whose copies become moves where the sizes are literals.
macro_rules! by_node_size {
    ($l:expr, $f:ident($($arg:expr),*)) => {
        match ($l.nk, $l.ne) {
            (1, 1) => $f(1, 1, $($arg),*),
            (5, 7) => $f(5, 7, $($arg),*),
            (3, 5) => $f(3, 5, $($arg),*),
            (nk, ne) => $f(nk, ne, $($arg),*),
        }
    };
}
pub(crate) use by_node_size;

/// Largest node sizes (for stack buffers).
pub const MAX_K: usize = 1 + MAX_DIRECTIONS;
pub const MAX_E: usize = 3 + MAX_DIRECTIONS;
pub const MAX_Y: usize = MAX_K + MAX_E;

/// One cone kind's part of a contact node (one file each: `frictionless`, `linear`, `soc`).
///
/// The normal pair (gap row K0 with slack s_φ = E0, and γ s_φ − μ = E0's row) is shared
/// and written by `Layout`; a kind writes its friction rows (`residual`, `jacobian`,
/// `shift_barrier`, `add_second_order`) and answers for the whole node where the answer
/// is one number over all rows (`max_step`, `complementarity`, `products`). `k` and `e`
/// are the node's K and E parts, `y` = [K | E], `re` its E rows, `a` its ny × ny Jacobian.
trait ConeKind {
    /// Moves the friction variables of an all-ones `y` into the cone's interior centre.
    fn init(&self, y: &mut [f64]);
    /// Scales the friction variables of a starting point by the normal force γ: force
    /// variables by γ, their partners (slips, sliding speed) by 1/γ, so that every product
    /// keeps its value.
    fn scale(&self, y: &mut [f64], gamma: f64);
    /// Puts the friction pairs of a warm-start `y` on the central path at barrier μ (see
    /// `Layout::centre`); `slip` is the slip velocity at the iterate (`nt` entries).
    fn centre(&self, y: &mut [f64], slip: &[f64], mu: f64);
    /// Friction K and E rows, with `bound` = μ_f × the normal force that bounds friction.
    // many arguments: per-contact kernel of every Newton iteration: the cone's inputs and its two output row slices
    #[allow(clippy::too_many_arguments)]
    fn residual(&self, k: &[f64], e: &[f64], bv: &[f64], bound: f64, mu: f64, rk: &mut [f64], re: &mut [f64]);
    /// Friction E rows at barrier μ + d from those at μ.
    fn shift_barrier(&self, re: &mut [f64], d: f64);
    /// Friction entries of the (zeroed) local Jacobian; ∂bound/∂γ = `mu_f_gamma`.
    fn jacobian(&self, k: &[f64], e: &[f64], mu_f_gamma: f64, a: &mut [f64]);
    fn max_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64;
    /// The interior point's trial point y + α dy (`Layout::trial`); a kind whose cone is
    /// curved moves along a curve with that tangent instead.
    fn trial(&self, y: &[f64], dy: &[f64], alpha: f64, out: &mut [f64]) {
        for ((o, &v), &d) in out.iter_mut().zip(y).zip(dy) {
            *o = v + alpha * d;
        }
    }
    /// Largest α ≤ `limit` whose trial point (`trial`) is still in the cones.
    fn max_trial_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        self.max_step(y, dy, limit)
    }
    fn complementarity(&self, re: &[f64], mu: f64) -> f64;
    fn products(&self, y: &[f64]) -> (f64, usize);
    /// Friction part of Mehrotra's second-order term at `y`, from the direction's K and E
    /// parts.
    fn add_second_order(&self, y: &[f64], k: &[f64], e: &[f64], re: &mut [f64]);
    fn cone_equality(&self, re: &[f64]) -> f64;
    /// The friction directions from the tangent basis (t1, t2).
    fn directions(&self, t1: &V3, t2: &V3, out: &mut [V3]);
    /// Index in E of the variable that equals the sliding speed at a solution (the linear
    /// cone's ψ, the second-order cone's η₀); None without friction.
    fn slip_speed(&self) -> Option<usize>;
}

/// The friction law a contact solve imposes.
///
/// Coulomb's law couples the friction bound to the normal force, which makes the
/// complementarity problem non-monotone; the step's rescues change the law for a solve
/// (`step::tresca`, `step::relaxed`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FrictionLaw {
    /// Friction bounded by μ_f γ (the paper's law).
    Coulomb,
    /// Friction bounded by μ_f ĝ with ĝ a fixed normal force (Tresca): monotone.
    Tresca(f64),
    /// Coulomb's cone with Anitescu's relaxation of the gap row: the gap at z_{k+2} is
    /// held at least dt μ_f times the sliding speed, s_φ = φ − dt μ_f v_slip ≥ 0. The
    /// coupling −μ_f of the cone row to γ then meets +μ_f of the gap row to the sliding
    /// speed, the problem is monotone (the optimality conditions of a convex program)
    /// and has a solution the interior point reaches. Sticking contacts (v_slip = 0) are
    /// exactly Coulomb's; a sliding one lifts by dt μ_f v_slip in the step.
    Relaxed,
}

impl FrictionLaw {
    /// Whether the friction bound depends on γ (∂bound/∂γ = μ_f).
    fn coupled(&self) -> bool {
        !matches!(self, FrictionLaw::Tresca(_))
    }
}

/// The single dispatch from a layout to its cone kind (static: each arm a concrete type).
macro_rules! with_cone {
    ($layout:expr, |$cone:ident| $body:expr) => {
        match $layout.kind {
            Kind::Frictionless => {
                let $cone = Frictionless;
                $body
            }
            Kind::Linear => {
                let $cone = Linear { nd: $layout.nt };
                $body
            }
            Kind::Soc => {
                let $cone = Soc;
                $body
            }
        }
    };
}

impl Layout {
    pub fn of(c: &Contact) -> Layout {
        if c.friction == 0.0 {
            return Layout { kind: Kind::Frictionless, nt: 0, nk: 1, ne: 1 };
        }
        match c.cone {
            ConeType::Linear => Layout { kind: Kind::Linear, nt: c.directions, nk: 1 + c.directions, ne: 3 + c.directions },
            ConeType::Nonlinear => Layout { kind: Kind::Soc, nt: 2, nk: 3, ne: 5 },
        }
    }

    pub fn ny(&self) -> usize {
        self.nk + self.ne
    }

    /// Index of s_φ in y.
    #[inline]
    pub fn s_phi(&self) -> usize {
        self.nk
    }

    /// A strictly interior starting point: all orthant variables 1, cone variables (1, 0, 0).
    pub fn init(&self, y: &mut [f64]) {
        y[..self.ny()].iter_mut().for_each(|v| *v = 1.0);
        with_cone!(self, |cone| cone.init(y))
    }

    /// A starting point with normal force γ instead of 1: the gap slack becomes 1/γ, so the
    /// normal product stays 1, and the friction pairs scale alike (`ConeKind::scale`).
    pub fn scale_normal(&self, y: &mut [f64], gamma: f64) {
        y[0] *= gamma;
        y[self.nk] /= gamma;
        with_cone!(self, |cone| cone.scale(y, gamma))
    }

    /// Puts a warm-start `y` on the central path at barrier μ (every complementarity
    /// product μ), keeping in each pair the partner that carries the solution: the gap
    /// slack is the gap φ at the iterate unless the normal force says the contact is
    /// closed (φ ≤ μ/γ), the normal force then follows as μ/s_φ; in the other pairs the
    /// larger partner stays and the smaller becomes μ over it (in a second-order cone,
    /// eigenvalue by eigenvalue in the frame the pair shares, with the slip `slip` at the
    /// iterate: `soc::Soc::centre`). Which partner is zero at a solution does not change
    /// often from step to step, so the Newton steps from here are long.
    pub fn centre(&self, y: &mut [f64], phi: f64, slip: &[f64], mu: f64) {
        let floor = mu.sqrt();
        let nk = self.nk;
        let gamma = y[0].max(floor);
        y[nk] = phi.max(mu / gamma);
        y[0] = mu / y[nk];
        with_cone!(self, |cone| cone.centre(y, slip, mu))
    }

    /// Local residual: K rows (without the body terms −φ/dt and bv, added by the caller
    /// through `phi` and `bv`) and E rows under the friction `law`.
    // many arguments: per-contact kernel of every Newton iteration: the contact's inputs and its two output row slices
    #[allow(clippy::too_many_arguments)]
    pub fn residual(&self, y: &[f64], phi: f64, bv: &[f64], mu_f: f64, law: FrictionLaw, dt: f64, mu: f64, rk: &mut [f64], re: &mut [f64]) {
        let (k, e) = y.split_at(self.nk);
        let gamma = k[0];
        let g_lim = if let FrictionLaw::Tresca(limit) = law { limit } else { gamma };
        let sphi = e[0];
        rk[0] = (sphi - phi) / dt;
        re[0] = gamma * sphi - mu;
        with_cone!(self, |cone| {
            if let (FrictionLaw::Relaxed, Some(v)) = (law, cone.slip_speed()) {
                rk[0] += mu_f * e[v];
            }
            cone.residual(k, e, bv, mu_f * g_lim, mu, rk, re)
        })
    }

    /// The normal pair closed (the active-set polish, `step::interior_point::polish`): its
    /// complementarity row γ s_φ − μ becomes the equality s_φ = 0, so the gap at z_{k+2}
    /// is held at exactly zero and γ is free. Overwrites that row of a residual from
    /// [`Layout::residual`].
    pub fn close_normal_row(&self, y: &[f64], re: &mut [f64]) {
        re[0] = y[self.nk];
    }

    /// The same for a local Jacobian from [`Layout::jacobian`]: ∂s_φ/∂(γ, s_φ) = (0, 1).
    pub fn close_normal_jacobian(&self, a: &mut [f64]) {
        let (ny, nk) = (self.ny(), self.nk);
        a[nk * ny] = 0.0;
        a[nk * ny + nk] = 1.0;
    }

    /// The E rows at barrier μ + d from those at μ: the rows that read "product − μ"
    /// (orthant pairs, the SOC's first Jordan row) lose d, the others are unchanged.
    pub fn shift_barrier(&self, re: &mut [f64], d: f64) {
        re[0] -= d;
        with_cone!(self, |cone| cone.shift_barrier(re, d))
    }

    /// Local Jacobian ∂[K rows; E rows]/∂y (ny × ny, row-major), body columns excluded,
    /// under the friction `law`.
    pub fn jacobian(&self, y: &[f64], mu_f: f64, law: FrictionLaw, dt: f64, a: &mut [f64]) {
        let mu_f_gamma = if law.coupled() { mu_f } else { 0.0 };
        let (ny, nk) = (self.ny(), self.nk);
        a[..ny * ny].iter_mut().for_each(|v| *v = 0.0);
        let (k, e) = y.split_at(nk);
        // the normal pair: ∂(s_φ/dt)/∂s_φ, ∂(γ s_φ)/∂(γ, s_φ)
        a[nk] = 1.0 / dt;
        a[nk * ny] = e[0];
        a[nk * ny + nk] = k[0];
        with_cone!(self, |cone| {
            if let (FrictionLaw::Relaxed, Some(v)) = (law, cone.slip_speed()) {
                a[nk + v] = mu_f;
            }
            cone.jacobian(k, e, mu_f_gamma, a)
        })
    }

    /// Largest α ≤ `limit` with y + α dy still in the cones (strictly: the boundary itself
    /// is excluded by the caller's fraction-to-boundary factor τ < 1).
    pub fn max_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        with_cone!(self, |cone| cone.max_step(y, dy, limit))
    }

    /// The interior point's trial point at step α along dy into `out` (ny entries):
    /// y + α dy, or with `arcs` a second-order cone's variables near their boundary turn
    /// along their arcs (`soc::cone_trial`). Its tangent at α = 0 is dy, Newton's step to
    /// first order.
    pub fn trial(&self, y: &[f64], dy: &[f64], alpha: f64, arcs: bool, out: &mut [f64]) {
        let ny = self.ny();
        if arcs {
            with_cone!(self, |cone| cone.trial(&y[..ny], &dy[..ny], alpha, &mut out[..ny]))
        } else {
            for ((o, &v), &d) in out[..ny].iter_mut().zip(&y[..ny]).zip(&dy[..ny]) {
                *o = v + alpha * d;
            }
        }
    }

    /// Largest α ≤ `limit` whose [`Layout::trial`] point is still in the cones (strictly:
    /// the caller's fraction-to-boundary factor τ < 1 keeps it off the boundary).
    pub fn max_trial_step(&self, y: &[f64], dy: &[f64], arcs: bool, limit: f64) -> f64 {
        if arcs {
            with_cone!(self, |cone| cone.max_trial_step(y, dy, limit))
        } else {
            self.max_step(y, dy, limit)
        }
    }

    /// Whether [`Layout::trial`] with arcs can differ from the straight step y + α dy.
    pub fn has_arcs(&self) -> bool {
        self.kind == Kind::Soc
    }

    /// Largest complementarity residual of the node at μ = 0 (the products).
    pub fn complementarity(&self, re: &[f64], mu: f64) -> f64 {
        with_cone!(self, |cone| cone.complementarity(re, mu))
    }

    /// (Sum of the complementarity products, their number) at y: the orthant pairs and the
    /// SOC's β·η (first Jordan row, whose central value is μ like an orthant pair's).
    pub fn products(&self, y: &[f64]) -> (f64, usize) {
        with_cone!(self, |cone| cone.products(y))
    }

    /// Mehrotra's second-order term: adds the products of the predictor direction's
    /// complementarity partners, Δy_a∘Δy_b (Jordan product for the SOC), to the E rows.
    pub fn add_second_order(&self, y: &[f64], dy: &[f64], re: &mut [f64]) {
        let (k, e) = dy.split_at(self.nk);
        re[0] += k[0] * e[0];
        with_cone!(self, |cone| cone.add_second_order(y, k, e, re))
    }

    /// Largest residual of the E rows that are not complementarity rows (cone equalities).
    pub fn cone_equality(&self, re: &[f64]) -> f64 {
        with_cone!(self, |cone| cone.cone_equality(re))
    }

    /// Friction force (world) of the node variables for the given tangent directions.
    pub fn friction_force(&self, y: &[f64], dirs: &[V3]) -> V3 {
        let mut f = V3::zeros();
        for i in 0..self.nt {
            f += dirs[i] * y[1 + i];
        }
        f
    }
}

/// The orthant pair (a, b) on the central path at μ: the larger partner (at least √μ)
/// stays, the smaller becomes μ over it.
fn centre_pair(a: &mut f64, b: &mut f64, mu: f64) {
    let (hi, lo) = if *a >= *b { (a, b) } else { (b, a) };
    *hi = hi.max(mu.sqrt());
    *lo = mu / *hi;
}

/// Largest α ≤ `limit` keeping every y_i + α dy_i ≥ 0 (all variables in the orthant).
fn orthant_max_step(y: &[f64], dy: &[f64], limit: f64) -> f64 {
    let mut am = limit;
    for (yi, di) in y.iter().zip(dy) {
        if *di < 0.0 {
            am = am.min(-yi / di);
        }
    }
    am
}

/// Orthonormal tangent basis (t1, t2) of a unit normal, built from the normal itself: t1 is
/// the world x axis projected on the tangent plane (the y axis when n is close to x), so a
/// z normal gives (x, y) and a tilted plane gives its slope directions.
pub fn tangent_basis(n: &V3) -> (V3, V3) {
    let e = if n.x.abs() < 0.9 { V3::x() } else { V3::y() };
    let t1 = (e - n * n.dot(&e)).normalize();
    (t1, n.cross(&t1))
}

/// The nt friction directions of a contact (world): nd evenly spaced directions of the
/// linear cone (t1, t2, −t1, −t2 for 4), or (t1, t2) for the SOC.
pub fn directions(layout: &Layout, n: &V3, out: &mut [V3; MAX_DIRECTIONS]) {
    let (t1, t2) = tangent_basis(n);
    with_cone!(layout, |cone| cone.directions(&t1, &t2, out))
}

#[cfg(test)]
mod tests;
