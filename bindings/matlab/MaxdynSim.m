classdef MaxdynSim < MaxdynHandle
  % One simulation of a model (wraps maxdyn_sim).
  %   s = MaxdynSim(model, 0.01); s.setJointPosition(0, pi/2); s.step(100);
  %   [k, p] = s.energy(); v = s.constraintViolation();
  properties (SetAccess = private)
    nBodies  % the model's body count
  end
  methods
    function obj = MaxdynSim(model, dt, handle)
      % MaxdynSim(model, dt); copy() passes the handle of a copy and its body count
      if nargin < 3
        obj.handle = maxdyn_mex('sim_new', model.handle, dt);
        obj.nBodies = model.bodyCount();
      else
        obj.handle = handle;
        obj.nBodies = dt;
      end
    end
    function step(obj, n)
      % n steps (default 1) in C; an error at the first failure (see stepCount)
      if nargin < 2
        n = 1;
      end
      maxdyn_mex('sim_step_n', obj.handle, n);
    end
    function t = dt(obj)
      t = maxdyn_mex('sim_dt', obj.handle);
    end
    function n = stepCount(obj)
      n = maxdyn_mex('sim_step_count', obj.handle);
    end
    function X = bodyStates(obj)
      % 13 x nBodies, one column per body (as bodyState)
      X = maxdyn_mex('sim_get_body_states', obj.handle, obj.nBodies);
    end
    function setBodyStates(obj, X)
      % X: 13 x nBodies; all or nothing
      maxdyn_mex('sim_set_body_states', obj.handle, X);
    end
    function t = contactTolerance(obj)
      t = maxdyn_mex('sim_contact_tolerance', obj.handle);
    end
    function setContactTolerance(obj, t)
      maxdyn_mex('sim_set_contact_tolerance', obj.handle, t);
    end
    function m = contactMargin(obj)
      m = maxdyn_mex('sim_contact_margin', obj.handle);
    end
    function setContactMargin(obj, m)
      maxdyn_mex('sim_set_contact_margin', obj.handle, m);
    end
    function r = constraintRank(obj)
      % [rows rank redundant dof] of the joint constraints at the current state
      r = maxdyn_mex('sim_constraint_rank', obj.handle);
    end
    function e = springEnergy(obj)
      e = maxdyn_mex('sim_spring_energy', obj.handle);
    end
    function n = limitCount(obj)
      n = maxdyn_mex('sim_limit_count', obj.handle);
    end
    function l = limit(obj, id)
      % 5x1: coordinate, lower, upper, violation, force of the last step
      l = maxdyn_mex('sim_limit', obj.handle, id);
    end
    function v = limitViolation(obj)
      v = maxdyn_mex('sim_limit_violation', obj.handle);
    end
    function v = mimicViolation(obj)
      v = maxdyn_mex('sim_mimic_violation', obj.handle);
    end
    function t = time(obj)
      t = maxdyn_mex('sim_time', obj.handle);
    end
    function s = bodyState(obj, body)
      % 13x1: x(3) q(4: w,x,y,z) v(3, world) omega(3, body frame)
      s = maxdyn_mex('sim_get_body_state', obj.handle, body);
    end
    function setBodyState(obj, body, s)
      maxdyn_mex('sim_set_body_state', obj.handle, body, s);
    end
    function setBodyForce(obj, body, force, torque)
      maxdyn_mex('sim_set_body_force', obj.handle, body, force, torque);
    end
    function q = jointPosition(obj, joint)
      q = maxdyn_mex('sim_get_joint_position', obj.handle, joint);
    end
    function v = jointVelocity(obj, joint)
      v = maxdyn_mex('sim_get_joint_velocity', obj.handle, joint);
    end
    function setJointPosition(obj, joint, q)
      maxdyn_mex('sim_set_joint_position', obj.handle, joint, q);
    end
    function setJointVelocity(obj, joint, v)
      maxdyn_mex('sim_set_joint_velocity', obj.handle, joint, v);
    end
    function c = contact(obj, contact)
      % 5x1: gap, normal force, friction force (3, world frame) of the last step
      c = maxdyn_mex('sim_get_contact', obj.handle, contact);
    end
    function x = state(obj)
      % the exact state (opaque column), for setState on this sim or a fresh one
      x = maxdyn_mex('sim_state', obj.handle);
    end
    function setState(obj, x)
      maxdyn_mex('sim_set_state', obj.handle, x);
    end
    function r = record(obj, path)
      % a recording of this sim for the viewer at path (a MaxdynRecorder)
      r = MaxdynRecorder(obj, path);
    end
    function c = copy(obj)
      % an independent sim at the same exact state
      c = MaxdynSim([], obj.nBodies, maxdyn_mex('sim_copy', obj.handle));
    end
    function p = framePose(obj, frame)
      % 7x1: world position, orientation (w x y z) of a named frame
      p = maxdyn_mex('sim_frame_pose', obj.handle, frame);
    end
    function J = frameJacobian(obj, frame, axes, coords)
      % 6 x m: twist (v, w) in axes (0 world, 1 local) w.r.t. coords (0 minimal, 1 maximal)
      J = maxdyn_mex('sim_frame_jacobian', obj.handle, frame, axes, coords);
    end
    function J = pointJacobian(obj, body, point, axes, coords)
      J = maxdyn_mex('sim_point_jacobian', obj.handle, body, point, axes, coords);
    end
    % whole-state vectors in minimal coordinates, one call each (docs/QUERIES.md)
    function [nq, nv, nu] = dimensions(obj)
      [nq, nv, nu] = maxdyn_mex('sim_dimensions', obj.handle);
    end
    function q = configuration(obj)
      % nq x 1: floating bases (position, quaternion w x y z), then every joint's coordinates
      q = maxdyn_mex('sim_configuration', obj.handle);
    end
    function setConfiguration(obj, q)
      % moves the whole robot, bases and joints, in one call; velocities kept
      maxdyn_mex('sim_set_configuration', obj.handle, q);
    end
    function v = generalizedVelocity(obj)
      % nv x 1: floating bases' twists in their own axes, then every joint's rates
      v = maxdyn_mex('sim_generalized_velocity', obj.handle);
    end
    function setGeneralizedVelocity(obj, v)
      maxdyn_mex('sim_set_generalized_velocity', obj.handle, v);
    end
    function u = jointInputs(obj)
      u = maxdyn_mex('sim_joint_inputs', obj.handle);
    end
    function [position, velocity] = jointTargets(obj)
      % every joint's servo target in joint-id order, nu x 1 each
      [position, velocity] = maxdyn_mex('sim_joint_targets', obj.handle);
    end
    function setJointTargets(obj, position, velocity)
      % every joint's servo target at once (nu each; rates zero if omitted); joints with
      % neither a spring nor a damper take 0
      if nargin < 3
        velocity = zeros(size(position));
      end
      maxdyn_mex('sim_set_joint_targets', obj.handle, position, velocity);
    end
    function setJointInputs(obj, u)
      % every joint's input at once, joint-id order; held until changed
      maxdyn_mex('sim_set_joint_inputs', obj.handle, u);
    end
    function M = massMatrix(obj)
      M = maxdyn_mex('sim_mass_matrix', obj.handle);
    end
    function b = biasForces(obj, qd)
      b = maxdyn_mex('sim_bias_forces', obj.handle, qd);
    end
    function tau = inverseDynamics(obj, qd, qdd)
      tau = maxdyn_mex('sim_inverse_dynamics', obj.handle, qd, qdd);
    end
    function B = inputDerivative(obj, coords)
      % nx x nu: d x_{k+1} / d u of one step (the sim is not advanced)
      B = maxdyn_mex('sim_input_derivative', obj.handle, coords);
    end
    function [nx, nu] = stateDimensions(obj, coords)
      % sizes of linearize's A (nx x nx) and B (nx x nu); coords as in linearize
      [nx, nu] = maxdyn_mex('sim_state_dimensions', obj.handle, MaxdynSim.coordsArg(coords));
    end
    function [A, B] = linearize(obj, coords)
      % one step x_{k+1} = f(x_k, u_k) from the current state and inputs (the sim is not
      % advanced): A = df/dx, B = df/du. coords 'minimal' (0): x = every joint's
      % positions then velocities, u = every joint's inputs (no kinematic loops);
      % 'maximal' (1): x = 13 numbers per body (bodyState), u = 6 wrench entries per body
      [A, B] = maxdyn_mex('sim_linearize', obj.handle, MaxdynSim.coordsArg(coords));
    end
    function [A, B] = linearizeDifferences(obj, coords, h)
      % linearize by central differences of whole steps with step h
      [A, B] = maxdyn_mex('sim_linearize_differences', obj.handle, MaxdynSim.coordsArg(coords), h);
    end
    function C = shapeContacts(obj)
      % 16 x n, a column per contact point between collision shapes of the last step:
      % shape a, shape b, body a, body b (-1: world), point (3), normal (3), gap,
      % normal force, friction force (3, world frame, on body a)
      C = maxdyn_mex('sim_shape_contacts', obj.handle);
    end
    function setJointInput(obj, joint, u)
      % force/torque per free direction; holds until changed
      maxdyn_mex('sim_set_joint_input', obj.handle, joint, u);
    end
    function u = jointInput(obj, joint)
      u = maxdyn_mex('sim_get_joint_input', obj.handle, joint);
    end
    function setJointTarget(obj, joint, position, velocity)
      % servo target of a joint with a spring or a damper: the spring pulls toward
      % `position`, the damper toward the rate `velocity` (zeros if omitted), damping
      % implicit in the step; holds until changed
      if nargin < 4
        velocity = zeros(size(position));
      end
      maxdyn_mex('sim_set_joint_target', obj.handle, joint, position, velocity);
    end
    function [position, velocity] = jointTarget(obj, joint)
      [position, velocity] = maxdyn_mex('sim_get_joint_target', obj.handle, joint);
    end
    function setBodyWrench(obj, body, force, torque, point)
      % world-frame force at body point `point`, body-frame torque
      maxdyn_mex('sim_set_body_wrench', obj.handle, body, force, torque, point);
    end
    function [work, dissipation] = energyAccount(obj)
      [work, dissipation] = maxdyn_mex('sim_energy_account', obj.handle);
    end
    function o = options(obj)
      % struct with the fields of maxdyn_solver_options (camelCase)
      v = maxdyn_mex('sim_options', obj.handle);
      o = struct('tolerance', v(1), 'maxIterations', v(2), 'acceptance', v(3), ...
                 'contactTolerance', v(4), 'maxSplits', v(5), ...
                 'contactPredictorCorrector', v(6), 'contactMargin', v(7), ...
                 'contactWarmStart', v(8), 'jointTolerance', v(9), 'integrator', v(10));
    end
    function setOptions(obj, o)
      % o: a struct as returned by options(); fields left out keep their values
      c = obj.options();
      names = fieldnames(o);
      for k = 1:numel(names)
        if ~isfield(c, names{k})
          error('maxdyn:arguments', 'no solver option named %s', names{k});
        end
        c.(names{k}) = o.(names{k});
      end
      maxdyn_mex('sim_set_options', obj.handle, [c.tolerance; c.maxIterations; c.acceptance; ...
                 c.contactTolerance; c.maxSplits; c.contactPredictorCorrector; c.contactMargin; ...
                 c.contactWarmStart; c.jointTolerance; c.integrator]);
    end
    function s = stepStats(obj)
      % struct with the fields of maxdyn_step_stats
      v = maxdyn_mex('sim_step_stats', obj.handle);
      s = struct('iterations', v(1), 'residual', v(2), 'stalled', v(3), ...
                 'lineSearchHalvings', v(4), 'contacts', v(5), 'activeContacts', v(6), ...
                 'complementarity', v(7), 'fallback', v(8), 'substeps', v(9), ...
                 'trescaRounds', v(10), 'coldRestarts', v(11), 'relaxed', v(12));
    end
    function [k, p] = energy(obj)
      [k, p] = maxdyn_mex('sim_energy', obj.handle);
    end
    function v = constraintViolation(obj)
      v = maxdyn_mex('sim_constraint_violation', obj.handle);
    end
    function [j, v] = jointViolation(obj)
      % The joint most violated now (-1 when every joint holds exactly) and its largest
      % constraint value; a step refuses to start beyond 1e-6 (MAXDYN_JOINT_TOLERANCE).
      [j, v] = maxdyn_mex('sim_joint_violation', obj.handle);
    end
    function v = assemble(obj)
      % Places every body so that every joint holds; returns the violation removed.
      v = maxdyn_mex('sim_assemble', obj.handle);
    end
  end
  methods (Static, Access = private)
    function c = coordsArg(coords)
      % 'minimal' -> 0, 'maximal' -> 1; numbers pass through (the library checks them)
      if ischar(coords)
        c = find(strcmp(coords, {'minimal', 'maximal'})) - 1;
        if isempty(c)
          error('maxdyn:coords', 'coords must be ''minimal'' or ''maximal'', got ''%s''', coords);
        end
      else
        c = coords;
      end
    end
  end
end
