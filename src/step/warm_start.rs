//! Where a step's iterate starts: the last step's solution (joint multipliers, contact
//! variables) with the current velocities ż_k in the body rows, or — after two steps of
//! the same interval that the caller has not disturbed — the velocities extrapolated,
//! 2 ż_k − ż_{k−1}, and after three, 3 ż_k − 3 ż_{k−1} + ż_{k−2}: second and third order
//! in dt where ż_k is first order, so that Newton's first step lands where the
//! factorization can be reused (`newton::CHORD_CONTRACTION`).

use crate::data::{BodyStates, WarmStart};
use crate::model::Model;

/// The warm start into `s` for a step of interval `dt`. Also the restart of a solve that is repeated within a step
/// (a left-out contact added, a Tresca round, a cold restart).
pub fn warm_start(model: &Model, warm: &WarmStart, state: &BodyStates, dt: f64, s: &mut [f64]) {
    let at = &model.addresses;
    // the state's velocities are the last solution's unless the caller set them since
    let undisturbed = (0..state.v.len()).all(|i| at.velocities(&warm.solution, i) == (state.v[i], state.w[i]));
    s.copy_from_slice(&warm.solution);
    let extrapolate = warm.pair_interval == dt && undisturbed;
    // third order only without inequalities: a contact or limit makes the velocities jump,
    // and the second difference carries the jump into the next start (Talos landing on
    // its mesh feet failed at its step 11 so, and the A1 trot took 1.758 factorizations
    // per step instead of 1.733)
    let third_order = extrapolate && warm.intervals == [dt; 3] && model.inequality_count() == 0;
    for i in 0..state.v.len() {
        let o = at.body(i);
        if third_order {
            // 3 ż_k − 3 ż_{k−1} + ż_{k−2}: third order where ż_k is first order
            for k in 0..6 {
                s[o + k] = 3.0 * (warm.solution[o + k] - warm.previous[o + k]) + warm.older[6 * i + k];
            }
        } else if extrapolate {
            // velocities only: multipliers of redundant rows are not unique, and a step
            // along their null space leaves a residual the solve cannot remove
            for k in o..o + 6 {
                s[k] = 2.0 * warm.solution[k] - warm.previous[k];
            }
        }
        // a spin at or past 2/dt has no rotation step (its residual is NaN, and the
        // solve would fail before its first iteration): an extrapolated one falls back
        // to the current velocities, and a current one (after a split step's halves,
        // whose bound was 2/(dt/2)) starts at the margin in its direction
        if !extrapolate || spin_step(&s[o + 3..o + 6], dt) >= ANGULAR_SPEED_MARGIN {
            let w = state.w[i];
            let spin = spin_step(w.as_slice(), dt);
            let w = if spin >= ANGULAR_SPEED_MARGIN { w * (ANGULAR_SPEED_MARGIN / spin) } else { w };
            at.set_velocities(s, i, &state.v[i], &w);
        }
    }
}

/// |ω|·dt of the angular velocity `w`.
fn spin_step(w: &[f64], dt: f64) -> f64 {
    (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt() * dt
}

/// Largest |ω|·dt an extrapolated start keeps (the rotation step exists below 2).
const ANGULAR_SPEED_MARGIN: f64 = 1.9;

/// The fourth-order integrator's start: its steps take intervals of different lengths in
/// turn (`options::FOURTH_ORDER_PARTS` times dt, one of them negative), so `warm_start`
/// does not extrapolate them. Each solved velocity is the mean over its interval, the
/// velocity at the interval's middle to second order; the start is the line through the
/// last solution's and the one of the two before it whose middle lies farthest from it,
/// read at the middle of the new interval `dt`. Only where the caller has not set velocities since and the model has
/// no inequalities (as for the third order).
pub fn extrapolate_by_intervals(model: &Model, warm: &WarmStart, state: &BodyStates, dt: f64, s: &mut [f64]) {
    let [h0, h1, h2] = warm.intervals;
    if !(h0.is_finite() && h1.is_finite() && h2.is_finite()) || model.inequality_count() > 0 {
        return;
    }
    let at = &model.addresses;
    if !(0..state.v.len()).all(|i| at.velocities(&warm.solution, i) == (state.v[i], state.w[i])) {
        return;
    }
    // middles, from the start of the last solution's interval
    let (last, previous, older, new) = (0.5 * h0, -0.5 * h1, -h1 - 0.5 * h2, h0 + 0.5 * dt);
    let use_older = (older - last).abs() > (previous - last).abs();
    let partner = if use_older { older } else { previous };
    let slope = (new - last) / (last - partner);
    for i in 0..state.v.len() {
        let o = at.body(i);
        for k in 0..6 {
            let other = if use_older { warm.older[6 * i + k] } else { warm.previous[o + k] };
            s[o + k] = warm.solution[o + k] + slope * (warm.solution[o + k] - other);
        }
    }
    // a spin at or past 2/dt has no rotation step: keep the current velocities there
    if (0..state.v.len()).any(|i| spin_step(&s[at.body(i) + 3..at.body(i) + 6], dt.abs()) >= ANGULAR_SPEED_MARGIN) {
        for i in 0..state.v.len() {
            at.set_velocities(s, i, &state.v[i], &state.w[i]);
        }
    }
}
