"""The constants of maxdyn.h: the world's id, sizes, joint types, friction cones and
collision shape types."""

WORLD = -1
"""The world's id where a body id is expected (a joint's parent, a contact's side b)."""
BODY_STATE_SIZE = 13
"""Numbers in a body state: x(3), q(4: w, x, y, z), v(3, world), omega(3, body)."""
CONTACT_SIZE = 5
JOINT_TOLERANCE = 1e-6
"""The largest joint violation a step starts from (maxdyn.h MAXDYN_JOINT_TOLERANCE)."""
# integrators (maxdyn.h MAXDYN_INTEGRATOR_*; SolverOptions.integrator)
INTEGRATOR_FIRST_ORDER, INTEGRATOR_SECOND_ORDER, INTEGRATOR_FOURTH_ORDER = 0, 1, 2
# friction cones (maxdyn.h MAXDYN_CONE_*)
CONE_LINEAR, CONE_NONLINEAR = 0, 1
# joint types (maxdyn.h MAXDYN_JOINT_*)
(FIXED, PRISMATIC, PLANAR, FIXED_ORIENTATION, REVOLUTE, CYLINDRICAL, PLANAR_AXIS,
 FREE_REVOLUTE, SPHERICAL, CYLINDRICAL_FREE, PLANAR_FREE, FLOATING, UNIVERSAL) = range(13)
# collision shape types (maxdyn.h MAXDYN_SHAPE_*): params plane (), sphere (radius,),
# capsule and cylinder (radius, half_length along z), box (three half extents); a hull
# takes points (Builder.add_hull_shape); a height field heights (Builder.add_heightfield_shape)
# and a triangle mesh vertices and triangles (Builder.add_trimesh_shape), both in the world only
(SHAPE_PLANE, SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_BOX, SHAPE_CYLINDER, SHAPE_HULL, SHAPE_HEIGHTFIELD,
 SHAPE_TRIMESH) = range(8)
SHAPE_MAX_SIZE = 1e12
"""The largest shape size and distance from its body's origin, m (maxdyn.h MAXDYN_SHAPE_MAX_SIZE)."""
# axes and coordinates of the queries (Sim.frame_jacobian and friends)
AXES_WORLD, AXES_LOCAL = 0, 1
COORDS_MINIMAL, COORDS_MAXIMAL = 0, 1
