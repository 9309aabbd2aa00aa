//! A model's fingerprint: a 64-bit hash (FNV-1a) of every number and choice it was built
//! with (bodies, joints, force elements, described contacts, limits, mimics, frames,
//! collision shapes and settings), so that a saved state names the model it came from
//! (`sim::snapshot`): two models with the same structure but another mass, pose, shape
//! or option differ. Debug formatting prints each double in its shortest exact form, so
//! the text, and the hash, changes with any bit of any number. Streamed: no text is
//! kept. It costs a formatting of the whole model (5 % of building one), so it is taken
//! when a state is first saved or restored, not when the model is built.

use std::fmt::Write;

use std::fmt::Debug;

struct Fnv(u64);

impl Write for Fnv {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        for &b in s.as_bytes() {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(())
    }
}

/// The fingerprint of the numbers in `value`'s Debug text.
pub fn of(value: &impl Debug) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    write!(h, "{value:?}").expect("hashing never fails");
    h.0
}
