//! Frictional piles: the scenes of issue 24 (many mutually touching contacts, statically
//! indeterminate forces).

mod scenes;
mod spheres;
mod pours;
mod a1;
