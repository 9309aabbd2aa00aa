//! Collision shapes on bodies (issue 12): contacts found every step between shapes, several
//! points per pair, body–body contacts through the broad phase; convex hulls and the pairs
//! parry serves (issue 25, `hulls.rs`); a hull tipping onto a face lands without sinking
//! (`hull_tipping.rs`); every shape sliding to the analytic stop (`sliding.rs`); boxes,
//! hulls and cylinders tipping on an edge as the analytic pendulum (`tipping.rs`); height
//! fields and triangle meshes, static world geometry (`terrain.rs`, `trimesh.rs`, from C
//! `terrain_capi.rs`), the A1 dropped on rough terrain (`rough_terrain.rs`).

#[path = "../common/require.rs"]
mod require;

mod boxes;
mod capi;
mod collision_search;
mod curved;
mod hulls;
mod overlap;
mod panda_grasp;
mod panda_lift;
mod rolling;
mod size_bound;
mod srdf;
mod talos;
mod terrain;
mod rough_terrain;
mod terrain_capi;
mod trimesh;
mod urdf_trimesh;
mod robots;
mod stacks;
mod state;
mod hull_tipping;
mod sliding;
mod tipping;
mod turning_face;
