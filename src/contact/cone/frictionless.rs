//! The frictionless node, y = [γ | s_φ]: only the normal pair, which `Layout` writes.

use super::ConeKind;
use crate::math::V3;

pub struct Frictionless;

impl ConeKind for Frictionless {
    fn init(&self, _y: &mut [f64]) {}

    fn centre(&self, _y: &mut [f64], _slip: &[f64], _mu: f64) {}

    fn scale(&self, _y: &mut [f64], _gamma: f64) {}

    fn residual(&self, _k: &[f64], _e: &[f64], _bv: &[f64], _bound: f64, _mu: f64, _rk: &mut [f64], _re: &mut [f64]) {}

    fn shift_barrier(&self, _re: &mut [f64], _d: f64) {}

    fn jacobian(&self, _k: &[f64], _e: &[f64], _mu_f_gamma: f64, _a: &mut [f64]) {}

    fn max_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        super::orthant_max_step(&y[..2], &dy[..2], limit)
    }

    fn complementarity(&self, re: &[f64], mu: f64) -> f64 {
        (re[0] + mu).abs()
    }

    fn products(&self, y: &[f64]) -> (f64, usize) {
        (y[0] * y[1], 1)
    }

    fn add_second_order(&self, _y: &[f64], _k: &[f64], _e: &[f64], _re: &mut [f64]) {}

    fn cone_equality(&self, _re: &[f64]) -> f64 {
        0.0
    }

    fn directions(&self, _t1: &V3, _t2: &V3, _out: &mut [V3]) {}

    fn slip_speed(&self) -> Option<usize> {
        None
    }
}
