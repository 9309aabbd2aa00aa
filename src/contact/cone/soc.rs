//! The second-order cone, tangents t1, t2, y = [γ, b | s_φ, β₀, η₀, e]:
//!   K: bv_i − e_i
//!   E: β₀ − μ_f γ;  β∘η − μ(1,0,0)  (Jordan product, β = [β₀; b], η = [η₀; e])
//! (as in Dojo's nonlinear contact), after the normal pair. The complementarity rows are
//! Nesterov–Todd scaled (`nt_scaling`): with λ = Wη = W⁻¹β they read λ∘λ − μ(1,0,0), which
//! vanishes exactly where β∘η − μ(1,0,0) does, and their Newton rows
//! λ∘(W⁻¹Δβ + WΔη) (W held at the iterate) treat β and η alike: the plain Jordan
//! product's rows Arw(η)Δβ + Arw(β)Δη lose that symmetry off the central path and jam.

use super::nt_scaling::{jordan, NtScaling};
use super::ConeKind;
use crate::math::V3;

pub struct Soc;

const NK: usize = 3;
const NY: usize = NK + 5;

/// β = (E1, K1, K2) and η = (E2, E3, E4) of y = [K | E].
fn pair(k: &[f64], e: &[f64]) -> ([f64; 3], [f64; 3]) {
    ([e[1], k[1], k[2]], [e[2], e[3], e[4]])
}

impl ConeKind for Soc {
    /// b and e start at the cone axis.
    fn init(&self, y: &mut [f64]) {
        y[1] = 0.0;
        y[2] = 0.0;
        y[NK + 3] = 0.0;
        y[NK + 4] = 0.0;
    }

    /// The friction force β = (E1, K1, K2) by γ, the slip η = (E2, E3, E4) by 1/γ.
    fn scale(&self, y: &mut [f64], gamma: f64) {
        for i in [NK + 1, 1, 2] {
            y[i] *= gamma;
        }
        for i in [NK + 2, NK + 3, NK + 4] {
            y[i] /= gamma;
        }
    }

    /// β = (E1, K1, K2) and η = (E2, E3, E4) on the central path, β∘η = μ(1, 0, 0), by
    /// the orthant pairs' rule applied to their eigenvalues: x = λ₁u₁ + λ₂u₂ with
    /// u₁,₂ = (1, ±û)/2, and x∘z = μe exactly when x and z share û and each pair of
    /// eigenvalues multiplies to μ (Alizadeh & Goldfarb, "Second-order cone programming",
    /// 2003, §4). At a solution β's tangent part lies along û and η's along −û: a
    /// sliding contact has λ₂ = 0 and ν₁ = 0 (both on the boundary), a sticking one
    /// η = 0, a free one β = 0. Per pair the larger eigenvalue stays (at least √μ) and
    /// the smaller becomes μ over it, so a sliding contact keeps its friction force and
    /// its slip (one whole cone kept and the other μ times its Jordan inverse lost the
    /// slip or the force, and the next solve's first steps were cut to α ≈ 0.006 on the
    /// boundary). Where η carries the second pair (sliding, free) its tangent part
    /// becomes the slip `slip` at the iterate, the slip rows' solution (ν₂ = ν₁ + 2|slip|,
    /// û = −slip/|slip|), as the gap slack becomes the gap: a sliding foot's slip turns
    /// from step to step, and a cone variable near its boundary can turn only by
    /// √(λ₁λ₂)/x₀ per Newton step.
    fn centre(&self, y: &mut [f64], slip: &[f64], mu: f64) {
        let (beta, eta) = ([NK + 1, 1, 2], [NK + 2, NK + 3, NK + 4]);
        let mut u = shared_frame(y, beta, eta);
        let (mut lb, mut le) = (eigenvalues(y, beta, &u), eigenvalues(y, eta, &u));
        let speed = slip[0].hypot(slip[1]);
        let turn = le[1] > lb[1] && speed > 0.0;
        super::centre_pair(&mut lb[0], &mut le[0], mu);
        if turn {
            u = [-slip[0] / speed, -slip[1] / speed];
            le[1] = le[0] + 2.0 * speed;
        }
        super::centre_pair(&mut lb[1], &mut le[1], mu);
        for (x, l) in [(beta, lb), (eta, le)] {
            y[x[0]] = 0.5 * (l[0] + l[1]);
            y[x[1]] = 0.5 * (l[0] - l[1]) * u[0];
            y[x[2]] = 0.5 * (l[0] - l[1]) * u[1];
        }
    }

    fn residual(&self, k: &[f64], e: &[f64], bv: &[f64], bound: f64, mu: f64, rk: &mut [f64], re: &mut [f64]) {
        let (beta, eta) = pair(k, e);
        rk[1] = bv[0] - e[3];
        rk[2] = bv[1] - e[4];
        re[1] = beta[0] - bound;
        let lambda = NtScaling::of(&beta, &eta).apply(&eta);
        let ll = jordan(&lambda, &lambda);
        // λᵀλ = βᵀη: the first row as the product itself
        re[2] = jordan(&beta, &eta)[0] - mu;
        re[3] = ll[1];
        re[4] = ll[2];
    }

    fn shift_barrier(&self, re: &mut [f64], d: f64) {
        re[2] -= d;
    }

    fn jacobian(&self, k: &[f64], e: &[f64], mu_f_gamma: f64, a: &mut [f64]) {
        let mut set = |r: usize, c: usize, v: f64| a[r * NY + c] = v;
        let ie = |i: usize| NK + i; // index of E variable / E row i
        set(1, ie(3), -1.0);
        set(2, ie(4), -1.0);
        set(ie(1), ie(1), 1.0);
        set(ie(1), 0, -mu_f_gamma);
        // λ∘(W⁻¹Δβ) + λ∘(WΔη): column by column through the unit vectors
        let (beta, eta) = pair(k, e);
        let w = NtScaling::of(&beta, &eta);
        let lambda = w.apply(&eta);
        let (cols_beta, cols_eta) = ([ie(1), 1, 2], [ie(2), ie(3), ie(4)]);
        for j in 0..3 {
            let mut u = [0.0; 3];
            u[j] = 1.0;
            let (db, de) = (jordan(&lambda, &w.apply_inverse(&u)), jordan(&lambda, &w.apply(&u)));
            for r in 0..3 {
                set(ie(2 + r), cols_beta[j], db[r]);
                set(ie(2 + r), cols_eta[j], de[r]);
            }
        }
    }

    /// The normal pair as orthants, β and η as second-order cones.
    fn max_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        let mut am = limit;
        for i in [0, NK] {
            if dy[i] < 0.0 {
                am = am.min(-y[i] / dy[i]);
            }
        }
        let beta = [y[NK + 1], y[1], y[2]];
        let dbeta = [dy[NK + 1], dy[1], dy[2]];
        let eta = [y[NK + 2], y[NK + 3], y[NK + 4]];
        let deta = [dy[NK + 2], dy[NK + 3], dy[NK + 4]];
        am.min(soc_max_step(&beta, &dbeta)).min(soc_max_step(&eta, &deta))
    }

    /// The normal pair on the straight line, β and η along their arcs near the boundary
    /// (`cone_trial`).
    fn trial(&self, y: &[f64], dy: &[f64], alpha: f64, out: &mut [f64]) {
        for ((o, &v), &d) in out.iter_mut().zip(y).zip(dy) {
            *o = v + alpha * d;
        }
        for x in [[NK + 1, 1, 2], [NK + 2, NK + 3, NK + 4]] {
            let p = cone_trial(&[y[x[0]], y[x[1]], y[x[2]]], &[dy[x[0]], dy[x[1]], dy[x[2]]], alpha);
            for (&i, v) in x.iter().zip(p) {
                out[i] = v;
            }
        }
    }

    fn max_trial_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        let mut am = limit;
        for i in [0, NK] {
            if dy[i] < 0.0 {
                am = am.min(-y[i] / dy[i]);
            }
        }
        for x in [[NK + 1, 1, 2], [NK + 2, NK + 3, NK + 4]] {
            am = am.min(cone_trial_max_step(&[y[x[0]], y[x[1]], y[x[2]]], &[dy[x[0]], dy[x[1]], dy[x[2]]]));
        }
        am
    }

    fn complementarity(&self, re: &[f64], mu: f64) -> f64 {
        (re[0] + mu).abs().max((re[2] + mu).abs()).max(re[3].abs()).max(re[4].abs())
    }

    /// The normal pair and β·η (first Jordan row, whose central value is μ).
    fn products(&self, y: &[f64]) -> (f64, usize) {
        let (k, e) = y.split_at(NK);
        (k[0] * e[0] + e[1] * e[2] + k[1] * e[3] + k[2] * e[4], 2)
    }

    fn add_second_order(&self, y: &[f64], k: &[f64], e: &[f64], re: &mut [f64]) {
        let (beta, eta) = pair(&y[..NK], &y[NK..]);
        let w = NtScaling::of(&beta, &eta);
        let (db, de) = pair(k, e);
        let c = jordan(&w.apply_inverse(&db), &w.apply(&de));
        for r in 0..3 {
            re[2 + r] += c[r];
        }
    }

    fn cone_equality(&self, re: &[f64]) -> f64 {
        re[1].abs()
    }

    fn directions(&self, t1: &V3, t2: &V3, out: &mut [V3]) {
        out[0] = *t1;
        out[1] = *t2;
    }

    fn slip_speed(&self) -> Option<usize> {
        Some(2)
    }
}

/// The tangent û of the Jordan frame that β (indices `beta` in y) and η share: at a
/// central point β's tangent part lies along û and η's along −û, so û follows the
/// difference of the two, each relative to its axis; (1, 0) when both lie on the axis.
fn shared_frame(y: &[f64], beta: [usize; 3], eta: [usize; 3]) -> [f64; 2] {
    let relative = |x: [usize; 3]| if y[x[0]] > 0.0 { [y[x[1]] / y[x[0]], y[x[2]] / y[x[0]]] } else { [0.0, 0.0] };
    let (b, e) = (relative(beta), relative(eta));
    let u = [b[0] - e[0], b[1] - e[1]];
    let norm = u[0].hypot(u[1]);
    if norm > 0.0 {
        [u[0] / norm, u[1] / norm]
    } else {
        [1.0, 0.0]
    }
}

/// The eigenvalues (x₀ + x_rᵀû, x₀ − x_rᵀû) of the cone variable at indices `x` of y in
/// the frame û (a tangent part off û is dropped; inside the cone both are ≥ 0).
fn eigenvalues(y: &[f64], x: [usize; 3], u: &[f64; 2]) -> [f64; 2] {
    let along = y[x[1]] * u[0] + y[x[2]] * u[1];
    [(y[x[0]] + along).max(0.0), (y[x[0]] - along).max(0.0)]
}

/// A cone variable turns along its arc ([`arc_step`]) once its tangent part is at least
/// this fraction of its axis part (its eigenvalues x₀ ± |x_r| at least 3 : 1 apart):
/// nearer the axis the frame of its eigenvalues is not defined well, and it moves on the
/// straight line.
const ARC_FROM: f64 = 0.5;

fn on_arc(x: &[f64; 3]) -> bool {
    let rho = x[1].hypot(x[2]);
    rho > 0.0 && rho >= ARC_FROM * x[0]
}

/// The point at step α from x along dx in the eigenvalues' terms (Alizadeh & Goldfarb
/// 2003, §4: x = λ₁u₁ + λ₂u₂, u₁,₂ = (1, ±û)/2): the axis part x₀ and the tangent part's
/// length ρ = |x_r| move on straight lines (ρ by dρ, dx_r's part along x_r), so both
/// eigenvalues x₀ ± ρ do, and the tangent part turns to the chord x_r + α dx_r. Its
/// tangent at α = 0 is dx (a retraction: Newton's step to first order), but turning the
/// frame û costs no eigenvalue. On the straight line a variable near the boundary
/// (λ₂ ≪ λ₁) can turn only by about √(λ₁λ₂)/x₀ before it leaves the cone: a sliding foot
/// whose slip must turn within the step, with β and η both near their boundaries, then
/// crawls at that rate once the barrier is small (docs/RELIABILITY.md).
fn arc_step(x: &[f64; 3], dx: &[f64; 3], alpha: f64) -> [f64; 3] {
    let line = [x[0] + alpha * dx[0], x[1] + alpha * dx[1], x[2] + alpha * dx[2]];
    let chord = line[1].hypot(line[2]);
    if chord == 0.0 {
        return line;
    }
    let rho = x[1].hypot(x[2]);
    let length = rho + alpha * (x[1] * dx[1] + x[2] * dx[2]) / rho;
    [line[0], line[1] * length / chord, line[2] * length / chord]
}

/// Largest α > 0 with [`arc_step`] in the second-order cone, x interior with x_r ≠ 0: on
/// the arc both eigenvalues x₀ ± ρ are linear in α, an orthant pair's rule.
fn arc_max_step(x: &[f64; 3], dx: &[f64; 3]) -> f64 {
    let rho = x[1].hypot(x[2]);
    let drho = (x[1] * dx[1] + x[2] * dx[2]) / rho;
    let mut am = f64::INFINITY;
    for (l, dl) in [(x[0] + rho, dx[0] + drho), (x[0] - rho, dx[0] - drho)] {
        if dl < 0.0 {
            am = am.min(-l / dl);
        }
    }
    am
}

/// The trial point of a cone variable (`ConeKind::trial` with arcs): along its arc where
/// it is near the boundary, else on the straight line.
pub fn cone_trial(x: &[f64; 3], dx: &[f64; 3], alpha: f64) -> [f64; 3] {
    if on_arc(x) {
        arc_step(x, dx, alpha)
    } else {
        [x[0] + alpha * dx[0], x[1] + alpha * dx[1], x[2] + alpha * dx[2]]
    }
}

/// Largest α > 0 with [`cone_trial`] in the second-order cone.
pub fn cone_trial_max_step(x: &[f64; 3], dx: &[f64; 3]) -> f64 {
    if on_arc(x) {
        arc_max_step(x, dx)
    } else {
        soc_max_step(x, dx)
    }
}

/// Largest α > 0 with x + α dx in the second-order cone {x₀ ≥ |x₁:₂|}, x interior;
/// +∞ if the whole ray stays inside.
pub fn soc_max_step(x: &[f64; 3], dx: &[f64; 3]) -> f64 {
    let a = dx[0] * dx[0] - dx[1] * dx[1] - dx[2] * dx[2];
    let b = 2.0 * (x[0] * dx[0] - x[1] * dx[1] - x[2] * dx[2]);
    let c = x[0] * x[0] - x[1] * x[1] - x[2] * x[2];
    let mut am = f64::INFINITY;
    if a.abs() < 1e-300 {
        if b < 0.0 {
            am = -c / b;
        }
    } else {
        let disc = b * b - 4.0 * a * c;
        if disc >= 0.0 {
            let q = -0.5 * (b + disc.sqrt().copysign(b));
            for r in [q / a, if q != 0.0 { c / q } else { f64::INFINITY }] {
                if r > 0.0 {
                    am = am.min(r);
                }
            }
        }
    }
    if dx[0] < 0.0 {
        am = am.min(-x[0] / dx[0]);
    }
    am
}
