//! Force elements' rows (`wrench_pair`: one (jv, jw) per body) and their derivatives with
//! respect to both bodies' poses, tangents (δx world, δφ body frame), q ← q ⊗ (1, δφ/2),
//! so that δ(Q v) = −Q [v]× δφ and δ(Qᵀ w) = [Qᵀ w]× δφ.
//!
//! An element with generalized force f adds −f [jv; 2 jw] to each of its body's residual
//! rows, so its block on rows of body x and the pose of body y is
//!   −([jv_x; 2 jw_x] ∂f/∂z_y + f S ∂(jv_x, jw_x)/∂z_y),   S = diag(1, 1, 1, 2, 2, 2).

use crate::forces::joint_directions::{gradient_rows, rate_rows_at};
use crate::forces::rotation_log::{inverse_right_jacobian, inverse_right_jacobian_derivative};
use crate::forces::wrench_pair::{BodyRow, WrenchPair};
use crate::joints::constraint::Pose;
use crate::joints::tangent::Placement;
use crate::joints::{Joint, RotationChart};
use crate::math::{rotation, rotation_vector, skew, M3, M6, V3, V6};
use crate::model::forces::PointSpring;

/// A pair of rows with d[x][y] = ∂(jv, jw of side x)/∂(δx, δφ of side y), side 0 the
/// parent a (unused when a is the world), side 1 the child b.
#[derive(Debug, Clone, Copy)]
pub struct PairDerivative {
    pub pair: WrenchPair,
    pub d: [[M6; 2]; 2],
}

/// The 6×6 derivative of one row (rows jv, jw) by one pose (columns δx, δφ).
fn block(jv_dx: M3, jv_dphi: M3, jw_dx: M3, jw_dphi: M3) -> M6 {
    let mut m = M6::zeros();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&jv_dx);
    m.fixed_view_mut::<3, 3>(0, 3).copy_from(&jv_dphi);
    m.fixed_view_mut::<3, 3>(3, 0).copy_from(&jw_dx);
    m.fixed_view_mut::<3, 3>(3, 3).copy_from(&jw_dphi);
    m
}

/// A derivative by δφ only, of jw only.
fn turning(jw_dphi: M3) -> M6 {
    block(M3::zeros(), M3::zeros(), M3::zeros(), jw_dphi)
}

fn stacked(r: &BodyRow) -> V6 {
    V6::new(r.jv.x, r.jv.y, r.jv.z, r.jw.x, r.jw.y, r.jw.z)
}

impl PairDerivative {
    fn sides(&self) -> impl Iterator<Item = (usize, &BodyRow)> {
        self.pair.a.iter().map(|r| (0, r)).chain(std::iter::once((1, &self.pair.b)))
    }

    /// (jv, jw) of each side: the gradient of the pair's coordinate when the rows are
    /// gradient rows.
    pub fn rows_stacked(&self) -> [V6; 2] {
        [self.pair.a.as_ref().map_or(V6::zeros(), stacked), stacked(&self.pair.b)]
    }

    /// ∂ξ/∂z of each side, ξ the pair's rate at velocities `vel(i) = (v_i, ω_i)`.
    pub fn rate_gradient(&self, vel: impl Fn(usize) -> (V3, V3)) -> [V6; 2] {
        let mut out = [V6::zeros(); 2];
        for (x, row) in self.sides() {
            let (v, w) = vel(row.body);
            let vw = V6::new(v.x, v.y, v.z, w.x, w.y, w.z);
            for (y, o) in out.iter_mut().enumerate() {
                *o += self.d[x][y].tr_mul(&vw);
            }
        }
        out
    }

    /// Adds the blocks of the residual terms −f [jv; 2 jw] with ∂f/∂z of each side `df`
    /// (see the module comment) through `add(row_body, col_body, block)`, row-major.
    pub fn add_blocks(&self, f: f64, df: &[V6; 2], add: &mut impl FnMut(usize, usize, &[f64; 36])) {
        for (x, rx) in self.sides() {
            let wx = [rx.jv.x, rx.jv.y, rx.jv.z, 2.0 * rx.jw.x, 2.0 * rx.jw.y, 2.0 * rx.jw.z];
            for (y, ry) in self.sides() {
                let mut blk = [0.0; 36];
                for r in 0..6 {
                    let fs = if r < 3 { f } else { 2.0 * f };
                    for c in 0..6 {
                        blk[r * 6 + c] = -(wx[r] * df[y][c] + fs * self.d[x][y][(r, c)]);
                    }
                }
                add(rx.body, ry.body, &blk);
            }
        }
    }
}

/// Rate rows of joint `j`'s free direction `i` (`joint_directions::rate_rows_at`) and
/// their derivatives.
pub fn rate(j: &Joint, a: &Placement, b: &Placement, i: usize) -> PairDerivative {
    let pair = rate_rows_at(j, a, b, i);
    let nt = j.ct.len;
    let zero = M6::zeros();
    let (ra, rb) = (&a.r, &b.r);
    if i < nt {
        // e = R_a c, u = R_aᵀ(x_b + R_b p_b − x_a); rows a: (−e, c × u), b: (e, p_b × R_bᵀ e)
        let c = j.ct.dirs[i];
        let (cx, pbx) = (skew(&c), skew(&j.p_child));
        let u = ra.tr_mul(&(b.x + rb * j.p_child - a.x));
        let de_dphi_a = -ra * cx;
        let a_side = [
            block(M3::zeros(), -de_dphi_a, -cx * ra.transpose(), cx * skew(&u)),
            block(M3::zeros(), M3::zeros(), cx * ra.transpose(), -cx * ra.tr_mul(rb) * pbx),
        ];
        let b_side = [block(M3::zeros(), de_dphi_a, M3::zeros(), pbx * rb.tr_mul(&de_dphi_a)), turning(pbx * skew(&rb.tr_mul(&(ra * c))))];
        return PairDerivative { pair, d: [a_side, b_side] };
    }
    if let Some(bc) = j.child_fixed_axis(i - nt) {
        // an axis fixed in the child, u = R_aᵀ R_b b_c: rows a: −u, b: b_c (fixed)
        let ra_rb = ra.tr_mul(rb);
        let u = ra_rb * bc;
        return PairDerivative { pair, d: [[turning(-skew(&u)), turning(ra_rb * skew(&bc))], [zero, zero]] };
    }
    // a fixed direction c (parent frame): rows a: −c, b: R_bᵀ R_a c
    let c = j.cr.dirs[i - nt];
    let rb_ra = rb.tr_mul(ra);
    PairDerivative { pair, d: [[zero, zero], [turning(-rb_ra * skew(&c)), turning(skew(&(rb_ra * c)))]] }
}

/// Gradient rows of joint `j`'s minimal coordinate `i` (`joint_directions::gradient_rows`)
/// and their derivatives: the second derivatives of the coordinate.
pub fn gradient(j: &Joint, a: &Placement, b: &Placement, i: usize) -> PairDerivative {
    let nt = j.ct.len;
    if i < nt || j.rotation_chart() == RotationChart::Angles {
        return rate(j, a, b, i);
    }
    let (pa, pb) = (Pose { x: a.x, q: a.q }, Pose { x: b.x, q: b.q });
    let pair = gradient_rows(j, &pa, &pb, i);
    // rows a: −J c, b: Q(q_off)ᵀ Jᵀ c with J = J_r⁻¹(r), r the relative rotation vector,
    // δr = J Q(q_off) δφ_b − Jᵀ δφ_a, and Jᵀ(r) = J(−r)
    let c = j.cr.dirs[i - nt];
    let r = rotation_vector(&j.relative_rotation(&pa, &pb));
    let jinv = inverse_right_jacobian(&r);
    let q_off = rotation(&j.q_offset);
    let dr = [-jinv.transpose(), jinv * q_off];
    let da = -inverse_right_jacobian_derivative(&r, &c);
    let db = -q_off.tr_mul(&inverse_right_jacobian_derivative(&-r, &c));
    PairDerivative { pair, d: [[turning(da * dr[0]), turning(da * dr[1])], [turning(db * dr[0]), turning(db * dr[1])]] }
}

/// ∂θ_i/∂z of joint `j`'s minimal coordinate `i` per side (parent, child), as (δx, δφ)
/// rows: the gradient rows, except for the angles of the angles' chart, whose rows
/// (`joint_directions::gradient_rows`) are their gradients only where the joint's
/// constraint holds; at z_{k+1} it need not.
/// `rows` is [`gradient`] of the same coordinate.
pub fn coordinate_gradient(j: &Joint, a: &Placement, b: &Placement, i: usize, rows: &PairDerivative) -> [V6; 2] {
    let nt = j.ct.len;
    if j.rotation_chart() != RotationChart::Angles || i < nt {
        return rows.rows_stacked();
    }
    let (ga, gb) = j.angle_gradients(&a.q, &b.q);
    // δψ = R_aᵀ R_b δφ_b − δφ_a, the relative rotation's left perturbation (parent frame)
    let g = if i == nt { ga } else { gb };
    let rb_ra_g = b.r.tr_mul(&(a.r * g));
    [V6::new(0.0, 0.0, 0.0, -g.x, -g.y, -g.z), V6::new(0.0, 0.0, 0.0, rb_ra_g.x, rb_ra_g.y, rb_ra_g.z)]
}

/// Rows of a point spring's length (`PointSpring::rows`) and their derivatives, with its
/// length, at the placements `place(i)`; None when the element is inactive.
pub fn point_spring(sp: &PointSpring, place: impl Fn(usize) -> Placement) -> Option<(PairDerivative, f64)> {
    let (pair, len) = sp.rows(|k| (place(k).x, place(k).q))?;
    // u = d/ℓ, d = x_b + R_b p_b − x_a − R_a p_a; ∂u/∂d = (I − u uᵀ)/ℓ
    let u = pair.b.jv;
    let p = (M3::identity() - u * u.transpose()) / len;
    let rb = place(sp.b).r;
    let ra = sp.a.map_or(M3::identity(), |a| place(a).r);
    // ∂u/∂(δx, δφ) of a and b
    let du = [(-p, p * ra * skew(&sp.pa)), (p, -p * rb * skew(&sp.pb))];
    // jw_a = −p_a × R_aᵀ u, jw_b = p_b × R_bᵀ u
    let side = |sign: f64, r: &M3, arm: &V3, own: usize| -> [M6; 2] {
        let ax = skew(arm) * sign;
        let turn = |y: usize| if y == own { skew(&r.tr_mul(&u)) } else { M3::zeros() };
        [0, 1].map(|y| block(du[y].0 * sign, du[y].1 * sign, ax * r.transpose() * du[y].0, ax * (r.tr_mul(&du[y].1) + turn(y))))
    };
    let d = [side(-1.0, &ra, &sp.pa, 0), side(1.0, &rb, &sp.pb, 1)];
    Some((PairDerivative { pair, d }, len))
}
