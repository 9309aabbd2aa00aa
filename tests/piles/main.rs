//! Frictional piles (issue 24): many mutually touching contacts, statically indeterminate
//! forces. The 100-body pours and the A1 drops are measured by `cargo bench --bench piles`.

mod a1_drops;
mod failed_step;
mod pours;
mod robot_drops;
mod spheres;
#[path = "../common/require.rs"]
mod require;
