classdef MaxdynBuilder < MaxdynHandle
  % A mechanism under construction (wraps maxdyn_builder). Ids are the C API's:
  % bodies and joints count from 0; the world is MaxdynJoint.WORLD (-1).
  %
  %   b = MaxdynBuilder();                       % or MaxdynBuilder.fromUrdf(path, floating)
  %   body = b.addBody(1.0, eye(3) / 600);
  %   j = b.addJoint(MaxdynJoint.REVOLUTE, MaxdynJoint.WORLD, body, [0 0 0], [0 0 1], [1 0 0]);
  %   m = MaxdynModel(b);
  methods
    function obj = MaxdynBuilder(h)
      if nargin == 0
        obj.handle = maxdyn_mex('builder_new');
      else
        obj.handle = h;   % used by fromUrdf
      end
    end
    function setGravity(obj, g)
      maxdyn_mex('builder_set_gravity', obj.handle, g);
    end
    function id = addBody(obj, mass, inertia)
      % inertia: 3x3 about the centre of mass in the body frame
      id = maxdyn_mex('builder_add_body', obj.handle, mass, inertia);
    end
    function setBodyPose(obj, body, x, q)
      % q = [w x y z], body to world
      maxdyn_mex('builder_set_body_pose', obj.handle, body, x, q);
    end
    function setBodyVelocity(obj, body, v, omega)
      maxdyn_mex('builder_set_body_velocity', obj.handle, body, v, omega);
    end
    function id = addJoint(obj, type, parent, child, pParent, pChild, axis)
      if nargin < 7
        axis = [1 0 0];
      end
      id = maxdyn_mex('builder_add_joint', obj.handle, type, parent, child, pParent, pChild, axis);
    end
    function setJointOffset(obj, joint, q)
      maxdyn_mex('builder_set_joint_offset', obj.handle, joint, q);
    end
    function id = addGroundContact(obj, body, p, radius, friction)
      % sphere of radius (0: a point) at body point p against the ground z >= 0
      id = maxdyn_mex('builder_add_ground_contact', obj.handle, body, p, radius, friction);
    end
    function id = addPlaneContact(obj, body, p, radius, normal, offset, friction)
      % the same against the half-space normal . x >= offset
      id = maxdyn_mex('builder_add_plane_contact', obj.handle, body, p, radius, normal, offset, friction);
    end
    function id = addSphereContact(obj, bodyA, pa, ra, bodyB, pb, rb, friction)
      id = maxdyn_mex('builder_add_sphere_contact', obj.handle, bodyA, pa, ra, bodyB, pb, rb, friction);
    end
    function setContactCone(obj, contact, coneType, directions)
      % coneType: MaxdynCone.LINEAR (directions even, 2..16) or MaxdynCone.NONLINEAR
      if nargin < 4
        directions = 4;
      end
      maxdyn_mex('builder_set_contact_cone', obj.handle, contact, coneType, directions);
    end
    function n = contactCount(obj)
      n = maxdyn_mex('builder_contact_count', obj.handle);
    end
    function setJointSpring(obj, joint, stiffness, rest)
      % one stiffness and rest value per free direction of the joint
      maxdyn_mex('builder_set_joint_spring', obj.handle, joint, stiffness, rest);
    end
    function setJointDamper(obj, joint, damping)
      maxdyn_mex('builder_set_joint_damper', obj.handle, joint, damping);
    end
    function id = addSpring(obj, bodyA, pa, bodyB, pb, stiffness, damping, restLength)
      % point-to-point spring-damper; bodyA may be MaxdynJoint.WORLD
      id = maxdyn_mex('builder_add_spring', obj.handle, bodyA, pa, bodyB, pb, stiffness, damping, restLength);
    end
    function setBodyName(obj, body, name)
      maxdyn_mex('builder_set_body_name', obj.handle, body, name);
    end
    function setJointName(obj, joint, name)
      maxdyn_mex('builder_set_joint_name', obj.handle, joint, name);
    end
    function setJointLimits(obj, joint, lower, upper)
      % one lower and upper bound per free direction (translations first); -Inf / Inf: free
      maxdyn_mex('builder_set_joint_limits', obj.handle, joint, lower, upper);
    end
    function id = addMimic(obj, follower, leader, multiplier, offset)
      % q_follower = multiplier * q_leader + offset (one-coordinate joints)
      if nargin < 4
        multiplier = 1;
      end
      if nargin < 5
        offset = 0;
      end
      id = maxdyn_mex('builder_add_mimic', obj.handle, follower, leader, multiplier, offset);
    end
    function id = addFrame(obj, name, body, pose)
      % a named frame fixed to body (or MaxdynJoint.WORLD) at pose = [x y z qw qx qy qz]
      if nargin < 4
        pose = [0 0 0 1 0 0 0];
      end
      id = maxdyn_mex('builder_add_frame', obj.handle, name, body, pose);
    end
    function n = bodyCount(obj)
      n = maxdyn_mex('builder_body_count', obj.handle);
    end
    function n = jointCount(obj)
      n = maxdyn_mex('builder_joint_count', obj.handle);
    end
    % --- collision shapes (docs/COLLISION.md)
    function id = addShape(obj, body, type, params, pose)
      % a collision shape of type MaxdynBuilder.SHAPE_* on body (or MaxdynJoint.WORLD):
      % params [] (plane), r (sphere), [r halfLength] (capsule, cylinder), [hx hy hz]
      % (box); pose = [x y z qw qx qy qz] in the body frame (origin at the centre of mass)
      if nargin < 4
        params = [];
      end
      if nargin < 5
        pose = [0 0 0 1 0 0 0];
      end
      id = maxdyn_mex('builder_add_shape', obj.handle, body, type, params, pose);
    end
    function id = addHullShape(obj, body, points, pose)
      % the convex hull of points (an n x 3 matrix, one point per row, in the shape
      % frame) on body (or MaxdynJoint.WORLD); pose = [x y z qw qx qy qz] in the body
      % frame; type MaxdynBuilder.SHAPE_HULL
      if nargin < 4
        pose = [0 0 0 1 0 0 0];
      end
      id = maxdyn_mex('builder_add_hull_shape', obj.handle, body, points, pose);
    end
    function setShapeFriction(obj, shape, mu)
      maxdyn_mex('builder_set_shape_friction', obj.handle, shape, mu);
    end
    function setCollisionFilter(obj, shape, group, mask)
      % two shapes collide when each one's group shares a bit with the other's mask
      maxdyn_mex('builder_set_collision_filter', obj.handle, shape, group, mask);
    end
    function excludeShapePair(obj, shapeA, shapeB)
      maxdyn_mex('builder_exclude_shape_pair', obj.handle, shapeA, shapeB);
    end
    function setCollisionCone(obj, coneType, directions)
      maxdyn_mex('builder_set_collision_cone', obj.handle, coneType, directions);
    end
    function setJointedBodiesCollide(obj, collide)
      maxdyn_mex('builder_set_jointed_bodies_collide', obj.handle, double(logical(collide)));
    end
    function n = shapeCount(obj)
      n = maxdyn_mex('builder_shape_count', obj.handle);
    end
  end
  properties (Constant)
    SHAPE_PLANE = 0
    SHAPE_SPHERE = 1
    SHAPE_CAPSULE = 2
    SHAPE_BOX = 3
    SHAPE_CYLINDER = 4
    SHAPE_HULL = 5
  end
  methods (Static)
    function obj = fromUrdf(path, floating)
      if nargin < 2
        floating = false;
      end
      obj = MaxdynBuilder(maxdyn_mex('builder_from_urdf', path, double(logical(floating))));
    end
    function [obj, warnings] = fromUrdfWith(path, varargin)
      % options as name/value pairs: floating, merge_fixed, joint_limits (default 1),
      % collision, ground_plane, self_collision (default 0); bound_mass, bound_inertia
      % (kg, kg m^2; default 0: no bound; MuJoCo's boundmass/boundinertia); srdf_path (an
      % SRDF file) or srdf (SRDF text) whose <disable_collisions> pairs never collide;
      % world_meshes_as_trimesh (default 0): the meshes of links fixed to the world are
      % triangle meshes, not hulls; warnings: one per line
      names = {'floating', 'merge_fixed', 'joint_limits', 'collision', 'ground_plane', 'self_collision', 'bound_mass', 'bound_inertia', 'world_meshes_as_trimesh'};
      o = [0 1 1 0 0 0 0 0 0];
      srdf_path = '';
      srdf = '';
      for k = 1:2:numel(varargin)
        if strcmp(varargin{k}, 'srdf_path')
          srdf_path = varargin{k + 1};
          continue;
        elseif strcmp(varargin{k}, 'srdf')
          srdf = varargin{k + 1};
          continue;
        end
        i = find(strcmp(names, varargin{k}));
        if isempty(i)
          error('maxdyn:arguments', 'unknown URDF option %s', varargin{k});
        end
        if i <= 6 || i == 9
          o(i) = double(logical(varargin{k + 1}));
        else
          o(i) = double(varargin{k + 1});
        end
      end
      [h, warnings] = maxdyn_mex('builder_from_urdf_with', path, o, srdf_path, srdf);
      obj = MaxdynBuilder(h);
    end
  end
end
