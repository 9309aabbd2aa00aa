//! The seeded generator of the fuzz tests (tests/fuzz_capi.rs, tests/fuzz_urdf.rs): each
//! adds the draws it needs in its own `impl Rng`.

/// xorshift64*: deterministic, dependency-free.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}
