classdef MaxdynJoint
  % Joint types (maxdyn.h MAXDYN_JOINT_*) and the world's id.
  properties (Constant)
    WORLD = -1
    FIXED = 0
    PRISMATIC = 1
    PLANAR = 2
    FIXED_ORIENTATION = 3
    REVOLUTE = 4
    CYLINDRICAL = 5
    PLANAR_AXIS = 6
    FREE_REVOLUTE = 7
    SPHERICAL = 8
    CYLINDRICAL_FREE = 9
    PLANAR_FREE = 10
    FLOATING = 11
    UNIVERSAL = 12
  end
end
