//! The size bound every collision shape is checked against (primitives here in `shape`,
//! terrain in `terrain`); its own file so that both read it without importing each other.

/// The largest size (a radius, half-length or half extent) and distance from its body's
/// origin (its pose's position) a collision shape may have, in m. Contacts resolve gaps
/// to the spacing of doubles at the shapes' coordinates: at 1e15 m that spacing (0.125 m)
/// exceeds the contact margin (5 cm), no contact is found, and a body of that size fell
/// through the ground with every step OK; at 1e14 m (spacing 1.6e-2 m) the contact is
/// found but the solve's answer is rounding (the sphere thrown up at 40 m/s). The
/// narrow phase alone stays exact to 1e154 (beyond, squares overflow). docs/COLLISION.md.
pub const MAX_SHAPE_SIZE: f64 = 1e12;
