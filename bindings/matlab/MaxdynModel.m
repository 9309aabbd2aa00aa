classdef MaxdynModel < MaxdynHandle
  % A compiled mechanism (wraps maxdyn_model). The builder may be deleted afterwards;
  % sims keep the model alive inside the library.
  methods
    function obj = MaxdynModel(builder)
      obj.handle = maxdyn_mex('model_new', builder.handle);
    end
    function n = bodyCount(obj)
      n = maxdyn_mex('model_body_count', obj.handle);
    end
    function n = jointCount(obj)
      n = maxdyn_mex('model_joint_count', obj.handle);
    end
    function n = jointDof(obj, joint)
      n = maxdyn_mex('model_joint_dof', obj.handle, joint);
    end
    function [nq, nv, nu] = dimensions(obj)
      % configuration entries (7 per floating base: position, quaternion w x y z; then
      % every joint's coordinates), generalized velocities (6 per base, then the joints'),
      % joint inputs. A floating base is a body no joint places.
      [nq, nv, nu] = maxdyn_mex('model_dimensions', obj.handle);
    end
    % names (ids by name: the lowest id if several share it) and structure
    function s = bodyName(obj, body)
      s = maxdyn_mex('model_body_name', obj.handle, body);
    end
    function s = jointName(obj, joint)
      s = maxdyn_mex('model_joint_name', obj.handle, joint);
    end
    function s = frameName(obj, frame)
      s = maxdyn_mex('model_frame_name', obj.handle, frame);
    end
    function id = findBody(obj, name)
      id = maxdyn_mex('model_find_body', obj.handle, name);
    end
    function id = findJoint(obj, name)
      id = maxdyn_mex('model_find_joint', obj.handle, name);
    end
    function id = findFrame(obj, name)
      id = maxdyn_mex('model_find_frame', obj.handle, name);
    end
    function t = jointType(obj, joint)
      t = maxdyn_mex('model_joint_type', obj.handle, joint);   % a MaxdynJoint constant
    end
    function p = jointParent(obj, joint)
      p = maxdyn_mex('model_joint_parent', obj.handle, joint); % MaxdynJoint.WORLD for the world
    end
    function c = jointChild(obj, joint)
      c = maxdyn_mex('model_joint_child', obj.handle, joint);
    end
    function m = bodyMass(obj, body)
      m = maxdyn_mex('model_body_mass', obj.handle, body);
    end
    function J = bodyInertia(obj, body)
      J = maxdyn_mex('model_body_inertia', obj.handle, body);  % 3x3 about the COM, body frame
    end
    function n = frameCount(obj)
      n = maxdyn_mex('model_frame_count', obj.handle);
    end
    function b = frameBody(obj, frame)
      b = maxdyn_mex('model_frame_body', obj.handle, frame);
    end
    function p = framePose(obj, frame)
      p = maxdyn_mex('model_frame_pose', obj.handle, frame);   % [x y z qw qx qy qz]' in its body
    end
    function n = limitCount(obj)
      n = maxdyn_mex('model_limit_count', obj.handle);
    end
    function [lower, upper] = jointLimits(obj, joint)
      [lower, upper] = maxdyn_mex('model_joint_limits', obj.handle, joint);
    end
    function n = mimicCount(obj)
      n = maxdyn_mex('model_mimic_count', obj.handle);
    end
    function r = mimic(obj, id)
      r = maxdyn_mex('model_mimic', obj.handle, id);           % [follower leader multiplier offset]
    end
    % --- collision shapes (docs/COLLISION.md)
    function n = shapeCount(obj)
      n = maxdyn_mex('model_shape_count', obj.handle);
    end
    function [type, body, pose, params] = shape(obj, id)
      % type MaxdynBuilder.SHAPE_*, body (-1: the world), pose [x y z qw qx qy qz]', params
      [type, body, pose, params] = maxdyn_mex('model_shape', obj.handle, id);
    end
    function [mu, group, mask] = shapeSurface(obj, id)
      % friction coefficient and collision filter
      [mu, group, mask] = maxdyn_mex('model_shape_surface', obj.handle, id);
    end
    function yes = shapesMayCollide(obj, a, b)
      % whether two shapes may touch: filters, bodies, joints, excluded pairs (an SRDF's)
      yes = maxdyn_mex('model_shapes_may_collide', obj.handle, a, b) == 1;
    end
  end
end
